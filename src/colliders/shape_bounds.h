// World-space axis-aligned bounds of a collider's shape (host and device).
#pragma once

#include "colliders/collider.h"

namespace eddy {

// world-space axis-aligned bounds of the shape at time 0 (a keyframed collider's first pose; a plane is
// unbounded: returns false)
EDDY_HD inline bool shapeBounds(const ColliderData& c, Vec3* lo, Vec3* hi) {
  Vec3 ex{1, 0, 0}, ey{0, 1, 0}, ez{0, 0, 1};
  Vec3 ax = rotate(c.orientation, ex), ay = rotate(c.orientation, ey), az = rotate(c.orientation, ez);
  Vec3 e{};
  switch (c.kind) {
    case ShapeKind::Plane:
      return false;
    case ShapeKind::Box:
      e = cwiseAbs(ax) * c.halfExtents.x + cwiseAbs(ay) * c.halfExtents.y + cwiseAbs(az) * c.halfExtents.z;
      break;
    case ShapeKind::Sphere:
      e = {c.radius, c.radius, c.radius};
      break;
    case ShapeKind::Capsule:
      e = cwiseAbs(ay) * c.halfHeight + Vec3{c.radius, c.radius, c.radius};
      break;
    case ShapeKind::Mesh: {
      // the field's box, turned
      Vec3 mid = (c.field.origin + c.field.upper()) * Real(0.5),
           half = (c.field.upper() - c.field.origin) * Real(0.5);
      e = cwiseAbs(ax) * half.x + cwiseAbs(ay) * half.y + cwiseAbs(az) * half.z;
      Vec3 at = c.center + rotate(c.orientation, mid);
      *lo = at - e;
      *hi = at + e;
      return true;
    }
    case ShapeKind::Cylinder: {
      // the cap discs span r sqrt(1 - a_i^2) along world axis i, written without the cancellation
      Vec3 a = ay;
      Vec3 disc{sqrtf(a.y * a.y + a.z * a.z), sqrtf(a.x * a.x + a.z * a.z), sqrtf(a.x * a.x + a.y * a.y)};
      e = cwiseAbs(a) * c.halfHeight + disc * c.radius;
      break;
    }
  }
  *lo = c.center - e;
  *hi = c.center + e;
  return true;
}

}  // namespace eddy
