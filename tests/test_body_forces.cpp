// The rigid bodies' force and torque sums (probes/body_forces.h) against a plain sum in double precision of
// the same per-particle shares, with bodies close enough that particles touch two and three of them; and a
// run with ten bodies repeats to the bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "probes/body_forces.h"
#include "test_support.h"

namespace eddy {
namespace {

using namespace cpu;

constexpr Real kSpacing = 0.02f, kRho0 = 1000;

ColliderData box(Vec3 center, Vec3 half) {
  ColliderData c;
  c.kind = ShapeKind::Box;
  c.center = center;
  c.halfExtents = half;
  return c;
}

ColliderData sphere(Vec3 center, Real radius) {
  ColliderData c;
  c.kind = ShapeKind::Sphere;
  c.center = center;
  c.radius = radius;
  return c;
}

template <class T>
Buffer<T> toBuffer(const std::vector<T>& v) {
  Buffer<T> b(kDevice, std::max<std::size_t>(v.size(), 1));
  b.upload(v.data(), v.size());
  return b;
}

// ten bodies in a unit tank, moving and turning, at t = 0.1 s: three in a row 0.03 m apart and three
// around one point (within h = 0.04 m of two and of three bodies), the others apart; a static obstacle
// between them that is no body, and the tank last
struct Bodies {
  std::vector<ColliderData> colliders;
  std::vector<int> slotOf;
  Real time = 0.1f;

  Bodies() {
    auto moving = [](ColliderData c, Vec3 v, Vec3 w, Vec3 turn) {
      c.linearVelocity = v;
      c.angularVelocity = w;
      c.orientation = quatFromRotationVector(turn);
      c.turned = true;
      c.center -= v * 0.1f;  // where it was at t = 0
      return c;
    };
    colliders = {
        moving(box({0.2f, 0.5f, 0.5f}, {0.05f, 0.05f, 0.05f}), {0.1f, 0, 0}, {0, 0, 0}, {0, 0, 0}),
        moving(box({0.33f, 0.5f, 0.5f}, {0.05f, 0.05f, 0.05f}), {0, 0.2f, 0}, {0, 0, 0}, {0, 0, 0}),
        moving(box({0.46f, 0.5f, 0.5f}, {0.05f, 0.05f, 0.05f}), {0, 0, 0}, {0.3f, 0, 0}, {0, 0, 0}),
        box({0.5f, 0.15f, 0.8f}, {0.1f, 0.05f, 0.05f}),  // no body
        moving(box({0.7f, 0.2f, 0.2f}, {0.05f, 0.05f, 0.08f}), {0, 0, 0}, {0, 0, 0}, {0, 0, 0}),
        moving(box({0.7f, 0.33f, 0.2f}, {0.05f, 0.05f, 0.08f}), {0, 0, 0.1f}, {0, 0, 0}, {0, 0, 0}),
        moving(box({0.83f, 0.2f, 0.2f}, {0.05f, 0.05f, 0.08f}), {0, 0, 0}, {0, 0, 0}, {0, 0, 0}),
        moving(sphere({0.5f, 0.28f, 0.8f}, 0.06f), {0, 0, 0}, {0, 2, 1}, {0, 0, 0}),
        moving(box({0.25f, 0.8f, 0.25f}, {0.08f, 0.03f, 0.05f}), {0.1f, 0, 0.1f}, {1, 0, 2}, {0.3f, 0.5f, 0}),
        moving(sphere({0.8f, 0.75f, 0.75f}, 0.07f), {0, -0.2f, 0}, {0, 0, 0}, {0, 0, 0}),
        moving(box({0.5f, 0.85f, 0.7f}, {0.04f, 0.04f, 0.04f}), {0, 0, 0}, {0, 3, 0}, {0, 0.4f, 0}),
    };
    ColliderData tank = box({0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f});
    tank.container = true;
    colliders.push_back(tank);
    // slots in another order than the colliders
    slotOf = {9, 8, 7, -1, 6, 5, 4, 3, 2, 1, 0, -1};
  }
};

struct Fluid {
  std::vector<Vec3> position, lateral;
  std::vector<Real> pressure, density;
};

// the tank's lattice outside the bodies, with random pressures, densities and lateral gradients
Fluid fill(const Bodies& b, int perSide) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> p(-500, 5000), rho(980, 1020), g(-3, 3);
  Fluid f;
  Real s = 1.0f / Real(perSide);
  for (int i = 0; i < perSide; ++i)
    for (int j = 0; j < perSide; ++j)
      for (int k = 0; k < perSide; ++k) {
        Vec3 x{(Real(i) + 0.5f) * s, (Real(j) + 0.5f) * s, (Real(k) + 0.5f) * s};
        bool inside = false;
        for (std::size_t c = 0; c + 1 < b.colliders.size(); ++c)
          inside = inside || signedDistance(b.colliders[c], x, b.time, nullptr) < 0;
        if (inside) continue;
        f.position.push_back(x);
        f.pressure.push_back(p(rng));
        f.density.push_back(rho(rng));
        f.lateral.push_back({g(rng), g(rng), g(rng)});
      }
  return f;
}

struct Inputs {
  Buffer<ColliderData> colliders;
  Buffer<Vec3> position, lateral;
  Buffer<Real> pressure, density;
  WallForceInputs in;

