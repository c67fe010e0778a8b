#include "surface/particle_ellipsoids.h"

#include <eddy/error.h>

namespace eddy::EDDY_NS {

namespace {

// the splat of a kernel G that reaches `reach`: A = G h / r has semi-axes r S_k, and f = cbrt(S1 S2 S3)
// brings its volume back to the sphere's; scale = h / r
EDDY_HD inline void ellipsoidOf(const Mat3& G, Real reach, Real scale, Real radius, Mat3& shape,
                                Real& bound) {
  Mat3 A = G * scale;
  Real f = cbrtf(1 / (determinant(A) * radius * radius * radius));
  shape = A * f;
  bound = reach / (scale * f);
}

}  // namespace

EllipsoidView ParticleEllipsoids::build(const Vec3* positions, Index n, const SurfaceSettings& settings,
                                        Real radius, Primitives& prims) {
  if (n <= 0) return {};
  kernels_.buildKernels(positions, n, settings, settings.kernelRadius, prims);
  ensureCapacity(shapes_, std::size_t(n));
  ensureCapacity(bounds_, std::size_t(n));
  const Mat3* stretch = kernels_.stretch();
  const Real* reach = kernels_.reach();
  Mat3* shape = shapes_.data();
  Real* bound = bounds_.data();
  Real scale = settings.kernelRadius / radius;
  parallelFor(
      n, EDDY_KERNEL(Index i) { ellipsoidOf(stretch[i], reach[i], scale, radius, shape[i], bound[i]); });
  return {kernels_.positions(), shapes_.data(), bounds_.data(), std::int64_t(n)};
}

EllipsoidView ParticleEllipsoids::build(const Vec3* positions, Index n, const NeighborView& neighbors,
                                        const SurfaceSettings& settings, Real radius) {
  if (n <= 0) return {};
  ensureCapacity(shapes_, std::size_t(n));
  ensureCapacity(bounds_, std::size_t(n));
  Mat3* shape = shapes_.data();
  Real* bound = bounds_.data();
  Real h = settings.kernelRadius, r2 = h * h, invR = 1 / h, scale = h / radius;
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        Vec3 xi = positions[i];
        YuTurkField::Sums sums;
        sums.add(Vec3{}, 0, invR);  // the particle itself
        neighbors.forEach(i, [&](Index j) {
          Vec3 d = positions[j] - xi;
          Real d2 = dot(d, d);
          if (d2 < r2) sums.add(d, d2, invR);
        });
        YuTurkField::Kernel kernel = sums.kernel(h, h);
        ellipsoidOf(kernel.G, kernel.reach, scale, radius, shape[i], bound[i]);
      });
  return {positions, shapes_.data(), bounds_.data(), std::int64_t(n)};
}

std::size_t ParticleEllipsoids::bytes() const { return kernels_.bytes() + shapes_.bytes() + bounds_.bytes(); }

HostEllipsoids particleEllipsoids(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                  Real radius) {
  HostEllipsoids out;
  if (particles.empty()) return out;
  checkSurfaceSettings(settings);
  const std::size_t n = particles.size();
  Buffer<Vec3> x(kDevice, n);
  x.upload(particles.data(), n);
  Primitives prims;
  ParticleEllipsoids ellipsoids;
  const EllipsoidView v = ellipsoids.build(x.data(), Index(n), settings, radius, prims);
  out.centres.resize(n);
  out.shapes.resize(n);
  out.bounds.resize(n);
  copyBytes(Device::Host, out.centres.data(), kDevice, v.centres, n * sizeof(Vec3));
  copyBytes(Device::Host, out.shapes.data(), kDevice, v.shapes, n * sizeof(Mat3));
  copyBytes(Device::Host, out.bounds.data(), kDevice, v.bounds, n * sizeof(Real));
  return out;
}

}  // namespace eddy::EDDY_NS
