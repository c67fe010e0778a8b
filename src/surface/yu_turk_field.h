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
// Parameters are the paper's: k_r = 4, k_n = 0.5, N_eps = 25, lambda = 0.9. The paper's k_s = 1400 scales
// covariances in its scene's units; here k_s is the same idea without units, 1 / (0.15 r^2): the weighted
// covariance of a full, uniform neighbourhood is 0.15 r^2 per axis, so a particle in the bulk keeps the
// isotropic kernel (S = I), and at the paper's r = 0.069 m this k_s is 1400.
//
// Reference: J. Yu, G. Turk, "Reconstructing surfaces of particle-based fluids using anisotropic
// kernels", ACM Trans. Graph. 32(1), 2013, section 3.
#pragma once

#include "core/mat3.h"
#include "neighbors/neighbor_grid.h"
#include "sim/particle_set.h"
#include "surface/surface_grid.h"
#include "surface/surface_reconstruction.h"

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

  // the first half of build: every particle's kernel (centre, G and reach), n of them in an order of the
  // field's own, on the device until the next call; surface/particle_ellipsoids.h splats them
  void buildKernels(const Vec3* positions, Index n, const SurfaceSettings& settings, Primitives& prims);
  const Vec3* positions() const { return particles_.vec3("x").data; }  // the particles, in the kernels' order
  const Vec3* centres() const { return centres_.data(); }
  const Mat3* stretch() const { return stretch_.data(); }
  const Real* reach() const { return reach_.data(); }

  // per particle, public for the CUDA lambdas: the kernel's centre, its matrix G and reach
  void computeKernels(Index n, Real neighborhood, Real kernelRadius);

 private:
  ParticleSet particles_;  // a sorted copy of the positions
  NeighborGrid grid_;
  Buffer<Vec3> centres_;
  Buffer<Mat3> stretch_;  // G_i
  Buffer<Real> reach_;    // how far the stretched kernel reaches, m
  bool ready_ = false;
};

}  // namespace eddy::EDDY_NS
