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
  auto copy = [&](InteropBuffer& to, const void* from, std::size_t bytes, const char* what) {
    return to.write(
        backend, bytes, [&](void* at) { copyWithin(backend, at, from, bytes); }, what);
  };
  interop_ = copy(centres_, e.centres, count_ * sizeof(Vec3), "ellipsoid centre buffer");
  copy(shapes_, e.shapes, count_ * sizeof(Mat3), "ellipsoid shape buffer");
  copy(bounds_, e.bounds, count_ * sizeof(Real), "ellipsoid bound buffer");
}

void EllipsoidBuffer::upload(const HostEllipsoids& e) {
  static_assert(sizeof(Mat3) == 9 * sizeof(float) && sizeof(Real) == sizeof(float),
                "ellipsoids go to the GL as packed floats");
  count_ = e.centres.size();
  auto copy = [&](InteropBuffer& to, const void* from, std::size_t bytes, const char* what) {
    to.write(
        Backend::Cpu, bytes, [&](void* at) { std::memcpy(at, from, bytes); }, what);
  };
  copy(centres_, e.centres.data(), count_ * sizeof(Vec3), "ellipsoid centre buffer");
  copy(shapes_, e.shapes.data(), count_ * sizeof(Mat3), "ellipsoid shape buffer");
  copy(bounds_, e.bounds.data(), count_ * sizeof(Real), "ellipsoid bound buffer");
  interop_ = false;
}

}  // namespace eddy::render
