// 3x3 matrices for the MPM solver (deformation gradients, affine velocity fields, stresses) and their
// singular value decomposition, usable from host and device code.
//
// The SVD is one-sided (Hestenes) Jacobi: Givens rotations applied from the right orthogonalise the
// columns of F, which is the cyclic Jacobi eigenvalue method on F^T F carried out implicitly, so the small
// singular values keep their relative accuracy instead of being squared away in float. The columns are
// then sorted and turned into U by Gram-Schmidt and a cross product, as in the QR step of
//   A. McAdams, A. Selle, R. Tamstorf, J. Teran, E. Sifakis, "Computing the Singular Value Decomposition
//   of 3x3 matrices with minimal branching and elementary floating point operations", Technical Report
//   1690, University of Wisconsin-Madison, 2011.
// Jacobi's accuracy: J. Demmel, K. Veselic, "Jacobi's method is more accurate than QR", SIAM J. Matrix
// Anal. Appl. 13(4), 1992. The sign convention (U and V proper rotations, the smallest singular value
// negative when det F < 0) is the one of G. Irving, J. Teran, R. Fedkiw, "Invertible finite elements for
// robust simulation of large deformation", SCA 2004.
#pragma once

#include <eddy/vec3.h>

// fixed-size loops: unrolled on the GPU so that the matrices stay in registers
#if defined(__CUDA_ARCH__)
#define EDDY_MAT3_UNROLL _Pragma("unroll")
#else
#define EDDY_MAT3_UNROLL
#endif

namespace eddy {

// row-major: m[row][col]
struct Mat3 {
  Real m[3][3] = {};

  EDDY_HD static Mat3 zero() { return Mat3{}; }
  EDDY_HD static Mat3 identity() { return diagonal({1, 1, 1}); }
  EDDY_HD static Mat3 diagonal(Vec3 d) {
    Mat3 r;
    r.m[0][0] = d.x;
    r.m[1][1] = d.y;
    r.m[2][2] = d.z;
    return r;
  }
  EDDY_HD static Mat3 fromColumns(Vec3 c0, Vec3 c1, Vec3 c2) {
    Mat3 r;
    r.m[0][0] = c0.x, r.m[0][1] = c1.x, r.m[0][2] = c2.x;
    r.m[1][0] = c0.y, r.m[1][1] = c1.y, r.m[1][2] = c2.y;
    r.m[2][0] = c0.z, r.m[2][1] = c1.z, r.m[2][2] = c2.z;
    return r;
  }
  EDDY_HD static Mat3 fromRows(Vec3 r0, Vec3 r1, Vec3 r2) {
    Mat3 r;
    r.m[0][0] = r0.x, r.m[0][1] = r0.y, r.m[0][2] = r0.z;
    r.m[1][0] = r1.x, r.m[1][1] = r1.y, r.m[1][2] = r1.z;
    r.m[2][0] = r2.x, r.m[2][1] = r2.y, r.m[2][2] = r2.z;
    return r;
  }

  EDDY_HD Vec3 row(int i) const { return {m[i][0], m[i][1], m[i][2]}; }
  EDDY_HD Vec3 col(int j) const { return {m[0][j], m[1][j], m[2][j]}; }
};

// a b^T
EDDY_HD inline Mat3 outer(Vec3 a, Vec3 b) { return Mat3::fromRows(b * a.x, b * a.y, b * a.z); }

EDDY_HD inline Mat3 operator+(const Mat3& a, const Mat3& b) {
  Mat3 r;
  EDDY_MAT3_UNROLL
  for (int i = 0; i < 3; ++i) {
    EDDY_MAT3_UNROLL
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] + b.m[i][j];
  }
  return r;
}
EDDY_HD inline Mat3 operator-(const Mat3& a, const Mat3& b) {
  Mat3 r;
  EDDY_MAT3_UNROLL
  for (int i = 0; i < 3; ++i) {
    EDDY_MAT3_UNROLL
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] - b.m[i][j];
  }
  return r;
}
EDDY_HD inline Mat3 operator-(const Mat3& a) { return Mat3{} - a; }
EDDY_HD inline Mat3 operator*(const Mat3& a, Real s) {
  Mat3 r;
  EDDY_MAT3_UNROLL
  for (int i = 0; i < 3; ++i) {
    EDDY_MAT3_UNROLL
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] * s;
  }
  return r;
}
EDDY_HD inline Mat3 operator*(Real s, const Mat3& a) { return a * s; }
EDDY_HD inline Mat3 operator*(const Mat3& a, const Mat3& b) {
  Mat3 r;
  EDDY_MAT3_UNROLL
  for (int i = 0; i < 3; ++i) {
    EDDY_MAT3_UNROLL
    for (int j = 0; j < 3; ++j)
      r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
  }
  return r;
}
EDDY_HD inline Vec3 operator*(const Mat3& a, Vec3 v) {
  return {a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z,
          a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
          a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z};
}
EDDY_HD inline Mat3& operator+=(Mat3& a, const Mat3& b) {
  a = a + b;
  return a;
}
EDDY_HD inline Mat3& operator-=(Mat3& a, const Mat3& b) {
  a = a - b;
  return a;
}
EDDY_HD inline Mat3& operator*=(Mat3& a, Real s) {
  a = a * s;
  return a;
}

