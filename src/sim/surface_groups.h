// Which particles each liquid surface is built from: all of them, or, in an MPM scene whose surface
// section says "groups": "material", those of one material type, so that water gets a surface apart from
// the sand and snow it carries. The group's positions are gathered on the device.
#pragma once

#include <eddy/simulation_desc.h>

#include <string>
#include <vector>

#include "backend/primitives.h"
#include "particles/particle_set.h"

namespace eddy::EDDY_NS {

class SurfaceGroups {
 public:
  explicit SurfaceGroups(const SimulationDesc& scene);
  // the material types that get surfaces of their own, in the order of the emitters that first use them;
  // empty when one surface holds every particle (every PBF and WCSPH scene, an MPM scene of one material,
  // or "groups": "all")
  const std::vector<std::string>& names() const { return names_; }
  // the positions of the group's particles on the device and their number (every particle for "")
  const Vec3* positions(const ParticleSet& particles, const std::string& group, Primitives& prims, Index& n);
  std::size_t bytes() const;

 private:
  std::vector<std::string> names_;
  std::vector<std::string> emitterType_;  // the material type of each scene emitter
  Buffer<std::uint32_t> member_;          // 1 for the emitters of the group being gathered
  Buffer<std::uint32_t> flags_, offsets_;
  Buffer<Vec3> gathered_;
};

}  // namespace eddy::EDDY_NS
