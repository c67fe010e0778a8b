// Quadratic B-spline interpolation of MLS-MPM: Y. Hu, Y. Fang, Z. Ge, Z. Qu, Y. Zhu, A. Pradhana, C. Jiang,
// "A Moving Least Squares Material Point Method with Displacement Discontinuity and Two-Way Rigid Body
// Coupling", SIGGRAPH 2018, and C. Jiang, C. Schroeder, J. Teran, A. Stomakhin, A. Selle, "The Material
// Point Method for Simulating Continuum Materials", SIGGRAPH 2016 course notes (eq. 123).
//
// A particle at u = (x - origin) / dx grid units has the base node b = floor(u - 1/2) (the lowest of the
// 3x3x3 nodes it touches) and fx = u - b in [1/2, 3/2) per axis. Its weights to nodes b, b + 1, b + 2 are
//   N0 = 1/2 (3/2 - fx)^2,   N1 = 3/4 - (fx - 1)^2,   N2 = 1/2 (fx - 1/2)^2.
// They sum to one and reproduce linear functions, sum_a N_a (a - fx) = 0, so the affine (APIC / MLS)
// transfers conserve linear momentum; and sum_a N_a (a - fx)^2 = 1/4, which makes the inertia-like tensor
// D = dx^2 / 4 I and the factor 4 / dx^2 of the transfers.
#pragma once

#include <eddy/vec3.h>

namespace eddy {

// N_a(fx) for one axis, a in 0..2: all three weights, then a selection, which compiles to no branch where
// a varies from one call to the next (the transfer by node takes a per particle); with a constant a the
// unused weights fold away
EDDY_HD inline Real bsplineWeight(Real fx, int a) {
  Real t0 = Real(1.5) - fx, t1 = fx - Real(1), t2 = fx - Real(0.5);
  Real w0 = Real(0.5) * t0 * t0, w1 = Real(0.75) - t1 * t1, w2 = Real(0.5) * t2 * t2;
  return a == 0 ? w0 : (a == 1 ? w1 : w2);
}

// the weights of all three nodes per axis: w[a] holds N_a along x, y and z
EDDY_HD inline void bsplineWeights(Vec3 fx, Vec3 w[3]) {
  w[0] = Vec3{bsplineWeight(fx.x, 0), bsplineWeight(fx.y, 0), bsplineWeight(fx.z, 0)};
  w[1] = Vec3{bsplineWeight(fx.x, 1), bsplineWeight(fx.y, 1), bsplineWeight(fx.z, 1)};
  w[2] = Vec3{bsplineWeight(fx.x, 2), bsplineWeight(fx.y, 2), bsplineWeight(fx.z, 2)};
}

}  // namespace eddy
