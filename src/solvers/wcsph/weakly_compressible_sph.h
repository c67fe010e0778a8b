// Weakly compressible SPH after Mueller, Charypar & Gross 2003, "Particle-Based Fluid Simulation for
// Interactive Applications": poly6 density, pressure from an equation of state (Tait with gamma = 7 and
// stiffness B = rho0 c^2 / gamma, Monaghan 1994; or linear k (rho - rho0)), a symmetric pressure force
// with the spiky gradient, -sum_j m (p_i/rho_i^2 + p_j/rho_j^2) grad W (momentum-conserving; Mueller et
// al.'s (p_i + p_j) / 2 rho_j average gained energy at rest in our tests), viscosity through the viscosity
// kernel's Laplacian, symplectic Euler, and a substep from a CFL condition on speed of sound and velocity.
// The CFL condition and the viscosity's equivalence with Monaghan's alpha use the smoothing length, half
// the kernel support (J. J. Monaghan, "Smoothed particle hydrodynamics", Rep. Prog. Phys. 68, 2005).
#pragma once

#include <cmath>

#include "solvers/solver.h"

namespace eddy::EDDY_NS {

class WeaklyCompressibleSph final : public Solver {
 public:
  explicit WeaklyCompressibleSph(const SceneDesc& scene) : settings_(scene.wcsph) {}
  const char* name() const override { return "wcsph"; }
  void setup(StepContext& ctx) override;
  Real stableTimeStep(StepContext& ctx) override;
  bool invalidState() const override { return invalid_; }
  void step(StepContext& ctx, Real dt) override;

  void densityAndPressure(StepContext& ctx);
  void forces(StepContext& ctx);
  void integrate(StepContext& ctx, Real dt);
  Real soundSpeed() const {
    return settings_.equationOfState == "linear" ? std::sqrt(settings_.stiffness) : settings_.speedOfSound;
  }
  // nu = alpha ell c / 10 (Monaghan's artificial viscosity alpha in three dimensions)
  Real kinematicViscosity(const SphKernels& k) const {
    return settings_.viscosity * k.smoothingLength() * soundSpeed() / 10;
  }

 private:
  WcsphSettings settings_;
  bool invalid_ = false;  // the last speed maximum was not finite
};

}  // namespace eddy::EDDY_NS
