// Weakly compressible SPH after Mueller, Charypar & Gross 2003, "Particle-Based Fluid Simulation for
// Interactive Applications": poly6 density, pressure from an equation of state (Tait with gamma = 7 and
// stiffness B = rho0 c^2 / gamma, Monaghan 1994; or linear k (rho - rho0)), the symmetric spiky pressure
// force -sum m (p_i + p_j) / (2 rho_j) grad W, viscosity through the viscosity kernel's Laplacian,
// symplectic Euler, and a substep from a CFL condition on speed of sound and maximum velocity.
#pragma once

#include "solvers/solver.h"

#include <cmath>

namespace eddy::EDDY_NS {

class WeaklyCompressibleSph final : public Solver {
 public:
  explicit WeaklyCompressibleSph(const SceneDesc& scene) : settings_(scene.wcsph) {}
  const char* name() const override { return "wcsph"; }
  void setup(StepContext& ctx) override;
  Real stableTimeStep(StepContext& ctx) override;
  void step(StepContext& ctx, Real dt) override;

  void densityAndPressure(StepContext& ctx);
  void forces(StepContext& ctx);
  void integrate(StepContext& ctx, Real dt);
  Real soundSpeed() const {
    return settings_.equationOfState == "linear" ? std::sqrt(settings_.stiffness) : settings_.speedOfSound;
  }

 private:
  WcsphSettings settings_;
};

}  // namespace eddy::EDDY_NS
