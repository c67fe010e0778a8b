#include "surface/surface_reconstructor.h"

#include <eddy/error.h>

#include <chrono>

namespace eddy::EDDY_NS {

SurfaceReconstructor::SurfaceReconstructor(const SurfaceSettings& settings) : settings_(settings) {
  checkSurfaceSettings(settings_);
}

SurfaceMeshView SurfaceReconstructor::reconstructOnDevice(const Vec3* positions, Index n,
                                                          SurfaceStats* stats) {
  if (n <= 0) throw InputError("surface: there are no particles");
  watch_.start();
  switch (settings_.method) {
    case SurfaceMethod::ZhuBridson:
      zhuBridson_.build(positions, n, settings_, grid_, prims_);
      break;
    case SurfaceMethod::SphDensity:
      sphDensity_.build(positions, n, settings_, grid_, prims_);
      break;
    case SurfaceMethod::YuTurk:
      yuTurk_.build(positions, n, settings_, grid_, prims_);
      break;
  }
  double fieldMs = watch_.lap();
  SurfaceMeshView mesh = marching_.extract(grid_.view(), prims_);
  double meshMs = watch_.lap();
  if (settings_.smoothingIterations > 0) {
    smoothing_.smooth(mesh, settings_.smoothingIterations);
    // the mu steps can fold a few vertices' triangles back on each other
    marching_.unfold(mesh, grid_.view().cell);
  }
  double smoothMs = settings_.smoothingIterations > 0 ? watch_.lap() : 0;
  if (stats) {
    stats->nx = grid_.nx(), stats->ny = grid_.ny(), stats->nz = grid_.nz();
    stats->storedNodes = std::size_t(grid_.view().storedNodes());
    stats->bytes = bytes();
    stats->fieldMilliseconds = fieldMs;
    stats->meshMilliseconds = meshMs;
    stats->smoothMilliseconds = smoothMs;
  }
  return mesh;
}

void SurfaceReconstructor::reconstruct(const Vec3* positions, Index n, TriangleMesh& out,
                                       SurfaceStats* stats) {
  reconstructOnDevice(positions, n, stats);
  auto start = std::chrono::steady_clock::now();
  marching_.download(out);
  if (stats)
    stats->copyMilliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::size_t SurfaceReconstructor::bytes() const {
  return prims_.scratchBytes() + grid_.bytes() + zhuBridson_.bytes() + yuTurk_.bytes() + marching_.bytes() +
         smoothing_.bytes();
}

}  // namespace eddy::EDDY_NS
