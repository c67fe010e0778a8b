// Divergence-free SPH: J. Bender & D. Koschier, "Divergence-Free Smoothed Particle Hydrodynamics" (SCA
// 2015) and "Divergence-Free SPH for Incompressible and Viscous Fluids" (IEEE TVCG 23(3), 2017). Two
// implicit pressure solves per substep on a per-particle stiffness kappa_i = p_i / rho_i^2 with the
// symmetric pressure acceleration a_i = -sum_j m (kappa_i + kappa_j) grad W_ij:
//   - the divergence solve makes the velocities divergence-free at the current positions (d rho / dt = 0);
//   - the constant-density solve makes the density predicted one substep ahead, rho_i + dt d rho_i / dt,
//     the rest density.
// The papers' Jacobi iterations set kappa_i from particle i's own error through the factor alpha_i = 1 /
// D_i, where dt^2 kappa_i D_i is the density change its own pressure makes (the paper's Eq. 8, with the
// colliders below), so a solve needs no matrix. They start from half the stiffness of the previous substep
// where the particle is compressed (warm start, section 4.3 of the 2017 paper, as SPlisHSPlasH does), and
// stop once the mean error over all particles (those left out of a solve count as 0) is within the
// tolerance: the compression max(0, rho*_i / rho0 - 1), and dt max(0, d rho_i / dt) / rho0 (only
// compression is corrected; particles with a thin neighbourhood, at the free surface, are left out of the
// divergence solve, as in SPlisHSPlasH; see below). The divergence solve always iterates so; the
// constant-density solve by default runs conjugate gradients with the same operator and alpha_i as the
// preconditioner (dfsph/conjugate_gradient.cpp, the operator in dfsph/pressure_operator.h), which deep water
// needs. The substep follows a CFL condition on the velocity (the paper's 0.4 particle diameters), counting
// what gravity adds within it, (v_max + |g| dt) dt <= cfl spacing, and keeps g dt^2 <= 0.01 spacing
// (stableTimeStepOf says why); no speed of sound.
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
// Viscosity is XSPH (Schechter & Bridson 2012's form, as PBF), taken in the density pass from the velocities
// the substep starts with and applied with gravity before the constant-density solve. Bender & Koschier's
// loop takes the non-pressure forces after the divergence solve of the step before, which here would be the
// velocities the divergence solve leaves; measured, that order settled a column 48 spacings deep 1.5 % above
// rho g d at every probe (+1.5 .. +2.2 %, against -0.5 .. +1.1 %), past the 2 % its test holds it to, and
// cost a walk of the neighbour lists of its own, so XSPH stays in the density pass (docs/validation.md, "The
// divergence solve's neighbourhood and XSPH's place").
//
// The divergence solve leaves out the particles whose neighbourhood is thin (the free surface, as
// SPlisHSPlasH does): fewer than 20/26 of a full one, scaled to the support, so that the solve acts at any
// fluid.support_ratio (at 1.5 a particle inside the lattice has 18 neighbours, fewer than SPlisHSPlasH's 20).
// The layer beside a wall has 17 at a support of two spacings and is left out too: counting a wall's share
// of the kernel as neighbours took it in, and the tank at rest's wall probes then read up to 3 % low.
#pragma once

#include "backend/async_readback.h"
#include "solvers/dfsph/pressure_operator.h"
#include "solvers/solver.h"

