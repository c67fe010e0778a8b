#include "render/particle_buffer.h"

#include <eddy/simulation.h>

namespace eddy::render {

void ParticleBuffer::fill(Simulation& sim, const std::string& quantity) {
  count_ = std::size_t(sim.particleCount());
  interop_ = buffer_.write(
      sim.backend(), count_ * sizeof(Vec3), [&](void* at) { sim.copyPositions(static_cast<Vec3*>(at)); },
      "particle buffer");
  hasValues_ = !quantity.empty();
  if (hasValues_)
    values_.write(
        sim.backend(), count_ * sizeof(float),
        [&](void* at) { sim.copyValues(quantity, static_cast<float*>(at)); }, "particle value buffer");
}

}  // namespace eddy::render
