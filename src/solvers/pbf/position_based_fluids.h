// Position Based Fluids: Macklin & Mueller 2013, "Position Based Fluids", ACM TOG 32(4).
// Density constraint C_i = rho_i/rho0 - 1 solved by Jacobi iterations with lambda_i, the s_corr
// tensile-instability term, colliders inside the loop, then XSPH viscosity and vorticity confinement on
// the new velocities.
// Over-relaxation scales every Jacobi correction by omega in [1, 2) (successive over-relaxation of
// M. Macklin, M. Mueller, N. Chentanez, T.-Y. Kim, "Unified particle physics for real-time applications",
// SIGGRAPH 2014, section 4.2); constraint averaging divides it by the number of constraints (neighbours)
// acting on the particle, which damps the solve and is offered separately.
#pragma once

#include "solvers/solver.h"

namespace eddy::EDDY_NS {

class PositionBasedFluids final : public Solver {
 public:
  explicit PositionBasedFluids(const SimulationDesc& scene) : settings_(scene.pbf) {}
  const char* name() const override { return "pbf"; }
  void setup(StepContext& ctx) override;
  void step(StepContext& ctx, Real dt) override;
  int neighborCap() const override { return settings_.maxNeighbors; }
  bool pressures(StepContext& ctx, Real* out) override;
  WallTerms wallTerms(StepContext& ctx) override;

  // stages of one substep, in order (public so that CUDA lambdas may live in them)
  void predict(StepContext& ctx, Real dt);
  void solveDensity(StepContext& ctx, Real dt);
  void correctPositions(StepContext& ctx, Real dt, bool applyColliders);
  template <int ScorrPow, bool Colliders>
  void correctionPass(StepContext& ctx, Real dt);
  void updateVelocities(StepContext& ctx, Real dt);
  void viscosityAndVorticity(StepContext& ctx, Real dt);
  template <bool Vorticity>
  void smoothVelocities(StepContext& ctx);

 private:
  PbfSettings settings_;
  Real restGradientSum_ = 1;
};

}  // namespace eddy::EDDY_NS
