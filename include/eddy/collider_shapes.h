// The colliders of a scene as the simulation builds them: each one's shape in its own frame and where it is
// at a time (prescribed velocities and keyframes), without a simulation. For programs that draw the
// colliders (the renderer's scenery, under frames read from files as well as a live simulation).
#pragma once

#include <eddy/mesh.h>
#include <eddy/simulation.h>
#include <eddy/simulation_desc.h>
#include <eddy/vec3.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace eddy {

struct ColliderShape {
  enum class Kind { Plane, Box, Sphere, Capsule, Cylinder, Mesh };
  Kind kind = Kind::Box;
  Vec3 halfExtents{};      // Box: m
  Real radius = 0;         // Sphere, Capsule, Cylinder: m
  Real halfHeight = 0;     // Capsule, Cylinder: half the length of the axis (local y), m
  Vec3 normal{0, 1, 0};    // Plane: the side the fluid is on
  TriangleMesh mesh;       // Mesh: scaled and turned as the scene places it, about the collider's centre
  bool container = false;  // the fluid is inside (a tank)
};

class ColliderShapes {
 public:
  // Every collider of the scene, its mesh placed (the meshes the scene carries: loadScene, or
  // loadSceneMeshes for a scene made in code, read them). Throws InputError naming the collider's key
  // (scene.json: /colliders/N/shape) for a mesh that could not be read or is not closed, and for keyframes
  // the simulation refuses.
  explicit ColliderShapes(const SimulationDesc& scene);
  ~ColliderShapes();
  ColliderShapes(const ColliderShapes&) = delete;
  ColliderShapes& operator=(const ColliderShapes&) = delete;

  std::size_t size() const;
  // the collider's shape, in scene order; throws std::out_of_range for an index past size()
  const ColliderShape& shape(std::size_t collider) const;
  // where the collider is at the simulated time (s): its centre and orientation, as the simulation poses it
  // (velocities left zero); throws std::out_of_range for an index past size()
  ColliderPose pose(std::size_t collider, double time) const;

 private:
  struct Motions;
  std::vector<ColliderShape> shapes_;
  std::unique_ptr<Motions> motions_;
};

}  // namespace eddy