  Inputs(const Bodies& b, const Fluid& f)
      : colliders(toBuffer(b.colliders)),
        position(toBuffer(f.position)),
        lateral(toBuffer(f.lateral)),
        pressure(toBuffer(f.pressure)),
        density(toBuffer(f.density)) {
    SphKernels k = SphKernels::make(2 * kSpacing);
    Real mass = kRho0 * kSpacing * kSpacing * kSpacing;
    in.position = position.data();
    in.pressure = pressure.data();
    in.density = density.data();
    in.count = Index(f.position.size());
    in.colliders = {colliders.data(), b.colliders.size()};
    in.wall = WallKernel::make(k, kSpacing, mass, kRho0);
    in.mass = mass;
    in.restDensity = kRho0;
    in.time = b.time;
    in.gradientScale = 1.1f;
    in.gravity = {0, -9.81f, 0};
    in.terms.gradient = lateral.data();  // the lateral term too, as with DFSPH
    in.terms.moments = WallMoments::make(k, kSpacing, mass);
  }
};

std::vector<double> batched(const WallForceInputs& in, const std::vector<int>& slotOf, int slots) {
  BodyForces forces;
  forces.setup(slotOf, in.count);
  EXPECT_EQ(forces.slots(), slots);
  Buffer<double> out(kDevice, std::size_t(6) * slots);
  forces.compute(in, out.data());
  std::vector<double> sums(out.size());
  out.download(sums.data(), sums.size());
  return sums;
}

TEST(BodyForces, SumsEqualAPlainDoubleSumOfTheSameShares) {
  Bodies b;
  Fluid f = fill(b, 60);
  Inputs inputs(b, f);
  const WallForceInputs& in = inputs.in;
  const int slots = 10;
  ASSERT_GT(in.count, Index(100 * BodyForces::kTile));  // tiles enough for pass 2 to stride over its lanes

  // the reference: each particle's shares of each body in float, as the kernels form them, summed over
  // the particles in index order in double
  WallShares each = WallShares::of(in);
  std::vector<double> reference(6 * slots, 0.0), magnitude(6 * slots, 0.0);
  int touchingTwo = 0, touchingThree = 0;
  for (Index i = 0; i < in.count; ++i) {
    std::vector<Real> v(6 * slots, 0);
    std::vector<bool> touched(slots, false);
    each.forEach(
        i, [&](int c) { return b.slotOf[c] >= 0; },
        [&](int c, Vec3 force, Vec3 torque) {
          int s = b.slotOf[c];
          touched[s] = true;
          Real* q = &v[6 * s];
          q[0] += force.x, q[1] += force.y, q[2] += force.z;
          q[3] += torque.x, q[4] += torque.y, q[5] += torque.z;
        });
    int count = int(std::count(touched.begin(), touched.end(), true));
    touchingTwo += count == 2;
    touchingThree += count == 3;
    for (int q = 0; q < 6 * slots; ++q) {
      reference[q] += double(v[q]);
      magnitude[q] += std::fabs(double(v[q]));
    }
  }
  std::printf("  %d particles, %d of them near two bodies, %d near three\n", int(in.count), touchingTwo,
              touchingThree);
  EXPECT_GT(touchingTwo, 100);
  EXPECT_GT(touchingThree, 3);

  std::vector<double> sums = batched(in, b.slotOf, slots);
  for (int q = 0; q < 6 * slots; ++q) {
    ASSERT_GT(magnitude[q], 0) << "slot " << q / 6 << " component " << q % 6 << " has no shares";
    // the two differ only in the order of their additions in double
    EXPECT_NEAR(sums[q], reference[q], 1e-7 * std::fabs(reference[q]))
        << "slot " << q / 6 << " component " << q % 6;
  }

  // the wall forces of forces.csv (one sum a collider and component) give the bodies the same values
  cpu::Primitives prims;
  cpu::WallForces wall;
  std::vector<double> perCollider;
  wall.compute(in, prims, perCollider);
  for (std::size_t c = 0; c < b.slotOf.size(); ++c)
    for (int q = 0; q < 6 && b.slotOf[c] >= 0; ++q) {
      int k = 6 * b.slotOf[c] + q;
      EXPECT_NEAR(sums[k], perCollider[6 * c + q], 1e-7 * std::fabs(sums[k])) << "collider " << c;
    }

  // again, to the bit; and scratch of about a byte a particle for ten bodies, not 24 bytes a body
  EXPECT_EQ(batched(in, b.slotOf, slots), sums);
  BodyForces forces;
  forces.setup(b.slotOf, in.count);
  EXPECT_LT(forces.bytes(), std::size_t(in.count) * 2);
}

// no particles: zeros, as the bodies' integration expects
TEST(BodyForces, NoParticlesSumToZero) {
  Bodies b;
  Fluid f = fill(b, 60);
  Inputs inputs(b, f);
  WallForceInputs in = inputs.in;
  in.count = 0;
  std::vector<double> sums = batched(in, b.slotOf, 10);
  for (double x : sums) EXPECT_EQ(x, 0.0);
}

// With the colliders' balls over the substep that ends at the sums' time (colliders/collider_reach.h), the
// particles near no body are skipped without reading the colliders, and the bodies' faces of the others are
// found without visiting the far colliders: the sums are the same to the bit, for a short substep and for
// one long enough that the fast bodies' balls grow by a few spacings.
TEST(BodyForces, CollidersBallsLeaveTheSumsUnchanged) {
  Bodies b;
  Fluid f = fill(b, 60);
  Inputs inputs(b, f);
  std::vector<double> plain = batched(inputs.in, b.slotOf, 10);
  for (Real dt : {Real(1e-4), Real(0.02)}) {
    std::vector<ColliderBall> balls;
    for (const ColliderData& c : b.colliders) balls.push_back(makeColliderBall(c, b.time - dt, b.time));
    Buffer<ColliderBall> onDevice = toBuffer(balls);
    WallForceInputs in = inputs.in;
    in.balls = onDevice.data();
    std::vector<double> culled = batched(in, b.slotOf, 10);
    ASSERT_EQ(culled.size(), plain.size());
    EXPECT_EQ(std::memcmp(culled.data(), plain.data(), plain.size() * sizeof(double)), 0) << "dt " << dt;
    // and far particles are skipped: most of the tank is further than h from every body
    WallShares each = WallShares::of(in);
    Index far = 0;
    for (Index i = 0; i < in.count; ++i) {
      std::uint32_t near = collidersNear(each.balls, each.colliderCount, each.position[i], in.wall.h);
      bool body = false;
      for (std::size_t c = 0; c < b.slotOf.size(); ++c)
        body = body || (b.slotOf[c] >= 0 && colliderVisited(near, int(c)));
      far += !body;
    }
    EXPECT_GT(far, in.count / 2) << "dt " << dt;
  }
}

// ten boxes carried by a dam break: the same run twice gives the same bodies to the bit
TEST(BodyForces, TenBodiesRepeatToTheBit) {
  SceneDesc scene = test::sceneFile("scenes/debris_dam_break.json", {"time.frames=6"});
  ASSERT_EQ(scene.colliders.size(), 10u);
  auto run = [&] {
    auto sim = createSimulation(scene, Backend::Cpu);
    for (int f = 0; f < 6; ++f) sim->advanceFrame();
    std::vector<ColliderPose> poses;
    for (std::size_t c = 0; c < scene.colliders.size(); ++c) poses.push_back(sim->colliderPose(c));
    return poses;
  };
  std::vector<ColliderPose> a = run(), b = run();
  for (std::size_t c = 0; c < a.size(); ++c) {
    EXPECT_EQ(a[c].center.x, b[c].center.x) << c;
    EXPECT_EQ(a[c].center.y, b[c].center.y) << c;
    EXPECT_EQ(a[c].center.z, b[c].center.z) << c;
    EXPECT_EQ(a[c].orientation.w, b[c].orientation.w) << c;
    EXPECT_EQ(a[c].orientation.x, b[c].orientation.x) << c;
    EXPECT_EQ(a[c].linearVelocity.x, b[c].linearVelocity.x) << c;
    EXPECT_EQ(a[c].angularVelocity.z, b[c].angularVelocity.z) << c;
    EXPECT_NE(a[c].center.y, scene.colliders[c].shape.center.y) << "body " << c << " did not move";
  }
}

}  // namespace
}  // namespace eddy
