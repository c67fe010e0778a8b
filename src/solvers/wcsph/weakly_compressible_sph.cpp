#include "solvers/wcsph/weakly_compressible_sph.h"

#include <cmath>

#include "solvers/fluid_common.h"
#include "solvers/gradient_correction.h"

namespace eddy::EDDY_NS {

namespace attr_wcsph {
constexpr const char* kPositionPressure = "wcsph_position_pressure";  // x and p / rho^2
constexpr const char* kVelocityDensity = "wcsph_velocity_density";    // v and rho
constexpr const char* kAcceleration = "wcsph_acceleration";
constexpr const char* kNextDensity = "wcsph_next_density";  // rho + dt d rho / dt (continuity)
}  // namespace attr_wcsph

namespace {

// the corrected gradient of p / rho^2 at particle i, at xi with pi = p_i / rho_i^2 (xp: each particle's
// position and p / rho^2): L_i^-1 sum_j (p_j/rho_j^2 - p_i/rho_i^2) grad W_ij
EDDY_HD inline Vec3 pressureGradientAt(const NeighborView& nb, const Vec4* xp, const SphKernels& k, Index i,
                                       Vec3 xi, Real pi) {
  Vec3 g{};
  SymmetricMatrix l{};
  nb.forEach(i, [&](Index j) {
    Vec4 other = xp[j];
    Vec3 d = xi - xyz(other);
    Real r2 = dot(d, d);
    Vec3 w = k.spikyGradientSquared(d, r2);
    g += w * (other.w - pi);
    addCorrectionTerm(l, d, r2, w);
  });
  return inverseOrZero(l) * g;
}

}  // namespace

void WeaklyCompressibleSph::setup(StepContext& ctx) {
  gradientScale_ = latticeGradientScale(ctx.kernels, ctx.scene.fluid.spacing);
  lateral_ = WallMoments::make(ctx.kernels, ctx.scene.fluid.spacing, ctx.particleMass);
  continuity_ = WallContinuity::make(ctx.kernels, ctx.scene.fluid.spacing);
  ctx.particles.addAttribute(attr_wcsph::kPositionPressure, 4, false);
  ctx.particles.addAttribute(attr_wcsph::kVelocityDensity, 4, false);
  fastest_.words(0);  // allocated here, not in the step loop
  ctx.particles.addAttribute(attr_wcsph::kAcceleration, 3, false);
  if (continuity()) ctx.particles.addAttribute(attr_wcsph::kNextDensity, 1, false);
}

EquationOfState WeaklyCompressibleSph::equationOfState(const StepContext& ctx) const {
  EquationOfState e;
  e.tait = settings_.equationOfState != "linear";
  e.rho0 = ctx.scene.fluid.restDensity;
  e.gamma = settings_.gamma;
  e.b = e.rho0 * settings_.speedOfSound * settings_.speedOfSound / e.gamma;
  e.k = settings_.stiffness;
  e.clampNegative = !continuity();
  return e;
}

// a new particle starts at the rest density
void WeaklyCompressibleSph::initializeParticles(StepContext& ctx, Index first, Index count, int) {
  if (!continuity()) return;
  Real* rho = ctx.particles.real(attr::kDensity).data;
  Real rho0 = ctx.scene.fluid.restDensity;
  parallelFor(
      count, EDDY_KERNEL(Index k) { rho[first + k] = rho0; });
}

// the density the equation of state gives the pressure asked for (the summed density follows the positions)
void WeaklyCompressibleSph::startPressure(StepContext& ctx, Index first, Index count, const Real* pressure) {
  if (!continuity()) return;
  Real* rho = ctx.particles.real(attr::kDensity).data;
  EquationOfState eos = equationOfState(ctx);
  parallelFor(
      count, EDDY_KERNEL(Index k) { rho[first + k] = eos.density(pressure[k]); });
}

// the integrated density is always current; the summed one is summed again at the current positions
void WeaklyCompressibleSph::updateDensity(StepContext& ctx) {
  if (!continuity()) Solver::updateDensity(ctx);
}

// the gradient the last substep's walls saw (none before the first substep: no lists yet)
WallTerms WeaklyCompressibleSph::wallTerms(StepContext& ctx) { return wallTermsNear(ctx, kEveryCollider); }

// the gradient only where a wall share of `colliders` will read it
WallTerms WeaklyCompressibleSph::wallTermsNear(StepContext& ctx, std::uint32_t colliders) {
  if (!stepped_) return {};
  // from the state now, in the particles' order now: the packed values of the last substep are scratch, and
  // the statistics may have sorted the particles since (the summed density sorts them)
  packNeighborValues(ctx, ctx.particles.real(attr::kDensity).data);
  wallPressureGradient(ctx, colliders);
  return {ctx.particles.vec3(attr_wcsph::kAcceleration).data, lateral_, false};
}

bool WeaklyCompressibleSph::pressures(StepContext& ctx, Real* out) {
  const Real* rho = ctx.particles.real(attr::kDensity).data;
  EquationOfState eos = equationOfState(ctx);
  parallelFor(
      ctx.particles.size(), EDDY_KERNEL(Index i) { out[i] = eos.pressure(rho[i]); });
  return true;
}

void WeaklyCompressibleSph::launchStableTimeStep(StepContext& ctx, int slot) {
  launchFastestSpeed(ctx, fastest_, slot);
}

Real WeaklyCompressibleSph::stableTimeStepOf(StepContext& ctx, int slot, Real knownSpeed) {
  Real vmax = fastestSpeedOf(fastest_, slot);
  invalid_ = !std::isfinite(vmax);
  vmax = std::fmax(vmax, knownSpeed);
  Real c = soundSpeed();
  // Monaghan's conditions are written for the smoothing length ell, half the kernel support
  Real ell = ctx.kernels.smoothingLength();
  Real dt = settings_.cfl * ell / (c + vmax);
  // viscous limit (Monaghan 1992): dt <= 0.125 ell^2 / nu
  Real nu = kinematicViscosity(ctx.kernels);
  if (nu > 0) dt = std::fmin(dt, Real(0.125) * ell * ell / nu);
  // body forces: dt <= 0.25 sqrt(ell / |g|)
  Real g = length(ctx.scene.forces.gravity);
  if (g > 0) dt = std::fmin(dt, Real(0.25) * std::sqrt(ell / g));
  return dt;
}

void WeaklyCompressibleSph::step(StepContext& ctx, Real dt) {
  // density, pressure and forces write only scratch attributes: nothing to put back for a second try
  findNeighbors(
      ctx, attr::kPosition, ctx.time, [] {},
      [&] {
        densityAndPressure(ctx, dt);
        forces(ctx);
      });
  integrate(ctx, dt);
  stepped_ = true;
}

void WeaklyCompressibleSph::densityAndPressure(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::Density);
  ParticleSet& p = ctx.particles;
  auto xv = p.vec3(attr::kPosition);
  if (continuity())
    integrateDensity(ctx, dt);
  else
    computeDensity(ctx, asConst(xv), p.real(attr::kDensity), ctx.time);
  // the integrated density's new value comes through a scratch array: its pass read the old ones
  packNeighborValues(ctx, continuity() ? p.real(attr_wcsph::kNextDensity).data : p.real(attr::kDensity).data);
}

