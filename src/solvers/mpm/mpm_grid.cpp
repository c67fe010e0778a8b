#include "solvers/mpm/mpm_grid.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace eddy::EDDY_NS {

namespace {

// cells needed to span an extent, forgiving the rounding of extent / dx (1.6 / 0.04 is 40, not 41)
std::int64_t cellsFor(double extent, double dx) { return std::int64_t(std::ceil(extent / dx - 1e-6)); }

std::string mib(double bytes) { return std::to_string(std::int64_t(bytes / (1024.0 * 1024.0))); }

}  // namespace

void MpmGrid::setup(const SceneDesc& scene, Index particleCapacity, bool flip) {
  const DomainDesc& d = scene.domain;
  Vec3 extent = d.max - d.min;
  double longest = std::max({double(extent.x), double(extent.y), double(extent.z)});
  int resolution = scene.mpm.gridResolution;
  double dx = longest / resolution;
  const double e[3] = {extent.x, extent.y, extent.z};
  std::int64_t n[3];
  for (int a = 0; a < 3; ++a) n[a] = cellsFor(e[a], dx) + 1 + 2 * kPad;
  double nodes = double(n[0]) * double(n[1]) * double(n[2]);
  std::string what = scene.sourcePath + ": /mpm/grid_resolution: " + std::to_string(resolution) +
                     " cells along the longest domain extent make a grid of " + std::to_string(n[0]) + " x " +
                     std::to_string(n[1]) + " x " + std::to_string(n[2]) +
                     " nodes (dx = " + std::to_string(dx) + " m)";
  double perNode = sizeof(Vec4) * (flip ? 2 : 1) + 2 * sizeof(std::uint32_t);
  double need = nodes * perNode + double(particleCapacity) * 4 * sizeof(std::uint32_t);
  double free = double(freeDeviceBytes(kDevice));
  if (need > free)
    throw InputError(what + ", which needs about " + mib(need) + " MiB of " +
                     (kDevice == Device::Cuda ? "GPU" : "host") + " memory, but only " + mib(free) +
                     " MiB are free; lower /mpm/grid_resolution");

  // node indices are 32-bit (kernel indices, sort keys)
  if (nodes > double(INT32_MAX))
    throw InputError(what +
                     ", more than the 2^31 - 1 nodes the engine can index; lower /mpm/grid_resolution");
  view_.dx = Real(dx);
  view_.invDx = Real(1 / dx);
  view_.origin = d.min - Vec3{1, 1, 1} * Real(kPad * dx);
  view_.nx = int(n[0]);
  view_.ny = int(n[1]);
  view_.nz = int(n[2]);
  Index count = view_.count();
  keyBits_ = 1;
  while (keyBits_ < 32 && (std::uint64_t(1) << keyBits_) < std::uint64_t(count)) ++keyBits_;
  nodes_ = Buffer<Vec4>(kDevice, count);
  nodes_.fillZero();
  if (flip) {
    previous_ = Buffer<Vec4>(kDevice, count);
    previous_.fillZero();
  }
  counts_ = Buffer<std::uint32_t>(kDevice, std::size_t(count) + 1);
  counts_.fillZero();
  first_ = Buffer<std::uint32_t>(kDevice, std::size_t(count) + 1);
  first_.fillZero();
  ensureKeys(particleCapacity);
}

void MpmGrid::ensureKeys(Index capacity) {
  std::size_t n = std::size_t(std::max<Index>(capacity, 1));
  if (keys_.size() >= n) return;
  for (Buffer<std::uint32_t>* b : {&keys_, &values_, &keysTmp_, &valuesTmp_}) b->resize(kDevice, n);
}

void MpmGrid::computeKeys(const Vec3* x, Index n) {
  MpmGridView g = view_;
  std::uint32_t* keys = keys_.data();
  std::uint32_t* values = values_.data();
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        int bx, by, bz;
        Vec3 fx;
        g.locate(x[i], bx, by, bz, fx);
        keys[i] = std::uint32_t(g.linear(bx, by, bz));
        values[i] = std::uint32_t(i);
      });
}

void MpmGrid::bin(ParticleSet& particles, Primitives& prims) {
  // the particle budget was reserved before set-up, so this grows nothing in the step loop
  ensureKeys(particles.capacity());
  Index n = particles.size();
  computeKeys(particles.vec3(attr::kPosition).data, n);
  if (prims.sortPairs(keys_.view(n), values_.view(n), keysTmp_.view(n), valuesTmp_.view(n), n, keyBits_)) {
    keys_.swap(keysTmp_);
    values_.swap(valuesTmp_);
  }
  particles.reorder({values_.data(), std::size_t(n)});

  // particles per node (integer atomics: the counts do not depend on order), then the first particle of
  // each node by an exclusive scan; the extra last entry ends up holding n
  fillBytes(kDevice, counts_.data(), 0, counts_.bytes());
  std::uint32_t* counts = counts_.data();
  const std::uint32_t* keys = keys_.data();
  parallelFor(
      n, EDDY_KERNEL(Index i) { atomicAddU32(&counts[keys[i]], 1u); });
  prims.exclusiveScan(counts_.view(), first_.view(), Index(counts_.size()));
}

std::size_t MpmGrid::bytes() const {
  return nodes_.bytes() + previous_.bytes() + counts_.bytes() + first_.bytes() + 4 * keys_.bytes();
}

}  // namespace eddy::EDDY_NS
