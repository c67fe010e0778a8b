// Where each collider can be over one substep, as a ball, so that the per-particle collider loops skip the
// colliders far from a particle without reading their ColliderData (a few hundred bytes, read again by
// every loop of every pass). Worked out once a substep into a small array; a pass turns it into one mask
// of the colliders near its particle, and the loops visit only those.
//
// A ball never skips a collider the loop would have seen: it holds the collider's bounding ball
// (obstacleBound) wherever the collider is over [t0, t1], so a particle further than the ball's radius plus
// the loop's reach from it is further than the reach from the shape. What is skipped is then exactly what
// clearOf, pathClearOf or the distance itself would have found clear, so the results stay the same to the
// bit (tests/test_collider_reach.cpp compares the passes with and without the balls).
#pragma once

#include <cstdint>

#include "colliders/collider.h"

namespace eddy {

// center: the midpoint of the collider's centre at t0 and at t1; radius: its bounding ball's radius plus
// the centre's whole travel over the window (< 0: always visited: a plane, mesh, container or keyframed
// collider, or one that turns more than a fraction of a radian in the window); keep: 1 - the angle turned
// over the window (with the round-off slack of pathClearOf), by which a swept path's distance is scaled
struct ColliderBall {
  Vec3 center{};
  Real radius = -1;
  Real keep = 1;
};

EDDY_HD inline ColliderBall makeColliderBall(const ColliderData& c, Real t0, Real t1) {
  ColliderBall b;
  Real bound = obstacleBound(c);
  if (bound < 0 || c.keyframeCount > 0) return b;
  Vec3 c0 = colliderCenter(c, t0), c1 = colliderCenter(c, t1);
  Real w = length(c.angularVelocity);
  Real turn = w * (t1 - t0) + Real(1e-4) * (1 + w * fabsf(t1));
  if (!(turn < Real(0.5))) return b;
  b.center = (c0 + c1) * Real(0.5);
  // any point of the segment c0 c1 is within half its length of the midpoint; the whole length also
  // covers a swept path's relative motion (the collider's own travel over the window)
  b.radius = bound + 2 * length(c1 - c0);
  b.keep = 1 - turn;
  return b;
}

// whether every point within `reach` of x is outside the ball, with room for round-off (a thousandth of
// the distances, and clearOf's slack)
EDDY_HD inline bool outsideBall(const ColliderBall& b, Vec3 x, Real reach) {
  if (b.radius < 0) return false;
  Real far = b.radius + reach;
  far += Real(1e-3) * far + clearanceSlack(x, b.center, far);
  Vec3 d = x - b.center;
  Real d2 = dot(d, d) * (b.keep * b.keep);
  return d2 > far * far;
}

// The colliders (the first 32; any beyond are always visited, colliderVisited) that may come within reach of
// x over the window, as bits; every collider where there are no balls. reach: what the loop looks for (h
// for the wall faces; the particle's radius plus its path's length for a sweep).
EDDY_HD inline std::uint32_t collidersNear(const ColliderBall* balls, int n, Vec3 x, Real reach) {
  if (!balls) return kEveryCollider;
  std::uint32_t near = kEveryCollider;
  int m = n < 32 ? n : 32;
  for (int c = 0; c < m; ++c)
    if (outsideBall(balls[c], x, reach)) near &= ~(std::uint32_t(1) << c);
  return near;
}

}  // namespace eddy