EDDY_HD inline Mat3 transpose(const Mat3& a) { return Mat3::fromColumns(a.row(0), a.row(1), a.row(2)); }
EDDY_HD inline Real trace(const Mat3& a) { return a.m[0][0] + a.m[1][1] + a.m[2][2]; }
EDDY_HD inline Real determinant(const Mat3& a) {
  return a.m[0][0] * (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) -
         a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0]) +
         a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]);
}
EDDY_HD inline Real frobeniusNormSquared(const Mat3& a) {
  Real s = 0;
  EDDY_MAT3_UNROLL
  for (int i = 0; i < 3; ++i) {
    EDDY_MAT3_UNROLL
    for (int j = 0; j < 3; ++j) s += a.m[i][j] * a.m[i][j];
  }
  return s;
}

// U diag(sigma) V^T
EDDY_HD inline Mat3 composeSvd(const Mat3& U, Vec3 sigma, const Mat3& V) {
  Mat3 scaled = Mat3::fromColumns(U.col(0) * sigma.x, U.col(1) * sigma.y, U.col(2) * sigma.z);
  return scaled * transpose(V);
}

namespace svd_detail {

// sweeps over the three column pairs. Jacobi converges quadratically: on 1e5 random F (Gaussian, and
// identity plus 10% noise) 2 or 3 sweeps rotate for 99.3% of them and 4 for the rest, and the next sweep
// finds nothing left to do; a sweep that rotates nothing ends the loop, so the cap is only a guard
inline constexpr int kMaxSweeps = 6;
// a pair whose columns have |cos| below this is left alone: orthogonal to float precision (much lower,
// and rounding noise keeps a few matrices rotating until the cap)
inline constexpr Real kOrthogonalCos = Real(2e-7);
// below this fraction of the largest, a column is rounding noise and its direction is not trusted
inline constexpr Real kNoiseFraction = Real(1e-6);

EDDY_HD inline void swapVec(Vec3& a, Vec3& b) {
  Vec3 t = a;
  a = b;
  b = t;
}
EDDY_HD inline void swapReal(Real& a, Real& b) {
  Real t = a;
  a = b;
  b = t;
}

// one Givens rotation from the right that makes columns bi and bj of B = F V orthogonal; the same rotation
// is applied to the columns of V, so B = F V stays true and V stays a proper rotation. Returns whether it
// rotated.
EDDY_HD inline bool orthogonalisePair(Vec3& bi, Vec3& bj, Vec3& vi, Vec3& vj) {
  Real alpha = dot(bi, bi), beta = dot(bj, bj), gamma = dot(bi, bj);
  if (gamma * gamma <= kOrthogonalCos * kOrthogonalCos * alpha * beta) return false;
  // tan of the smaller of the two angles that zero the off-diagonal of [alpha gamma; gamma beta]
  // (Rutishauser's form: no cancellation, and t -> 0 when zeta overflows)
  Real zeta = (beta - alpha) / (2 * gamma);
  Real t = copysignf(Real(1), zeta) / (fabsf(zeta) + sqrtf(1 + zeta * zeta));
  Real c = Real(1) / sqrtf(1 + t * t), s = c * t;
  Vec3 newBi = bi * c - bj * s, newVi = vi * c - vj * s;
  bj = bi * s + bj * c;
  vj = vi * s + vj * c;
  bi = newBi;
  vi = newVi;
  return true;
}

// sort the columns so that the norms n decrease; a swap also negates one column of B and V, which keeps
// det V = +1 and B = F V
EDDY_HD inline void orderPair(Vec3& bi, Vec3& bj, Vec3& vi, Vec3& vj, Real& ni, Real& nj) {
  if (ni >= nj) return;
  swapVec(bi, bj);
  swapVec(vi, vj);
  swapReal(ni, nj);
  bj = -bj;
  vj = -vj;
}

// a unit vector orthogonal to the unit vector u, built from the axis least aligned with it
EDDY_HD inline Vec3 anyOrthogonal(Vec3 u) {
  Vec3 a = cwiseAbs(u);
  Vec3 axis = (a.x <= a.y && a.x <= a.z) ? Vec3{1, 0, 0} : (a.y <= a.z ? Vec3{0, 1, 0} : Vec3{0, 0, 1});
  return normalizeOr(cross(u, axis), Vec3{0, 0, 1});
}

}  // namespace svd_detail

