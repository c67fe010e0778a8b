#include "sim/particle_copies.h"

#include <eddy/error.h>

#include <algorithm>

#include "sim/scene_model.h"
#include "solvers/mpm/moving_least_squares_mpm.h"

namespace eddy::EDDY_NS {

void copyToHost(const ParticleSet& particles, const Real* pressure, HostParticles& out) {
  Index n = particles.size();
  out.position.resize(n);
  out.velocity.resize(n);
  out.density.resize(n);
  out.id.resize(n);
  copyBytes(Device::Host, out.position.data(), kDevice, particles.vec3(attr::kPosition).data,
            n * sizeof(Vec3));
  copyBytes(Device::Host, out.velocity.data(), kDevice, particles.vec3(attr::kVelocity).data,
            n * sizeof(Vec3));
  copyBytes(Device::Host, out.density.data(), kDevice, particles.real(attr::kDensity).data, n * sizeof(Real));
  copyBytes(Device::Host, out.id.data(), kDevice, particles.uint32(attr::kId).data,
            n * sizeof(std::uint32_t));
  out.pressure.clear();
  if (pressure) {
    out.pressure.resize(n);
    copyBytes(Device::Host, out.pressure.data(), kDevice, pressure, n * sizeof(Real));
  }
  // MPM keeps each particle's material table index (its emitter) as a real
  out.material.clear();
  if (particles.has(attr_mpm::kMaterial)) {
    std::vector<Real> material(n);
    copyBytes(Device::Host, material.data(), kDevice, particles.real(attr_mpm::kMaterial).data,
              n * sizeof(Real));
    out.material.assign(material.begin(), material.end());
  }
}

void copyValues(const ParticleSet& particles, const std::string& quantity, float* out) {
  static_assert(sizeof(Real) == sizeof(float), "values go out as floats");
  const Index n = particles.size();
  if (quantity == "speed") {
    const Vec3* v = particles.vec3(attr::kVelocity).data;
    parallelFor(
        n, EDDY_KERNEL(Index i) { out[i] = length(v[i]); });
  } else if (quantity == "density") {
    copyBytes(kDevice, out, kDevice, particles.real(attr::kDensity).data, std::size_t(n) * sizeof(Real));
  } else if (quantity == "id") {
    const std::uint32_t* id = particles.uint32(attr::kId).data;
    parallelFor(
        n, EDDY_KERNEL(Index i) { out[i] = float(id[i]); });
  } else if (quantity == "material") {
    if (particles.has(attr_mpm::kMaterial))
      copyBytes(kDevice, out, kDevice, particles.real(attr_mpm::kMaterial).data,
                std::size_t(n) * sizeof(Real));
    else
      parallelFor(
          n, EDDY_KERNEL(Index i) { out[i] = 0; });
  } else {
    throw InputError("values: '" + quantity +
                     "' is not a particle quantity (allowed: speed, density, id, "
                     "material)");
  }
}

void copyPositionsTo(const ParticleSet& particles, Vec3* out) {
  copyBytes(kDevice, out, kDevice, particles.vec3(attr::kPosition).data,
            std::size_t(particles.size()) * sizeof(Vec3));
}

std::vector<ParticleArray> persistentArrays(ParticleSet& particles) {
  std::vector<ParticleArray> out;
  for (const ParticleSet::Info& a : particles.attributes())
    if (a.persistent)
      out.push_back(
          {a.name, a.type, a.components, particles.words(a.name), std::int64_t(particles.size()), kDevice});
  return out;
}

void saveParticles(const ParticleSet& particles, SimulationState& s) {
  s.particles = particles.size();
  s.nextId = particles.nextId();
  for (const ParticleSet::Info& a : particles.attributes())
    if (a.persistent) s.attributes.push_back({a.name, a.components, a.type, particles.download(a.name)});
}

std::vector<const AttributeState*> checkSavedParticles(const ParticleSet& particles,
                                                       const SimulationState& s) {
  auto fail = [](const std::string& what) {
    throw InputError("the saved state does not fit the scene: " + what);
  };
  // more than the scene's emitters make is fine: particles may have been added (addParticles)
  if (s.particles < 0 || s.particles > std::int64_t(kMostParticles))
    fail(std::to_string(s.particles) + " particles");
  auto typeName = [](AttributeType t) { return t == AttributeType::UInt32 ? "UInt32" : "Float32"; };
  std::vector<const AttributeState*> saved;
  for (const ParticleSet::Info& a : particles.attributes()) {
    if (!a.persistent) continue;
    auto it = std::find_if(s.attributes.begin(), s.attributes.end(),
                           [&](const AttributeState& b) { return b.name == a.name; });
    if (it == s.attributes.end()) fail("no particle attribute '" + a.name + "'");
    if (it->components != a.components || it->type != a.type ||
        it->bytes.size() != std::size_t(s.particles) * a.components * sizeof(Real))
      fail("particle attribute '" + a.name + "' has " + std::to_string(it->components) + " components of " +
           typeName(it->type) + " in " + std::to_string(it->bytes.size()) + " bytes; " +
           std::to_string(a.components) + " of " + typeName(a.type) + " expected");
    saved.push_back(&*it);
  }
  if (saved.size() != s.attributes.size())
    fail(std::to_string(s.attributes.size()) + " particle attributes saved, " + std::to_string(saved.size()) +
         " expected");
  return saved;
}

void restoreParticles(ParticleSet& particles, const SimulationState& s,
                      const std::vector<const AttributeState*>& saved, std::int64_t room) {
  particles.reserve(Index(room));  // in one growth at most
  particles.restore(Index(s.particles), s.nextId);
  for (const AttributeState* a : saved) particles.upload(a->name, a->bytes);
}

}  // namespace eddy::EDDY_NS
