// The colliders' balls over a substep (colliders/collider_reach.h) let the per-particle loops skip the far
// colliders. A skipped collider must be one the loop would have found out of reach, so that every pass
// gives the same result to the bit with the balls as without: the wall faces (the density, pressure force
// and continuity terms), the check for walls within the lateral term's reach, and the swept contacts of a
// moving particle. Points are placed just inside and just outside each ball's threshold, along the
// directions where the shapes reach furthest, at both ends and the middle of the substep, for moving and
// spinning shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "colliders/collider_reach.h"
#include "solvers/fluid_common.h"
#include "solvers/wall_kernel.h"

namespace eddy {
namespace {

using namespace cpu;

constexpr Real kSpacing = 0.02f, kRho0 = 1000;

template <class T>
bool sameBits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

struct Scene {
  std::vector<ColliderData> colliders;
  std::vector<ColliderBall> balls;
  Real t0 = 0.25f, dt = 0.004f;
  WallKernel wall;
  Real h = 2 * kSpacing;

  Scene() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1, 1);
    const char* types[] = {"box", "sphere", "capsule", "cylinder"};
    for (int i = 0; i < 16; ++i) {
      ColliderDesc d;
      d.shape.type = types[i % 4];
      d.shape.center = {0.5f + 0.35f * u(rng), 0.5f + 0.35f * u(rng), 0.5f + 0.35f * u(rng)};
      d.shape.halfExtents = {0.02f + 0.06f * std::fabs(u(rng)), 0.02f + 0.06f * std::fabs(u(rng)),
                             0.02f + 0.06f * std::fabs(u(rng))};
      d.shape.radius = 0.02f + 0.06f * std::fabs(u(rng));
      d.shape.halfHeight = 0.02f + 0.06f * std::fabs(u(rng));
      d.shape.rotation = {u(rng) * 180, u(rng) * 180, u(rng) * 180};
      ColliderData c = makeColliderData(d);
      // fast, as a body a wave throws, and a few at rest
      if (i % 5 != 4) {
        c.linearVelocity = {u(rng) * 3, u(rng) * 3, u(rng) * 3};
        c.angularVelocity = {u(rng) * 8, u(rng) * 8, u(rng) * 8};
      }
      c.turned = true;
      colliders.push_back(c);
    }
    ColliderData plane;  // always visited
    plane.kind = ShapeKind::Plane;
    plane.center = {0, 0.1f, 0};
    colliders.push_back(plane);
    colliders.push_back(makeDomainContainer(DomainDesc{{0, 0, 0}, {1, 1, 1}}));
    for (const ColliderData& c : colliders) balls.push_back(makeColliderBall(c, t0, t0 + dt));
    SphKernels k = SphKernels::make(h);
    wall = WallKernel::make(k, kSpacing, kRho0 * kSpacing * kSpacing * kSpacing, kRho0);
  }
  int n() const { return int(colliders.size()); }

  // points near the threshold of each obstacle's ball for `reach`, where the shape reaches furthest at a
  // time of the window: a box's corners, a capsule's tips, a cylinder's rim, any direction for a sphere
  std::vector<Vec3> thresholdPoints(Real reach, std::mt19937& rng) const {
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<Vec3> out;
    for (const ColliderData& c : colliders) {
      Real bound = obstacleBound(c);
      if (bound < 0) continue;
      for (Real t : {t0, t0 + dt / 2, t0 + dt}) {
        Quat q = colliderOrientation(c, t);
        Vec3 center = colliderCenter(c, t);
        for (int k = 0; k < 8; ++k) {
          Vec3 s{k & 1 ? Real(-1) : Real(1), k & 2 ? Real(-1) : Real(1), k & 4 ? Real(-1) : Real(1)};
          Vec3 dir{u(rng), u(rng), u(rng)};
          if (c.kind == ShapeKind::Box)
            dir = Vec3{s.x * c.halfExtents.x, s.y * c.halfExtents.y, s.z * c.halfExtents.z};
          if (c.kind == ShapeKind::Capsule) dir = Vec3{0, s.y, 0};
          if (c.kind == ShapeKind::Cylinder) dir = Vec3{s.x * c.radius, s.y * c.halfHeight, 0};
          dir = dir / length(dir);
          // from just within reach of the shape to just beyond the ball's threshold
          for (Real f : {Real(0.98), Real(0.999), Real(1.001), Real(1.02), Real(1.2)}) {
            Real r = bound + reach * f;
            out.push_back(center + rotate(q, dir * r));
          }
          // and just outside the ball itself
          const ColliderBall& b = balls[std::size_t(&c - colliders.data())];
          out.push_back(b.center +
                        dir * ((b.radius + reach) * Real(1.001) / std::sqrt(b.keep2) + Real(1e-4)));
        }
      }
    }
    return out;
  }
};

