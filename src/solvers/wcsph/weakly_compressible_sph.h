// Weakly compressible SPH after Mueller, Charypar & Gross 2003, "Particle-Based Fluid Simulation for
// Interactive Applications": poly6 density, pressure from an equation of state (Tait with gamma = 7 and
// stiffness B = rho0 c^2 / gamma, Monaghan 1994; or linear k (rho - rho0)), a symmetric pressure force
// with the spiky gradient, -sum_j m (p_i/rho_i^2 + p_j/rho_j^2) grad W (momentum-conserving; Mueller et
// al.'s (p_i + p_j) / 2 rho_j average gained energy at rest in our tests), viscosity through the viscosity
// kernel's Laplacian, symplectic Euler, and a substep from a CFL condition on speed of sound and velocity.
// The CFL condition and the viscosity's equivalence with Monaghan's alpha use the smoothing length, half
// the kernel support (J. J. Monaghan, "Smoothed particle hydrodynamics", Rep. Prog. Phys. 68, 2005).
//
// The density ("density": "continuity", the default) is integrated in time instead of summed, as in
// Monaghan 1994 and DualSPHysics: d rho_i / dt = sum_j m (v_i - v_j) . grad_i W_ij over the fluid, plus the
// delta-SPH diffusion term of Molteni & Colagrossi 2009 ("A simple procedure to improve the pressure
// evaluation in hydrodynamic context using the SPH", Comput. Phys. Commun. 180) with the hydrostatic
// correction of Fourtakas et al. 2019 ("Local uniform stencil (LUST) boundary condition for arbitrary 3-D
// boundaries in parallel smoothed particle hydrodynamics (SPH) models", Computers & Fluids 190):
//   D_i = 2 delta ell c sum_j [(rho_j - rho_i) - rhoH_ji] (x_j - x_i) . grad_i W_ij / (r_ij^2 + eta^2) m /
//   rho_j
// with rhoH_ji = rho0 g . (x_j - x_i) / c^2, the hydrostatic density difference (linearised), so that a
// fluid at rest is left alone, and eta = 0.1 ell. The colliders, fluid at rest, add 2 rho0 (v_i - v_wall) .
// A_i, A_i the wall kernel's integral of grad W beyond the walls, the same integral their pressure force uses
// (a density share from the poly6 wall table instead, with the force from the spiky one, fed energy into a
// fluid at rest); beside flat walls that term and the fluid's sum are renormalised for the stretching along
// them (WallContinuity in solvers/wall_kernel.h, after Ferrand et al. 2013): on the rest lattice the layers
// beside a wall get the exact rate of a linear flow the wall lets through; off it, an approximate one.
// Particles start at the rest density, or at the density of the pressure their emitter asks for
// (EmitterDesc::pressure, sim/hydrostatic_start.h).
//
// Every kernel gradient (pressure force, divergence, walls) is scaled by 1 / kappa, kappa the spiky
// gradient of a linear field summed over the rest lattice as a share of the exact one (0.87 at a support of
// two spacings): a scalar form of the gradient correction of Bonet & Lok 1999 ("Variational and momentum
// preservation aspects of SPH formulations", CMAME 180). Without it a column at rest balanced its weight
// with a pressure gradient 15 % steeper than rho g, and wall probes read 15 % high.
//
// The walls' mirror particles (Adami, Hu & Adams 2012, solvers/wall_kernel.h) carry the particle's pressure
// and, as DFSPH's do, its variation along each flat wall, through the corrected gradient of p / rho^2 (Bonet
// & Lok's matrix, solvers/gradient_correction.h) in a pass over the particles near a wall.
#pragma once

#include <cmath>

#include "backend/async_readback.h"
#include "solvers/solver.h"
#include "solvers/wall_kernel.h"

