// SphKernels against their defining properties: unit integral, zero mean gradient, the spiky gradient as
// the derivative of spiky, the viscosity Laplacian as the Laplacian of the viscosity kernel.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "core/sph_kernels.h"

using namespace eddy;

namespace {

constexpr double kPi = 3.14159265358979323846;

// supports seen in practice (spacing 0.02..0.04 m, ratio 2) and one far from them
const std::array<Real, 3> kSupports = {0.04f, 0.08f, 1.7f};

// 5-point Gauss-Legendre on [-1, 1]
constexpr std::array<double, 5> kGlX = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                                        0.9061798459386640};
constexpr std::array<double, 5> kGlW = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                        0.4786286704993665, 0.2369268850561891};

// integral of f(r) 4 pi r^2 dr over [0, h] in shells; each shell uses Gauss-Legendre, which is exact for
// the polynomial integrands here up to the float rounding of the kernels themselves
template <class F>
double radialIntegral(double h, F f, int shells = 400) {
  double sum = 0, dr = h / shells;
  for (int s = 0; s < shells; ++s) {
    double mid = (s + 0.5) * dr;
    for (int g = 0; g < 5; ++g) {
      double r = mid + 0.5 * dr * kGlX[g];
      sum += 0.5 * dr * kGlW[g] * 4 * kPi * r * r * f(r);
    }
  }
  return sum;
}

// integral of f(x) over the cube [-h, h]^3 with the midpoint rule on an n^3 grid shifted by `offset` cells,
// so that the samples are not symmetric about the origin
template <class F>
std::array<double, 4> cartesianIntegral(double h, int n, Vec3 offset, F f) {
  double dx = 2 * h / n, dv = dx * dx * dx;
  std::array<double, 4> acc{};
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        Vec3 x{Real(-h + (i + 0.5 + offset.x) * dx), Real(-h + (j + 0.5 + offset.y) * dx),
               Real(-h + (k + 0.5 + offset.z) * dx)};
        std::array<double, 4> v = f(x);
        for (int c = 0; c < 4; ++c) acc[c] += v[c] * dv;
      }
  return acc;
}

double norm(const double* v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

double viscosityLaplacianExact(double h, double r) { return 45.0 / (kPi * std::pow(h, 6)) * (h - r); }

}  // namespace

TEST(Kernels, IntegrateToOneInShells) {
  for (Real h : kSupports) {
    SphKernels k = SphKernels::make(h);
    double poly6 = radialIntegral(h, [&](double r) { return double(k.poly6(Real(r * r))); });
    double spiky = radialIntegral(h, [&](double r) { return double(k.spiky(Real(r))); });
    double visc = radialIntegral(h, [&](double r) { return double(k.viscosity(Real(r))); });
    EXPECT_NEAR(poly6, 1.0, 1e-3) << "poly6, h=" << h;
    EXPECT_NEAR(spiky, 1.0, 1e-3) << "spiky, h=" << h;
    EXPECT_NEAR(visc, 1.0, 1e-3) << "viscosity, h=" << h;
  }
}

TEST(Kernels, IntegrateToOneOnAGrid) {
  // the same normalisation seen through a 3D lattice sum, which is what a particle density really is
  Real h = 0.08f;
  SphKernels k = SphKernels::make(h);
  auto sums = cartesianIntegral(h, 160, {0.31f, 0.17f, 0.43f}, [&](Vec3 x) {
    Real r2 = dot(x, x), r = std::sqrt(r2);
    return std::array<double, 4>{k.poly6(r2), k.spiky(r), k.viscosity(r), 0.0};
  });
  EXPECT_NEAR(sums[0], 1.0, 1e-3) << "poly6";
  EXPECT_NEAR(sums[1], 1.0, 1e-3) << "spiky";
  EXPECT_NEAR(sums[2], 1.0, 1e-3) << "viscosity";
}

TEST(Kernels, ZeroSupportOutside) {
  SphKernels k = SphKernels::make(0.08f);
  for (Real r : {0.08f, 0.0800001f, 0.1f, 10.0f}) {
    EXPECT_EQ(k.poly6(r * r), 0) << r;
    EXPECT_EQ(k.spiky(r), 0) << r;
    EXPECT_EQ(k.viscosity(r), 0) << r;
    EXPECT_EQ(k.viscosityLaplacian(r), 0) << r;
    Vec3 g = k.spikyGradient({r, 0, 0}, r);
    EXPECT_EQ(g.x, 0) << r;
  }
  // the kernels are positive inside the support
  for (Real q : {0.01f, 0.3f, 0.7f, 0.99f}) {
    Real r = q * k.h;
    EXPECT_GT(k.poly6(r * r), 0) << q;
    EXPECT_GT(k.spiky(r), 0) << q;
    EXPECT_GT(k.viscosity(r), 0) << q;
    EXPECT_GT(k.viscosityLaplacian(r), 0) << q;
  }
}

