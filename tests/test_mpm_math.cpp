// The small-matrix math and the constitutive models of the MLS-MPM solver: Mat3 algebra, svd3 against
// its definition (reconstruction, proper rotations, sign convention) on random and degenerate matrices,
// the polar rotation, the stresses against linear elasticity and against finite differences of their
// energies, and the plastic projections against their yield conditions.
#include <eddy/mat3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "solvers/mpm/constitutive_models.h"

using namespace eddy;

namespace {

// ---- double-precision references ----

using D3 = std::array<std::array<double, 3>, 3>;

D3 toDouble(const Mat3& a) {
  D3 r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[i][j] = a.m[i][j];
  return r;
}
Mat3 toFloat(const D3& a) {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = Real(a[i][j]);
  return r;
}
D3 mul(const D3& a, const D3& b) {
  D3 r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) r[i][j] += a[i][k] * b[k][j];
  return r;
}
D3 transposed(const D3& a) {
  D3 r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[i][j] = a[j][i];
  return r;
}
D3 diag(double a, double b, double c) {
  D3 r{};
  r[0][0] = a, r[1][1] = b, r[2][2] = c;
  return r;
}
double frobenius(const D3& a) {
  double s = 0;
  for (auto& row : a)
    for (double v : row) s += v * v;
  return std::sqrt(s);
}
double distance(const D3& a, const D3& b) {
  D3 d{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) d[i][j] = a[i][j] - b[i][j];
  return frobenius(d);
}
double det(const D3& a) {
  return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
         a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
         a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

// a uniformly random rotation from a normalised Gaussian quaternion
D3 randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0, 1);
  double w = n(rng), x = n(rng), y = n(rng), z = n(rng);
  double l = std::sqrt(w * w + x * x + y * y + z * z);
  w /= l, x /= l, y /= l, z /= l;
  D3 r{};
  r[0] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)};
  r[1] = {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)};
  r[2] = {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)};
  return r;
}

// how far a float rotation is from a proper one: max of |Q^T Q - I| entries and |det Q - 1|
double rotationDefect(const Mat3& q) {
  D3 qd = toDouble(q), qtq = mul(transposed(qd), qd);
  double worst = std::fabs(det(qd) - 1);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) worst = std::max(worst, std::fabs(qtq[i][j] - (i == j ? 1.0 : 0.0)));
  return worst;
}

struct SvdCheck {
  double reconstruction = 0;  // |U diag(sigma) V^T - F| / |F|
  double rotation = 0;        // worst rotationDefect of U and V
};

// runs svd3 and checks the convention on the way: sigma.x >= sigma.y >= 0, |sigma.z| no larger (up to
// rounding), sigma.z < 0 when det F is clearly negative
SvdCheck checkSvd(const Mat3& F) {
  Mat3 U, V;
  Vec3 s;
  svd3(F, U, s, V);
  D3 f = toDouble(F);
  double normF = frobenius(f);
  D3 rebuilt = mul(mul(toDouble(U), diag(s.x, s.y, s.z)), transposed(toDouble(V)));
  SvdCheck c;
  c.reconstruction = normF > 0 ? distance(rebuilt, f) / normF : frobenius(rebuilt);
  c.rotation = std::max(rotationDefect(U), rotationDefect(V));
  double slack = 1e-6 * normF;
  EXPECT_GE(s.y, 0);
  EXPECT_GE(s.x + slack, s.y);
  EXPECT_GE(s.y + slack, std::fabs(s.z));
  double d = det(f), dScale = normF * normF * normF;
  if (d < -1e-4 * dScale) {
    EXPECT_LT(s.z, 0);
  }
  if (d > 1e-4 * dScale) {
    EXPECT_GT(s.z, 0);
  }
  return c;
}

std::array<double, 3> sortedDescending(double a, double b, double c) {
  std::array<double, 3> v{a, b, c};
  std::sort(v.begin(), v.end(), [](double x, double y) { return x > y; });
  return v;
}

// F = U diag(sigma) V^T from log-strains: the usual way to build a deformation with a known SVD
Mat3 deformation(const D3& u, std::array<double, 3> logStrain, const D3& v) {
  return toFloat(mul(mul(u, diag(std::exp(logStrain[0]), std::exp(logStrain[1]), std::exp(logStrain[2]))),
                     transposed(v)));
}

