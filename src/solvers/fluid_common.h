// Loops shared by the particle solvers (and the statistics): SPH density and body forces.
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
  parallelFor(ctx.particles.size(), EDDY_KERNEL(Index i) {
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

// body forces per unit mass: gravity and wind drag -c_d (v - v_wind)
EDDY_HD inline Vec3 bodyAcceleration(const ForcesDesc& f, Vec3 v) {
  return f.gravity - (v - f.windVelocity) * f.drag;
}

}  // namespace eddy::EDDY_NS
