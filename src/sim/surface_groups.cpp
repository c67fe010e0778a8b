#include "sim/surface_groups.h"

#include <eddy/error.h>
#include <eddy/surface.h>

#include <algorithm>

#include "solvers/mpm/moving_least_squares_mpm.h"
#include "surface/surface_grid.h"

namespace eddy::EDDY_NS {

SurfaceGroups::SurfaceGroups(const SimulationDesc& scene) : names_(surfaceGroupNames(scene)) {
  if (names_.empty()) return;
  for (const EmitterDesc& e : scene.emitters) emitterType_.push_back(e.material.type);
}

const Vec3* SurfaceGroups::positions(const ParticleSet& particles, const std::string& group,
                                     Primitives& prims, Index& n) {
  n = particles.size();
  const Vec3* all = particles.vec3(attr::kPosition).data;
  if (group.empty()) return all;
  if (std::find(names_.begin(), names_.end(), group) == names_.end())
    throw InputError("surface: no material group '" + group + "' in this scene");

  std::vector<std::uint32_t> member(emitterType_.size());
  for (std::size_t k = 0; k < member.size(); ++k) member[k] = emitterType_[k] == group ? 1u : 0u;
  ensureCapacity(member_, member.size());
  member_.upload(member.data(), member.size());
  ensureCapacity(flags_, std::size_t(n) + 1);
  ensureCapacity(offsets_, std::size_t(n) + 1);
  const Real* material = particles.real(attr_mpm::kMaterial).data;
  const std::uint32_t* isMember = member_.data();
  std::uint32_t* flags = flags_.data();
  Index count = n;
  parallelFor(
      count + 1, EDDY_KERNEL(Index i) { flags[i] = i < count ? isMember[int(material[i])] : 0u; });
  prims.exclusiveScan(flags_.view(), offsets_.view(), count + 1);
  std::uint32_t kept = 0;
  offsets_.download(&kept, 1, std::size_t(count));
  ensureCapacity(gathered_, std::max<std::size_t>(kept, 1));
  const std::uint32_t* at = offsets_.data();
  Vec3* out = gathered_.data();
  parallelFor(
      count, EDDY_KERNEL(Index i) {
        if (flags[i]) out[at[i]] = all[i];
      });
  n = Index(kept);
  return out;
}

std::size_t SurfaceGroups::bytes() const {
  return member_.bytes() + flags_.bytes() + offsets_.bytes() + gathered_.bytes();
}

}  // namespace eddy::EDDY_NS