TEST(Kernels, SpikyGradientIntegratesToZero) {
  for (Real h : kSupports) {
    SphKernels k = SphKernels::make(h);
    // spherical quadrature: Gauss-Legendre in r and cos(theta), uniform in phi, on a randomly rotated frame
    // so that the samples have no mirror symmetry in x, y, z
    std::mt19937 rng(12345);
    std::normal_distribution<double> nd;
    double qx = nd(rng), qy = nd(rng), qz = nd(rng), qw = nd(rng);
    double qn = std::sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    Quat rot{Real(qw / qn), Real(qx / qn), Real(qy / qn), Real(qz / qn)};
    const int shells = 100, thetas = 12, phis = 24;
    double sum[3] = {0, 0, 0}, sumAbs = 0;
    double dr = h / shells;
    for (int s = 0; s < shells; ++s)
      for (int gr = 0; gr < 5; ++gr) {
        double r = (s + 0.5) * dr + 0.5 * dr * kGlX[gr];
        double wr = 0.5 * dr * kGlW[gr] * r * r;
        for (int t = 0; t < thetas; ++t) {
          // Gauss-Legendre in cos(theta) with 5 points per band
          double c0 = -1 + 2.0 * t / thetas, c1 = -1 + 2.0 * (t + 1) / thetas;
          for (int gc = 0; gc < 5; ++gc) {
            double c = 0.5 * (c0 + c1) + 0.5 * (c1 - c0) * kGlX[gc];
            double wc = 0.5 * (c1 - c0) * kGlW[gc];
            double sn = std::sqrt(std::max(0.0, 1 - c * c));
            for (int p = 0; p < phis; ++p) {
              double phi = 2 * kPi * (p + 0.25) / phis;
              double wp = 2 * kPi / phis;
              Vec3 dir = rotate(rot, Vec3{Real(sn * std::cos(phi)), Real(sn * std::sin(phi)), Real(c)});
              Vec3 rij = dir * Real(r);
              Vec3 g = k.spikyGradient(rij, length(rij));
              double w = wr * wc * wp;
              sum[0] += w * g.x;
              sum[1] += w * g.y;
              sum[2] += w * g.z;
              sumAbs += w * length(g);
            }
          }
        }
      }
    // the magnitude integral has a closed form: int |W'| 4 pi r^2 dr = 45/(pi h^6) * 4 pi * h^5/30
    EXPECT_NEAR(sumAbs / (6.0 / h), 1.0, 1e-3) << "h=" << h;
    for (int c = 0; c < 3; ++c)
      EXPECT_LT(std::abs(sum[c]), 1e-6 * sumAbs) << "component " << c << ", h=" << h;
  }
}

TEST(Kernels, SpikyGradientIntegratesToZeroOnAGrid) {
  // an offset lattice sum: exact cancellation by symmetry is impossible, only the quadrature can cancel.
  // the cusp at the origin makes the lattice error fall as (dx/h)^3: 1.2e-6 at 80 cells per h, 1.5e-7 at 160
  Real h = 0.08f;
  SphKernels k = SphKernels::make(h);
  auto sums = cartesianIntegral(h, 320, {0.31f, 0.17f, 0.43f}, [&](Vec3 x) {
    Vec3 g = k.spikyGradient(x, length(x));
    return std::array<double, 4>{g.x, g.y, g.z, length(g)};
  });
  for (int c = 0; c < 3; ++c) EXPECT_LT(std::abs(sums[c]), 1e-6 * sums[3]) << "component " << c;
}

TEST(Kernels, SpikyGradientMatchesFiniteDifference) {
  for (Real h : kSupports) {
    SphKernels k = SphKernels::make(h);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    double gradScale = 45.0 / (kPi * std::pow(double(h), 4));  // |grad spiky| at r = 0
    int checked = 0;
    while (checked < 200) {
      Vec3 rij{Real(u(rng) * h), Real(u(rng) * h), Real(u(rng) * h)};
      Real r = length(rij);
      // stay clear of the origin and the support edge, where the central difference straddles a kink
      if (r < 0.05f * h || r > 0.95f * h) continue;
      ++checked;
      Vec3 g = k.spikyGradient(rij, r);
      // central differences in double; only the radius is rounded to the kernel's precision
      double fd[3];
      double step = 1e-3 * h;
      for (int c = 0; c < 3; ++c) {
        double a[3] = {rij.x, rij.y, rij.z}, b[3] = {rij.x, rij.y, rij.z};
        a[c] += step;
        b[c] -= step;
        fd[c] = (double(k.spiky(Real(norm(a)))) - double(k.spiky(Real(norm(b))))) / (2 * step);
      }
      EXPECT_NEAR(g.x, fd[0], 2e-3 * gradScale) << "h=" << h << " r/h=" << r / h;
      EXPECT_NEAR(g.y, fd[1], 2e-3 * gradScale) << "h=" << h << " r/h=" << r / h;
      EXPECT_NEAR(g.z, fd[2], 2e-3 * gradScale) << "h=" << h << " r/h=" << r / h;
      // and it points from j to i with the sign of a decreasing kernel: towards j
      EXPECT_LT(dot(g, rij), 0);
    }
  }
}

