#include "solvers/dfsph/divergence_free_sph.h"

#include <algorithm>
#include <cmath>

#include "solvers/fluid_common.h"

namespace eddy::EDDY_NS {

void DivergenceFreeSph::setup(StepContext& ctx) {
  const SphKernels& k = ctx.kernels;
  Real spacing = ctx.scene.fluid.spacing;
  gradientScale_ = latticeGradientScale(k, spacing);
  divergenceNeighbors_ = kDivergenceNeighborhood * Real(latticeNeighborCount(k, spacing));
  lateral_ = WallMoments::make(k, spacing, ctx.particleMass);
  ParticleSet& p = ctx.particles;
  p.addAttribute(attr_dfsph::kDensityKappa, 1);
  p.addAttribute(attr_dfsph::kDivergenceKappa, 1);
  p.addAttribute(attr_dfsph::kFactor, 1, false);
  p.addAttribute(attr_dfsph::kPositionStep, 4, false);
  p.addAttribute(attr_dfsph::kError, 1, false);
  p.addAttribute(attr_dfsph::kSmoothing, 3, false);
  p.addAttribute(attr_dfsph::kCorrection, 6, false);
  // persistent: the wall forces read it between frames, after the statistics have sorted the particles
  p.addAttribute(attr_dfsph::kKappaGradient, 3);
  if (conjugate()) addConjugateAttributes(p);
  fastest_.words(0);  // allocated here, not in the step loop
  decision_.words(0);
  solveState_ = Buffer<std::uint32_t>(kDevice, 2);
  errorSum_ = Buffer<double>(kDevice, 1);
  conjugateScalars_ = Buffer<double>(kDevice, conjugateScalarCount());
}

void DivergenceFreeSph::launchStableTimeStep(StepContext& ctx, int slot) {
  launchFastestSpeed(ctx, fastest_, slot);
}

Real DivergenceFreeSph::stableTimeStepOf(StepContext& ctx, int slot, Real knownSpeed) {
  Real vmax = fastestSpeedOf(fastest_, slot);
  invalid_ = !std::isfinite(vmax);
  vmax = std::fmax(vmax, knownSpeed);
  // (v_max + |g| dt) dt = cfl spacing: what the fastest particle may reach within the substep counts too, so
  // that a fluid starting at rest does not take a first substep limited by nothing
  Real spacing = ctx.scene.fluid.spacing;
  Real reach = settings_.cfl * spacing, g = length(ctx.scene.forces.gravity);
  Real denominator = vmax + std::sqrt(vmax * vmax + 4 * g * reach);
  Real dt = denominator > 0 ? 2 * reach / denominator : std::numeric_limits<Real>::infinity();
  // and g dt^2 <= kGravityReach spacing: the constant-density solve predicts the density one substep ahead
  // from the velocities, linearly, and what gravity moves a particle at rest within a substep must stay
  // small against the spacing for that prediction to hold (a tank at rest at 0.005 m with 4.2 ms substeps,
  // g dt^2 3.4 % of a spacing, never came to rest; at 2.1 ms, 0.9 %, it did)
  if (g > 0) dt = std::min(dt, std::sqrt(kGravityReach * spacing / g));
  return dt;
}

WallTerms DivergenceFreeSph::wallTerms(StepContext& ctx) {
  return {ctx.particles.vec3(attr_dfsph::kKappaGradient).data, lateral_, true};
}

bool DivergenceFreeSph::pressures(StepContext& ctx, Real* out) {
  const Real* rho = ctx.particles.real(attr::kDensity).data;
  const Real* kappa = ctx.particles.real(attr_dfsph::kDensityKappa).data;
  const Real* divergence = ctx.particles.real(attr_dfsph::kDivergenceKappa).data;
  parallelFor(
      ctx.particles.size(), EDDY_KERNEL(Index i) { out[i] = (kappa[i] + divergence[i]) * rho[i] * rho[i]; });
  return true;
}

void DivergenceFreeSph::step(StepContext& ctx, Real dt) {
  // the density pass writes only what it recomputes: nothing to put back for a second try
  findNeighbors(
      ctx, attr::kPosition, ctx.time, [] {}, [&] { densityAndFactor(ctx); });
  Profile& profile = ctx.timers.profile();
  if (settings_.divergenceSolve) profile.divergenceIterations += solve<true>(ctx, dt);
  nonPressureForces(ctx, dt);
  profile.densityIterations += solve<false>(ctx, dt);
  advance(ctx, dt);
}

// rho_i = m sum_j W(r_ij) + rho0 F(d) (poly6, as the other solvers), the factor alpha_i and the XSPH change
void DivergenceFreeSph::densityAndFactor(StepContext& ctx) {
  ctx.timers.mark(Phase::Density);
  ParticleSet& p = ctx.particles;
  const Vec3* x = p.vec3(attr::kPosition).data;
  const Vec3* v = p.vec3(attr::kVelocity).data;
  Real* rho = p.real(attr::kDensity).data;
  Real* factor = p.real(attr_dfsph::kFactor).data;
  Vec3* smoothing = p.vec3(attr_dfsph::kSmoothing).data;
  SymmetricMatrix* correction = p.array<SymmetricMatrix>(attr_dfsph::kCorrection).data;
  NeighborView nb = ctx.grid.neighbors();
  SphKernels k = ctx.kernels;
  Real m = ctx.particleMass, rho0 = ctx.scene.fluid.restDensity;
  Real scale2 = gradientScale_ * gradientScale_;
  Real xsph = settings_.xsph * m / rho0;
  WallKernel wall = ctx.wall;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  Real time = ctx.time;
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Vec3 xi = x[i], vi = v[i];
        Real sum = 0, squares = 0;
        Vec3 a{}, blend{};
        SymmetricMatrix l{};
        // four neighbours' loads in flight on the GPU (this pass is faster so; the solves' passes gained
        // nothing unrolled; measured with eddy bench --solver dfsph, see bench/results)
        nb.forEach<4>(i, [&](Index j) {
          Vec3 d = xi - x[j];
          Real r2 = dot(d, d);
          Vec3 g = k.spikyGradientSquared(d, r2);
          sum += k.poly6(r2);
          a += g;
          squares += dot(g, g);
          blend += (v[j] - vi) * k.poly6(r2);
          addCorrectionTerm(l, d, r2, g);
        });
        Real beyond = 0;
        Vec3 gradWall{};
        wall.accumulate(cs, nc, xi, time, beyond, gradWall);
        a = a * m;
        Vec3 b = gradWall * rho0;
        // kappa_i changes v_i by -dt s kappa_i (a + 2 b) and v_j by dt s kappa_i m grad W_ij (s the gradient
        // scale), and d rho_i / dt = s (sum_j m (v_i - v_j) . grad W_ij + 2 b . v_i) (the mirror's velocity)
        Real denominator = scale2 * (dot(a + b * 2, a + b * 2) + squares * m * m);
        rho[i] = m * (sum + k.poly6(0)) + rho0 * beyond;
        // a particle alone (no neighbour, no wall) has no pressure to solve for
        factor[i] = denominator > Real(1e-30) * rho0 * rho0 ? 1 / denominator : Real(0);
        smoothing[i] = blend * xsph;
        correction[i] = inverseOrZero(l);
      });
}

