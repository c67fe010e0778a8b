#include "solvers/pbf/position_based_fluids.h"

#include <eddy/error.h>

#include <cmath>

#include "solvers/fluid_common.h"

namespace eddy::EDDY_NS {

namespace attr_pbf {
constexpr const char* kPredicted = "pbf_predicted";       // x* (w unused)
constexpr const char* kPredictedLambda = "pbf_lambda";    // x* and lambda together: one load per neighbour
constexpr const char* kWallPush = "pbf_wall_push";        // lambda_i times the colliders' share of grad C_i
constexpr const char* kNewVelocity = "pbf_new_velocity";  // v and the volume m / rho
constexpr const char* kVorticity = "pbf_vorticity";
// the substep's corrections summed as a pressure, Lambda_i = sum over the iterations of omega lambda_i / dt^2
// (divided as constraint averaging divides the corrections); kept through the reorders of the queries
// between substeps, which read it after the step (wall forces, probes)
constexpr const char* kLambdaSum = "pbf_lambda_sum";
// the colliders' contacts over the substep: xyz the sum of their moves over dt^2, w the collider of the
// last (-1: none); the reaction the collider receives (WallTerms::contactPush), kept like kLambdaSum
constexpr const char* kContactPush = "pbf_contact_push";
}  // namespace attr_pbf

void PositionBasedFluids::setup(StepContext& ctx) {
  ParticleSet& p = ctx.particles;
  p.addAttribute(attr_pbf::kPredicted, 4, true);
  p.addAttribute(attr_pbf::kPredictedLambda, 4, false);
  p.addAttribute(attr_pbf::kWallPush, 3, false);
  p.addAttribute(attr_pbf::kNewVelocity, 4, false);
  p.addAttribute(attr_pbf::kVorticity, 3, false);
  p.addAttribute(attr_pbf::kLambdaSum, 1, true);
  p.addAttribute(attr_pbf::kContactPush, 4, true);

  // sum_k |grad_k C|^2 for a particle inside a full cubic lattice: the scale of 1/lambda. s_corr is
  // expressed in units of lambda through it, so k means the same at every particle size.
  Real d = ctx.scene.fluid.spacing;
  int reach = int(std::ceil(ctx.kernels.h / d));
  double sum = 0;
  Real gradScale = ctx.particleMass / ctx.scene.fluid.restDensity;
  for (int z = -reach; z <= reach; ++z)
    for (int y = -reach; y <= reach; ++y)
      for (int x = -reach; x <= reach; ++x) {
        Vec3 r = Vec3{Real(x), Real(y), Real(z)} * d;
        Vec3 g = ctx.kernels.spikyGradient(r, length(r)) * gradScale;
        sum += dot(g, g);
      }
  restGradientSum_ = Real(sum);
  // lambda's scale and s_corr's divide by this: with no lattice neighbour inside h it is zero
  if (!(restGradientSum_ > 0))
    throw InputError(ctx.scene.sourcePath +
                     ": /fluid/support_ratio: " + std::to_string(ctx.scene.fluid.supportRatio) +
                     " leaves no neighbour inside the kernel support of a particle at rest; PBF needs > 1 "
                     "(allowed: (1, 4], typically 2)");
}

void PositionBasedFluids::step(StepContext& ctx, Real dt) {
  predict(ctx, dt);
  // the iterations change only the predicted positions, which predict() puts back if the lists must be
  // built again
  findNeighbors(
      ctx, attr_pbf::kPredicted, ctx.time + dt, [&] { predict(ctx, dt); },
      [&] {
        for (int it = 0; it < settings_.iterations; ++it) {
          solveDensity(ctx, dt);
          // the last iteration's colliders are applied with the velocity update (one kernel fewer)
          correctPositions(ctx, dt, it + 1 < settings_.iterations);
        }
      });
  updateVelocities(ctx, dt);
  viscosityAndVorticity(ctx, dt);
}

void PositionBasedFluids::predict(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::Integration);
  const Vec3* x = ctx.particles.vec3(attr::kPosition).data;
  const Vec3* v = ctx.particles.vec3(attr::kVelocity).data;
  Vec4* xp = ctx.particles.vec4(attr_pbf::kPredicted).data;
  Real* lambdaSum = ctx.particles.real(attr_pbf::kLambdaSum).data;
  Vec4* contactPush = ctx.particles.vec4(attr_pbf::kContactPush).data;
  ForcesDesc forces = ctx.scene.forces;
  // x and v stay as they are until the velocity update, so this can run again
  parallelFor(
      ctx.particles.size(), EDDY_KERNEL(Index i) {
        xp[i] = withW(x[i] + predictedVelocity(forces, v[i], dt) * dt, 0);
        lambdaSum[i] = 0;
        contactPush[i] = Vec4{0, 0, 0, -1};
      });
}