double maxAbsDiff(const Mat3& a, const Mat3& b) {
  double worst = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) worst = std::max(worst, std::fabs(double(a.m[i][j]) - double(b.m[i][j])));
  return worst;
}

// central finite difference of an energy density psi(F): P_ij = dpsi/dF_ij, in double around a float F
template <class Energy>
D3 energyGradient(const Mat3& F, Energy psi, double h) {
  D3 p{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      D3 plus = toDouble(F), minus = toDouble(F);
      plus[i][j] += h;
      minus[i][j] -= h;
      p[i][j] = (psi(plus) - psi(minus)) / (2 * h);
    }
  return p;
}

// singular values of a double matrix from the eigenvalues of F^T F (cyclic Jacobi in double), enough
// for the energies of moderately deformed F
std::array<double, 3> singularValuesDouble(const D3& f) {
  D3 a = mul(transposed(f), f);
  for (int sweep = 0; sweep < 30; ++sweep)
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (std::fabs(a[p][q]) < 1e-300) continue;
        double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        double c = 1 / std::sqrt(t * t + 1), s = t * c;
        D3 j = diag(1, 1, 1);
        j[p][p] = c, j[q][q] = c, j[p][q] = s, j[q][p] = -s;
        a = mul(mul(transposed(j), a), j);
      }
  return {std::sqrt(a[0][0]), std::sqrt(a[1][1]), std::sqrt(a[2][2])};
}

// the Drucker-Prager yield function in log-strain space (Klar et al. 2016): <= 0 inside the cone
double sandYield(const MpmMaterial& m, const Mat3& F) {
  Mat3 U, V;
  Vec3 s;
  svd3(F, U, s, V);
  double e[3] = {std::log(double(s.x)), std::log(double(s.y)), std::log(double(s.z))};
  double tr = e[0] + e[1] + e[2], dev = 0;
  for (double x : e) dev += (x - tr / 3) * (x - tr / 3);
  return std::sqrt(dev) + (3 * m.lambda + 2 * m.mu) / (2 * m.mu) * tr * m.frictionAlpha;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// Mat3

TEST(Mat3, AlgebraMatchesDoubleReference) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int trial = 0; trial < 50; ++trial) {
    D3 a{}, b{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) a[i][j] = Real(u(rng)), b[i][j] = Real(u(rng));
    Mat3 fa = toFloat(a), fb = toFloat(b);
    EXPECT_LT(distance(toDouble(fa * fb), mul(a, b)), 1e-5);
    EXPECT_EQ(distance(toDouble(transpose(fa)), transposed(a)), 0);
    EXPECT_NEAR(determinant(fa), det(a), 1e-5);
    EXPECT_NEAR(trace(fa), a[0][0] + a[1][1] + a[2][2], 1e-6);
    EXPECT_NEAR(frobeniusNormSquared(fa), frobenius(a) * frobenius(a), 1e-5);
    Vec3 x{Real(u(rng)), Real(u(rng)), Real(u(rng))};
    Vec3 ax = fa * x;
    for (int i = 0; i < 3; ++i) EXPECT_NEAR((&ax.x)[i], a[i][0] * x.x + a[i][1] * x.y + a[i][2] * x.z, 1e-5);
    Mat3 sum = fa;
    sum += fb;
    EXPECT_EQ(maxAbsDiff(sum, fa + fb), 0);
    Mat3 difference = fa - fb, negated = -fa;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        EXPECT_EQ(difference.m[i][j], Real(a[i][j] - b[i][j]));
        EXPECT_EQ(negated.m[i][j], -fa.m[i][j]);
      }
    EXPECT_LT(maxAbsDiff(fa * Real(3), Real(3) * fa), 1e-12);
    for (int k = 0; k < 3; ++k) {
      Vec3 r = fa.row(k), c = fa.col(k);
      EXPECT_EQ(r.x, fa.m[k][0]);
      EXPECT_EQ(r.z, fa.m[k][2]);
      EXPECT_EQ(c.y, fa.m[1][k]);
    }
  }
  Mat3 o = outer(Vec3{1, 2, 3}, Vec3{4, 5, 6});
  EXPECT_EQ(o.m[0][0], 4);
  EXPECT_EQ(o.m[1][2], 12);
  EXPECT_EQ(o.m[2][0], 12);
  EXPECT_EQ(determinant(Mat3::identity()), 1);
  EXPECT_EQ(frobeniusNormSquared(Mat3::zero()), 0);
  Mat3 d = Mat3::diagonal({2, 3, 4});
  EXPECT_EQ(determinant(d), 24);
  EXPECT_EQ(d.m[0][1], 0);
}

