// The liquid's surfaces and the particles' ellipsoids, built on demand between frames from the particles
// where they are: one reconstruction per set of settings, kept for the next call, and the groups of
// particles that get surfaces of their own (surface_groups.h).
#pragma once

#include <eddy/simulation_desc.h>

#include <memory>
#include <string>
#include <vector>

#include "neighbors/neighbor_grid.h"
#include "sim/surface_groups.h"
#include "surface/particle_ellipsoids.h"
#include "surface/surface_reconstructor.h"

namespace eddy::EDDY_NS {

class SurfaceBuilder {
 public:
  explicit SurfaceBuilder(const SimulationDesc& scene) : scene_(scene), groups_(scene) {}

  const std::vector<std::string>& groups() const { return groups_.names(); }
  // Simulation::buildSurface and buildSurfaceOnDevice: the scene's "surface" settings where none are given
  void build(const ParticleSet& particles, Primitives& prims, TriangleMesh& out, SurfaceStats* stats,
             const SurfaceSettings* settings, const std::string& group);
  SurfaceMeshView buildOnDevice(const ParticleSet& particles, Primitives& prims, SurfaceStats* stats,
                                const SurfaceSettings* settings, const std::string& group);
  // Simulation::buildEllipsoidsOnDevice; `lists`: the last substep's neighbour lists in the particles'
  // order, or null where the particles have moved in the order since
  EllipsoidView buildEllipsoids(const ParticleSet& particles, Primitives& prims, const NeighborView* lists,
                                Real listRadius);
  std::size_t bytes() const;

 private:
  // the reconstruction for these settings (made, or made again, where they differ)
  SurfaceReconstructor& reconstructorFor(const SurfaceSettings* settings);

  const SimulationDesc& scene_;
  SurfaceGroups groups_;
  std::unique_ptr<SurfaceReconstructor> surface_;  // made by the first build
  ParticleEllipsoids ellipsoids_;                  // what buildEllipsoids returns a view of
};

}  // namespace eddy::EDDY_NS