void PositionBasedFluids::solveDensity(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::Density);
  ParticleSet& p = ctx.particles;
  const Vec4* xp = p.vec4(attr_pbf::kPredicted).data;
  Real* rho = p.real(attr::kDensity).data;
  Vec4* xl = p.vec4(attr_pbf::kPredictedLambda).data;
  Vec3* wallPush = p.vec3(attr_pbf::kWallPush).data;
  NeighborView nb = ctx.grid.neighbors();
  SphKernels k = ctx.kernels;
  Real m = ctx.particleMass;
  Real rho0 = ctx.scene.fluid.restDensity;
  Real gradScale = m / rho0;
  Real eps = settings_.relaxation / (ctx.scene.fluid.spacing * ctx.scene.fluid.spacing);
  bool clamp = settings_.clampDensity;
  WallKernel wall = ctx.wall;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  Real time = ctx.time + dt;
  // density and the constraint gradients in one pass over the neighbours
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Vec3 xi = xyz(xp[i]);
        Real w = k.poly6(0);
        Vec3 gradI{};
        Real sumGrad2 = 0;
        nb.forEach<4>(i, [&](Index j) {
          Vec3 d = xi - xyz(xp[j]);
          Real r2 = dot(d, d);
          w += k.poly6(r2);
          Vec3 g = k.spikyGradientSquared(d, r2) * gradScale;
          gradI += g;
          sumGrad2 += dot(g, g);
        });
        // colliders: their share of the density and of grad_i C_i (they do not move)
        Real beyond = 0;
        Vec3 gradWall{};
        wall.accumulate(cs, nc, xi, time, beyond, gradWall);
        gradI += gradWall;
        sumGrad2 += dot(gradI, gradI);
        Real density = m * w + rho0 * beyond;
        Real c = density / rho0 - 1;
        if (clamp && c < 0) c = 0;
        Real lambda = -c / (sumGrad2 + eps);
        rho[i] = density;
        xl[i] = withW(xi, lambda);
        // the collider part of delta p_i; the correction pass sees the same positions
        wallPush[i] = gradWall * lambda;
      });
}

// s_corr's (W/W(dq))^n with n fixed at compile time where it is the usual integer (0: any n by powf);
// a run-time exponent left the powf path's registers in the loop and halved the GPU occupancy
template <int ScorrPow>
EDDY_HD inline Real scorrPower(Real q, Real n) {
  if constexpr (ScorrPow > 0) {
    Real r = q;
    for (int e = 1; e < ScorrPow; ++e) r *= q;
    return r;
  } else {
    return powf(q, n);
  }
}

