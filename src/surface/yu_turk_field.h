// The liquid's surface from anisotropic kernels, by the method of Yu & Turk (2013): each particle's kernel
// is stretched along its neighbourhood's principal directions, so flat water reads flat and thin sheets
// stay thin instead of breaking into beads.
//
// Per particle i, over the neighbours j within r = 2R (found through the neighbour grid):
//   w_ij = 1 - (|x_j - x_i| / r)^3,  x_i^w = sum_j w_ij x_j / sum_j w_ij,
//   C_i = sum_j w_ij (x_j - x_i^w)(x_j - x_i^w)^T / sum_j w_ij = R diag(s1, s2, s3) R^T
//         (SVD, s1 >= s2 >= s3)
//   S_i = k_s diag(s1, max(s2, s1 / k_r), max(s3, s1 / k_r))  with more than N_eps neighbours, else k_n I
//   G_i = R S_i^-1 R^T / R_k,   centre xbar_i = (1 - lambda) x_i + lambda x_i^w   (Laplacian smoothing)
// and the colour field of the stretched kernels,
//   c(x) = sum_i V_i det(G_i) P(|G_i (x - xbar_i)|),  phi = c0 - c(x),
// with P the poly6 kernel of unit support normalised to integrate to 1 (so a kernel with G = I / R_k is the
// isotropic poly6 of support R_k, as in the SPH density method).
//
// Parameters are the paper's: k_r = 4, k_n = 0.5, N_eps = 25, lambda = 0.9. A neighbourhood other than
// r = 2R (the ellipsoids of surface/particle_ellipsoids.h look within R) scales N_eps with its volume. The
// paper's k_s = 1400 scales covariances in its scene's units; here k_s is the same idea without units, 1 /
// (0.15 r^2): the weighted covariance of a full, uniform neighbourhood is 0.15 r^2 per axis, so a particle in
// the bulk keeps the isotropic kernel (S = I), and at the paper's r = 0.069 m this k_s is 1400.
//
// Reference: J. Yu, G. Turk, "Reconstructing surfaces of particle-based fluids using anisotropic
// kernels", ACM Trans. Graph. 32(1), 2013, section 3.
#pragma once

#include <eddy/mat3.h>
#include <eddy/surface.h>

#include "neighbors/neighbor_grid.h"
#include "particles/particle_set.h"
#include "surface/surface_grid.h"

namespace eddy::EDDY_NS {

class YuTurkField {
 public:
  static constexpr Real kStretchRatio = 4;       // k_r
  static constexpr Real kIsolatedScale = 0.5;    // k_n
  static constexpr int kMinNeighbors = 25;       // N_eps
  static constexpr Real kCentreSmoothing = 0.9;  // lambda

  void build(const Vec3* positions, Index n, const SurfaceSettings& settings, SurfaceGrid& grid,
             Primitives& prims);
  std::size_t bytes() const;

  // the first half of build: every particle's kernel (centre, G and reach) over its neighbours within r
  // (build's is 2 R), n of them in an order of the field's own, on the device until the next call
  void buildKernels(const Vec3* positions, Index n, const SurfaceSettings& settings, Real r,
                    Primitives& prims);
  const Vec3* positions() const { return particles_.vec3("x").data; }  // the particles, in the kernels' order
  const Vec3* centres() const { return centres_.data(); }
  const Mat3* stretch() const { return stretch_.data(); }
  const Real* reach() const { return reach_.data(); }

  // per particle, public for the CUDA lambdas: the kernel's centre, its matrix G and reach
  void computeKernels(Index n, Real neighborhood, Real kernelRadius);

