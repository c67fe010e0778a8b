// Steps shared by the particle solvers (and the statistics): the neighbour search with its first pass,
// SPH density and body forces.
#pragma once

#include "solvers/solver.h"

namespace eddy::EDDY_NS {

// rho_i = m (W(0) + sum_j W(x_i - x_j)) + the colliders' share, over the neighbour lists built on
// `positions` (which are at time t)
inline void computeDensity(const StepContext& ctx, View<const Vec3> positions, View<Real> density, Real t) {
  const Vec3* x = positions.data;
  Real* rho = density.data;
  NeighborView nb = ctx.grid.neighbors();
  SphKernels k = ctx.kernels;
  Real m = ctx.particleMass, rho0 = ctx.scene.fluid.restDensity;
  WallKernel wall = ctx.wall;
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size);
  parallelFor(
      ctx.particles.size(), EDDY_KERNEL(Index i) {
        Vec3 xi = x[i];
        Real sum = k.poly6(0);
        Index c = nb.count(i);
        for (Index s = 0; s < c; ++s) sum += k.poly6(lengthSquared(xi - x[nb.at(i, s)]));
        Real beyond = 0;
        Vec3 unused{};
        wall.accumulate(cs, nc, xi, t, beyond, unused);
        rho[i] = m * sum + rho0 * beyond;
      });
}

// Sorts the particles by the cell of `positionAttribute` (Vec3 or Vec4), builds the neighbour lists on
// those positions (at time t, for moving barriers) and queues work(), everything that reads them before the
// solver changes state that it cannot recompute. The host checks the lists only after that (waiting for the
// list build alone), so the GPU never waits for the host. In the rare case of an overflow the lists were
// widened: restart() puts back what work() changed (the positions the lists are built on included), and both
// run again.
template <class Restart, class Work>
void findNeighbors(StepContext& ctx, const char* positionAttribute, Real t, Restart&& restart, Work&& work) {
  ctx.timers.mark(Phase::NeighborGrid);
  ctx.grid.sortParticles(ctx.particles, positionAttribute, ctx.prims);
  bool wide = ctx.particles.components(positionAttribute) == 4;
  for (bool again = false;; again = true) {
    if (again) restart();
    ctx.timers.mark(Phase::NeighborLists);
    if (wide)
      ctx.grid.launchNeighborLists(asConst(ctx.particles.vec4(positionAttribute)), t);
    else
      ctx.grid.launchNeighborLists(asConst(ctx.particles.vec3(positionAttribute)), t);
    work();
    if (ctx.grid.listsComplete()) return;
  }
}

// body forces per unit mass: gravity and wind drag -c_d (v - v_wind)
EDDY_HD inline Vec3 bodyAcceleration(const ForcesDesc& f, Vec3 v) {
  return f.gravity - (v - f.windVelocity) * f.drag;
}

// the velocity after the body forces of one substep (symplectic Euler)
EDDY_HD inline Vec3 predictedVelocity(const ForcesDesc& f, Vec3 v, Real dt) {
  return v + bodyAcceleration(f, v) * dt;
}

}  // namespace eddy::EDDY_NS