template <int ScorrPow, bool Colliders>
void PositionBasedFluids::correctionPass(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::PositionCorrection);
  ParticleSet& p = ctx.particles;
  // writes x* + delta p straight into the predicted positions: this pass reads only xl
  Vec4* xp = p.vec4(attr_pbf::kPredicted).data;
  const Vec4* xl = p.vec4(attr_pbf::kPredictedLambda).data;
  const Vec3* wallPush = p.vec3(attr_pbf::kWallPush).data;
  Real* lambdaSum = p.real(attr_pbf::kLambdaSum).data;
  Vec4* contactPush = p.vec4(attr_pbf::kContactPush).data;
  NeighborView nb = ctx.grid.neighbors();
  SphKernels k = ctx.kernels;
  Real scale = ctx.particleMass / ctx.scene.fluid.restDensity;
  Real invDt2 = 1 / (dt * dt);
  Real scorrK = settings_.scorrK / restGradientSum_, scorrN = settings_.scorrN;
  Real dq = settings_.scorrDq * k.h;
  Real invWdq = Real(1) / k.poly6(dq * dq);
  Real omega = settings_.overRelaxation;
  Real averaging = settings_.constraintAveraging;
  const Vec3* x = p.vec3(attr::kPosition).data;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  Real r = ctx.particleRadius, time = ctx.time + dt;
  // reads only the density pass's output (xl), then projects out of the colliders (inside the iteration
  // loop, as the paper has it); 5 blocks an SM keep the projection's mesh path from costing occupancy
  parallelForBounded<5>(
      p.size(), EDDY_KERNEL(Index i) {
        Vec4 own = xl[i];
        Vec3 xi = xyz(own);
        Real li = own.w;
        Vec3 sum{};
        Index n = nb.count(i);
        nb.forEach(i, [&](Index j) {
          Vec4 other = xl[j];
          Vec3 d = xi - xyz(other);
          Real r2 = dot(d, d);
          Real scorr = -scorrK * scorrPower<ScorrPow>(k.poly6(r2) * invWdq, scorrN);
          sum += k.spikyGradientSquared(d, r2) * (li + other.w + scorr);
        });
        // constraint averaging (Macklin et al. 2014, section 4.2, without its omega): a particle in many
        // constraints takes the mean of their corrections rather than the sum; it only damps
        Vec3 dp = (sum * scale + wallPush[i]) * omega;
        Real share = omega * invDt2;
        if (averaging > 0) {
          Real constraints = fmaxf(averaging * Real(n), Real(1));
          dp = dp / constraints;
          share = share / constraints;
        }
        lambdaSum[i] += li * share;
        Vec3 xNew = xi + dp;
        // (a mesh's thin cells are left to the last sweep, in the velocity update, from the same start)
        if (Colliders) {
          Vec3 free = xNew;
          int by = projectAll(cs, nc, xNew, x[i], r, time, dt, false);
          if (by >= 0) contactPush[i] = withW(xyz(contactPush[i]) + (xNew - free) * invDt2, Real(by));
        }
        xp[i] = withW(xNew, 0);
      });
}

// The corrections as a pressure: a correction dx_i = (m / rho0) sum_j (lambda_i + lambda_j) grad W_ij is
// what the SPH pressure force -sum_j m (p_i / rho_i^2 + p_j / rho_j^2) grad W_ij moves a particle in dt^2,
// with p_i = -lambda_i rho_i^2 / (rho0 dt^2), summed over the iterations. A wall pushes with lambda_i only
// (its faces enter the particle's own constraint), which wallTerms says, so that the force a collider
// receives (probes/wall_forces.h) is the reaction to the walls' share of the corrections.
bool PositionBasedFluids::pressures(StepContext& ctx, Real* out) {
  const Real* rho = ctx.particles.real(attr::kDensity).data;
  const Real* lambdaSum = ctx.particles.real(attr_pbf::kLambdaSum).data;
  Real invRho0 = 1 / ctx.scene.fluid.restDensity;
  parallelFor(
      ctx.particles.size(), EDDY_KERNEL(Index i) { out[i] = -lambdaSum[i] * rho[i] * rho[i] * invRho0; });
  return true;
}

WallTerms PositionBasedFluids::wallTerms(StepContext& ctx) {
  WallTerms t;
  t.mirrorsPressure = false;
  t.contactPush = ctx.particles.vec4(attr_pbf::kContactPush).data;
  return t;
}

void PositionBasedFluids::correctPositions(StepContext& ctx, Real dt, bool applyColliders) {
  // s_corr's exponent is nearly always 4; the colliders are applied with the velocity update after the
  // last iteration
  bool n4 = settings_.scorrN == 4;
  if (applyColliders)
    n4 ? correctionPass<4, true>(ctx, dt) : correctionPass<0, true>(ctx, dt);
  else
    n4 ? correctionPass<4, false>(ctx, dt) : correctionPass<0, false>(ctx, dt);
}