// XSPH, gravity and drag, and the hydrostatic step of the walls' mirror pressure (which does not depend on
// kappa)
void DivergenceFreeSph::nonPressureForces(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::Integration);
  ParticleSet& p = ctx.particles;
  const Vec3* x = p.vec3(attr::kPosition).data;
  Vec3* v = p.vec3(attr::kVelocity).data;
  const Real* rho = p.real(attr::kDensity).data;
  const Vec3* smoothing = p.vec3(attr_dfsph::kSmoothing).data;
  ForcesDesc body = ctx.scene.forces;
  WallKernel wall = ctx.wall;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  Real time = ctx.time;
  Real rho0 = ctx.scene.fluid.restDensity;
  Real gWall = rho0 * gradientScale_;
  Vec3 hydrostatic = body.gravity * (2 * rho0);
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Vec3 vi = v[i] + smoothing[i];
        Real ri = rho[i] > 0 ? rho[i] : rho0;
        Vec3 a = bodyAcceleration(body, vi) +
                 wallPressureAcceleration(wall, cs, nc, x[i], time, 0, hydrostatic / (ri * ri), true) * gWall;
        v[i] = vi + a * dt;
      });
}

template <bool Divergence>
int DivergenceFreeSph::solve(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::PositionCorrection);
  ParticleSet& p = ctx.particles;
  Index n = p.size();
  if (n == 0) return 0;
  // warm start: the last solve's stiffness (stiffnessPass says how much of it, and where)
  stiffnessPass<Divergence, true>(ctx, dt);
  velocityPass<Divergence>(ctx, dt, true);
  // conjugate gradients solve the constant-density equations on the compressed particles, twice: the second
  // solve takes in the particles the first one's pressure compressed, and those whose stiffness it clipped.
  // Jacobi iterations then take in any left, to the same mean compression.
  int conjugateIterations = -1;
  if (!Divergence && conjugate()) {
    conjugateIterations = conjugateGradient(ctx, dt, settings_.minIterations);
    conjugateIterations += conjugateGradient(ctx, dt, 0);
  }
  Real tolerance = Divergence ? settings_.maxDivergenceError : settings_.maxDensityError;
  int fewest = conjugateIterations >= 0 ? 0 : Divergence ? 1 : settings_.minIterations;
  int most = settings_.maxIterations;
  // The iteration limits and the mean error decide on the device (decide). The host reads each decision
  // after queuing the velocity pass of that iteration and the stiffness pass of the next, which do nothing
  // once the solve has stopped: the GPU has them to work on while the host waits.
  const std::uint32_t* stop = solveState_.data();
  fillBytes(kDevice, solveState_.data(), 0, solveState_.bytes());
  int decideFrom = std::min(fewest, most);
  stiffnessPass<Divergence, false>(ctx, dt, stop);
  for (int iteration = 0;; ++iteration) {
    int slot = iteration % AsyncReadback::kSlots;
    if (iteration >= decideFrom) decide(ctx, iteration, tolerance, fewest, slot);
    velocityPass<Divergence>(ctx, dt, false, stop);
    stiffnessPass<Divergence, false>(ctx, dt, stop);
    if (iteration >= decideFrom) {
      const std::uint32_t* words = decision_.read(slot);
      if (words[0]) return int(words[1]) + std::max(conjugateIterations, 0);
    }
  }
}