  // one particle's kernel: G, how far it reaches, and x_i^w - x_i
  struct Kernel {
    Mat3 G;
    Real reach;  // m
    Vec3 towardsMean;
  };
  // the weighted sums over one particle's neighbours within r, relative to the particle (for precision):
  // sum w, sum w d, sum w d d^T (its six distinct terms); the particle itself is a neighbour at d = 0
  struct Sums {
    Real sw = 0;
    Vec3 sd{};
    Real sxx = 0, sxy = 0, sxz = 0, syy = 0, syz = 0, szz = 0;
    int neighbours = 0;  // not counting the particle itself
    EDDY_HD void add(Vec3 d, Real d2, Real invR);
    // the kernel of support h; r: the neighbourhood the sums cover
    EDDY_HD Kernel kernel(Real r, Real h) const;
  };
  // the kernel over the particles x sorted on `cells` (cells of r / 2)
  EDDY_HD static Kernel kernelOf(const GridView& cells, const Vec3* x, Vec3 xi, Real r, Real h);

 private:
  ParticleSet particles_;  // a sorted copy of the positions
  NeighborGrid grid_;
  Buffer<Vec3> centres_;
  Buffer<Mat3> stretch_;  // G_i
  Buffer<Real> reach_;    // how far the stretched kernel reaches, m
  bool ready_ = false;
};

EDDY_HD inline void YuTurkField::Sums::add(Vec3 d, Real d2, Real invR) {
  Real s = sqrtf(d2) * invR;
  Real w = 1 - s * s * s;
  sw += w;
  Vec3 wd = d * w;
  sd += wd;
  sxx += wd.x * d.x, sxy += wd.x * d.y, sxz += wd.x * d.z;
  syy += wd.y * d.y, syz += wd.y * d.z, szz += wd.z * d.z;
  neighbours += d2 > 0;
}

EDDY_HD inline YuTurkField::Kernel YuTurkField::Sums::kernel(Real r, Real h) const {
  Kernel k;
  Real total = sw > 0 ? sw : 1;  // sw >= 1 where the particle met itself
  Vec3 mean = sd / total;
  k.towardsMean = mean;
  // N_eps of the paper's r = 2h, scaled to this neighbourhood's volume
  Real q = r / (2 * h);
  if (Real(neighbours) > Real(kMinNeighbors) * q * q * q) {
    Mat3 sdd;
    sdd.m[0][0] = sxx, sdd.m[0][1] = sdd.m[1][0] = sxy, sdd.m[0][2] = sdd.m[2][0] = sxz;
    sdd.m[1][1] = syy, sdd.m[1][2] = sdd.m[2][1] = syz, sdd.m[2][2] = szz;
    Mat3 C = sdd * (1 / total) - outer(mean, mean);
    Mat3 U, V;
    Vec3 sigma;
    svd3(C, U, sigma, V);
    Real ks = 1 / (Real(0.15) * r * r);
    Real s1 = fabsf(sigma.x);
    Vec3 S =
        Vec3{s1, fmaxf(fabsf(sigma.y), s1 / kStretchRatio), fmaxf(fabsf(sigma.z), s1 / kStretchRatio)} * ks;
    // V's columns are C's principal directions (C is symmetric); G = V S^-1 V^T / h
    k.G = composeSvd(V, Vec3{1 / S.x, 1 / S.y, 1 / S.z} * (1 / h), V);
    k.reach = h * fmaxf(S.x, fmaxf(S.y, S.z));
  } else {
    // too few neighbours to trust their directions: a round kernel, k_n as wide
    k.G = Mat3::identity() * (1 / (kIsolatedScale * h));
    k.reach = kIsolatedScale * h;
  }
  return k;
}

EDDY_HD inline YuTurkField::Kernel YuTurkField::kernelOf(const GridView& cells, const Vec3* x, Vec3 xi,
                                                         Real r, Real h) {
  Real invR = 1 / r, r2 = r * r;
  Sums sums;
  cells.forEachCellWithinTwo(xi, [&](std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t j = begin; j < end; ++j) {
      Vec3 d = x[j] - xi;
      Real d2 = dot(d, d);
      if (d2 < r2) sums.add(d, d2, invR);
    }
  });
  return sums.kernel(r, h);
}

}  // namespace eddy::EDDY_NS
