#include "solvers/solver.h"

#include <eddy/error.h>

#include "solvers/fluid_common.h"

namespace eddy::EDDY_NS {

void Solver::updateDensity(StepContext& ctx) {
  ctx.grid.sortParticles(ctx.particles, attr::kPosition, ctx.prims);
  auto x = ctx.particles.vec3(attr::kPosition);
  ctx.grid.buildNeighborLists(asConst(x), ctx.time, ctx.prims);
  computeDensity(ctx, {x.data, x.size}, ctx.particles.real(attr::kDensity), ctx.time);
}

void Solver::densityErrors(StepContext& ctx, Real* out) {
  const Real* rho = ctx.particles.real(attr::kDensity).data;
  Real rho0 = ctx.scene.fluid.restDensity;
  parallelFor(
      ctx.particles.size(), EDDY_KERNEL(Index i) { out[i] = fmaxf(rho[i] / rho0 - 1, Real(0)); });
}

void Solver::restoreState(StepContext& ctx, const std::string& bytes) {
  if (!bytes.empty())
    throw InputError(std::string("solver '") + name() + "' keeps no state between substeps, but " +
                     std::to_string(bytes.size()) + " bytes of it were given");
}

}  // namespace eddy::EDDY_NS
