#include <eddy/error.h>
#include <eddy/surface.h>

#include "surface/surface_reconstructor.h"

namespace eddy::EDDY_NS {

TriangleMesh reconstructSurface(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                SurfaceStats* stats) {
  SurfaceReconstructor reconstructor(settings);
  if (particles.empty()) throw InputError("surface: there are no particles");
  Buffer<Vec3> x(kDevice, particles.size());
  x.upload(particles.data(), particles.size());
  TriangleMesh mesh;
  reconstructor.reconstruct(x.data(), Index(particles.size()), mesh, stats);
  return mesh;
}

}  // namespace eddy::EDDY_NS
