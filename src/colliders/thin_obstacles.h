// Thin obstacles between SPH neighbours (host and device).
//
// Particles stay a radius clear of every obstacle, so two of them on opposite sides of one are at least
// its thickness plus a diameter apart: only an obstacle thinner than the kernel support h separates
// neighbours, whose densities and pressures would then act through it. The neighbour search drops a pair
// whose segment enters such a barrier. (Pairs around a thicker obstacle's corner still clip its solid,
// but both particles face the same fluid there.)
#pragma once

#include "colliders/collider.h"

namespace eddy {

// the thinnest extent of an obstacle's solid; a plane's is unbounded
EDDY_HD inline Real shapeThickness(const ColliderData& c) {
  switch (c.kind) {
    case ShapeKind::Plane:
      return Real(1e30);
    case ShapeKind::Mesh:  // a shell's thickness; a closed mesh's thin parts are left to the swept contact
      return c.field.shell > 0 ? c.field.shell : Real(1e30);
    case ShapeKind::Box:
      return 2 * fminf(c.halfExtents.x, fminf(c.halfExtents.y, c.halfExtents.z));
    case ShapeKind::Cylinder:
      return 2 * fminf(c.radius, c.halfHeight);
    default:
      return 2 * c.radius;
  }
}

// whether obstacle c must be checked between neighbours closer than h
EDDY_HD inline bool isBarrier(const ColliderData& c, Real h) { return !c.container && shapeThickness(c) < h; }

// whether the segment between two world points outside obstacle c passes through it at time t (the same
// answer from either end up to round-off, so callers pass the ends in a fixed order). A pair with an end
// inside the solid is left alone: that particle is pushed out by the contact response of this substep,
// and cut off from every neighbour meanwhile it would have no density at all.
EDDY_HD inline bool segmentEntersObstacle(const ColliderData& c, Vec3 a, Vec3 b, Real t) {
  Vec3 la = colliderToLocal(c, a, t), lb = colliderToLocal(c, b, t);
  if (!(shapeDistance(c, la) > 0 && shapeDistance(c, lb) > 0)) return false;
  PathContact hit;
  return firstContact(c, la, lb, 0, hit);
}

}  // namespace eddy