// what the force pass reads of a neighbour, packed into two 16-byte loads: x and p / rho^2, v and rho
void WeaklyCompressibleSph::packNeighborValues(StepContext& ctx, const Real* rho) {
  ParticleSet& p = ctx.particles;
  const Vec3* x = p.vec3(attr::kPosition).data;
  const Vec3* v = p.vec3(attr::kVelocity).data;
  Vec4* xp = p.vec4(attr_wcsph::kPositionPressure).data;
  Vec4* vr = p.vec4(attr_wcsph::kVelocityDensity).data;
  EquationOfState eos = equationOfState(ctx);
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Real ri = rho[i];
        xp[i] = withW(x[i], eos.pressure(ri) / (ri * ri));
        vr[i] = withW(v[i], ri);
      });
}

// The continuity density one substep on, from the velocities now, before the pressure force that will
// change them: density, then velocity, then position, each from the one updated before it (symplectic;
// a rate taken from the velocities the force pass had already used fed the fluid's sound waves and blew up
// a tank at rest). See the header for the terms.
void WeaklyCompressibleSph::integrateDensity(StepContext& ctx, Real dt) {
  ParticleSet& p = ctx.particles;
  const Vec3* x = p.vec3(attr::kPosition).data;
  const Vec3* v = p.vec3(attr::kVelocity).data;
  const Real* rho = p.real(attr::kDensity).data;
  Real* next = p.real(attr_wcsph::kNextDensity).data;
  NeighborView nb = ctx.grid.neighbors();
  SphKernels k = ctx.kernels;
  Real m = ctx.particleMass;
  WallKernel wall = ctx.wall;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  const ColliderBall* balls = ctx.colliderBalls;
  Real time = ctx.time;
  Real rho0 = ctx.scene.fluid.restDensity;
  Real c = soundSpeed(), ell = k.smoothingLength();
  Real diffusion = 2 * settings_.densityDiffusion * ell * c;  // 2 delta ell c
  Real eta2 = Real(0.01) * ell * ell;
  Vec3 hydrostatic = ctx.scene.forces.gravity * (rho0 / (c * c));  // rhoH_ji = hydrostatic . (x_j - x_i)
  Real scale = gradientScale_;
  Real lowest = kLowestDensity * rho0;
  WallContinuity continuity = continuity_;
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Vec3 xi = x[i], vi = v[i];
        Real ri = rho[i];
        Real divergence = 0, diffused = 0;
        // four neighbours' loads in flight on the GPU (this pass is faster so; the force pass was slower
        // unrolled, so it keeps the plain loop; measured with eddy bench --solver wcsph, see bench/results)
        nb.forEach<4>(i, [&](Index j) {
          Vec3 d = xi - x[j];
          Real r2 = dot(d, d);
          Vec3 grad = k.spikyGradientSquared(d, r2);  // grad_i W_ij
          Real rj = rho[j];
          divergence += dot(vi - v[j], grad);
          // (x_j - x_i) . grad_i W_ij >= 0: density flows from the denser neighbour, less the hydrostatic
          // step
          Real psi = (rj - ri) + dot(hydrostatic, d);
          diffused += psi * -dot(d, grad) / ((r2 + eta2) * rj);
        });
        // the colliders as fluid at rest (moving with them), with the gradient integral their pressure
        // force uses, renormalised for the stretching along them that the fluid's sum lost (WallContinuity)
        Real walls = 0, kept = 1;
        wall.forEachWallShare(
            cs, nc, xi, time,
            [&](int c, Vec3 g, Vec3 at) {
              Real share = dot(vi - colliderVelocityAt(cs[c], at, time), g);
              if (cs[c].kind == ShapeKind::Plane || cs[c].kind == ShapeKind::Box) {
                Real d = length(xi - at);
                share *= wall.lookup(continuity.normal, d);
                kept -= wall.lookup(continuity.along, d);
              }
              walls += share;
            },
            collidersNear(balls, nc, xi, wall.h));
        // at a tank's corner the walls' shares overlap and could take more than the whole moment away
        Real rate =
            scale * (m * divergence + 2 * rho0 * walls) / fmaxf(kept, Real(0.25)) + m * diffusion * diffused;
        next[i] = fmaxf(ri + rate * dt, lowest);
      });
}

