// The corrected gradient of J. Bonet & T.-S. L. Lok, "Variational and momentum preservation aspects of SPH
// formulations" (CMAME 180, 1999): L_i = sum_j |W'(r_ij)| / r_ij (x_j - x_i)(x_j - x_i)^T over the fluid
// neighbours, so that sum_j (f_j - f_i) grad_i W_ij = L_i grad f for a linear field f, and L_i^-1 times that
// sum is grad f where the support is cut by a wall or the free surface. The solvers use it for the
// variation of the pressure along a wall that the walls' mirror particles carry (wallLateralAcceleration in
// solvers/wall_kernel.h).
#pragma once

#include "core/sph_kernels.h"

namespace eddy {

// a symmetric 3x3 matrix, six numbers (a per-particle attribute)
struct SymmetricMatrix {
  Real xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0;
  EDDY_HD void addOuter(Vec3 d, Real w) {
    xx += w * d.x * d.x, yy += w * d.y * d.y, zz += w * d.z * d.z;
    xy += w * d.x * d.y, xz += w * d.x * d.z, yz += w * d.y * d.z;
  }
  EDDY_HD Vec3 operator*(Vec3 v) const {
    return {xx * v.x + xy * v.y + xz * v.z, xy * v.x + yy * v.y + yz * v.z, xz * v.x + yz * v.y + zz * v.z};
  }
};

// a neighbourhood's gradient correction is used only where det L > this (trace L / 3)^3
inline constexpr Real kCorrectionConditioning = Real(0.01);

// L_i's share of neighbour j at offset d = x_i - x_j, r2 = |d|^2, from grad = grad_i W_ij
EDDY_HD inline void addCorrectionTerm(SymmetricMatrix& l, Vec3 d, Real r2, Vec3 grad) {
  l.addOuter(d, -dot(grad, d) / fmaxf(r2, Real(1e-30)));
}

// L^-1, or zero where the neighbourhood is flat along some direction (a sheet, a strand, a lone particle):
// no gradient there
EDDY_HD inline SymmetricMatrix inverseOrZero(const SymmetricMatrix& l) {
  Real cxx = l.yy * l.zz - l.yz * l.yz, cxy = l.xz * l.yz - l.xy * l.zz, cxz = l.xy * l.yz - l.xz * l.yy;
  Real det = l.xx * cxx + l.xy * cxy + l.xz * cxz;
  Real mean = (l.xx + l.yy + l.zz) / 3;
  if (!(det > kCorrectionConditioning * mean * mean * mean)) return SymmetricMatrix{};
  Real inv = 1 / det;
  return {cxx * inv, (l.xx * l.zz - l.xz * l.xz) * inv, (l.xx * l.yy - l.xy * l.xy) * inv, cxy * inv,
          cxz * inv, (l.xy * l.xz - l.xx * l.yz) * inv};
}

}  // namespace eddy
