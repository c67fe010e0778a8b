#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "colliders/collider.h"
#include "emitters/nozzle_emitter.h"
#include "emitters/volume_emitter.h"

using namespace eddy;

namespace {

constexpr double kPi = 3.14159265358979323846;

EmitterDesc boxEmitter(Vec3 lo, Vec3 hi) {
  EmitterDesc e;
  e.shape.type = "box";
  e.shape.center = (lo + hi) * 0.5f;
  e.shape.halfExtents = (hi - lo) * 0.5f;
  return e;
}

EmitterDesc sphereEmitter(Vec3 c, Real r) {
  EmitterDesc e;
  e.shape.type = "sphere";
  e.shape.center = c;
  e.shape.radius = r;
  return e;
}

EmitterDesc nozzle(Real spacing) {
  EmitterDesc e;
  e.type = "nozzle";
  e.position = {0.1f, 0.2f, -0.1f};
  e.direction = {1, 1, 0};
  e.radius = 3 * spacing;
  e.speed = 1;
  return e;
}

// smallest distance between any two points (brute force; the test sets are small)
double minPairDistance(const std::vector<Vec3>& p) {
  double best = 1e30;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) best = std::min(best, double(length(p[i] - p[j])));
  return best;
}

}  // namespace

TEST(VolumeEmitter, BoxCountIsExact) {
  EmitterDesc e = boxEmitter({0, 0, 0}, {0.05715f, 0.1143f, 0.01143f});
  EmittedParticles out = sampleVolume(e, {}, 0.0028575f);
  EXPECT_EQ(out.position.size(), 3200u);
  ASSERT_EQ(out.velocity.size(), out.position.size());
  Vec3 lo{1, 1, 1}, hi{-1, -1, -1};
  for (Vec3 p : out.position) {
    lo = cwiseMin(lo, p);
    hi = cwiseMax(hi, p);
  }
  // outer points sit half a spacing inside the faces
  EXPECT_NEAR(lo.x, 0.0028575f / 2, 1e-6f);
  EXPECT_NEAR(hi.y, 0.1143f - 0.0028575f / 2, 1e-6f);
  EXPECT_NEAR(hi.z, 0.01143f - 0.0028575f / 2, 1e-6f);
}

// A box that is not a whole number of spacings wide: the lattice starts half a spacing inside the lower faces
// and keeps as far from the upper ones. Anchored at the lower corner alone, the 114.5-spacing column of the
// dam break at 1M particles got a last layer 0.02 mm from its far face, inside a wall's reach.
TEST(VolumeEmitter, NoPointNearerThanHalfASpacingToABoxFace) {
  const Real s = 0.00524f;
  EmitterDesc e = boxEmitter({0, 0, 0}, {0.4f, 0.6f, 0.6f});
  EmittedParticles out = sampleVolume(e, {}, s);
  Vec3 lo{1, 1, 1}, hi{-1, -1, -1};
  for (Vec3 p : out.position) {
    lo = cwiseMin(lo, p);
    hi = cwiseMax(hi, p);
  }
  EXPECT_NEAR(lo.x, s / 2, 1e-6f);
  EXPECT_LE(hi.x, 0.4f - s / 2);
  EXPECT_LE(hi.y, 0.6f - s / 2);
  EXPECT_LE(hi.z, 0.6f - s / 2);
  // 76 x 114 x 114 whole cells (0.4 / s = 76.3, 0.6 / s = 114.5)
  EXPECT_EQ(out.position.size(), 76u * 114u * 114u);
}

TEST(VolumeEmitter, SphereCountMatchesVolume) {
  const Real r = 0.1f, s = 0.01f;
  EmittedParticles out = sampleVolume(sphereEmitter({0.3f, 0.5f, -0.2f}, r), {}, s);
  double expected = 4.0 / 3.0 * kPi * r * r * r / (double(s) * s * s);
  EXPECT_NEAR(double(out.position.size()), expected, 0.05 * expected);
  for (Vec3 p : out.position) EXPECT_LT(length(p - Vec3{0.3f, 0.5f, -0.2f}), r);
}