void WeaklyCompressibleSph::forces(StepContext& ctx) {
  ctx.timers.mark(Phase::PositionCorrection);
  ParticleSet& p = ctx.particles;
  const Vec4* xp = p.vec4(attr_wcsph::kPositionPressure).data;
  const Vec4* vr = p.vec4(attr_wcsph::kVelocityDensity).data;
  Vec3* acc = p.vec3(attr_wcsph::kAcceleration).data;
  NeighborView nb = ctx.grid.neighbors();
  SphKernels k = ctx.kernels;
  Real m = ctx.particleMass;
  // mu = rho0 nu, nu = alpha ell c / 10: the Laplacian viscosity as strong as Monaghan's artificial
  // viscosity alpha in three dimensions (nu = alpha ell c / (2 (d + 2)), ell the smoothing length)
  Real mu = ctx.scene.fluid.restDensity * kinematicViscosity(k);
  ForcesDesc body = ctx.scene.forces;
  WallKernel wall = ctx.wall;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  const ColliderBall* balls = ctx.colliderBalls;
  Real time = ctx.time;
  Real rho0 = ctx.scene.fluid.restDensity;
  Real gm = m * gradientScale_, gWall = rho0 * gradientScale_, scale = gradientScale_;
  WallMoments lateral = lateral_;
  Vec3 hydrostatic = body.gravity * (2 * rho0);  // rho0 g . 2 (at - x_i): the mirror's extra pressure
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Vec4 own = xp[i], ownV = vr[i];
        Vec3 xi = xyz(own), vi = xyz(ownV);
        Real pi = own.w;  // p_i / rho_i^2
        Vec3 ap{}, av{};
        nb.forEach(i, [&](Index j) {
          Vec4 other = xp[j], otherV = vr[j];
          Vec3 d = xi - xyz(other);
          Real r2 = dot(d, d);
          Real r, invR;
          lengthAndInverse(fmaxf(r2, Real(1e-30)), r, invR);
          // symmetric pressure acceleration -sum_j m (p_i/rho_i^2 + p_j/rho_j^2) grad W_ij
          ap -= k.spikyGradientSquared(d, r2) * (gm * (pi + other.w));
          av += (xyz(otherV) - vi) * (m / otherV.w * k.viscosityLaplacian(r));
        });
        // colliders push back with the particle's density mirrored onto them and its pressure extrapolated
        // hydrostatically to the mirror point, 2 (at - x_i) away (Adami, Hu & Adams 2012): the wall then
        // carries a column at rest without the contact response's help
        std::uint32_t near = collidersNear(balls, nc, xi, wall.h);
        ap += wallPressureAcceleration(wall, cs, nc, xi, time, pi, hydrostatic / (ownV.w * ownV.w), false,
                                       near) *
              gWall;
        // and the mirror's pressure varies along each flat wall as the fluid's does (wallPressureGradient)
        if (wall.anyWithin(cs, nc, xi, time, lateral.reach, near)) {
          Vec3 gradient = pressureGradientAt(nb, xp, k, i, xi, pi);
          wall.forEachWallShare(
              cs, nc, xi, time,
              [&](int c, Vec3 share, Vec3 at) {
                ap += wallLateralAcceleration(wall, lateral, cs[c], share, at, xi, gradient) * scale;
              },
              near);
        }
        acc[i] = ap + av * (mu / ownV.w) + bodyAcceleration(body, vi);
      });
}

