// <eddy/collider_shapes.h>: the colliders' shapes and motions as the simulation builds them (colliders/),
// handed out as plain descriptions.
#include <eddy/collider_shapes.h>
#include <eddy/error.h>

#include <string>

#include "colliders/collider.h"
#include "colliders/mesh_shape.h"

namespace eddy {

struct ColliderShapes::Motions {
  std::vector<std::vector<ColliderKeyframe>> keyframes;  // what each ColliderData's keyframes point at
  std::vector<ColliderData> poses;
};

ColliderShapes::ColliderShapes(const SimulationDesc& scene) : motions_(std::make_unique<Motions>()) {
  const std::size_t n = scene.colliders.size();
  motions_->keyframes.reserve(n);  // the poses point into these: no reallocation
  for (std::size_t i = 0; i < n; ++i) {
    const ColliderDesc& d = scene.colliders[i];
    motions_->keyframes.push_back(makeColliderKeyframes(d));
    const auto& frames = motions_->keyframes.back();
    ColliderData c = makeColliderData(d, frames.empty() ? nullptr : frames.data());
    ColliderShape s;
    s.container = d.container;
    s.halfExtents = c.halfExtents;
    s.radius = c.radius;
    s.halfHeight = c.halfHeight;
    s.normal = c.normal;
    switch (c.kind) {
      case ShapeKind::Plane:
        s.kind = ColliderShape::Kind::Plane;
        break;
      case ShapeKind::Box:
        s.kind = ColliderShape::Kind::Box;
        break;
      case ShapeKind::Sphere:
        s.kind = ColliderShape::Kind::Sphere;
        break;
      case ShapeKind::Capsule:
        s.kind = ColliderShape::Kind::Capsule;
        break;
      case ShapeKind::Cylinder:
        s.kind = ColliderShape::Kind::Cylinder;
        break;
      case ShapeKind::Mesh: {
        s.kind = ColliderShape::Kind::Mesh;
        PlacedMesh placed = placeMesh(shapeAtStart(d), c.orientation,
                                      scene.sourcePath + ": /colliders/" + std::to_string(i) + "/shape");
        c.center = placed.translation;  // the mesh's origin, about which it turns
        s.mesh = std::move(placed.mesh);
        break;
      }
    }
    shapes_.push_back(std::move(s));
    motions_->poses.push_back(c);
  }
}

ColliderShapes::~ColliderShapes() = default;

std::size_t ColliderShapes::size() const { return shapes_.size(); }

const ColliderShape& ColliderShapes::shape(std::size_t collider) const { return shapes_.at(collider); }

ColliderPose ColliderShapes::pose(std::size_t collider, double time) const {
  const ColliderData& c = motions_->poses.at(collider);
  ColliderPose p;
  p.center = colliderCenter(c, Real(time));
  p.orientation = colliderOrientation(c, Real(time));
  return p;
}

}  // namespace eddy