TEST(ColliderReach, BallsOnlyForObstaclesWithABound) {
  Scene s;
  for (int c = 0; c < s.n(); ++c)
    EXPECT_EQ(s.balls[std::size_t(c)].radius < 0, obstacleBound(s.colliders[std::size_t(c)]) < 0) << c;
  // the mask of a point far from everything keeps only the plane and the tank, and any collider past 32
  std::uint32_t near = collidersNear(s.balls.data(), s.n(), Vec3{50, 50, 50}, s.h);
  for (int c = 0; c < 40; ++c) EXPECT_EQ(colliderVisited(near, c), c >= s.n() - 2) << c;
  EXPECT_EQ(collidersNear(nullptr, s.n(), Vec3{50, 50, 50}, s.h), kEveryCollider);
}

// the wall faces with the balls' mask equal those of every collider, to the bit
TEST(ColliderReach, WallFacesWithTheMaskEqualEveryCollider) {
  Scene s;
  std::mt19937 rng(3);
  std::vector<Vec3> points = s.thresholdPoints(s.h, rng);
  int skipped = 0, seenAtTheEdge = 0;
  for (Vec3 x : points)
    for (Real t : {s.t0, s.t0 + s.dt / 2, s.t0 + s.dt}) {
      std::uint32_t near = collidersNear(s.balls.data(), s.n(), x, s.h);
      for (int c = 0; c < s.n(); ++c) skipped += !colliderVisited(near, c);
      Real m0 = 0, m1 = 0;
      Vec3 g0{}, g1{};
      s.wall.accumulate(s.colliders.data(), s.n(), x, t, m0, g0);
      s.wall.accumulate(s.colliders.data(), s.n(), x, t, m1, g1, near);
      ASSERT_TRUE(sameBits(m0, m1) && sameBits(g0, g1)) << x.x << " " << x.y << " " << x.z << " t " << t;
      std::vector<float> all, masked;
      auto record = [](std::vector<float>& out) {
        return [&out](int c, Vec3 g, Vec3 at) {
          out.insert(out.end(), {float(c), g.x, g.y, g.z, at.x, at.y, at.z});
        };
      };
      s.wall.forEachWallShare(s.colliders.data(), s.n(), x, t, record(all));
      s.wall.forEachWallShare(s.colliders.data(), s.n(), x, t, record(masked), near);
      ASSERT_EQ(all.size(), masked.size());
      ASSERT_EQ(std::memcmp(all.data(), masked.data(), all.size() * sizeof(float)), 0);
      seenAtTheEdge += !all.empty();
      for (Real reach : {s.h / 2, s.h})
        ASSERT_EQ(s.wall.anyWithin(s.colliders.data(), s.n(), x, t, reach),
                  s.wall.anyWithin(s.colliders.data(), s.n(), x, t, reach, near));
    }
  // both sides of the threshold were met: faces just within reach, and colliders skipped
  EXPECT_GT(seenAtTheEdge, 1000);
  EXPECT_GT(skipped, 10000);
}

// a particle moved through the colliders with the balls' masks ends where it does without, to the bit:
// paths that end just short of a shape, cross its corner, and pass just outside a ball
TEST(ColliderReach, SweptContactsWithTheMaskEqualEveryCollider) {
  Scene s;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1, 1);
  Real r = kSpacing / 2, t1 = s.t0 + s.dt;
  int moved = 0, skipped = 0;
  for (Vec3 x : s.thresholdPoints(r + 0.02f, rng))
    for (int k = 0; k < 4; ++k) {
      // toward the nearest obstacle's centre or anywhere, up to 5 m/s (0.02 m in the substep)
      Vec3 v = Vec3{u(rng), u(rng), u(rng)} * Real(5);
      if (k < 2) {
        Real best = 1e30f;
        for (const ColliderData& c : s.colliders)
          if (obstacleBound(c) >= 0 && length(colliderCenter(c, t1) - x) < best) {
            best = length(colliderCenter(c, t1) - x);
            v = (colliderCenter(c, t1) - x) * (Real(k + 1) * Real(2.5) / best);
          }
      }
      Vec3 x0 = x, v0 = v, x1 = x, v1 = v;
      moveThroughColliders(s.colliders.data(), s.n(), x0, v0, r, t1, s.dt);
      moveThroughColliders(s.colliders.data(), s.n(), x1, v1, r, t1, s.dt, s.balls.data());
      ASSERT_TRUE(sameBits(x0, x1) && sameBits(v0, v1)) << x.x << " " << x.y << " " << x.z;
      moved += !sameBits(x0, Vec3(x + v * s.dt));
      std::uint32_t near = collidersNear(s.balls.data(), s.n(), x, r + length(v * s.dt));
      for (int c = 0; c < s.n(); ++c) skipped += !colliderVisited(near, c);
    }
  EXPECT_GT(moved, 500);  // contacts met
  EXPECT_GT(skipped, 10000);
}

}  // namespace
}  // namespace eddy