// ---------------------------------------------------------------------------------------------------------
// svd3

TEST(Svd3, ReconstructsRandomMatricesWithProperRotations) {
  std::mt19937 rng(20180801);
  std::normal_distribution<double> gauss(0, 1);
  std::uniform_real_distribution<double> unit(0, 1);
  double worstRecon = 0, worstRot = 0, worstSigma = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    Mat3 F;
    std::array<double, 3> exact{};
    bool known = trial % 4 != 0;
    if (!known) {
      // Gaussian entries
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) F.m[i][j] = Real(gauss(rng));
    } else {
      // R1 diag(s) R2 with condition number up to 1e3, some with a repeated value, some reflected,
      // over a range of scales
      double scale = std::pow(10.0, 4 * unit(rng) - 2);
      for (double& s : exact) s = scale * std::pow(10.0, -3 * unit(rng));
      if (trial % 8 == 1) exact[1] = exact[0];
      double sign = trial % 3 == 0 ? -1 : 1;
      F = toFloat(mul(mul(randomRotation(rng), diag(exact[0], exact[1], sign * exact[2])),
                      transposed(randomRotation(rng))));
    }
    SvdCheck c = checkSvd(F);
    worstRecon = std::max(worstRecon, c.reconstruction);
    worstRot = std::max(worstRot, c.rotation);
    if (known) {
      Mat3 U, V;
      Vec3 s;
      svd3(F, U, s, V);
      auto want = sortedDescending(exact[0], exact[1], exact[2]);
      auto got = sortedDescending(s.x, s.y, std::fabs(s.z));
      for (int k = 0; k < 3; ++k) worstSigma = std::max(worstSigma, std::fabs(got[k] - want[k]) / want[0]);
    }
  }
  std::printf(
      "svd3 on 1000 random F: worst |USV^T - F|/|F| %.2e, rotation defect %.2e, sigma error/|F| %.2e\n",
      worstRecon, worstRot, worstSigma);
  EXPECT_LE(worstRecon, 1e-5);
  EXPECT_LE(worstRot, 1e-5);
  EXPECT_LE(worstSigma, 1e-5);
}

TEST(Svd3, DeformationsNearIdentityAsInMpm) {
  // the solver's F: identity plus a few percent of strain and rotation, occasionally inverted
  std::mt19937 rng(3);
  std::normal_distribution<double> gauss(0, 1);
  double worstRecon = 0, worstRot = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    double amplitude = trial % 2 ? 0.02 : 0.3;
    D3 g = diag(1, 1, 1);
    for (auto& row : g)
      for (double& v : row) v += amplitude * gauss(rng);
    SvdCheck c = checkSvd(toFloat(mul(randomRotation(rng), g)));
    worstRecon = std::max(worstRecon, c.reconstruction);
    worstRot = std::max(worstRot, c.rotation);
  }
  EXPECT_LE(worstRecon, 1e-6);
  EXPECT_LE(worstRot, 1e-6);
}

