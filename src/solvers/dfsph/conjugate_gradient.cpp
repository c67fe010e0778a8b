// DFSPH's constant-density solve as preconditioned conjugate gradients (M. R. Hestenes & E. Stiefel,
// "Methods of Conjugate Gradients for Solving Linear Systems", J. Res. NBS 49(6), 1952), with the Jacobi
// iterations' own factor alpha_i / dt^2 as the preconditioner.
//
// Why: a Jacobi iteration carries a change of stiffness about one particle layer, so a column L layers deep
// needs of order L^2 of them to rebuild its hydrostatic pressure, and the papers' solve, which starts from
// half the last substep's stiffness, never catches up in deep water (48 layers: the wall pressure sawed by
// +-40..66 % from frame to frame; docs/validation.md). Conjugate gradients need of order L iterations, and
// since they take stiffness back where it is too much they can start from all of it.
//
// What is solved: with the warm start's velocities v, e_i = rho_i + dt d rho_i / dt - rho0 is the compression
// one substep ahead. On the set S of particles that are compressed (e_i > 0) or carry stiffness, the
// correction x solves A x = e, A x = -dt^2 rate(acceleration(x)) (dfsph/pressure_operator.h), with x = 0
// elsewhere. The solve stops once the mean |r_i| / rho0 over all particles is below max_density_error. The
// stiffness kappa + x is then clipped at zero (a liquid does not pull), its velocity change applied, and
// the Jacobi iterations of divergence_free_sph.cpp go on from there until the mean compression is below the
// same bound, taking in particles the solve's pressure has compressed.
//
// Every scalar (alpha = r.z / p.Ap, beta = r.z new / r.z) stays on the device, and the host reads the
// decision to stop one iteration late, as the Jacobi loop does.
#include "solvers/dfsph/divergence_free_sph.h"