// The mirror's pressure also varies along each flat wall as the fluid's does, p_i / rho_i^2 + (x_b - x_i) .
// grad (p / rho^2): a particle beside a side wall has lost the neighbours beyond it that carried part of the
// pressure gradient along the wall (without this a slab 4 spacings deep at rest read its end wall's pressure
// 8 % high). M(d) is zero from h - s/2 on, so only particles nearer a wall than that walk their neighbours a
// second time, in the force pass (a pass of its own cost every substep more, most in small scenes; the sums
// in the force pass's own walk slowed it for every particle). Near a mesh or a curved shape the walk adds
// nothing (wallLateralAcceleration), but telling flat faces apart first cost the force pass more than the
// walks it would skip (measured with eddy bench --solver wcsph, see bench/results). The wall forces read
// the same gradient between substeps: this pass writes it into the acceleration array, free then (zero away
// from the walls), so that it needs no memory of its own.
void WeaklyCompressibleSph::wallPressureGradient(StepContext& ctx, std::uint32_t colliders) {
  ParticleSet& p = ctx.particles;
  const Vec4* xp = p.vec4(attr_wcsph::kPositionPressure).data;
  Vec3* out = p.vec3(attr_wcsph::kAcceleration).data;
  NeighborView nb = ctx.grid.neighbors();
  SphKernels k = ctx.kernels;
  WallKernel wall = ctx.wall;
  Real reach = lateral_.reach;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  const ColliderBall* balls = ctx.colliderBalls;
  Real time = ctx.time;
  // only the wanted colliders' shares will read it (every collider's that is near, without balls)
  std::uint32_t skip = balls ? ~colliders : 0;
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Vec4 own = xp[i];
        Vec3 xi = xyz(own);
        std::uint32_t near = collidersNear(balls, nc, xi, wall.h);
        bool wanted = (near & ~skip) != 0 || nc > 32;
        out[i] = wanted && wall.anyWithin(cs, nc, xi, time, reach, near)
                     ? pressureGradientAt(nb, xp, k, i, xi, own.w)
                     : Vec3{};
      });
}

void WeaklyCompressibleSph::integrate(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::Collision);
  ParticleSet& p = ctx.particles;
  Vec3* x = p.vec3(attr::kPosition).data;
  Vec3* v = p.vec3(attr::kVelocity).data;
  const Vec3* acc = p.vec3(attr_wcsph::kAcceleration).data;
  Real* rho = p.real(attr::kDensity).data;
  // the integrated density becomes the density here, outside findNeighbors' work: a second try after a
  // list overflow integrates it again from the old one (it was set in the work, and integrated twice)
  const Real* next = continuity() ? p.real(attr_wcsph::kNextDensity).data : nullptr;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  const ColliderBall* balls = ctx.colliderBalls;
  Real r = ctx.particleRadius, time = ctx.time + dt;
  // symplectic Euler, then the collider response
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Vec3 vi = v[i] + acc[i] * dt, xi = x[i];
        moveThroughColliders(cs, nc, xi, vi, r, time, dt, balls);
        v[i] = vi;
        x[i] = xi;
        if (next) rho[i] = next[i];
      });
}

}  // namespace eddy::EDDY_NS
