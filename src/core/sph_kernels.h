// SPH smoothing kernels of Mueller, Charypar & Gross 2003, "Particle-Based Fluid Simulation for
// Interactive Applications" (SCA 2003): poly6 for densities, spiky for pressure gradients, and the
// viscosity kernel whose Laplacian is positive everywhere. All have support h and integrate to 1.
#pragma once

#include <eddy/vec3.h>

namespace eddy {

// r = sqrt(r2) and 1/r: one reciprocal square root on the GPU; on the CPU a square root and a division,
// which also makes r exact where r2 is a square (so h - r is exactly 0 at r = h)
EDDY_HD inline void lengthAndInverse(Real r2, Real& r, Real& invR) {
#if defined(__CUDA_ARCH__)
  invR = rsqrtf(r2);
  r = r2 * invR;
#else
  r = sqrtf(r2);
  invR = Real(1) / r;
#endif
}

struct SphKernels {
  Real h = 0, h2 = 0;

  // The smoothing length of the formulas that are written for it (Monaghan's CFL condition and
  // artificial-viscosity equivalence): these kernels reach h, as the cubic spline reaches twice its
  // smoothing length, so ell = h / 2 (J. J. Monaghan, "Smoothed particle hydrodynamics", Rep. Prog. Phys.
  // 68, 2005, section 2).
  EDDY_HD Real smoothingLength() const { return Real(0.5) * h; }
  Real poly6Coef = 0, spikyCoef = 0, spikyGradCoef = 0, viscosityCoef = 0, viscosityLapCoef = 0;

  static SphKernels make(Real support) {
    constexpr double pi = 3.14159265358979323846;
    double h = support;
    SphKernels k;
    k.h = Real(h);
    k.h2 = Real(h * h);
    k.poly6Coef = Real(315.0 / (64.0 * pi * pow(h, 9)));
    k.spikyCoef = Real(15.0 / (pi * pow(h, 6)));
    k.spikyGradCoef = Real(-45.0 / (pi * pow(h, 6)));
    k.viscosityCoef = Real(15.0 / (2.0 * pi * pow(h, 3)));
    k.viscosityLapCoef = Real(45.0 / (pi * pow(h, 6)));
    return k;
  }

  // poly6 from the squared distance (no square root needed); branch-free, as in the pair loops
  EDDY_HD Real poly6(Real r2) const {
    Real d = h2 - r2;
    d = d > 0 ? d : Real(0);
    return poly6Coef * d * d * d;
  }
  EDDY_HD Real spiky(Real r) const {
    if (r >= h) return 0;
    Real d = h - r;
    return spikyCoef * d * d * d;
  }
  // gradient of the spiky kernel with respect to x_i for r_ij = x_i - x_j
  EDDY_HD Vec3 spikyGradient(Vec3 rij, Real r) const {
    if (r >= h || r <= Real(1e-9) * h) return {};
    Real d = h - r;
    return rij * (spikyGradCoef * d * d / r);
  }
  // spiky gradient from the squared distance, without a branch: in the pair loops "is this neighbour
  // still inside h" is a coin flip for a CPU's branch predictor (removing the branches here made the PBF
  // substep markedly faster on the CPU); zero beyond h and for coincident particles (rij = 0)
  EDDY_HD Vec3 spikyGradientSquared(Vec3 rij, Real r2) const {
    Real safe = r2 > Real(1e-18) * h2 ? r2 : Real(1e-18) * h2;
    Real r, invR;
    lengthAndInverse(safe, r, invR);
    Real d = h - r;
    d = d > 0 ? d : Real(0);
    return rij * (spikyGradCoef * d * d * invR);
  }
  EDDY_HD Real viscosity(Real r) const {
    if (r >= h || r <= 0) return 0;
    Real q = r / h;
    return viscosityCoef * (-q * q * q / 2 + q * q + Real(0.5) / q - 1);
  }
  EDDY_HD Real viscosityLaplacian(Real r) const {
    Real d = h - r;
    return viscosityLapCoef * (d > 0 ? d : Real(0));
  }
};

}  // namespace eddy
