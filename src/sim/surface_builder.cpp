#include "sim/surface_builder.h"

#include <cmath>

namespace eddy::EDDY_NS {

SurfaceReconstructor& SurfaceBuilder::reconstructorFor(const SurfaceSettings* settings) {
  const SurfaceSettings wanted = settings ? *settings : surfaceSettingsFor(scene_);
  if (surface_ && !(surface_->settings() == wanted)) surface_.reset();
  if (!surface_) surface_ = std::make_unique<SurfaceReconstructor>(wanted);
  return *surface_;
}

void SurfaceBuilder::build(const ParticleSet& particles, Primitives& prims, TriangleMesh& out,
                           SurfaceStats* stats, const SurfaceSettings* settings, const std::string& group) {
  SurfaceReconstructor& surface = reconstructorFor(settings);
  Index n = 0;
  const Vec3* positions = groups_.positions(particles, group, prims, n);
  if (n == 0) {
    out = TriangleMesh{};  // no liquid yet (a nozzle that has not started), or none of this material
    return;
  }
  surface.reconstruct(positions, n, out, stats);
}

SurfaceMeshView SurfaceBuilder::buildOnDevice(const ParticleSet& particles, Primitives& prims,
                                              SurfaceStats* stats, const SurfaceSettings* settings,
                                              const std::string& group) {
  SurfaceReconstructor& surface = reconstructorFor(settings);
  Index n = 0;
  const Vec3* positions = groups_.positions(particles, group, prims, n);
  return n == 0 ? SurfaceMeshView{} : surface.reconstructOnDevice(positions, n, stats);
}

EllipsoidView SurfaceBuilder::buildEllipsoids(const ParticleSet& particles, Primitives& prims,
                                              const NeighborView* lists, Real listRadius) {
  const SurfaceSettings settings = surfaceSettingsFor(scene_);
  const Real radius = Real(0.5) * scene_.fluid.spacing;
  // where the SPH support is the ellipsoids' neighbourhood (the default), the last substep's neighbour
  // lists are theirs, in the particles' order: no copy, no sort
  if (lists && groups_.names().empty() &&
      std::fabs(listRadius - settings.kernelRadius) <= Real(1e-4) * settings.kernelRadius)
    return ellipsoids_.build(particles.vec3(attr::kPosition).data, particles.size(), *lists, settings,
                             radius);
  Index n = 0;
  const Vec3* positions = groups_.positions(particles, {}, prims, n);
  return ellipsoids_.build(positions, n, settings, radius, prims);
}

std::size_t SurfaceBuilder::bytes() const {
  return (surface_ ? surface_->bytes() : 0) + groups_.bytes() + ellipsoids_.bytes();
}

}  // namespace eddy::EDDY_NS