void DivergenceFreeSph::decide(StepContext& ctx, int iteration, Real tolerance, int fewest, int slot) {
  Index n = ctx.particles.size();
  std::uint32_t* state = solveState_.data();
  std::uint32_t* out = decision_.words(slot);
  const double* sum = errorSum_.data();
  int most = settings_.maxIterations;
  ctx.prims.sumInto(ctx.particles.real(attr_dfsph::kError), n, errorSum_.data());
  parallelFor(
      1, EDDY_KERNEL(Index) {
        // the mean error against the tolerance, as the host compared them when it read the sum back
        if (!state[0] &&
            ((iteration >= fewest && *sum / double(n) <= double(tolerance)) || iteration >= most)) {
          state[0] = 1;
          state[1] = std::uint32_t(iteration);
        }
        out[0] = state[0];
        out[1] = state[1];
      });
  decision_.queueCopy(slot);
}

// kappa_i of this iteration from particle i's error, and the error; or, for the warm start, the last solve's
// kappa_i: with Jacobi iterations half of it where particle i is compressed now and none elsewhere (as
// SPlisHSPlasH does: a stiffness carried over where nothing is compressed fed an odd-even pattern of kappa
// between layers of a tank at rest, which the symmetric pressure force does not see); with conjugate
// gradients all of it everywhere, since they take back what is too much
template <bool Divergence, bool WarmStart>
void DivergenceFreeSph::stiffnessPass(StepContext& ctx, Real dt, const std::uint32_t* stop) {
  ParticleSet& p = ctx.particles;
  const Vec3* x = p.vec3(attr::kPosition).data;
  const Vec3* v = p.vec3(attr::kVelocity).data;
  const Real* rho = p.real(attr::kDensity).data;
  const Real* factor = p.real(attr_dfsph::kFactor).data;
  Vec4* step = p.vec4(attr_dfsph::kPositionStep).data;
  Real* error = p.real(attr_dfsph::kError).data;
  Real* total = p.real(Divergence ? attr_dfsph::kDivergenceKappa : attr_dfsph::kDensityKappa).data;
  NeighborView nb = ctx.grid.neighbors();
  DensityRate rates = densityRate(ctx);
  Real rho0 = ctx.scene.fluid.restDensity;
  Real fewest = divergenceNeighbors_;
  Real carried = warmStartShare<Divergence>();
  bool everywhere = !Divergence && conjugate();
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        if (stop && *stop) return;
        Real rate = rates.at<true>(i, x, [&](Index j) { return v[j]; });
        Vec3 xi = x[i];
        if (WarmStart) {
          bool compressed = Divergence ? rate > 0 : rho[i] + rate * dt > rho0;
          Real kappa = compressed || everywhere ? carried * total[i] : Real(0);
          step[i] = withW(xi, kappa);
          total[i] = kappa;
        } else if (Divergence) {
          Real r = Real(nb.count(i)) >= fewest ? fmaxf(rate, Real(0)) : Real(0);
          step[i] = withW(xi, r * factor[i] / dt);
          error[i] = r * dt / rho0;
        } else {
          Real e = fmaxf(rho[i] + rate * dt - rho0, Real(0));
          step[i] = withW(xi, e * factor[i] / (dt * dt));
          error[i] = e / rho0;
        }
      });
}

