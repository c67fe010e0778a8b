// Divergence-free SPH: J. Bender & D. Koschier, "Divergence-Free Smoothed Particle Hydrodynamics" (SCA
// 2015) and "Divergence-Free SPH for Incompressible and Viscous Fluids" (IEEE TVCG 23(3), 2017). Two
// implicit pressure solves per substep, both Jacobi iterations on a per-particle stiffness kappa_i = p_i /
// rho_i^2 with the symmetric pressure acceleration a_i = -sum_j m (kappa_i + kappa_j) grad W_ij:
//   - the divergence solve makes the velocities divergence-free at the current positions (d rho / dt = 0);
//   - the constant-density solve makes the density predicted one substep ahead, rho_i + dt d rho_i / dt,
//     the rest density.
// Each iteration sets kappa_i from particle i's own error through the factor alpha_i = 1 / D_i, where
// dt^2 kappa_i D_i is the density change its own pressure makes (the paper's Eq. 8, with the colliders
// below), so a solve needs no matrix. Both solves start from half the stiffness of the previous substep
// where the particle is compressed (warm start, section 4.3 of the 2017 paper, as SPlisHSPlasH does), and
// stop at a mean error: the compression max(0, rho*_i / rho0 - 1), and dt max(0, d rho_i / dt) / rho0
// (only compression is corrected; particles with fewer than 20 neighbours, at the free surface, are left
// out of the divergence solve, as in SPlisHSPlasH). The substep follows a CFL condition on the velocity
// alone, dt <= cfl spacing / v_max (the paper's 0.4 particle diameters).
//
// The density is the poly6 sum of the other solvers; its rate and the pressure force use the spiky
// gradient, scaled by the lattice gradient correction WCSPH uses (solvers/fluid_common.h), so that the
// pressure which balances gravity is rho g d and the probes read it.
//
// The colliders are fluid at rest as for WCSPH (solvers/wall_kernel.h), mirrored as Adami, Hu & Adams
// (2012) mirror them: their density share rho0 F(d) in rho_i; in the pressure force a mirror particle of
// stiffness kappa_i plus the hydrostatic step rho0 g . 2 (x_wall - x_i), never negative; and in d rho_i / dt
// a mirror whose velocity relative to the wall is -(v_i - v_wall), so that the wall term is 2 rho0 A_i . (v_i
// - v_wall), A_i the wall integral of grad W (as WCSPH's continuity has it). With A = sum_j m grad W_ij and B
// = rho0 A_i, particle i's own kappa changes its velocity by -dt kappa (A + 2 B) and its neighbours' by dt
// kappa m grad W_ij, so D_i = s^2 (|A + 2 B|^2 + sum_j |m grad W_ij|^2), s the gradient scale. The rate and
// the force then carry the same factor 2 on the wall, which makes the solve's operator symmetric: with the
// wall counted once in the rate it was not, and the constant-density solve of the Buchner dam break (every
// particle beside a side wall of its 4-spacing slab) stalled near 0.1 % for 100 iterations and then diverged,
// its error growing 2.7 % an iteration in the layers above the floor. The mirror's stiffness also varies
// along each flat wall as the fluid's does: kappa_i + (x_b - x_i) . grad kappa_i, with grad kappa_i the
// corrected gradient of J. Bonet & T.-S. L. Lok, "Variational and momentum preservation aspects of SPH
// formulations" (CMAME 180, 1999). A particle beside a side wall has lost the neighbours beyond it that
// carried part of the vertical pressure gradient; without this term the layers along the walls of a tank at
// rest slid down, since the solves hold the density but nothing resists a shear.
//
// Viscosity is XSPH (Schechter & Bridson 2012's form, as PBF), applied with gravity before the
// constant-density solve.
#pragma once

#include "backend/async_readback.h"
#include "solvers/gradient_correction.h"
#include "solvers/solver.h"
#include "solvers/wall_kernel.h"

namespace eddy::EDDY_NS {

class DivergenceFreeSph final : public Solver {
 public:
  // particles with fewer neighbours than this are left out of the divergence solve (SPlisHSPlasH's value)
  static constexpr int kDivergenceNeighbors = 20;
  explicit DivergenceFreeSph(const SceneDesc& scene) : settings_(scene.dfsph) {}
  const char* name() const override { return "dfsph"; }
  void setup(StepContext& ctx) override;
  void launchStableTimeStep(StepContext& ctx, int slot) override;
  Real stableTimeStepOf(StepContext& ctx, int slot) override;
  bool invalidState() const override { return invalid_; }
  void step(StepContext& ctx, Real dt) override;
  bool pressures(StepContext& ctx, Real* out) override;
  Real gradientScale() const override { return gradientScale_; }
  WallTerms wallTerms(StepContext& ctx) override;
  // below the half spacing where the layer beside a wall rests, so that the walls' pressure carries it
  // (at 0.5 the contact response held part of a tank's weight: the domain read 8.5 % light; at 0.45, 1.2 %)
  Real contactSpacings() const override { return Real(0.4); }

  // stages of one substep, in order (public so that CUDA lambdas may live in them)
  void densityAndFactor(StepContext& ctx);
  void nonPressureForces(StepContext& ctx, Real dt);
  // one of the two solves; returns the iterations it ran
  template <bool Divergence>
  int solve(StepContext& ctx, Real dt);
  // the passes of an iteration do nothing once *stop is set (null: always run)
  template <bool Divergence, bool WarmStart>
  void stiffnessPass(StepContext& ctx, Real dt, const std::uint32_t* stop = nullptr);
  template <bool Divergence>
  void velocityPass(StepContext& ctx, Real dt, bool warmStart, const std::uint32_t* stop = nullptr);
  // on the device: whether the solve stops after `iteration` (the mean error, or the iteration limits)
  void decide(StepContext& ctx, int iteration, Real tolerance, int fewest, int slot);
  void advance(StepContext& ctx, Real dt);

 private:
  DfsphSettings settings_;
  Real gradientScale_ = 1;  // see latticeGradientScale
  WallMoments lateral_;
  bool invalid_ = false;   // the last speed maximum was not finite
  AsyncReadback fastest_;  // the fastest particle's speed (as bits), per slot
  // A solve decides on the device whether to stop: the errors are summed there (errorSum_), and the
  // decision (word 0: stop, word 1: the iterations run) lands in solveState_ for the passes and in a
  // read-back slot for the host, which reads it after queuing the next passes, so the GPU does not wait
  // for the host.
  Buffer<double> errorSum_;
  Buffer<std::uint32_t> solveState_;
  AsyncReadback decision_;
};

}  // namespace eddy::EDDY_NS