void PositionBasedFluids::updateVelocities(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::Integration);
  ParticleSet& p = ctx.particles;
  Vec3* x = p.vec3(attr::kPosition).data;
  const Vec3* v = p.vec3(attr::kVelocity).data;
  Vec4* xp = p.vec4(attr_pbf::kPredicted).data;
  Vec4* vNew = p.vec4(attr_pbf::kNewVelocity).data;
  const Real* rho = p.real(attr::kDensity).data;
  Real m = ctx.particleMass;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  Real r = ctx.particleRadius, time = ctx.time + dt;
  Real cap = settings_.maxVelocityChange;
  Real invDt = Real(1) / dt;
  ForcesDesc forces = ctx.scene.forces;
  Vec4* contactPush = p.vec4(attr_pbf::kContactPush).data;
  Real invDt2 = invDt * invDt;
  parallelForBounded<5>(
      p.size(), EDDY_KERNEL(Index i) {
        // the last iteration's collider projection
        Vec3 xNew = xyz(xp[i]);
        Vec3 free = xNew;
        int by = projectAll(cs, nc, xNew, x[i], r, time, dt);
        if (by >= 0) contactPush[i] = withW(xyz(contactPush[i]) + (xNew - free) * invDt2, Real(by));
        xp[i] = withW(xNew, 0);
        Vec3 vi = (xNew - x[i]) * invDt;
        Vec3 vPredicted = predictedVelocity(forces, v[i], dt);
        // restitution: a particle that arrived at a contact moving into it leaves with -e times that speed
        for (int c = 0; c < nc; ++c) {
          Vec3 nrm;
          Real dist = signedDistance(cs[c], xNew, time, &nrm);
          if (dist > r * Real(1.01) || cs[c].restitution <= 0) continue;
          Vec3 vc = colliderVelocityAt(cs[c], xNew, time);
          Real vnIn = dot(vPredicted - vc, nrm);
          Real vnOut = dot(vi - vc, nrm);
          if (vnIn < 0 && vnOut < -cs[c].restitution * vnIn) vi += nrm * (-cs[c].restitution * vnIn - vnOut);
        }
        if (cap > 0) {
          Vec3 dv = vi - vPredicted;
          Real l = length(dv);
          if (l > cap) vi = vPredicted + dv * (cap / l);
        }
        vNew[i] = withW(vi, m / rho[i]);
        x[i] = xNew;
      });
}

template <bool Vorticity>
void PositionBasedFluids::smoothVelocities(StepContext& ctx) {
  ParticleSet& p = ctx.particles;
  const Vec4* x = p.vec4(attr_pbf::kPredicted).data;  // equal to the new positions now
  Vec3* v = p.vec3(attr::kVelocity).data;
  const Vec4* vNew = p.vec4(attr_pbf::kNewVelocity).data;
  Vec3* omega = p.vec3(attr_pbf::kVorticity).data;
  NeighborView nb = ctx.grid.neighbors();
  SphKernels k = ctx.kernels;
  Real c = settings_.xsph;
  // XSPH smoothing and, where asked for, the vorticity omega_i = curl v = sum_j (m/rho_j) grad_i W_ij x (v_j
  // - v_i) (a compile-time switch: the vorticity terms' registers would slow the plain XSPH loop)
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Vec3* omegaOut = omega;  // captured here: CUDA cannot first-capture inside `if constexpr`
        Vec3 xi = xyz(x[i]), vi = xyz(vNew[i]);
        Vec3 smooth{}, w{};
        nb.forEach(i, [&](Index j) {
          Vec3 d = xi - xyz(x[j]);
          Real r2 = dot(d, d);
          Vec4 other = vNew[j];
          Vec3 vij = xyz(other) - vi;
          Real vol = other.w;
          smooth += vij * (vol * k.poly6(r2));
          if constexpr (Vorticity) w += cross(k.spikyGradientSquared(d, r2), vij) * vol;
        });
        v[i] = vi + smooth * c;
        if constexpr (Vorticity) omegaOut[i] = w;
      });
}

void PositionBasedFluids::viscosityAndVorticity(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::ViscosityVorticity);
  Real epsVort = settings_.vorticity;
  if (epsVort <= 0) {
    smoothVelocities<false>(ctx);
    return;
  }
  smoothVelocities<true>(ctx);
  // confinement f = eps (N x omega), N = grad|omega| / |grad|omega||
  ParticleSet& p = ctx.particles;
  const Vec4* x = p.vec4(attr_pbf::kPredicted).data;
  Vec3* v = p.vec3(attr::kVelocity).data;
  const Vec4* vNew = p.vec4(attr_pbf::kNewVelocity).data;
  const Vec3* omega = p.vec3(attr_pbf::kVorticity).data;
  NeighborView nb = ctx.grid.neighbors();
  SphKernels k = ctx.kernels;
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Vec3 xi = xyz(x[i]);
        Real wi = length(omega[i]);
        Vec3 eta{};
        nb.forEach(i, [&](Index j) {
          Vec3 d = xi - xyz(x[j]);
          eta += k.spikyGradientSquared(d, dot(d, d)) * ((length(omega[j]) - wi) * vNew[j].w);
        });
        Real l = length(eta);
        if (l > Real(1e-12)) v[i] += cross(eta / l, omega[i]) * (epsVort * dt);
      });
}

}  // namespace eddy::EDDY_NS
