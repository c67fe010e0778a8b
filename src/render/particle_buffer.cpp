#include "render/particle_buffer.h"

#include <eddy/simulation.h>

namespace eddy::render {

void ParticleBuffer::fill(Simulation& sim, const std::string& quantity) {
  count_ = std::size_t(sim.particleCount());
  hasValues_ = !quantity.empty();
  if (!hasValues_) {
    interop_ = buffer_.write(
        sim.backend(), count_ * sizeof(Vec3), [&](void* at) { sim.copyPositions(static_cast<Vec3*>(at)); },
        "particle buffer");
    return;
  }
  interop_ = writeBuffers(
      sim.backend(), {{&buffer_, count_ * sizeof(Vec3)}, {&values_, count_ * sizeof(float)}},
      [&](void* const* at) {
        if (count_ == 0) return;
        sim.copyPositions(static_cast<Vec3*>(at[0]));
        sim.copyValues(quantity, static_cast<float*>(at[1]));
      },
      "particle buffers");
}

}  // namespace eddy::render