TEST(Svd3, IdentityRotationsAndReflections) {
  {
    Mat3 U, V;
    Vec3 s;
    svd3(Mat3::identity(), U, s, V);
    EXPECT_EQ(s.x, 1);
    EXPECT_EQ(s.y, 1);
    EXPECT_EQ(s.z, 1);
    EXPECT_LT(maxAbsDiff(U * transpose(V), Mat3::identity()), 1e-7);
  }
  std::mt19937 rng(11);
  for (int trial = 0; trial < 100; ++trial) {
    // pure rotation: sigma = 1 and U V^T the rotation itself
    Mat3 R = toFloat(randomRotation(rng));
    Mat3 U, V;
    Vec3 s;
    svd3(R, U, s, V);
    EXPECT_NEAR(s.x, 1, 1e-6);
    EXPECT_NEAR(s.y, 1, 1e-6);
    EXPECT_NEAR(s.z, 1, 1e-6);
    EXPECT_LT(maxAbsDiff(U * transpose(V), R), 1e-6);

    // reflections (det = -1, also a mirror along one axis composed with a rotation): sigma = (1, 1, -1)
    Mat3 mirror = Mat3::diagonal(trial % 3 == 0   ? Vec3{-1, 1, 1}
                                 : trial % 3 == 1 ? Vec3{1, -1, 1}
                                                  : Vec3{1, 1, -1});
    Mat3 reflected = R * mirror;
    SvdCheck c = checkSvd(reflected);
    EXPECT_LE(c.reconstruction, 1e-6);
    EXPECT_LE(c.rotation, 1e-6);
    svd3(reflected, U, s, V);
    EXPECT_NEAR(s.x, 1, 1e-6);
    EXPECT_NEAR(s.y, 1, 1e-6);
    EXPECT_NEAR(s.z, -1, 1e-6);
  }
  // an axis mirror exactly
  Mat3 U, V;
  Vec3 s;
  svd3(Mat3::diagonal({-1, 1, 1}), U, s, V);
  EXPECT_EQ(s.z, -1);
  EXPECT_LT(rotationDefect(U), 1e-7);
  EXPECT_LT(rotationDefect(V), 1e-7);
  // a reflected, stretched F keeps its sign on the smallest value
  svd3(Mat3::diagonal({3, -2, 0.5f}), U, s, V);
  EXPECT_NEAR(s.x, 3, 1e-6);
  EXPECT_NEAR(s.y, 2, 1e-6);
  EXPECT_NEAR(s.z, -0.5, 1e-6);
}

TEST(Svd3, NearSingularAndDegenerateMatrices) {
  std::mt19937 rng(5);
  std::normal_distribution<double> gauss(0, 1);
  std::vector<Mat3> cases;
  const std::array<std::array<double, 3>, 8> spectra = {{{1, 1e-4, 1e-7},
                                                         {1, 1, 0},
                                                         {1, 0, 0},
                                                         {1, 1e-6, 1e-6},
                                                         {2, 2, 2},
                                                         {1, 1e-7, 0},
                                                         {1e-3, 1e-3, 0},
                                                         {1, 0.999999, 0.999998}}};
  for (int trial = 0; trial < 20; ++trial)
    for (auto sp : spectra)
      cases.push_back(
          toFloat(mul(mul(randomRotation(rng), diag(sp[0], sp[1], sp[2])), transposed(randomRotation(rng)))));
  for (int trial = 0; trial < 20; ++trial) {
    // rank one a b^T and two equal columns
    Vec3 a{Real(gauss(rng)), Real(gauss(rng)), Real(gauss(rng))},
        b{Real(gauss(rng)), Real(gauss(rng)), Real(gauss(rng))};
    cases.push_back(outer(a, b));
    cases.push_back(Mat3::fromColumns(a, a, b));
    // extreme scales
    Mat3 g;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) g.m[i][j] = Real(gauss(rng));
    cases.push_back(g * Real(1e-30));
    cases.push_back(g * Real(1e30));
  }
  cases.push_back(Mat3::zero());
  cases.push_back(Mat3::diagonal({0, 0, 1e-20f}));
  double worstRecon = 0, worstRot = 0;
  for (const Mat3& F : cases) {
    SvdCheck c = checkSvd(F);
    worstRecon = std::max(worstRecon, c.reconstruction);
    worstRot = std::max(worstRot, c.rotation);
  }
  std::printf("svd3 on %zu near-singular/degenerate F: worst |USV^T - F|/|F| %.2e, rotation defect %.2e\n",
              cases.size(), worstRecon, worstRot);
  EXPECT_LE(worstRecon, 1e-5);
  EXPECT_LE(worstRot, 1e-5);

  Mat3 U, V;
  Vec3 s;
  svd3(Mat3::zero(), U, s, V);
  EXPECT_EQ(s.x, 0);
  EXPECT_EQ(s.z, 0);
}

