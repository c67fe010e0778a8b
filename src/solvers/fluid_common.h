// Steps shared by the particle solvers (and the statistics): the neighbour search with its first pass,
// SPH density and body forces.
#pragma once

#include <cmath>

#include "backend/async_readback.h"
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
        nb.forEach(i, [&](Index j) { sum += k.poly6(lengthSquared(xi - x[j])); });
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

// moves a particle by v dt and applies the collider response at time t (the end of the substep); the path is
// swept first so a thin obstacle is not tunnelled (a particle stopped at one is in contact, so the response
// takes its approaching velocity). balls (may be null): the colliders' over the substep, so that the far
// ones are skipped
EDDY_HD inline void moveThroughColliders(const ColliderData* cs, int nc, Vec3& x, Vec3& v, Real r, Real t,
                                         Real dt, const ColliderBall* balls = nullptr) {
  Vec3 to = x + v * dt;
  // the colliders that may come within r of the path, and so within r of its end; where a sweep moved the
  // end, those near the new one
  std::uint32_t near = balls ? collidersNear(balls, nc, x, r + length(to - x)) : kEveryCollider;
  if (sweepAll(cs, nc, x, to, r, t, dt, &v, true, near) >= 0 && balls) near = collidersNear(balls, nc, to, r);
  collideAll(cs, nc, to, v, r, t, near);
  x = to;
}

// 1 / kappa, kappa = sum_j V_j |W'(r_ij)| x_ij^2 / r_ij over the rest lattice (V_j = m / rho0): the spiky
// gradient of a linear field summed over the lattice, as a share of the exact one (0.87 at a support of two
// spacings). A pressure force scaled by it balances rho g with the pressure rho g d (WCSPH, DFSPH).
inline Real latticeGradientScale(const SphKernels& k, Real spacing) {
  int reach = int(std::ceil(k.h / spacing));
  double gradient = 0, weight = 0;
  for (int z = -reach; z <= reach; ++z)
    for (int y = -reach; y <= reach; ++y)
      for (int x = -reach; x <= reach; ++x) {
        Vec3 d = Vec3{Real(x), Real(y), Real(z)} * spacing;
        Real r2 = dot(d, d);
        weight += k.poly6(r2);
        if (r2 > 0 && r2 < k.h * k.h) gradient += -double(k.spikyGradientSquared(d, r2).x) * d.x;
      }
  return Real(weight / gradient);
}

// the neighbours of a particle inside the fluid's cubic rest lattice: the lattice points strictly within
// the support (26 at a support of two spacings, 18 at 1.5)
inline int latticeNeighborCount(const SphKernels& k, Real spacing) {
  int reach = int(std::ceil(k.h / spacing));
  int count = 0;
  for (int z = -reach; z <= reach; ++z)
    for (int y = -reach; y <= reach; ++y)
      for (int x = -reach; x <= reach; ++x) {
        Vec3 d = Vec3{Real(x), Real(y), Real(z)} * spacing;
        Real r2 = dot(d, d);
        if (r2 > 0 && r2 < k.h * k.h) ++count;
      }
  return count;
}

// Queues the fastest particle speed into `slot` of `fastest` (the CFL limits of WCSPH and DFSPH); a
// velocity that is not finite becomes an infinite speed, which the maximum keeps
inline void launchFastestSpeed(const StepContext& ctx, AsyncReadback& fastest, int slot) {
  const Vec3* v = ctx.particles.vec3(attr::kVelocity).data;
  std::uint32_t* most = fastest.words(slot);
  fillBytes(kDevice, most, 0, sizeof(std::uint32_t));
  parallelFor(
      ctx.particles.size(), EDDY_KERNEL(Index i) {
        Real l = length(v[i]);
        Real speed = l - l == 0 ? l : Real(INFINITY);
        // non-negative floats compare like their bit patterns, so one integer maximum serves
        std::uint32_t bits;
        __builtin_memcpy(&bits, &speed, sizeof bits);
        atomicMaxU32(most, bits);
      });
  fastest.queueCopy(slot);
}

// the speed launchFastestSpeed queued into `slot` (waits for it only)
inline Real fastestSpeedOf(AsyncReadback& fastest, int slot) {
  Real vmax;
  __builtin_memcpy(&vmax, fastest.read(slot), sizeof vmax);
  return vmax;
}

}  // namespace eddy::EDDY_NS