TEST(VolumeEmitter, RotatedShapesKeepTheirVolume) {
  const Real s = 0.01f;
  EmitterDesc e = boxEmitter({0, 0, 0}, {0.2f, 0.1f, 0.3f});
  e.shape.rotation = {30, 45, 10};
  double expected = 0.2 * 0.1 * 0.3 / (double(s) * s * s);
  EXPECT_NEAR(double(sampleVolume(e, {}, s).position.size()), expected, 0.05 * expected);

  EmitterDesc c;
  c.shape.type = "cylinder";
  c.shape.radius = 0.08f;
  c.shape.halfHeight = 0.1f;
  c.shape.rotation = {0, 0, 60};
  expected = kPi * 0.08 * 0.08 * 0.2 / (double(s) * s * s);
  EXPECT_NEAR(double(sampleVolume(c, {}, s).position.size()), expected, 0.05 * expected);

  c.shape.type = "capsule";
  expected = (kPi * 0.08 * 0.08 * 0.2 + 4.0 / 3.0 * kPi * 0.08 * 0.08 * 0.08) / (double(s) * s * s);
  EXPECT_NEAR(double(sampleVolume(c, {}, s).position.size()), expected, 0.05 * expected);
}

TEST(VolumeEmitter, BccNumberDensity) {
  const Real s = 0.01f, r = 0.12f;
  EmitterDesc e = sphereEmitter({0, 0, 0}, r);
  e.lattice = "bcc";
  EmittedParticles out = sampleVolume(e, {}, s);
  double expected = 4.0 / 3.0 * kPi * r * r * r / (double(s) * s * s);
  EXPECT_NEAR(double(out.position.size()), expected, 0.05 * expected);

  // nearest neighbours of bcc sit sqrt(3)/2 of the cube edge apart
  std::vector<Vec3> core;
  for (Vec3 p : out.position)
    if (length(p) < 0.04f) core.push_back(p);
  EXPECT_NEAR(minPairDistance(core), std::sqrt(3.0) / 2 * s * std::cbrt(2.0), 1e-5);
}

TEST(VolumeEmitter, JitterIsDeterministicAndBounded) {
  const Real s = 0.01f;
  EmitterDesc e = boxEmitter({0, 0, 0}, {0.1f, 0.1f, 0.1f});
  EmittedParticles plain = sampleVolume(e, {}, s);
  e.jitter = 0.3f;
  e.seed = 7;
  EmittedParticles a = sampleVolume(e, {}, s), b = sampleVolume(e, {}, s);
  ASSERT_EQ(a.position.size(), plain.position.size());
  ASSERT_EQ(b.position.size(), a.position.size());
  bool moved = false;
  for (std::size_t i = 0; i < a.position.size(); ++i) {
    EXPECT_EQ(a.position[i].x, b.position[i].x);
    EXPECT_EQ(a.position[i].y, b.position[i].y);
    EXPECT_EQ(a.position[i].z, b.position[i].z);
    Vec3 d = cwiseAbs(a.position[i] - plain.position[i]);
    EXPECT_LE(std::max({d.x, d.y, d.z}), 0.3f * s * 1.0001f);
    moved |= std::max({d.x, d.y, d.z}) > 0.01f * s;
  }
  EXPECT_TRUE(moved);

  e.seed = 8;
  EmittedParticles c = sampleVolume(e, {}, s);
  EXPECT_NE(c.position[0].x, a.position[0].x);
}

TEST(VolumeEmitter, InitialVelocity) {
  EmitterDesc e = sphereEmitter({1, 0, 0}, 0.05f);
  e.velocity = {0, 0, 1};
  e.angularVelocity = {0, 2, 0};
  EmittedParticles out = sampleVolume(e, {}, 0.01f);
  ASSERT_FALSE(out.position.empty());
  for (std::size_t i = 0; i < out.position.size(); ++i) {
    Vec3 expect = Vec3{0, 0, 1} + cross(Vec3{0, 2, 0}, out.position[i] - Vec3{1, 0, 0});
    EXPECT_NEAR(length(out.velocity[i] - expect), 0, 1e-6f);
  }
}

TEST(VolumeEmitter, FillsNamedContainer) {
  ColliderDesc floor;
  floor.name = "floor";
  floor.shape.type = "plane";
  ColliderDesc tank;
  tank.name = "tank";
  tank.container = true;
  tank.shape.type = "box";
  tank.shape.center = {0.5f, 0.25f, 0.1f};
  tank.shape.halfExtents = {0.5f, 0.25f, 0.1f};
  EmitterDesc e;
  e.collider = "tank";
  e.shape.type = "plane";  // ignored when a collider is named
  EmittedParticles out = sampleVolume(e, {floor, tank}, 0.05f);
  EXPECT_EQ(out.position.size(), 20u * 10u * 4u);
  ColliderData c = makeColliderData(tank);
  for (Vec3 p : out.position) EXPECT_GE(signedDistance(c, p, 0, nullptr), 0.025f - 1e-6f);

  e.collider = "floor";
  EXPECT_THROW(sampleVolume(e, {floor, tank}, 0.05f), InputError);
  e.collider = "nope";
  EXPECT_THROW(sampleVolume(e, {floor, tank}, 0.05f), InputError);
}

