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

void MpmGrid::setup(const SimulationDesc& scene, Index particleCapacity, bool flip) {
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

  // node indices are 32-bit (kernel indices, sort keys), and the sort's table of first particles has an
  // entry past the last node, which an Index must number too
  if (nodes > double(INT32_MAX - 1))
    throw InputError(what +
                     ", more than the 2^31 - 2 nodes the engine can index; lower /mpm/grid_resolution");
  view_.dx = Real(dx);
  view_.invDx = Real(1 / dx);
  view_.origin = d.min - Vec3{1, 1, 1} * Real(kPad * dx);
  view_.nx = int(n[0]);
  view_.ny = int(n[1]);
  view_.nz = int(n[2]);
  Index count = view_.count();
  nodes_ = Buffer<Vec4>(kDevice, count);
  nodes_.fillZero();
  if (flip) {
    previous_ = Buffer<Vec4>(kDevice, count);
    previous_.fillZero();
  }
  sort_.reserve(std::size_t(count), particleCapacity);
  blocksX_ = (view_.nx + 3) / 4;
  blocksY_ = (view_.ny + 3) / 4;
  blocksZ_ = (view_.nz + 3) / 4;
  if (kDevice == Device::Host && count < kTiledFrom)
    reached_ = Buffer<std::uint8_t>(kDevice, std::size_t(blocksX_) * blocksY_ * blocksZ_);
  else
    reached_ = Buffer<std::uint8_t>();
}

void MpmGrid::recordKeys(const Vec3* x, Index n) {
  MpmGridView g = view_;
  KeyRecorder keys = sort_.recorder();
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        int bx, by, bz;
        Vec3 fx;
        Vec3 p = x[i];
        g.locate(p, bx, by, bz, fx);
        // a position that is not finite (a blow-up, reported by the solver's CFL maxima) is spread over the
        // nodes by index rather than piled onto node 0
        bool finite = p.x - p.x == 0 && p.y - p.y == 0 && p.z - p.z == 0;
        keys.record(i, finite ? std::uint32_t(g.linear(bx, by, bz)) : std::uint32_t(i % g.count()));
      });
}

void MpmGrid::bin(ParticleSet& particles, Primitives& prims, bool move) {
  // the particle budget was reserved before set-up, so this grows nothing in the step loop
  sort_.reserve(std::size_t(nodeCount()), particles.capacity());
  Index n = particles.size();
  recordKeys(particles.vec3(attr::kPosition).data, n);
  sort_.sort(n, prims);
  if (move) particles.reorder({sort_.order(), std::size_t(n)});
  markBlocks();  // where the grid has them
}

void MpmGrid::markBlocks() {
  if (reached_.size() == 0) return;
  MpmGridView g = view_;
  std::uint8_t* reached = reached_.data();
  const std::uint32_t* first = sort_.starts();
  int bx = blocksX_, by = blocksY_;
  parallelFor(
      Index(reached_.size()), EDDY_KERNEL(Index k) {
        int x0 = int(k % bx) * 4, y0 = int(k / bx % by) * 4, z0 = int(k / (Index(bx) * by)) * 4;
        // a particle reaches the nodes base .. base + 2: those of this block are based 2 nodes below it
        // to its last node; each row of base nodes along x is one span of the sort
        int xLo = x0 - 2 > 0 ? x0 - 2 : 0, xHi = x0 + 3 < g.nx - 1 ? x0 + 3 : g.nx - 1;
        // all 36 rows tested with no early exit, so that their loads overlap instead of queueing (a row
        // clamped onto the grid's edge is tested twice, which changes nothing)
        bool any = false;
        EDDY_UNROLL
        for (int c = -2; c <= 3; ++c) {
          int z = z0 + c < 0 ? 0 : (z0 + c > g.nz - 1 ? g.nz - 1 : z0 + c);
          EDDY_UNROLL
          for (int b = -2; b <= 3; ++b) {
            int y = y0 + b < 0 ? 0 : (y0 + b > g.ny - 1 ? g.ny - 1 : y0 + b);
            any |= first[g.linear(xHi, y, z) + 1] > first[g.linear(xLo, y, z)];
          }
        }
        reached[k] = any ? 1 : 0;
      });
}

std::size_t MpmGrid::bytes() const {
  return nodes_.bytes() + previous_.bytes() + sort_.bytes() + reached_.bytes();
}

}  // namespace eddy::EDDY_NS
