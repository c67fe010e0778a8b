// The density statistic of the MLS-MPM solver, kept apart from moving_least_squares_mpm.cpp: every
// particle is compared with the rest density of its own material (sand at 1600 kg/m^3 is at rest at
// rho = 1600, not 60 % over fluid.rest_density), so that mean_density_error and max_density_error in
// stats.jsonl measure compression whatever the materials of the scene.
#include "solvers/mpm/moving_least_squares_mpm.h"

namespace eddy::EDDY_NS {

void MovingLeastSquaresMpm::densityErrors(StepContext& ctx, Real* out) {
  ParticleSet& p = ctx.particles;
  const Real* rho = p.real(attr::kDensity).data;
  const Real* mat = p.real(attr_mpm::kMaterial).data;
  const MpmMaterial* mats = materials_.data();
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) { out[i] = fmaxf(rho[i] / mats[int(mat[i])].density - 1, Real(0)); });
}

}  // namespace eddy::EDDY_NS
