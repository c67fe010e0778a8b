#include "sim/between_frames.h"

#include <eddy/error.h>

#include <cmath>
#include <string>

#include "colliders/thin_obstacles.h"

namespace eddy::EDDY_NS {

ColliderPose colliderPoseAt(const SceneModel& model, const RigidBodies& bodies, std::size_t i, Real t) {
  // the last entry is the domain, not a scene collider
  if (i + 1 >= model.hostColliders.size())
    throw RuntimeFailure("colliderPose: the scene has no collider " + std::to_string(i));
  if (bodies.isBody(i)) {
    // the shape's centre (a mesh's origin, which keys the mesh's transform) and its velocity
    RigidBody b = bodies.body(i);
    const Vec3 origin = shapeOrigin(b);
    return {origin, b.orientation, b.linearVelocity + cross(b.angularVelocity, origin - b.position),
            b.angularVelocity};
  }
  ColliderData c = model.hostColliders[i];
  // the device copy's keyframes live in device memory: evaluate the host's copy of them
  if (c.keyframeCount > 0) c.keyframes = model.hostKeyframes.data() + model.firstKeyframe[i];
  ColliderPose pose;
  pose.center = colliderCenter(c, t);
  pose.orientation = colliderOrientation(c, t);
  if (c.keyframeCount > 0) {
    KeyframeAt at = keyframeAt(c, t);
    pose.linearVelocity = at.moving ? at.frame->velocity : Vec3{};
    pose.angularVelocity = at.moving ? at.frame->spin : Vec3{};
  } else {
    pose.linearVelocity = c.linearVelocity;
    pose.angularVelocity = c.angularVelocity;
  }
  return pose;
}

FluidLoad fluidLoadOn(const SceneModel& model, const RigidBodies& bodies, std::size_t i) {
  if (i + 1 >= model.hostColliders.size())
    throw RuntimeFailure("fluidLoad: the scene has no collider " + std::to_string(i));
  if (!bodies.isBody(i)) return {};
  RigidBody b = bodies.body(i);
  return {b.fluidForce, b.fluidTorque};
}

void setColliderMotion(SceneModel& model, const RigidBodies& bodies, std::size_t i, Vec3 center,
                       Vec3 velocity, Real t) {
  if (i + 1 >= model.hostColliders.size())
    throw RuntimeFailure("moveCollider: the scene has no collider " + std::to_string(i));
  if (bodies.isBody(i))
    throw RuntimeFailure("moveCollider: collider " + std::to_string(i) +
                         " is a rigid body, moved by the fluid");
  ColliderData& c = model.hostColliders[i];
  if (c.keyframeCount > 0 || isBarrier(c, model.kernels.h))
    throw RuntimeFailure(
        "moveCollider: collider " + std::to_string(i) +
        (c.keyframeCount > 0 ? " follows keyframes" : " is thinner than the kernel support"));
  // colliders move as center + velocity * t over the simulation's clock
  c.center = center - velocity * t;
  c.linearVelocity = velocity;
  model.colliders.upload(&c, 1, i);
}

void checkAddedParticles(const SimulationDesc& scene, const std::vector<Vec3>& position,
                         const std::vector<Vec3>& velocity, std::size_t emitter, std::int64_t present) {
  if (position.size() != velocity.size())
    throw InputError("addParticles: " + std::to_string(position.size()) + " positions and " +
                     std::to_string(velocity.size()) + " velocities; give one of each per particle");
  if (emitter >= scene.emitters.size())
    throw InputError("addParticles: the scene has no emitter " + std::to_string(emitter) + " (it has " +
                     std::to_string(scene.emitters.size()) + ")");
  const Vec3 lo = scene.domain.min, hi = scene.domain.max;
  for (std::size_t i = 0; i < position.size(); ++i) {
    const Vec3 x = position[i], v = velocity[i];
    if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z) || !std::isfinite(v.x) ||
        !std::isfinite(v.y) || !std::isfinite(v.z))
      throw InputError("addParticles: particle " + std::to_string(i) + " has a value that is not finite");
    if (x.x < lo.x || x.y < lo.y || x.z < lo.z || x.x > hi.x || x.y > hi.y || x.z > hi.z)
      throw InputError("addParticles: particle " + std::to_string(i) + " at (" + std::to_string(x.x) + ", " +
                       std::to_string(x.y) + ", " + std::to_string(x.z) + ") is outside the domain");
  }
  if (present + std::int64_t(position.size()) > kMostParticles)
    throw InputError("addParticles: more than " + std::to_string(kMostParticles) + " particles in all");
}

}  // namespace eddy::EDDY_NS