TEST(Svd3, IsDeterministic) {
  std::mt19937 rng(9);
  std::normal_distribution<double> gauss(0, 1);
  for (int trial = 0; trial < 100; ++trial) {
    Mat3 F;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) F.m[i][j] = Real(gauss(rng));
    Mat3 U1, V1, U2, V2;
    Vec3 s1, s2;
    svd3(F, U1, s1, V1);
    svd3(F, U2, s2, V2);
    EXPECT_EQ(maxAbsDiff(U1, U2), 0);
    EXPECT_EQ(maxAbsDiff(V1, V2), 0);
    EXPECT_EQ(s1.x, s2.x);
    EXPECT_EQ(s1.z, s2.z);
  }
}

TEST(Svd3, PolarRotationOfRotatedSymmetricPositiveDefinite) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> unit(0, 1);
  double worst = 0;
  for (int trial = 0; trial < 200; ++trial) {
    D3 R = randomRotation(rng), Q = randomRotation(rng);
    // S = Q diag Q^T with eigenvalues in [0.1, 10]
    D3 S = mul(mul(Q, diag(std::pow(10.0, 2 * unit(rng) - 1), std::pow(10.0, 2 * unit(rng) - 1),
                           std::pow(10.0, 2 * unit(rng) - 1))),
               transposed(Q));
    Mat3 got = polarRotation(toFloat(mul(R, S)));
    worst = std::max(worst, maxAbsDiff(got, toFloat(R)));
    EXPECT_LT(rotationDefect(got), 1e-5);
  }
  EXPECT_LT(worst, 1e-5);
  // a rotation is its own polar rotation; a reflection gives a proper rotation
  EXPECT_LT(maxAbsDiff(polarRotation(Mat3::identity()), Mat3::identity()), 1e-7);
  EXPECT_LT(rotationDefect(polarRotation(Mat3::diagonal({1, 1, -1}))), 1e-6);
}

// ---------------------------------------------------------------------------------------------------------
// materials

TEST(MpmMaterials, FactoriesAndWaveSpeeds) {
  MpmMaterial e = makeElastic(1000, 1e5f, 0.3f);
  EXPECT_EQ(e.type, MpmMaterialType::Elastic);
  EXPECT_NEAR(e.mu, 1e5 / 2.6, 1e-2);
  EXPECT_NEAR(e.lambda, 1e5 * 0.3 / (1.3 * 0.4), 1e-2);
  EXPECT_NEAR(waveSpeed(e), std::sqrt((1e5 * 0.3 / 0.52 + 2 * 1e5 / 2.6) / 1000), 1e-4);

  MpmMaterial w = makeWater(1000, 2e6f, false, 7, 1e-3f);
  EXPECT_EQ(w.type, MpmMaterialType::Water);
  EXPECT_NEAR(waveSpeed(w), std::sqrt(2e6 / 1000), 1e-4);
  // Tait has the same linearised speed: dp/drho = K / rho0 at rest
  w.tait = true;
  EXPECT_NEAR(waveSpeed(w), std::sqrt(2e6 / 1000), 1e-4);

  MpmMaterial snow = makeSnow(400, 1.4e5f, 0.2f, 2.5e-2f, 7.5e-3f, 10);
  EXPECT_EQ(snow.type, MpmMaterialType::Snow);
  EXPECT_NEAR(snow.mu, 1.4e5 / 2.4, 1e-2);
  EXPECT_NEAR(snow.lambda, 1.4e5 * 0.2 / (1.2 * 0.6), 1e-2);
  EXPECT_EQ(snow.criticalCompression, 2.5e-2f);
  EXPECT_EQ(snow.criticalStretch, 7.5e-3f);
  EXPECT_EQ(snow.hardening, 10);

  MpmMaterial sand = makeSand(1600, 3.537e5f, 0.3f, 30);
  EXPECT_EQ(sand.type, MpmMaterialType::Sand);
  EXPECT_NEAR(sand.frictionAlpha, std::sqrt(2.0 / 3.0) * 2 * 0.5 / 2.5, 1e-6);  // sin 30 deg = 1/2
  EXPECT_NEAR(waveSpeed(sand), std::sqrt((sand.lambda + 2 * sand.mu) / 1600.0), 1e-4);
}