namespace eddy::EDDY_NS {

namespace {
// conjugateScalars_: r.z, p.Ap, the new r.z, the error sum, beta, the smallest error sum so far, and
// whether the last one was it (the new r.z and the error sum side by side, 16-byte aligned: one paired sum)
enum : int { kRz, kPAp, kRzNext, kErrorSum, kBeta, kBestError, kImproved, kScalarCount };
}  // namespace

void DivergenceFreeSph::addConjugateAttributes(ParticleSet& p) {
  p.addAttribute(attr_dfsph::kDirectionAcceleration, 4, false);
  p.addAttribute(attr_dfsph::kResidual, 1, false);
  p.addAttribute(attr_dfsph::kOperatorProduct, 1, false);
  p.addAttribute(attr_dfsph::kSolution, 1, false);
  p.addAttribute(attr_dfsph::kBestSolution, 1, false);
}

int DivergenceFreeSph::conjugateScalarCount() { return kScalarCount; }

int DivergenceFreeSph::conjugateGradient(StepContext& ctx, Real dt, int fewest) {
  ParticleSet& p = ctx.particles;
  Index n = p.size();
  const Vec3* x = p.vec3(attr::kPosition).data;
  const Vec3* v = p.vec3(attr::kVelocity).data;
  const Real* rho = p.real(attr::kDensity).data;
  const Real* factor = p.real(attr_dfsph::kFactor).data;
  const Real* kappa = p.real(attr_dfsph::kDensityKappa).data;
  Vec4* step = p.vec4(attr_dfsph::kPositionStep).data;
  Vec4* acceleration = p.vec4(attr_dfsph::kDirectionAcceleration).data;
  Real* residual = p.real(attr_dfsph::kResidual).data;
  Real* product = p.real(attr_dfsph::kOperatorProduct).data;
  Real* solution = p.real(attr_dfsph::kSolution).data;
  Real* best = p.real(attr_dfsph::kBestSolution).data;
  Real* terms = p.real(attr_dfsph::kError).data;  // per-particle terms of the dot products
  double* scalars = conjugateScalars_.data();
  PressureAcceleration pressure = pressureAcceleration(ctx, false);
  DensityRate rates = densityRate(ctx);
  Real rho0 = ctx.scene.fluid.restDensity, dt2 = dt * dt;
  const std::uint32_t* stop = solveState_.data();
  fillBytes(kDevice, solveState_.data(), 0, solveState_.bytes());

  // r = e on S (x = 0), z = M^-1 r, p = z
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        Real e = rho[i] + dt * rates.at<true>(i, x, [&](Index j) { return v[j]; }) - rho0;
        bool solved = factor[i] > 0 && (kappa[i] > 0 || e > 0);
        Real r = solved ? e : Real(0), z = factor[i] * r / dt2;
        residual[i] = r;
        solution[i] = 0;
        step[i] = withW(x[i], z);
        acceleration[i] = Vec4{0, 0, 0, solved ? Real(1) : Real(0)};
        terms[i] = r * z;
        product[i] = fabsf(r) / rho0;
      });
  ctx.prims.sumPairInto(p.real(attr_dfsph::kError), p.real(attr_dfsph::kOperatorProduct), n,
                        scalars + kRzNext);

  for (int iteration = 0;; ++iteration) {
    int slot = iteration % AsyncReadback::kSlots;
    decideConjugate(ctx, iteration, fewest, slot);
    // p = z + beta p; keeps x where its error is the smallest so far
    parallelFor(
        n, EDDY_KERNEL(Index i) {
          if (*stop) return;
          if (scalars[kImproved] != 0) best[i] = solution[i];
          Real z = factor[i] * residual[i] / dt2;
          Vec4 s = step[i];
          s.w = z + Real(scalars[kBeta]) * s.w;
          step[i] = s;
        });
    // A p, in two walks: the acceleration of p, then the density change it makes
    parallelFor(
        n, EDDY_KERNEL(Index i) {
          if (*stop) return;
          Vec3 unused;
          Vec3 a = pressure.at<false>(i, step, unused);
          acceleration[i] = withW(a, acceleration[i].w);
        });
    parallelFor(
        n, EDDY_KERNEL(Index i) {
          if (*stop) return;
          Real q = acceleration[i].w > 0
                       ? -dt2 * rates.at<false>(i, step, [&](Index j) { return xyz(acceleration[j]); })
                       : Real(0);
          product[i] = q;
          terms[i] = step[i].w * q;
        });
    ctx.prims.sumInto(p.real(attr_dfsph::kError), n, scalars + kPAp);
    // x += alpha p, r -= alpha A p
    parallelFor(
        n, EDDY_KERNEL(Index i) {
          if (*stop) return;
          double pAp = scalars[kPAp];
          Real alpha = pAp > 0 ? Real(scalars[kRz] / pAp) : Real(0);
          Real r = residual[i] - alpha * product[i];
          solution[i] += alpha * step[i].w;
          residual[i] = r;
          terms[i] = r * factor[i] * r / dt2;
          product[i] = fabsf(r) / rho0;
        });
    ctx.prims.sumPairInto(p.real(attr_dfsph::kError), p.real(attr_dfsph::kOperatorProduct), n,
                          scalars + kRzNext);
    const std::uint32_t* words = decision_.read(slot);
    if (words[0]) {
      // stopped before the first iteration: x = 0 changes nothing (kappa is never negative)
      if (words[1] == 0) return 0;
      // kappa + x (the best x), clipped at zero: its change over the warm start goes through the velocity
      // pass
      parallelFor(
          n, EDDY_KERNEL(Index i) {
            Real xi = scalars[kImproved] != 0 ? solution[i] : best[i];
            Vec4 s = step[i];
            s.w = fmaxf(kappa[i] + xi, Real(0)) - kappa[i];
            step[i] = s;
          });
      velocityPass<false>(ctx, dt, false, nullptr, false);
      return int(words[1]);
    }
  }
}

// stops after `iteration` iterations once the mean |r| / rho0 is below the tolerance (after `fewest`), at
// the iteration limit, or where the error has grown tenfold over the smallest so far (the mirror's variation
// along the walls makes the operator a little unsymmetric, and in a dam break's impact that once made
// conjugate gradients diverge); beta for the next direction
void DivergenceFreeSph::decideConjugate(StepContext& ctx, int iteration, int fewest, int slot) {
  Index n = ctx.particles.size();
  std::uint32_t* state = solveState_.data();
  std::uint32_t* out = decision_.words(slot);
  double* scalars = conjugateScalars_.data();
  double tolerance = settings_.maxDensityError;
  int most = settings_.maxIterations;
  parallelFor(
      1, EDDY_KERNEL(Index) {
        if (!state[0]) {
          double rz = scalars[kRzNext], error = scalars[kErrorSum];
          scalars[kBeta] = iteration > 0 && scalars[kRz] > 0 ? rz / scalars[kRz] : 0.0;
          scalars[kRz] = rz;
          bool improved = iteration == 0 || error < scalars[kBestError];
          scalars[kImproved] = improved ? 1.0 : 0.0;
          if (improved) scalars[kBestError] = error;
          if ((iteration >= fewest && error / double(n) <= tolerance) || iteration >= most ||
              error > 10 * scalars[kBestError]) {
            state[0] = 1;
            state[1] = std::uint32_t(iteration);
          }
        }
        out[0] = state[0];
        out[1] = state[1];
      });
  decision_.queueCopy(slot);
}

}  // namespace eddy::EDDY_NS