TEST(Kernels, SpikyGradientSquaredMatchesSpikyGradient) {
  // the hot loops' form (one reciprocal square root from r^2) must be the same function
  for (Real h : kSupports) {
    SphKernels k = SphKernels::make(h);
    std::mt19937 rng(9);
    std::uniform_real_distribution<Real> u(-1, 1);
    double gradScale = 45.0 / (kPi * std::pow(double(h), 4));
    for (int t = 0; t < 2000; ++t) {
      Vec3 rij = Vec3{u(rng), u(rng), u(rng)} * (h * 1.1f);
      Real r2 = dot(rij, rij);
      Vec3 a = k.spikyGradient(rij, std::sqrt(r2)), b = k.spikyGradientSquared(rij, r2);
      EXPECT_NEAR(a.x, b.x, 1e-5 * gradScale) << "h=" << h;
      EXPECT_NEAR(a.y, b.y, 1e-5 * gradScale) << "h=" << h;
      EXPECT_NEAR(a.z, b.z, 1e-5 * gradScale) << "h=" << h;
    }
    Vec3 zero = k.spikyGradientSquared({0, 0, 0}, 0);
    EXPECT_EQ(zero.x, 0);
    EXPECT_EQ(zero.y, 0);
    EXPECT_EQ(zero.z, 0);
    Vec3 out = k.spikyGradientSquared({h, 0, 0}, h * h);
    EXPECT_EQ(out.x, 0);
  }
}

TEST(Kernels, ViscosityLaplacianClosedForm) {
  for (Real h : kSupports) {
    SphKernels k = SphKernels::make(h);
    for (double q : {0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999}) {
      double r = q * h;
      double exact = viscosityLaplacianExact(h, r);
      EXPECT_NEAR(k.viscosityLaplacian(Real(r)), exact, 1e-5 * viscosityLaplacianExact(h, 0))
          << "h=" << h << " q=" << q;
    }
  }
}

TEST(Kernels, ViscosityLaplacianMatchesFiniteDifference) {
  for (Real h : kSupports) {
    SphKernels k = SphKernels::make(h);
    auto w = [&](double r) { return double(k.viscosity(Real(r))); };
    // radial Laplacian W'' + 2 W'/r by central differences, Richardson-extrapolated in the step
    auto fdLaplacian = [&](double r, double d) {
      double second = (w(r + d) - 2 * w(r) + w(r - d)) / (d * d);
      double first = (w(r + d) - w(r - d)) / (2 * d);
      return second + 2 * first / r;
    };
    for (double q : {0.4, 0.5, 0.6, 0.75, 0.85}) {
      double r = q * h, d = 0.02 * h;
      double fd = (4 * fdLaplacian(r, d) - fdLaplacian(r, 2 * d)) / 3;
      double exact = viscosityLaplacianExact(h, r);
      EXPECT_NEAR(fd, exact, 3e-3 * exact) << "h=" << h << " q=" << q;
      EXPECT_NEAR(k.viscosityLaplacian(Real(r)), fd, 3e-3 * exact) << "h=" << h << " q=" << q;
    }
    // the same through the 3D seven-point stencil at an off-axis point
    double x[3] = {0.3 * h, -0.4 * h, 0.2 * h};
    double r = norm(x), d = 0.02 * h;
    auto stencil = [&](double step) {
      double lap = 0;
      for (int c = 0; c < 3; ++c) {
        double a[3] = {x[0], x[1], x[2]}, b[3] = {x[0], x[1], x[2]};
        a[c] += step;
        b[c] -= step;
        lap += (w(norm(a)) - 2 * w(r) + w(norm(b))) / (step * step);
      }
      return lap;
    };
    double fd3 = (4 * stencil(d) - stencil(2 * d)) / 3;
    EXPECT_NEAR(fd3, viscosityLaplacianExact(h, r), 3e-3 * viscosityLaplacianExact(h, r)) << "h=" << h;
  }
}