TEST(MpmMaterials, WaterPressure) {
  for (bool tait : {false, true}) {
    MpmMaterial w = makeWater(1000, 2e5f, tait, 7, 0);
    EXPECT_EQ(waterPressure(w, 1), 0);
    for (Real J : {0.5f, 0.9f, 0.99f, 0.9999f}) EXPECT_GT(waterPressure(w, J), 0) << J;
    for (Real J : {1.0001f, 1.01f, 1.5f}) EXPECT_LT(waterPressure(w, J), 0) << J;
    // tau = -p J I, whatever F is
    Mat3 tau = kirchhoffStress(w, Mat3::diagonal({3, 0.1f, 2}), 0.9f, 1);
    EXPECT_NEAR(tau.m[0][0], -waterPressure(w, 0.9f) * 0.9f, 1e-6 * 2e5);
    EXPECT_EQ(tau.m[1][1], tau.m[0][0]);
    EXPECT_EQ(tau.m[0][1], 0);
  }
  // linear: p = K (1 - J) exactly
  MpmMaterial lin = makeWater(1000, 2e5f, false, 7, 0);
  EXPECT_NEAR(waterPressure(lin, 0.9f), 2e5 * 0.1, 1e-2);
  // Tait: p = K/gamma (J^-gamma - 1), and to first order in 1 - J the two agree
  MpmMaterial tait = makeWater(1000, 2e5f, true, 7, 0);
  EXPECT_NEAR(waterPressure(tait, 0.9f), 2e5 / 7 * (std::pow(0.9, -7) - 1), 0.5);
  for (Real d : {1e-3f, -1e-3f}) {
    double ratio = waterPressure(tait, 1 - d) / waterPressure(lin, 1 - d);
    EXPECT_NEAR(ratio, 1, 5e-3) << d;  // second-order term (gamma + 1) d / 2 = 4e-3
  }
}

TEST(MpmMaterials, FixedCorotatedVanishesUnderRotation) {
  MpmMaterial e = makeElastic(1000, 1e5f, 0.3f);
  MpmMaterial snow = makeSnow(400, 1e5f, 0.3f, 2.5e-2f, 7.5e-3f, 10);
  std::mt19937 rng(17);
  double scale = e.lambda + 2 * e.mu;
  for (int trial = 0; trial < 100; ++trial) {
    Mat3 R = toFloat(randomRotation(rng));
    EXPECT_LT(std::sqrt(frobeniusNormSquared(kirchhoffStress(e, R, 1, 1))), 1e-5 * scale);
    EXPECT_LT(std::sqrt(frobeniusNormSquared(kirchhoffStress(snow, R, 1, 0.9f))), 1e-5 * scale * 3);
  }
}

TEST(MpmMaterials, SmallStrainMatchesLinearElasticity) {
  // uniaxial stretch eps along a unit direction n: tau = (lambda + 2 mu) eps n n^T + lambda eps (I - n n^T)
  // to first order, for the fixed corotated model and the Hencky one alike
  MpmMaterial e = makeElastic(1000, 1e5f, 0.3f);
  MpmMaterial sand = makeSand(1000, 1e5f, 0.3f, 30);
  std::mt19937 rng(19);
  for (int trial = 0; trial < 20; ++trial) {
    D3 q = randomRotation(rng);
    double eps = trial % 2 ? 1e-3 : -1e-3;
    Mat3 F = toFloat(mul(mul(q, diag(1 + eps, 1, 1)), transposed(q)));
    Vec3 n{Real(q[0][0]), Real(q[1][0]), Real(q[2][0])};
    Mat3 linear = outer(n, n) * Real((e.lambda + 2 * e.mu) * eps) +
                  (Mat3::identity() - outer(n, n)) * Real(e.lambda * eps);
    for (const MpmMaterial& m : {e, sand}) {
      Mat3 tau = kirchhoffStress(m, F, 1, 1);
      // 1% of the axial stress
      EXPECT_LT(maxAbsDiff(tau, linear), 1e-2 * (e.lambda + 2 * e.mu) * std::fabs(eps)) << int(m.type);
      EXPECT_NEAR(dot(n, tau * n), (e.lambda + 2 * e.mu) * eps,
                  1e-2 * (e.lambda + 2 * e.mu) * std::fabs(eps));
    }
  }
}

