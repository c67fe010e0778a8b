#include "surface/surface_reconstruction.h"

#include <chrono>

#include "surface/marching_cubes.h"
#include "surface/zhu_bridson_field.h"

namespace eddy::EDDY_NS {

TriangleMesh reconstructSurface(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                SurfaceStats* stats) {
  using Clock = std::chrono::steady_clock;
  Buffer<Vec3> x(kDevice, particles.size());
  x.upload(particles.data(), particles.size());
  Primitives prims;
  ZhuBridsonField field;
  MarchingCubes marching;
  auto start = Clock::now();
  field.build(x.data(), Index(particles.size()), settings, prims);
  synchronizeDevice(kDevice);
  auto built = Clock::now();
  TriangleMesh mesh;
  marching.extract(field.view(), prims, mesh);
  if (stats) {
    SurfaceGridView g = field.view();
    stats->nx = g.nx, stats->ny = g.ny, stats->nz = g.nz;
    stats->fieldMilliseconds = std::chrono::duration<double, std::milli>(built - start).count();
    stats->meshMilliseconds = std::chrono::duration<double, std::milli>(Clock::now() - built).count();
  }
  return mesh;
}

}  // namespace eddy::EDDY_NS
