#include "render/ellipsoid_buffer.h"

#include <eddy/simulation.h>

#include <cstring>

#include "surface/particle_ellipsoids.h"

namespace eddy::render {

void EllipsoidBuffer::fill(Simulation& sim) {
  EllipsoidView e;
  sim.buildEllipsoidsOnDevice(e);
  const Backend backend = sim.backend();
  count_ = std::size_t(e.count);
  const std::size_t bytes[3] = {count_ * sizeof(Vec3), count_ * sizeof(Mat3), count_ * sizeof(Real)};
  const void* from[3] = {e.centres, e.shapes, e.bounds};
  interop_ = writeBuffers(
      backend, {{&centres_, bytes[0]}, {&shapes_, bytes[1]}, {&bounds_, bytes[2]}},
      [&](void* const* to) {
        for (int k = 0; k < 3; ++k)
          if (bytes[k] > 0) copyWithin(backend, to[k], from[k], bytes[k]);
      },
      "ellipsoid buffers");
}

void EllipsoidBuffer::upload(const HostEllipsoids& e) {
  static_assert(sizeof(Mat3) == 9 * sizeof(float) && sizeof(Real) == sizeof(float),
                "ellipsoids go to the GL as packed floats");
  count_ = e.centres.size();
  const std::size_t bytes[3] = {count_ * sizeof(Vec3), count_ * sizeof(Mat3), count_ * sizeof(Real)};
  const void* from[3] = {e.centres.data(), e.shapes.data(), e.bounds.data()};
  writeBuffers(
      Backend::Cpu, {{&centres_, bytes[0]}, {&shapes_, bytes[1]}, {&bounds_, bytes[2]}},
      [&](void* const* to) {
        for (int k = 0; k < 3; ++k)
          if (bytes[k] > 0) std::memcpy(to[k], from[k], bytes[k]);
      },
      "ellipsoid buffers");
  interop_ = false;
}

}  // namespace eddy::render
