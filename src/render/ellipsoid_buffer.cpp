#include "render/ellipsoid_buffer.h"

#include <eddy/simulation.h>
#include <eddy/surface.h>

namespace eddy::render {

void EllipsoidBuffer::fill(Simulation& sim) {
  EllipsoidView e;
  sim.buildEllipsoidsOnDevice(e);
  const Backend backend = sim.backend();
  count_ = std::size_t(e.count);
  interop_ = copyIntoBuffers(backend,
                             {{&centres_, e.centres, count_ * sizeof(Vec3)},
                              {&shapes_, e.shapes, count_ * sizeof(Mat3)},
                              {&bounds_, e.bounds, count_ * sizeof(Real)}},
                             "ellipsoid buffers");
}

void EllipsoidBuffer::upload(const HostEllipsoids& e) {
  static_assert(sizeof(Mat3) == 9 * sizeof(float) && sizeof(Real) == sizeof(float),
                "ellipsoids go to the GL as packed floats");
  count_ = e.centres.size();
  // host arrays into a mapped GL buffer: the CPU backend's copy (memcpy)
  copyIntoBuffers(Backend::Cpu,
                  {{&centres_, e.centres.data(), count_ * sizeof(Vec3)},
                   {&shapes_, e.shapes.data(), count_ * sizeof(Mat3)},
                   {&bounds_, e.bounds.data(), count_ * sizeof(Real)}},
                  "ellipsoid buffers");
  interop_ = false;
}

}  // namespace eddy::render
