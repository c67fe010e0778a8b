// What a user may change between frames, each checked before anything changes: a collider's steady motion,
// particles added to an emitter, and the pose a collider has now (for drawing it, or coupling it to
// another code).
#pragma once

#include <eddy/simulation.h>

#include <cstddef>
#include <vector>

#include "sim/rigid_bodies.h"
#include "sim/scene_model.h"

namespace eddy::EDDY_NS {

// the pose of scene collider i (not the domain) at time t (a rigid body's as it is now); throws
// RuntimeFailure for an index out of range
ColliderPose colliderPoseAt(const SceneModel& model, const RigidBodies& bodies, std::size_t i, Real t);
// the fluid's push on collider i over the last substep where it is a body, else zero
FluidLoad fluidLoadOn(const SceneModel& model, const RigidBodies& bodies, std::size_t i);

// collider i moves from time t on as center + velocity * (time - t), on the host and the device copy;
// throws RuntimeFailure for an index out of range, a keyframed collider, a thin barrier or a rigid body
void setColliderMotion(SceneModel& model, const RigidBodies& bodies, std::size_t i, Vec3 center,
                       Vec3 velocity, Real t);

// throws InputError, naming the particle, unless every particle is finite and inside the domain, there is
// one velocity per position, the emitter exists and the total stays within kMostParticles
void checkAddedParticles(const SimulationDesc& scene, const std::vector<Vec3>& position,
                         const std::vector<Vec3>& velocity, std::size_t emitter, std::int64_t present);

}  // namespace eddy::EDDY_NS