// a keyframed tank is filled where it is at t = 0: at its first keyframe, turned as that keyframe says
TEST(VolumeEmitter, FillsAKeyframedColliderAtItsFirstPose) {
  ColliderDesc tank;
  tank.name = "tank";
  tank.container = true;
  tank.shape.type = "box";
  tank.shape.halfExtents = {0.5f, 0.25f, 0.1f};
  tank.keyframes = {{0.25f, {0.3f, 0.5f, 0.1f}, {0, 90, 0}}, {1, {2, 2, 2}, {0, 0, 0}}};
  EmitterDesc e;
  e.collider = "tank";
  EmittedParticles out = sampleVolume(e, {tank}, 0.05f);
  EXPECT_EQ(out.position.size(), 20u * 10u * 4u);
  Vec3 lo{1e9f, 1e9f, 1e9f}, hi{-1e9f, -1e9f, -1e9f};
  for (Vec3 p : out.position) lo = cwiseMin(lo, p), hi = cwiseMax(hi, p);
  // turned 90 degrees about y: the long side along z, about (0.3, 0.5, 0.1)
  EXPECT_NEAR(lo.x, 0.3f - 0.1f + 0.025f, 1e-5f);
  EXPECT_NEAR(hi.x, 0.3f + 0.1f - 0.025f, 1e-5f);
  EXPECT_NEAR(lo.z, 0.1f - 0.5f + 0.025f, 1e-5f);
  EXPECT_NEAR(hi.z, 0.1f + 0.5f - 0.025f, 1e-5f);
  EXPECT_NEAR(lo.y, 0.5f - 0.25f + 0.025f, 1e-5f);
}

TEST(VolumeEmitter, RejectsBadInput) {
  EmitterDesc plane;
  plane.shape.type = "plane";
  EXPECT_THROW(sampleVolume(plane, {}, 0.01f), InputError);

  EmitterDesc huge = boxEmitter({0, 0, 0}, {10, 10, 10});
  try {
    sampleVolume(huge, {}, 0.001f);
    FAIL() << "expected InputError";
  } catch (const InputError& err) {
    EXPECT_NE(std::string(err.what()).find("volume emitter (box"), std::string::npos) << err.what();
  }

  EmitterDesc lattice = boxEmitter({0, 0, 0}, {1, 1, 1});
  lattice.lattice = "fcc";
  EXPECT_THROW(sampleVolume(lattice, {}, 0.1f), InputError);
  EmitterDesc shape;
  shape.shape.type = "cone";
  EXPECT_THROW(sampleVolume(shape, {}, 0.1f), InputError);
}

TEST(NozzleEmitter, RateConverges) {
  const Real s = 0.01f;
  EmitterDesc e = nozzle(s);
  e.rate = 1000;
  NozzleEmitter n(e, s);
  EXPECT_EQ(n.layerSize(), 29);
  EXPECT_NEAR(n.maxRate(), 2900, 1e-2);
  long long total = 0;
  const Real dt = 0.0037f;
  Real t = 0;
  for (int step = 0; step < 1000; ++step, t += dt) {
    EmittedParticles out = n.emit(t, dt);
    ASSERT_EQ(out.position.size(), out.velocity.size());
    total += static_cast<long long>(out.position.size());
  }
  EXPECT_EQ(total, n.emitted());
  double seconds = 1000 * dt;
  EXPECT_NEAR(double(total) / seconds, 1000, 1000 * 0.01);
}

// found by fuzzing: radius / spacing beyond long long was undefined behaviour, and a disc of millions of
// points took minutes to build; both are refused with a message now
TEST(NozzleEmitter, HugeDiscIsRefused) {
  for (Real radius : {Real(171), Real(1e30)}) {
    EmitterDesc e = nozzle(0.1f);
    e.radius = radius;
    try {
      NozzleEmitter n(e, radius > 1000 ? Real(1e-30) : Real(0.1));
      FAIL() << "expected InputError for radius " << radius;
    } catch (const InputError& err) {
      EXPECT_NE(std::string(err.what()).find("lattice points per layer"), std::string::npos) << err.what();
    }
  }
}

// found by fuzzing: a spacing of 1e-30 turned the lattice counts into an out-of-range float-to-integer
// conversion (undefined behaviour) instead of the lattice-size message
TEST(VolumeEmitter, TinySpacingIsRefused) {
  EmitterDesc e = sphereEmitter({0, 0, 0}, 0.1f);
  try {
    sampleVolume(e, {}, Real(1e-30));
    FAIL() << "expected InputError";
  } catch (const InputError& err) {
    EXPECT_NE(std::string(err.what()).find("lattice points"), std::string::npos) << err.what();
  }
}

