// The two halves of DFSPH's pressure operator (solvers/dfsph/divergence_free_sph.h), written once for the
// Jacobi passes and the conjugate-gradient solve:
//   - PressureAcceleration: the acceleration a stiffness field kappa gives particle i, the fluid's symmetric
//     force and the walls' mirror pressure (kappa_i, varying along each flat wall with grad kappa_i);
//   - DensityRate: the rate d rho_i / dt a velocity field gives particle i, the fluid's and the walls' (a
//     mirror beyond each wall moving at -(v_i - v_wall) relative to it, hence the factor 2).
// The solves' operator is A kappa = -dt^2 rate(acceleration(kappa)): the density change a stiffness field
// makes over one substep, sign flipped. With equal masses the fluid's part is D D^T (D the divergence,
// D^T the symmetric pressure force) and the walls' the diagonal 4 (rho0 s)^2 |A_i|^2, both symmetric;
// only the mirror's variation along the walls is not.
#pragma once

#include "neighbors/neighbor_grid.h"
#include "solvers/gradient_correction.h"
#include "solvers/wall_kernel.h"

namespace eddy::EDDY_NS {

struct PressureAcceleration {
  NeighborView nb;
  SphKernels k;
  const SymmetricMatrix* correction;  // L_i^-1 (Bonet & Lok)
  WallKernel wall;
  WallMoments lateral;
  const ColliderData* cs;
  int nc;
  Real time;
  Real sm, sWall, scale;  // s m, s rho0 and s, s the lattice gradient scale

  // a_i of the stiffness in step[].w (the positions in step[].xyz); gradient = L_i^-1 sum_j (kappa_j -
  // kappa_i) grad W_ij, the corrected gradient of the stiffness. AlongWalls false: without the mirror's
  // variation along the walls and without the gradient, which only that variation and the walls' forces
  // read (the conjugate-gradient operator)
  template <bool AlongWalls = true>
  EDDY_HD Vec3 at(Index i, const Vec4* step, Vec3& gradient) const {
    Vec4 own = step[i];
    Vec3 xi = xyz(own);
    Real ki = own.w;
    Vec3 a{}, g{};
    nb.forEach(i, [&](Index j) {
      Vec4 other = step[j];
      Vec3 d = xi - xyz(other);
      Vec3 w = k.spikyGradientSquared(d, dot(d, d));
      Real kj = other.w;
      a -= w * (ki + kj);
      if constexpr (AlongWalls) g += w * (kj - ki);
    });
    a = a * sm + wallPressureAcceleration(wall, cs, nc, xi, time, ki, Vec3{}) * sWall;
    if constexpr (AlongWalls) {
      // the mirror's kappa varies along each wall as the fluid's does, kappa_i + (x_b - x_i) . grad kappa_i:
      // the vertical support a particle beside a side wall lost with its neighbours beyond it
      gradient = correction[i] * g;
      wall.forEachWallShare(cs, nc, xi, time, [&](int c, Vec3 share, Vec3 at) {
        a += wallLateralAcceleration(wall, lateral, cs[c], share, at, xi, gradient) * scale;
      });
    }
    return a;
  }
};

EDDY_HD inline Vec3 positionOf(Vec3 x) { return x; }
EDDY_HD inline Vec3 positionOf(Vec4 x) { return xyz(x); }

struct DensityRate {
  NeighborView nb;
  SphKernels k;
  WallKernel wall;
  const ColliderData* cs;
  int nc;
  Real time;
  Real sm, sWall;  // s m and s rho0

  // d rho_i / dt of the velocities velocityOf(j) at the positions x; with MovingWalls relative to the walls'
  // own velocity (the solves' right-hand side), without it the operator's linear part. The positions come
  // as Vec3 or in the xyz of a Vec4 (one 16-byte load a neighbour on the GPU).
  template <bool MovingWalls, class Position, class Velocity>
  EDDY_HD Real at(Index i, const Position* x, Velocity&& velocityOf) const {
    Vec3 xi = positionOf(x[i]), vi = velocityOf(i);
    Real fluid = 0, walls = 0;
    nb.forEach(i, [&](Index j) {
      Vec3 d = xi - positionOf(x[j]);
      fluid += dot(vi - velocityOf(j), k.spikyGradientSquared(d, dot(d, d)));
    });
    wall.forEachWallShare(cs, nc, xi, time, [&](int c, Vec3 g, Vec3 at) {
      Vec3 relative = vi;
      if constexpr (MovingWalls) relative = relative - colliderVelocityAt(cs[c], at, time);
      walls += dot(relative, g);
    });
    return sm * fluid + 2 * sWall * walls;
  }
};

}  // namespace eddy::EDDY_NS
