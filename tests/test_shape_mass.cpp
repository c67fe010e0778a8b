// What a body's shape weighs and how it turns (colliders/shape_mass.h): a closed mesh by its signed
// tetrahedra agrees with the analytic box it is, wherever it lies and however it is turned or wound; the
// capsule's and cylinder's formulas agree with fine meshes of them; a mesh's contact samples spread over
// its outside.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "colliders/shape_mass.h"
#include "mesh_fixtures.h"

namespace eddy {
namespace {

constexpr double kPi = 3.14159265358979323846;

// the inertia tensor (per unit density) that m's moments and axes make, applied to u (shape frame)
Vec3 inertiaTimes(const ShapeMass& m, Vec3 u) {
  Vec3 l = rotate(conjugate(m.principal), u);
  return rotate(m.principal, Vec3{m.moments.x * l.x, m.moments.y * l.y, m.moments.z * l.z});
}

// both masses' tensors act alike on the three axes, to `tolerance` of the largest moment
void expectSameInertia(const ShapeMass& a, const ShapeMass& b, double tolerance) {
  const double largest = std::max({a.moments.x, a.moments.y, a.moments.z});
  for (Vec3 u : {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}}) {
    Vec3 ia = inertiaTimes(a, u), ib = inertiaTimes(b, u);
    EXPECT_NEAR(ia.x, ib.x, tolerance * largest);
    EXPECT_NEAR(ia.y, ib.y, tolerance * largest);
    EXPECT_NEAR(ia.z, ib.z, tolerance * largest);
  }
}

// a capsule's (ends = true) or cylinder's surface about the origin, its axis along y: `around` segments
// about the axis, `rings` rings over each end ball
TriangleMesh roundMesh(double r, double h, bool ends, int around, int rings) {
  TriangleMesh m;
  // the profile from the top down: (distance from the axis, height)
  std::vector<std::pair<double, double>> profile;
  if (ends) {
    for (int k = 0; k <= rings; ++k) {
      double a = kPi / 2 * k / rings;
      profile.push_back({r * std::sin(a), h + r * std::cos(a)});
    }
    for (int k = rings; k >= 0; --k) {
      double a = kPi / 2 * k / rings;
      profile.push_back({r * std::sin(a), -h - r * std::cos(a)});
    }
  } else {
    profile = {{0, h}, {r, h}, {r, -h}, {0, -h}};
  }
  // one vertex at each end of the axis, a ring for each profile point between
  m.vertices.push_back({0, Real(profile.front().second), 0});
  for (std::size_t p = 1; p + 1 < profile.size(); ++p)
    for (int k = 0; k < around; ++k) {
      double a = 2 * kPi * k / around;
      m.vertices.push_back({Real(profile[p].first * std::cos(a)), Real(profile[p].second),
                            Real(-profile[p].first * std::sin(a))});
    }
  m.vertices.push_back({0, Real(profile.back().second), 0});
  const auto ringsCount = std::uint32_t(profile.size() - 2), n = std::uint32_t(around);
  auto at = [&](std::uint32_t ring, std::uint32_t k) { return 1 + ring * n + k % n; };
  for (std::uint32_t k = 0; k < n; ++k) {
    m.triangles.push_back({0, at(0, k), at(0, k + 1)});
    for (std::uint32_t ring = 0; ring + 1 < ringsCount; ++ring) {
      m.triangles.push_back({at(ring, k), at(ring + 1, k), at(ring + 1, k + 1)});
      m.triangles.push_back({at(ring, k), at(ring + 1, k + 1), at(ring, k + 1)});
    }
    const auto last = std::uint32_t(m.vertices.size() - 1);
    m.triangles.push_back({last, at(ringsCount - 1, k + 1), at(ringsCount - 1, k)});
  }
  return m;
}

// A box's twelve triangles, turned and moved far from the origin, weigh and turn as the analytic box
// centred there, wound either way
TEST(ShapeMass, AMeshBoxWeighsAndTurnsAsTheAnalyticBox) {
  const Vec3 e{0.1f, 0.05f, 0.03f};
  ShapeDesc box;
  box.type = "box";
  box.halfExtents = e;
  const ShapeMass analytic = solidMass(box);
  EXPECT_NEAR(analytic.volume, 8 * 0.1 * 0.05 * 0.03, 1e-9);
  const Quat turn = quatFromRotationVector({0.4f, -0.9f, 0.3f});
  const Vec3 shift{0.3f, -0.2f, 0.7f};
  TriangleMesh mesh = test::boxMesh(e);
  for (Vec3& v : mesh.vertices) v = rotate(turn, v) + shift;
  for (int wound = 0; wound < 2; ++wound) {
    if (wound == 1)
      for (auto& t : mesh.triangles) std::swap(t[1], t[2]);
    const ShapeMass m = meshMass(mesh);
    EXPECT_NEAR(m.volume, analytic.volume, 1e-6 * analytic.volume);
    EXPECT_NEAR(m.centre.x, shift.x, 1e-5);
    EXPECT_NEAR(m.centre.y, shift.y, 1e-5);
    EXPECT_NEAR(m.centre.z, shift.z, 1e-5);
    EXPECT_NEAR(m.reach, length(e), 1e-5);
    // the analytic box's tensor, turned as the mesh was
    ShapeMass turned = analytic;
    turned.principal = turn;
    expectSameInertia(m, turned, 1e-4);
    EXPECT_EQ(m.samples.size(), 8u);  // a box has no more vertices than its corners
  }
}

// The capsule's and the cylinder's formulas (a cylinder and two half balls) agree with meshes of 256
// segments around, whose volume falls short by the polygon's (0.01 %) and rounded ends' share
TEST(ShapeMass, CapsulesAndCylindersWeighAsTheirFineMeshes) {
  for (const char* type : {"capsule", "cylinder"}) {
    ShapeDesc s;
    s.type = type;
    s.radius = 0.05f;
    s.halfHeight = 0.08f;
    const ShapeMass analytic = solidMass(s);
    const ShapeMass fine = meshMass(roundMesh(0.05, 0.08, s.type == "capsule", 256, 64));
    std::printf("  %s: volume %.6e (mesh %.6e), moments %.4e %.4e %.4e (mesh %.4e %.4e %.4e)\n", type,
                analytic.volume, fine.volume, double(analytic.moments.x), double(analytic.moments.y),
                double(analytic.moments.z), double(fine.moments.x), double(fine.moments.y),
                double(fine.moments.z));
    EXPECT_NEAR(fine.volume, analytic.volume, 1e-3 * analytic.volume) << type;
    EXPECT_NEAR(length(fine.centre), 0, 1e-6) << type;
    expectSameInertia(fine, analytic, 2e-3);
    EXPECT_NEAR(fine.reach, analytic.reach, 1e-5) << type;
  }
}

// A mesh's samples are vertices spread over its outside: the first is the farthest from the centre, and
// no two of an icosphere's twelve lie nearer than the icosahedron's own vertices would
TEST(ShapeMass, AMeshsContactSamplesSpreadOverIt) {
  const ShapeMass ball = meshMass(test::icosphere(0.1f, 3));
  ASSERT_EQ(int(ball.samples.size()), kMostShapeSamples);
  double closest = 1e30;
  for (std::size_t i = 0; i < ball.samples.size(); ++i)
    for (std::size_t j = i + 1; j < ball.samples.size(); ++j)
      closest = std::min(closest, double(length(ball.samples[i] - ball.samples[j])));
  // the icosahedron's edge on a ball of radius 0.1 is 0.105 m; farthest-point sampling reaches at least
  // half of the best spread
  std::printf("  the closest two of %zu samples lie %.4f m apart\n", ball.samples.size(), closest);
  EXPECT_GT(closest, 0.06);
  EXPECT_NEAR(length(ball.samples[0] - ball.centre), ball.reach, 1e-6);
}

}  // namespace
}  // namespace eddy