// F = U diag(sigma) V^T with U, V proper rotations (det +1); sigma is ordered by decreasing magnitude
// (up to rounding), sigma.x and sigma.y are >= 0 and sigma.z carries the sign of det F. Deterministic: the
// same F gives the same result.
EDDY_HD inline void svd3(const Mat3& F, Mat3& U, Vec3& sigma, Mat3& V) {
  using namespace svd_detail;
  // work on F / max|F_ij| so that neither tiny nor huge matrices underflow or overflow in the dot products
  Real scale = 0;
  EDDY_MAT3_UNROLL
  for (int i = 0; i < 3; ++i) {
    EDDY_MAT3_UNROLL
    for (int j = 0; j < 3; ++j) scale = fmaxf(scale, fabsf(F.m[i][j]));
  }
  if (scale == 0) {
    // the zero matrix: any rotations will do (a NaN or infinite F runs on and comes out NaN)
    U = Mat3::identity();
    V = Mat3::identity();
    sigma = {0, 0, 0};
    return;
  }
  Real invScale = Real(1) / scale;
  Vec3 b0 = F.col(0) * invScale, b1 = F.col(1) * invScale, b2 = F.col(2) * invScale;
  Vec3 v0{1, 0, 0}, v1{0, 1, 0}, v2{0, 0, 1};

  // cyclic one-sided Jacobi: B = F V with ever more orthogonal columns
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    bool rotated = orthogonalisePair(b0, b1, v0, v1);
    rotated |= orthogonalisePair(b0, b2, v0, v2);
    rotated |= orthogonalisePair(b1, b2, v1, v2);
    if (!rotated) break;
  }

  // largest column first (a three-element sorting network)
  Real n0 = dot(b0, b0), n1 = dot(b1, b1), n2 = dot(b2, b2);
  orderPair(b0, b1, v0, v1, n0, n1);
  orderPair(b0, b2, v0, v2, n0, n2);
  orderPair(b1, b2, v1, v2, n1, n2);

  // U from the columns: the first normalised, the second made orthogonal to it (twice, which is enough
  // in float), the third their cross product so that det U = +1. A column at noise level gets any
  // direction orthogonal to the others; the singular values are the projections of B on U, so only the
  // last one can come out negative.
  Real noise = kNoiseFraction * sqrtf(n0);
  Vec3 u0 = b0 / sqrtf(n0);  // n0 > 0: the largest column of a nonzero F
  Vec3 w = b1 - u0 * dot(u0, b1);
  w = w - u0 * dot(u0, w);
  Real wLength = length(w);
  Vec3 u1 = wLength > noise ? w / wLength : anyOrthogonal(u0);
  if (dot(u1, b1) < 0) u1 = -u1;
  Vec3 u2 = cross(u0, u1);

  U = Mat3::fromColumns(u0, u1, u2);
  V = Mat3::fromColumns(v0, v1, v2);
  sigma = Vec3{dot(u0, b0), dot(u1, b1), dot(u2, b2)} * scale;
}

// the rotation R of the polar decomposition F = R S (R = U V^T; a proper rotation even when det F < 0)
EDDY_HD inline Mat3 polarRotation(const Mat3& F) {
  Mat3 U, V;
  Vec3 sigma;
  svd3(F, U, sigma, V);
  return U * transpose(V);
}

}  // namespace eddy