// v_i += dt a_i with the pressure acceleration of this iteration's kappa (the fluid's and the walls'
// mirror pressure); adds kappa_i to the solve's total unless it is the warm start, already there
template <bool Divergence>
void DivergenceFreeSph::velocityPass(StepContext& ctx, Real dt, bool warmStart, const std::uint32_t* stop,
                                     bool alongWalls) {
  ParticleSet& p = ctx.particles;
  Vec3* v = p.vec3(attr::kVelocity).data;
  const Vec4* step = p.vec4(attr_dfsph::kPositionStep).data;
  Real* total = p.real(Divergence ? attr_dfsph::kDivergenceKappa : attr_dfsph::kDensityKappa).data;
  Vec3* totalGradient = p.vec3(attr_dfsph::kKappaGradient).data;
  PressureAcceleration pressure = pressureAcceleration(ctx, alongWalls);
  bool accumulate = !warmStart;
  // the gradient of both solves' kappa, as the pressure is: from the first warm start of the substep; it
  // sums only the kappa whose push along the walls the fluid received (the wall forces read it), so a pass
  // without that push (conjugate gradients' correction) leaves it as it is
  bool restart = warmStart && (Divergence || !settings_.divergenceSolve);
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        if (stop && *stop) return;
        Vec3 gradient{};
        Vec3 a = alongWalls ? pressure.at<true>(i, step, gradient) : pressure.at<false>(i, step, gradient);
        v[i] += a * dt;
        if (accumulate) total[i] += step[i].w;
        if (alongWalls) totalGradient[i] = restart ? gradient : totalGradient[i] + gradient;
      });
}

PressureAcceleration DivergenceFreeSph::pressureAcceleration(StepContext& ctx, bool alongWalls) const {
  const SymmetricMatrix* correction = ctx.particles.array<SymmetricMatrix>(attr_dfsph::kCorrection).data;
  Real rho0 = ctx.scene.fluid.restDensity;
  return {ctx.grid.neighbors(),
          ctx.kernels,
          correction,
          ctx.wall,
          alongWalls ? lateral_ : WallMoments{},
          ctx.colliders.data,
          int(ctx.colliders.size),
          ctx.time,
          ctx.particleMass * gradientScale_,
          rho0 * gradientScale_,
          gradientScale_};
}

DensityRate DivergenceFreeSph::densityRate(StepContext& ctx) const {
  Real rho0 = ctx.scene.fluid.restDensity;
  return {ctx.grid.neighbors(),
          ctx.kernels,
          ctx.wall,
          ctx.colliders.data,
          int(ctx.colliders.size),
          ctx.time,
          ctx.particleMass * gradientScale_,
          rho0 * gradientScale_};
}

void DivergenceFreeSph::advance(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::Collision);
  ParticleSet& p = ctx.particles;
  Vec3* x = p.vec3(attr::kPosition).data;
  Vec3* v = p.vec3(attr::kVelocity).data;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  Real r = ctx.particleRadius, time = ctx.time + dt;
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Vec3 xi = x[i], vi = v[i];
        moveThroughColliders(cs, nc, xi, vi, r, time, dt);
        x[i] = xi;
        v[i] = vi;
      });
}

template int DivergenceFreeSph::solve<true>(StepContext&, Real);
template int DivergenceFreeSph::solve<false>(StepContext&, Real);
template void DivergenceFreeSph::velocityPass<false>(StepContext&, Real, bool, const std::uint32_t*, bool);

}  // namespace eddy::EDDY_NS
