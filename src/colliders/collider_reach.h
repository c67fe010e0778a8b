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
// the centre's whole travel over the window, widened for round-off (< 0: always visited: a plane, a
// container or keyframed collider, or one that turns more than a fraction of a radian in the window);
// keep2: the square of 1 - the angle turned over the window (with the round-off slack of pathClearOf), by
// which a swept path's distance is scaled. 32 bytes, so that a pass reads one in two aligned loads.
struct alignas(16) ColliderBall {
  Vec3 center{};
  Real radius = -1;
  Real keep2 = 1;
  Real unused[3] = {};
};

// the widening of the radius and the reach for round-off: a thousandth of them, and clearOf's slack
// (clearanceSlack: 1e-4 of the magnitudes of the point, the centre and the distances)
constexpr Real kBallWidening = Real(1.0012);
constexpr Real kBallSlack = Real(1e-4);

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
  Vec3 a = cwiseAbs(b.center);
  b.radius = (bound + 2 * length(c1 - c0)) * kBallWidening + kBallSlack * (a.x + a.y + a.z);
  b.keep2 = (1 - turn) * (1 - turn);
  return b;
}

// the reach of a loop at x as collidersNear compares it, widened for round-off
EDDY_HD inline Real ballReach(Vec3 x, Real reach) {
  Vec3 a = cwiseAbs(x);
  return reach * kBallWidening + kBallSlack * (a.x + a.y + a.z);
}

// whether every point within the reach (ballReach) of x is outside the ball
EDDY_HD inline bool outsideBall(const ColliderBall& b, Vec3 x, Real widenedReach) {
  Vec3 d = x - b.center;
  Real far = b.radius + widenedReach;
  return b.radius >= 0 && dot(d, d) * b.keep2 > far * far;
}

// The colliders (the first 32; any beyond are always visited, colliderVisited) that may come within reach of
// x over the window, as bits; every collider where there are no balls. reach: what the loop looks for (h
// for the wall faces; the particle's radius plus its path's length for a sweep).
EDDY_HD inline std::uint32_t collidersNear(const ColliderBall* balls, int n, Vec3 x, Real reach) {
  if (!balls) return kEveryCollider;
  std::uint32_t near = kEveryCollider;
  Real widened = ballReach(x, reach);
  int m = n < 32 ? n : 32;
  for (int c = 0; c < m; ++c)
    if (outsideBall(balls[c], x, widened)) near &= ~(std::uint32_t(1) << c);
  return near;
}

}  // namespace eddy
