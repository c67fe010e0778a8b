#include "solvers/solver.h"

#include "solvers/fluid_common.h"

namespace eddy::EDDY_NS {

void Solver::updateDensity(StepContext& ctx) {
  ctx.grid.sortParticles(ctx.particles, attr::kPosition, ctx.prims);
  auto x = ctx.particles.vec3(attr::kPosition);
  ctx.grid.buildNeighborLists(asConst(x), ctx.prims);
  computeDensity(ctx, {x.data, x.size}, ctx.particles.real(attr::kDensity), ctx.time);
}

}  // namespace eddy::EDDY_NS
