#include "surface/surface_grid.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace eddy::EDDY_NS {

namespace {

constexpr double kMaxLatticeBlocks = double(1u << 27);  // the block table: 512 MiB of slots at most
// marching cubes numbers three edges per stored node in 32-bit indices
constexpr double kMaxStoredNodes = double((1u << 31) / 3 - kSurfaceBlockNodes);

}  // namespace

void SurfaceGrid::layout(const Vec3* positions, Index n, Real cell, Real reach, Real outside,
                         Primitives& prims) {
  if (n <= 0) throw InputError("surface: there are no particles");
  // the particles' box, one coordinate at a time through a scratch array
  ensureCapacity(scratch_, std::size_t(n));
  Real lo[3], hi[3];
  for (int axis = 0; axis < 3; ++axis) {
    Real* c = scratch_.data();
    parallelFor(
        n, EDDY_KERNEL(Index i) {
          c[i] = axis == 0 ? positions[i].x : (axis == 1 ? positions[i].y : positions[i].z);
        });
    lo[axis] = prims.min(scratch_.view(), n);
    hi[axis] = prims.max(scratch_.view(), n);
    if (!std::isfinite(lo[axis]) || !std::isfinite(hi[axis]))
      throw InputError("surface: a particle position is not a finite number");
  }
  // one cell beyond the reach on every side, so the lattice's faces are outside
  Real margin = reach + cell;
  SurfaceGridView g{};
  g.cell = cell;
  g.outside = outside;
  g.origin = Vec3{lo[0], lo[1], lo[2]} - Vec3{margin, margin, margin};
  double blocks = 1;
  int dims[3];
  for (int axis = 0; axis < 3; ++axis) {
    double nodes = std::ceil((double(hi[axis]) - lo[axis] + 2 * margin) / cell) + 1;
    double b = std::ceil(nodes / kSurfaceBlock);
    blocks *= b;
    dims[axis] = int(std::min(b, kMaxLatticeBlocks));
  }
  if (blocks > kMaxLatticeBlocks)
    throw InputError("surface: the particles span " + std::to_string(dims[0] * kSurfaceBlock) + " x " +
                     std::to_string(dims[1] * kSurfaceBlock) + " x " +
                     std::to_string(dims[2] * kSurfaceBlock) +
                     " grid cells, too many to index; raise the cell size (/surface/cell, or --cell of "
                     "eddy surface)");
  g.bx = dims[0], g.by = dims[1], g.bz = dims[2];
  Index lattice = Index(blocks);

  // 1. flag the blocks that hold a node within reach of a particle, or the node below one
  ensureCapacity(flags_, std::size_t(lattice) + 1);
  ensureCapacity(scan_, std::size_t(lattice) + 1);
  ensureCapacity(slots_, std::size_t(lattice));
  std::uint32_t* flag = flags_.data();
  parallelFor(
      lattice + 1, EDDY_KERNEL(Index b) { flag[b] = 0; });
  {
    Real inv = 1 / cell;
    parallelFor(
        n, EDDY_KERNEL(Index p) {
          Vec3 x = positions[p];
          Vec3 a = (x - g.origin - Vec3{reach, reach, reach}) * inv;
          Vec3 b = (x - g.origin + Vec3{reach, reach, reach}) * inv;
          // the margin keeps these inside the lattice; the clamps guard against rounding
          int a0 = std::max(int(ceilf(a.x)) - 1, 0) >> 3, b0 = std::max(int(ceilf(a.y)) - 1, 0) >> 3,
              c0 = std::max(int(ceilf(a.z)) - 1, 0) >> 3;
          int a1 = std::min(int(floorf(b.x)) >> 3, g.bx - 1), b1 = std::min(int(floorf(b.y)) >> 3, g.by - 1),
              c1 = std::min(int(floorf(b.z)) >> 3, g.bz - 1);
          for (int c = c0; c <= c1; ++c)
            for (int bb = b0; bb <= b1; ++bb)
              for (int aa = a0; aa <= a1; ++aa) flag[(std::size_t(c) * g.by + bb) * g.bx + aa] = 1;
        });
  }
  // 2. number the flagged blocks
  prims.exclusiveScan(flags_.view(), scan_.view(), lattice + 1);
  std::uint32_t stored = 0;
  scan_.download(&stored, 1, std::size_t(lattice));
  if (double(stored) * kSurfaceBlockNodes > kMaxStoredNodes)
    throw InputError("surface: the liquid covers " + std::to_string(double(stored) * kSurfaceBlockNodes) +
                     " grid nodes, too many to index; raise the cell size (/surface/cell, or --cell of "
                     "eddy surface)");
  g.storedBlocks = Index(stored);
  ensureCapacity(blocks_, std::max<std::size_t>(stored, 1));
  ensureCapacity(values_, std::max<std::size_t>(std::size_t(stored) * kSurfaceBlockNodes, 1));
  {
    const std::uint32_t* scan = scan_.data();
    std::int32_t* slot = slots_.data();
    std::uint32_t* block = blocks_.data();
    parallelFor(
        lattice, EDDY_KERNEL(Index b) {
          bool on = flag[b] != 0;
          slot[b] = on ? std::int32_t(scan[b]) : -1;
          if (on) block[scan[b]] = std::uint32_t(b);
        });
  }
  g.values = values_.data();
  g.slots = slots_.data();
  g.blocks = blocks_.data();
  view_ = g;
}

SurfaceGridView SurfaceGrid::view() const { return view_; }

std::size_t SurfaceGrid::bytes() const {
  return scratch_.bytes() + flags_.bytes() + scan_.bytes() + slots_.bytes() + blocks_.bytes() +
         values_.bytes();
}

}  // namespace eddy::EDDY_NS