namespace eddy::EDDY_NS {

namespace attr_dfsph {
// the stiffness kappa = p / rho^2 of the last constant-density and divergence solves (warm starts)
constexpr const char* kDensityKappa = "dfsph_density_kappa";
constexpr const char* kDivergenceKappa = "dfsph_divergence_kappa";
constexpr const char* kFactor = "dfsph_factor";  // alpha = 1 / D
// the position and this iteration's kappa, packed so that the velocity pass reads a neighbour in one load
constexpr const char* kPositionStep = "dfsph_position_step";
constexpr const char* kError = "dfsph_error";                     // this iteration's error, for the mean
constexpr const char* kSmoothing = "dfsph_xsph";                  // the XSPH velocity change
constexpr const char* kCorrection = "dfsph_gradient_correction";  // L^-1 (SymmetricMatrix)
// the gradient of both solves' kappa, as the pressure is (its mirror's variation along the walls)
constexpr const char* kKappaGradient = "dfsph_density_kappa_gradient";
// conjugate gradients (scratch): the operator's acceleration a(p) of the search direction p (in
// kPositionStep's w) with w = 1 on the particles solved for, the residual r, A p, and the solution x
constexpr const char* kDirectionAcceleration = "dfsph_cg_acceleration";
constexpr const char* kResidual = "dfsph_cg_residual";
constexpr const char* kOperatorProduct = "dfsph_cg_product";
constexpr const char* kSolution = "dfsph_cg_solution";
constexpr const char* kBestSolution = "dfsph_cg_best_solution";  // x where the error was the smallest
}  // namespace attr_dfsph

class DivergenceFreeSph final : public Solver {
 public:
  // SPlisHSPlasH leaves particles with fewer than 20 neighbours out of the divergence solve, at a support of
  // two spacings, where a particle inside the cubic lattice has 26: this share of a full neighbourhood
  // (divergenceNeighbors_ scales it to the scene's support)
  static constexpr Real kDivergenceNeighborhood = Real(20) / Real(26);
  // the substep keeps g dt^2 within this share of a spacing (stableTimeStepOf)
  static constexpr Real kGravityReach = Real(0.01);
  explicit DivergenceFreeSph(const SimulationDesc& scene) : settings_(scene.dfsph) {}
  const char* name() const override { return "dfsph"; }
  void setup(StepContext& ctx) override;
  void launchStableTimeStep(StepContext& ctx, int slot) override;
  Real stableTimeStepOf(StepContext& ctx, int slot, Real knownSpeed) override;
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
  // alongWalls: with the mirror's variation along the walls (conjugate gradients' correction goes without)
  void velocityPass(StepContext& ctx, Real dt, bool warmStart, const std::uint32_t* stop = nullptr,
                    bool alongWalls = true);
  // on the device: whether the solve stops after `iteration` (the mean error, or the iteration limits)
  void decide(StepContext& ctx, int iteration, Real tolerance, int fewest, int slot);
  // the constant-density solve as conjugate gradients (dfsph/conjugate_gradient.cpp); returns its iterations
  int conjugateGradient(StepContext& ctx, Real dt, int fewest);
  static void addConjugateAttributes(ParticleSet& p);
  static int conjugateScalarCount();
  void decideConjugate(StepContext& ctx, int iteration, int fewest, int slot);
  void advance(StepContext& ctx, Real dt);

 private:
  PressureAcceleration pressureAcceleration(StepContext& ctx, bool alongWalls = true) const;
  DensityRate densityRate(StepContext& ctx) const;
  bool conjugate() const { return settings_.pressureSolver == "conjugate_gradient"; }
  // the share of the last solve's stiffness a solve starts from: half for Jacobi iterations, which only
  // add stiffness (with more a particle held slightly compressed winds up), all of it for conjugate
  // gradients, which take it back where it is too much
  template <bool Divergence>
  Real warmStartShare() const {
    return !Divergence && conjugate() ? Real(1) : Real(0.5);
  }

  DfsphSettings settings_;
  Real gradientScale_ = 1;  // see latticeGradientScale
  // the fewest neighbours the divergence solve takes a particle in with (kDivergenceNeighborhood)
  Real divergenceNeighbors_ = 0;
  WallMoments lateral_;
  bool invalid_ = false;   // the last speed maximum was not finite
  AsyncReadback fastest_;  // the fastest particle's speed (as bits), per slot
  // A solve decides on the device whether to stop: the errors are summed there (errorSum_), and the
  // decision (word 0: stop, word 1: the iterations run) lands in solveState_ for the passes and in a
  // read-back slot for the host, which reads it after queuing the next passes, so the GPU does not wait
  // for the host.
  Buffer<double> errorSum_;
  Buffer<std::uint32_t> solveState_;
  // conjugate gradients' scalars on the device (dfsph/conjugate_gradient.cpp)
  Buffer<double> conjugateScalars_;
  AsyncReadback decision_;
};

}  // namespace eddy::EDDY_NS
