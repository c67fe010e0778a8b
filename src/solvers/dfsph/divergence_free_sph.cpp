#include "solvers/dfsph/divergence_free_sph.h"

#include <cmath>

#include "solvers/fluid_common.h"

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
}  // namespace attr_dfsph

void DivergenceFreeSph::setup(StepContext& ctx) {
  const SphKernels& k = ctx.kernels;
  Real spacing = ctx.scene.fluid.spacing;
  gradientScale_ = latticeGradientScale(k, spacing);
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
  fastest_.words(0);  // allocated here, not in the step loop
  decision_.words(0);
  solveState_ = Buffer<std::uint32_t>(kDevice, 2);
  errorSum_ = Buffer<double>(kDevice, 1);
}

void DivergenceFreeSph::launchStableTimeStep(StepContext& ctx, int slot) {
  launchFastestSpeed(ctx, fastest_, slot);
}

Real DivergenceFreeSph::stableTimeStepOf(StepContext& ctx, int slot) {
  Real vmax = fastestSpeedOf(fastest_, slot);
  invalid_ = !std::isfinite(vmax);
  // (v_max + |g| dt) dt = cfl spacing: what the fastest particle may reach within the substep counts too, so
  // that a fluid starting at rest does not take a first substep limited by nothing
  Real reach = settings_.cfl * ctx.scene.fluid.spacing, g = length(ctx.scene.forces.gravity);
  Real denominator = vmax + std::sqrt(vmax * vmax + 4 * g * reach);
  return denominator > 0 ? 2 * reach / denominator : std::numeric_limits<Real>::infinity();
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
        // four neighbours' loads in flight on the GPU (0.20 -> 0.15 ms at 1M on an H200; the solves' passes
        // gained nothing unrolled)
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
  // warm start: half the last solve's stiffness, where the particle is compressed now
  stiffnessPass<Divergence, true>(ctx, dt);
  velocityPass<Divergence>(ctx, dt, true);
  Real tolerance = Divergence ? settings_.maxDivergenceError : settings_.maxDensityError;
  int fewest = Divergence ? 1 : settings_.minIterations, most = settings_.maxIterations;
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
      if (words[0]) return int(words[1]);
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

// kappa_i of this iteration from particle i's error, and the error; or, for the warm start, half the last
// solve's kappa_i where particle i is compressed now and none elsewhere (as SPlisHSPlasH does: a stiffness
// carried over where nothing is compressed fed an odd-even pattern of kappa between layers of a tank at
// rest, which the symmetric pressure force does not see)
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
  SphKernels k = ctx.kernels;
  Real rho0 = ctx.scene.fluid.restDensity;
  Real sm = gradientScale_ * ctx.particleMass, sWall = gradientScale_ * rho0;
  WallKernel wall = ctx.wall;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  Real time = ctx.time;
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        if (stop && *stop) return;
        Vec3 xi = x[i], vi = v[i];
        Real fluid = 0, walls = 0;
        Index n = nb.count(i);
        nb.forEach(i, [&](Index j) {
          Vec3 d = xi - x[j];
          fluid += dot(vi - v[j], k.spikyGradientSquared(d, dot(d, d)));
        });
        wall.forEachWallShare(cs, nc, xi, time, [&](int c, Vec3 g, Vec3 at) {
          walls += dot(vi - colliderVelocityAt(cs[c], at, time), g);
        });
        // d rho_i / dt; the mirror beyond each wall moves at -(v_i - v_wall) relative to it, hence 2
        Real rate = sm * fluid + 2 * sWall * walls;
        if (WarmStart) {
          bool compressed = Divergence ? rate > 0 : rho[i] + rate * dt > rho0;
          Real kappa = compressed ? Real(0.5) * total[i] : Real(0);
          step[i] = withW(xi, kappa);
          total[i] = kappa;
        } else if (Divergence) {
          Real r = n >= kDivergenceNeighbors ? fmaxf(rate, Real(0)) : Real(0);
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
void DivergenceFreeSph::velocityPass(StepContext& ctx, Real dt, bool warmStart, const std::uint32_t* stop) {
  ParticleSet& p = ctx.particles;
  Vec3* v = p.vec3(attr::kVelocity).data;
  const Vec4* step = p.vec4(attr_dfsph::kPositionStep).data;
  const SymmetricMatrix* correction = p.array<SymmetricMatrix>(attr_dfsph::kCorrection).data;
  Real* total = p.real(Divergence ? attr_dfsph::kDivergenceKappa : attr_dfsph::kDensityKappa).data;
  Vec3* totalGradient = p.vec3(attr_dfsph::kKappaGradient).data;
  NeighborView nb = ctx.grid.neighbors();
  SphKernels k = ctx.kernels;
  Real rho0 = ctx.scene.fluid.restDensity;
  Real sm = ctx.particleMass * gradientScale_, sWall = rho0 * gradientScale_, scale = gradientScale_;
  WallKernel wall = ctx.wall;
  WallMoments lateral = lateral_;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  Real time = ctx.time;
  bool accumulate = !warmStart;
  // the gradient of both solves' kappa, as the pressure is: from the first warm start of the substep
  bool restart = warmStart && (Divergence || !settings_.divergenceSolve);
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        if (stop && *stop) return;
        Vec4 own = step[i];
        Vec3 xi = xyz(own);
        Real ki = own.w;
        Vec3 a{}, g{};  // g = sum_j (kappa_j - kappa_i) grad W_ij = L_i grad kappa
        nb.forEach(i, [&](Index j) {
          Vec4 other = step[j];
          Vec3 d = xi - xyz(other);
          Vec3 w = k.spikyGradientSquared(d, dot(d, d));
          Real kj = other.w;
          a -= w * (ki + kj);
          g += w * (kj - ki);
        });
        a = a * sm + wallPressureAcceleration(wall, cs, nc, xi, time, ki, Vec3{}) * sWall;
        // the mirror's kappa also varies along each wall as the fluid's does, kappa_i + (x_b - x_i) . grad
        // kappa: the vertical support a particle beside a side wall lost with its neighbours beyond it
        Vec3 gradient = correction[i] * g;
        wall.forEachWallShare(cs, nc, xi, time, [&](int c, Vec3 share, Vec3 at) {
          a += wallLateralAcceleration(wall, lateral, cs[c], share, at, xi, gradient) * scale;
        });
        v[i] += a * dt;
        if (accumulate) total[i] += ki;
        totalGradient[i] = restart ? gradient : totalGradient[i] + gradient;
      });
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

}  // namespace eddy::EDDY_NS