namespace eddy::EDDY_NS {

// p(rho): Tait, p = B ((rho / rho0)^gamma - 1), or linear, p = k (rho - rho0)
struct EquationOfState {
  bool tait = true;
  Real rho0 = 1000, b = 0, gamma = 7, k = 0;
  // The summed density falls short at the free surface, where tension would make particles clump, so it
  // is bounded at 0 there. The integrated density is not: a bound fed energy into its diffusion term
  // (measured: a tank at rest gained kinetic energy instead of losing it).
  bool clampNegative = true;
  // the inverse of pressure() (unclamped)
  EDDY_HD Real density(Real p) const {
    return tait ? rho0 * powf(fmaxf(1 + p / b, Real(0)), 1 / gamma) : rho0 + p / k;
  }
  EDDY_HD Real pressure(Real rho) const {
    Real p = tait ? b * (powf(rho / rho0, gamma) - 1) : k * (rho - rho0);
    return clampNegative ? fmaxf(p, Real(0)) : p;
  }
};

class WeaklyCompressibleSph final : public Solver {
 public:
  // The integrated density never falls below this share of the rest density. A particle thrown off as
  // spray loses density with every neighbour it leaves, and far below rho0 the equation of state pulls
  // its neighbours back with a tension of the order of B: the plunging wave of the Buchner dam break at
  // H/80 and a paddle pushed through the default dam break blew up that way. At 0.99 the tension stays
  // under B (1 - 0.99^7) = 0.068 B (15 kPa, 1.6 m of water head, at c = 40 m/s).
  static constexpr Real kLowestDensity = Real(0.99);
  explicit WeaklyCompressibleSph(const SimulationDesc& scene) : settings_(scene.wcsph) {}
  const char* name() const override { return "wcsph"; }
  void setup(StepContext& ctx) override;
  void launchStableTimeStep(StepContext& ctx, int slot) override;
  Real stableTimeStepOf(StepContext& ctx, int slot, Real knownSpeed) override;
  bool invalidState() const override { return invalid_; }
  void step(StepContext& ctx, Real dt) override;
  void initializeParticles(StepContext& ctx, Index first, Index count, int emitterIndex) override;
  void startPressure(StepContext& ctx, Index first, Index count, const Real* pressure) override;
  void updateDensity(StepContext& ctx) override;
  bool pressures(StepContext& ctx, Real* out) override;
  Real gradientScale() const override { return gradientScale_; }
  WallTerms wallTerms(StepContext& ctx) override;
  WallTerms wallTermsNear(StepContext& ctx, std::uint32_t colliders) override;
  // below the resting layer's half spacing: the walls' mirrored pressure holds that layer, where a contact
  // at half a spacing held about 2 % of a tank's weight (the floor force read 3.1 % low; 0.9 % now)
  Real contactSpacings() const override { return Real(0.45); }
  // two light passes a substep read the lists: 16-bit entries cost the substep a little time and
  // save 95 of 334 bytes a particle; PBF and DFSPH, whose passes over the lists take most of their substep,
  // keep 32-bit ones (16-bit ones slowed them far more; measured with eddy bench, see bench/results)
  bool narrowNeighborLists() const override { return true; }

  void densityAndPressure(StepContext& ctx, Real dt);
  void packNeighborValues(StepContext& ctx, const Real* density);
  void forces(StepContext& ctx);
  void wallPressureGradient(StepContext& ctx, std::uint32_t colliders = kEveryCollider);
  void integrate(StepContext& ctx, Real dt);
  void integrateDensity(StepContext& ctx, Real dt);
  EquationOfState equationOfState(const StepContext& ctx) const;
  bool continuity() const { return settings_.density == "continuity"; }
  Real soundSpeed() const {
    return settings_.equationOfState == "linear" ? std::sqrt(settings_.stiffness) : settings_.speedOfSound;
  }
  // nu = alpha ell c / 10 (Monaghan's artificial viscosity alpha in three dimensions)
  Real kinematicViscosity(const SphKernels& k) const {
    return settings_.viscosity * k.smoothingLength() * soundSpeed() / 10;
  }

 private:
  WcsphSettings settings_;
  Real gradientScale_ = 1;     // see latticeGradientScale
  WallMoments lateral_;        // the walls' moments for the mirror's variation along them
  WallContinuity continuity_;  // the walls' term in the continuity rate
  bool invalid_ = false;       // the last speed maximum was not finite
  bool stepped_ = false;       // a substep has run (the wall forces' gradient needs its lists)
  AsyncReadback fastest_;      // the fastest particle's speed (as bits), per slot
};

}  // namespace eddy::EDDY_NS