TEST(NozzleEmitter, RateAboveCapacityThrows) {
  const Real s = 0.01f;
  EmitterDesc e = nozzle(s);
  e.rate = 3000;  // the disc holds 29 points every 0.01 s
  try {
    NozzleEmitter n(e, s);
    FAIL() << "expected InputError";
  } catch (const InputError& err) {
    EXPECT_NE(std::string(err.what()).find("2900"), std::string::npos) << err.what();
  }
}

TEST(NozzleEmitter, NoOverlapOverOneSecond) {
  const Real s = 0.01f;
  for (Real rate : {0.0f, 1500.0f}) {
    EmitterDesc e = nozzle(s);
    e.rate = rate;
    NozzleEmitter n(e, s);
    std::vector<Vec3> x, v;
    Real t = 0;
    for (int step = 0; t < 1; ++step) {
      Real dt = step % 3 == 0 ? 0.0041f : 0.0023f;  // uneven substeps
      for (std::size_t i = 0; i < x.size(); ++i) x[i] += v[i] * dt;
      EmittedParticles out = n.emit(t, dt);
      x.insert(x.end(), out.position.begin(), out.position.end());
      v.insert(v.end(), out.velocity.begin(), out.velocity.end());
      t += dt;
    }
    ASSERT_GT(x.size(), 1000u);
    EXPECT_GE(minPairDistance(x), 0.99 * s) << "rate " << rate;
    Vec3 dir = Vec3{1, 1, 0} / std::sqrt(2.0f);
    for (Vec3 vel : v) EXPECT_NEAR(length(vel - dir), 0, 1e-6f);
  }
}

TEST(NozzleEmitter, RespectsBudgetAndWindow) {
  const Real s = 0.01f;
  EmitterDesc e = nozzle(s);
  e.maxParticles = 100;
  e.start = 0.5f;
  e.stop = 0.8f;
  NozzleEmitter n(e, s);
  Real t = 0;
  const Real dt = 0.005f;
  for (; t < 0.49f; t += dt) EXPECT_TRUE(n.emit(t, dt).position.empty()) << t;
  EXPECT_EQ(n.emitted(), 0);
  for (; t < 2; t += dt) n.emit(t, dt);
  EXPECT_EQ(n.emitted(), 100);

  // the window alone: 0.5 .. 0.8 s releases 31 layers (both ends included)
  e.maxParticles = 1000000;
  NozzleEmitter w(e, s);
  long long total = 0;
  for (int step = 0; step < 400; ++step)
    total += static_cast<long long>(w.emit(step * dt, dt).position.size());
  EXPECT_EQ(total, 31 * 29);
  EXPECT_EQ(w.emitted(), total);
}

TEST(NozzleEmitter, LayerPositionsAreExact) {
  const Real s = 0.01f;
  EmitterDesc e = nozzle(s);
  e.direction = {0, 0, 1};
  e.position = {0, 0, 0};
  NozzleEmitter n(e, s);
  // one call spanning 2.5 layer intervals: layers released at 0, 0.01, 0.02, seen at t = 0.025
  EmittedParticles out = n.emit(0, 0.025f);
  ASSERT_EQ(out.position.size(), 3u * 29u);
  std::vector<Real> z;
  for (Vec3 p : out.position) z.push_back(p.z);
  std::sort(z.begin(), z.end());
  z.erase(std::unique(z.begin(), z.end(), [](Real a, Real b) { return std::fabs(a - b) < 1e-6f; }), z.end());
  ASSERT_EQ(z.size(), 3u);
  EXPECT_NEAR(z[0], 0.005f, 1e-6f);
  EXPECT_NEAR(z[1], 0.015f, 1e-6f);
  EXPECT_NEAR(z[2], 0.025f, 1e-6f);
  for (Vec3 p : out.position) EXPECT_LE(std::hypot(p.x, p.y), e.radius + 1e-6f);
}

TEST(NozzleEmitter, RejectsBadInput) {
  EmitterDesc e = nozzle(0.01f);
  e.direction = {0, 0, 0};
  EXPECT_THROW(NozzleEmitter(e, 0.01f), InputError);
  e = nozzle(0.01f);
  e.speed = 0;
  EXPECT_THROW(NozzleEmitter(e, 0.01f), InputError);
  e = nozzle(0.01f);
  EXPECT_THROW(NozzleEmitter(e, 0), InputError);
}