TEST(MpmMaterials, StressesAreDerivativesOfTheirEnergies) {
  // tau = P F^T with P = dpsi/dF, checked by central differences at large deformations:
  //   fixed corotated psi = mu sum (sigma_i - 1)^2 + lambda/2 (J - 1)^2
  //   Hencky          psi = mu sum log(sigma_i)^2 + lambda/2 (sum log sigma_i)^2
  MpmMaterial e = makeElastic(1000, 1e5f, 0.3f);
  MpmMaterial sand = makeSand(1000, 1e5f, 0.3f, 30);
  auto corotated = [&](const D3& f) {
    auto s = singularValuesDouble(f);
    double J = det(f), sum = 0;
    for (double x : s) sum += (x - 1) * (x - 1);
    return e.mu * sum + e.lambda / 2 * (J - 1) * (J - 1);
  };
  auto hencky = [&](const D3& f) {
    auto s = singularValuesDouble(f);
    double sq = 0, tr = 0;
    for (double x : s) sq += std::log(x) * std::log(x), tr += std::log(x);
    return sand.mu * sq + sand.lambda / 2 * tr * tr;
  };
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> strain(-0.3, 0.3);
  for (int trial = 0; trial < 20; ++trial) {
    Mat3 F = deformation(randomRotation(rng), {strain(rng), strain(rng), strain(rng)}, randomRotation(rng));
    D3 fd = toDouble(F);
    D3 want = mul(energyGradient(F, corotated, 1e-6), transposed(fd));
    EXPECT_LT(distance(toDouble(kirchhoffStress(e, F, 1, 1)), want), 1e-4 * frobenius(want) + 1e-3 * e.mu);
    want = mul(energyGradient(F, hencky, 1e-6), transposed(fd));
    EXPECT_LT(distance(toDouble(kirchhoffStress(sand, F, 1, 1)), want), 1e-4 * frobenius(want) + 1e-3 * e.mu);
  }
}

TEST(MpmMaterials, SnowHardeningAndClamp) {
  MpmMaterial snow = makeSnow(400, 1.4e5f, 0.2f, 2.5e-2f, 7.5e-3f, 10);
  MpmMaterial elastic = snow;
  elastic.type = MpmMaterialType::Elastic;
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> strain(-0.08, 0.05);
  std::uniform_real_distribution<double> jp(0.8, 1.2);
  double lo = 1 - snow.criticalCompression, hi = 1 + snow.criticalStretch;
  for (int trial = 0; trial < 200; ++trial) {
    Mat3 F = deformation(randomRotation(rng), {strain(rng), strain(rng), strain(rng)}, randomRotation(rng));
    Real plasticJ = Real(jp(rng));

    // stress: the elastic one scaled by e^{xi (1 - Jp)}
    double h = std::exp(snow.hardening * (1 - plasticJ));
    Mat3 tauSnow = kirchhoffStress(snow, F, 1, plasticJ), tauElastic = kirchhoffStress(elastic, F, 1, 1);
    EXPECT_LT(maxAbsDiff(tauSnow, tauElastic * Real(h)),
              1e-5 * h * std::sqrt(frobeniusNormSquared(tauElastic)) + 1e-3);

    // projection: singular values in the band, Jp det F conserved
    double before = plasticJ * double(determinant(F));
    Mat3 projected = F;
    projectPlasticity(snow, projected, plasticJ);
    Mat3 U, V;
    Vec3 s;
    svd3(projected, U, s, V);
    for (double x : {s.x, s.y, s.z}) {
      EXPECT_GE(x, lo - 1e-6);
      EXPECT_LE(x, hi + 1e-6);
    }
    EXPECT_NEAR(plasticJ * double(determinant(projected)), before, 1e-5 * std::fabs(before));
  }
  // inside the band F is unchanged (to rounding) and so is Jp
  Mat3 F = toFloat(mul(randomRotation(rng), diag(1.005, 0.99, 0.98)));
  Mat3 projected = F;
  Real plasticJ = 1;
  projectPlasticity(snow, projected, plasticJ);
  EXPECT_LT(maxAbsDiff(projected, F), 1e-6);
  EXPECT_NEAR(plasticJ, 1, 1e-6);
  // elastic and water are left alone
  for (const MpmMaterial& m : {elastic, makeWater(1000, 1e5f, false, 7, 0)}) {
    Mat3 G = Mat3::diagonal({2, 0.5f, 1});
    Real j = 0.7f;
    projectPlasticity(m, G, j);
    EXPECT_EQ(maxAbsDiff(G, Mat3::diagonal({2, 0.5f, 1})), 0);
    EXPECT_EQ(j, 0.7f);
  }
}

