// What a scene makes once, before the first substep, and then only reads but for a collider moved by
// Simulation::moveCollider (the constant model beside the simulation's mutable data, as MuJoCo keeps
// mjModel beside mjData): the SPH kernels and the particle
// mass, the walls' tables, the colliders on the device with their keyframes, thin barriers and mesh
// distance fields, and the box outside which a particle has blown up. assembleScene also samples the
// volume emitters and checks that the run fits the memory.
#pragma once

#include <eddy/simulation_desc.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "backend/primitives.h"
#include "colliders/collider.h"
#include "colliders/mesh_sdf.h"
#include "colliders/shape_mass.h"
#include "core/buffer.h"
#include "core/sph_kernels.h"
#include "emitters/volume_emitter.h"
#include "solvers/wall_kernel.h"

namespace eddy::EDDY_NS {

struct SceneModel {
  SphKernels kernels;
  Real particleMass = 0;           // gives a particle inside a full lattice exactly the rest density
  WallKernel wall;                 // colliders seen as fluid at rest density
  Buffer<Real> wallOverlaps;       // the tables of walls meeting at edges and corners (WallKernel::overlaps)
  Buffer<ColliderData> colliders;  // the scene's colliders, then the domain as a container
  std::vector<ColliderData> hostColliders;      // colliders as uploaded (Simulation::moveCollider edits one)
  Buffer<ColliderData> barriers;                // the obstacles thinner than h, for the neighbour search
  Buffer<ColliderKeyframe> keyframes;           // the keyframed colliders' poses, read by colliders
  std::vector<ColliderKeyframe> hostKeyframes;  // the same on the host, each collider's from firstKeyframe
  std::vector<std::size_t> firstKeyframe;
  std::vector<std::unique_ptr<MeshSdf>> meshes;  // the fields the mesh colliders read
  std::vector<ShapeMass> shapeMasses;            // per scene collider: a rigid body's, empty for the others
  Vec3 blowUpLo{}, blowUpHi{};                   // a particle outside has blown up

  View<const ColliderData> colliderView() const { return {colliders.data(), colliders.size()}; }
  std::size_t meshBytes() const;
  std::size_t bytes() const;
};

// the volume emitters' particles, one entry per scene emitter (empty for a nozzle), and the most particles
// the run will hold (the volumes and every nozzle's max_particles)
// the most particles a simulation holds: particles are numbered by Index, and capacities grow by half
// again (the neighbour lists), so 2^30 keeps every count below 2^31
inline constexpr std::int64_t kMostParticles = std::int64_t(1) << 30;

struct InitialParticles {
  std::vector<EmittedParticles> volumes;
  std::int64_t budget = 0;
};

// Builds the model of `scene` and samples its volume emitters. Throws InputError naming the scene key for
// a scene that cannot run: a mesh that cannot be placed or indexed, emitters that make no particles, more
// particles than the memory holds or the engine can index.
void assembleScene(const SimulationDesc& scene, Primitives& prims, SceneModel& model,
                   InitialParticles& initial);

}  // namespace eddy::EDDY_NS
