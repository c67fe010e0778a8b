// The far-collider early-outs of the per-particle loops (clearOf, pathClearOf in colliders/collider.h) must
// skip only colliders the loop would have found out of reach: a skipped collider's signed distance is at
// least the reach, and a skipped sweep finds no contact. Points are placed in a thin shell around the
// skip threshold, along the directions where each shape reaches furthest (a box's corners, a capsule's
// tips, a cylinder's rims), for turned, moving and spinning shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "colliders/collider.h"

using namespace eddy;

namespace {

ColliderData shape(const char* type, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1, 1);
  ColliderDesc d;
  d.shape.type = type;
  d.shape.center = {u(rng) * 2, u(rng) * 2, u(rng) * 2};
  d.shape.halfExtents = {0.05f + 0.2f * std::fabs(u(rng)), 0.05f + 0.2f * std::fabs(u(rng)),
                         0.05f + 0.2f * std::fabs(u(rng))};
  d.shape.radius = 0.05f + 0.2f * std::fabs(u(rng));
  d.shape.halfHeight = 0.05f + 0.2f * std::fabs(u(rng));
  d.shape.rotation = {u(rng) * 180, u(rng) * 180, u(rng) * 180};
  ColliderData c = makeColliderData(d);
  c.linearVelocity = {u(rng) * 3, u(rng) * 3, u(rng) * 3};
  c.angularVelocity = {u(rng) * 8, u(rng) * 8, u(rng) * 8};
  c.turned = true;
  return c;
}

// a unit direction, in the shape's local frame, toward where it reaches furthest, or a random one
Vec3 farthestDirection(const ColliderData& c, int k, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1, 1);
  Vec3 s{k & 1 ? Real(-1) : Real(1), k & 2 ? Real(-1) : Real(1), k & 4 ? Real(-1) : Real(1)};
  Vec3 d{u(rng), u(rng), u(rng)};
  if (k < 8) {
    switch (c.kind) {
      case ShapeKind::Box:
        d = Vec3{s.x * c.halfExtents.x, s.y * c.halfExtents.y, s.z * c.halfExtents.z};
        break;
      case ShapeKind::Capsule:
        d = Vec3{0, s.y, 0};
        break;
      case ShapeKind::Cylinder:
        d = Vec3{s.x * c.radius * Real(0.6), s.y * c.halfHeight, s.z * c.radius * Real(0.8)};
        break;
      default:
        break;
    }
  }
  return d / length(d);
}

}  // namespace

TEST(ColliderClearance, SkipsOnlyCollidersOutOfReach) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0, 1);
  const char* types[] = {"box", "sphere", "capsule", "cylinder"};
  int skipped = 0, kept = 0;
  for (const char* type : types)
    for (int trial = 0; trial < 200; ++trial) {
      ColliderData c = shape(type, rng);
      Real t = 3 * u(rng), reach = 0.002f + 0.05f * u(rng);
      Real bound = obstacleBound(c);
      ASSERT_GT(bound, 0) << type;
      Quat q = colliderOrientation(c, t);
      Vec3 center = colliderCenter(c, t);
      for (int k = 0; k < 16; ++k) {
        // local point at the farthest reach of the shape plus the reach, give or take a hair
        Vec3 dir = farthestDirection(c, k, rng);
        Real r = bound + reach + (u(rng) - Real(0.5)) * Real(2e-3);
        Vec3 p = center + rotate(q, dir * r);
        Real d = signedDistance(c, p, t, nullptr);
        if (clearOf(c, p, t, reach)) {
          ++skipped;
          EXPECT_GE(d, reach) << type << " trial " << trial << " direction " << k;
        } else {
          ++kept;
        }
      }
    }
  // both sides of the threshold were sampled, so the test bites
  EXPECT_GT(skipped, 500);
  EXPECT_GT(kept, 1000);
}

TEST(ColliderClearance, NeverSkipsPlanesOrContainers) {
  ColliderDesc plane;
  plane.shape.type = "plane";
  EXPECT_FALSE(clearOf(makeColliderData(plane), {0, 100, 0}, 0, 0.01f));
  ColliderDesc tank;
  tank.shape.type = "box";
  tank.container = true;
  ColliderData c = makeColliderData(tank);
  EXPECT_LT(obstacleBound(c), 0);
  EXPECT_FALSE(clearOf(c, {100, 0, 0}, 0, 0.01f));
  EXPECT_FALSE(pathClearOf(c, {100, 0, 0}, {100, 0, 0.01f}, 0.01f, 0, 0.001f));
}

TEST(ColliderClearance, SkippedSweepsFindNoContact) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(0, 1), s(-1, 1);
  const char* types[] = {"box", "sphere", "capsule", "cylinder"};
  int skipped = 0, kept = 0;
  for (const char* type : types)
    for (int trial = 0; trial < 200; ++trial) {
      ColliderData c = shape(type, rng);
      // fast spins too, where the turn of the frame over the substep moves the path most
      if (trial % 2) c.angularVelocity *= Real(10);
      Real t = 0.01f + 3 * u(rng), dt = 0.001f + 0.01f * u(rng), r = 0.002f + 0.02f * u(rng);
      Real t0 = t - dt;
      Real bound = obstacleBound(c);
      for (int k = 0; k < 16; ++k) {
        // a path from just beyond the threshold, aimed at the shape's centre (at t) or anywhere
        Vec3 dir = farthestDirection(c, k, rng);
        Real step = 0.1f * u(rng);
        Vec3 from = colliderCenter(c, t0) +
                    rotate(colliderOrientation(c, t0), dir) * (bound + r + step * (1 + 0.2f * u(rng)));
        Vec3 aim = k % 2 ? colliderCenter(c, t) - from : Vec3{s(rng), s(rng), s(rng)};
        Vec3 to = from + aim / length(aim) * step;
        Vec3 a = colliderToLocal(c, from, t0), b = colliderToLocal(c, to, t);
        PathContact hit;
        bool contact = firstContact(c, a, b, r, hit);
        if (pathClearOf(c, from, to, r, t, dt)) {
          ++skipped;
          EXPECT_FALSE(contact) << type << " trial " << trial << " path " << k;
          Vec3 moved = to;
          EXPECT_FALSE(sweepToContact(c, from, moved, r, t, dt));
        } else {
          ++kept;
        }
      }
    }
  EXPECT_GT(skipped, 300);
  EXPECT_GT(kept, 300);
}