TEST(MpmMaterials, SandReturnMapping) {
  MpmMaterial sand = makeSand(1600, 3.537e5f, 0.3f, 35);
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> strain(-0.1, 0.1);
  int projectedCount = 0, tipCount = 0, insideCount = 0;
  for (int trial = 0; trial < 500; ++trial) {
    D3 u = randomRotation(rng), v = randomRotation(rng);
    std::array<double, 3> eps{strain(rng), strain(rng), strain(rng)};
    // a third of the states compressed enough to be mostly inside the cone
    if (trial % 3 == 0)
      for (double& x : eps) x -= 0.1;
    Mat3 F = deformation(u, eps, v);
    double tr = eps[0] + eps[1] + eps[2], yieldBefore = sandYield(sand, F);
    Real plasticJ = 1;
    double before = double(determinant(F));
    Mat3 projected = F;
    projectPlasticity(sand, projected, plasticJ);
    double yieldAfter = sandYield(sand, projected);
    EXPECT_LE(yieldAfter, 1e-5);
    EXPECT_NEAR(plasticJ * double(determinant(projected)), before, 1e-5 * before);
    if (tr > 1e-6) {
      // expansion: back to the apex Sigma = I, so F becomes the rotation U V^T
      ++tipCount;
      EXPECT_LT(maxAbsDiff(projected, toFloat(mul(u, transposed(v)))), 1e-5);
    } else if (tr < -1e-6 && yieldBefore > 1e-5) {
      // a compressed state outside the cone lands on its surface with the volume kept
      ++projectedCount;
      EXPECT_NEAR(yieldAfter, 0, 1e-5);
      EXPECT_NEAR(determinant(projected), before, 1e-5);
    } else if (yieldBefore < -1e-5) {
      // inside the cone: untouched
      ++insideCount;
      EXPECT_EQ(maxAbsDiff(projected, F), 0);
      EXPECT_EQ(plasticJ, 1);
    }
  }
  EXPECT_GT(tipCount, 50);
  EXPECT_GT(projectedCount, 50);
  EXPECT_GT(insideCount, 20);

  // pure compression has no deviator and stays inside
  Mat3 squeezed = Mat3::diagonal({0.9f, 0.9f, 0.9f});
  Real plasticJ = 1;
  projectPlasticity(sand, squeezed, plasticJ);
  EXPECT_EQ(maxAbsDiff(squeezed, Mat3::diagonal({0.9f, 0.9f, 0.9f})), 0);

  // an inverted F comes out uninverted and inside the cone
  Mat3 inverted = Mat3::diagonal({0.95f, 0.9f, -0.9f});
  projectPlasticity(sand, inverted, plasticJ);
  EXPECT_GT(determinant(inverted), 0);
  EXPECT_LE(sandYield(sand, inverted), 1e-5);

  // cohesion moves the apex to mean Kirchhoff stress = cohesion
  MpmMaterial cohesive = sand;
  cohesive.cohesion = 1e3f;
  Mat3 stretched = Mat3::diagonal({1.1f, 1.05f, 1.02f});
  plasticJ = 1;
  projectPlasticity(cohesive, stretched, plasticJ);
  Mat3 tau = kirchhoffStress(cohesive, stretched, 1, plasticJ);
  EXPECT_NEAR(trace(tau) / 3, 1e3, 1.0);
  EXPECT_LT(std::fabs(tau.m[0][0] - tau.m[1][1]) + std::fabs(tau.m[0][1]), 1.0);
}
