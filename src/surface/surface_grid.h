// A scalar field on a block-sparse grid of nodes, negative inside the liquid: what the surface methods
// build and marching cubes reads.
//
// The nodes lie on one regular lattice over the particles' box, cut into blocks of 8 x 8 x 8 nodes. Only
// the blocks that some particle's kernel reaches are stored, so memory and time follow the liquid, not
// the box around it (a splash flying to the far corner adds its own few blocks, not the volume between).
// A node of a block that is not stored reads as outside. Stored blocks take every node within `reach` of
// a particle and the node below it on each axis, so every cell that holds a sign change has its lowest
// corner, and every crossed edge its first node, in a stored block.
#pragma once

#include <eddy/backend.h>
#include <eddy/vec3.h>

#include <cstddef>
#include <cstdint>

#include "backend/primitives.h"

namespace eddy {

inline constexpr int kSurfaceBlock = 8;  // nodes per block edge
inline constexpr int kSurfaceBlockNodes = kSurfaceBlock * kSurfaceBlock * kSurfaceBlock;

struct SurfaceGridView {
  const Real* values = nullptr;           // the stored blocks' nodes: slot * 512 + local index
  const std::int32_t* slots = nullptr;    // per block of the lattice: its slot, or -1 (not stored)
  const std::uint32_t* blocks = nullptr;  // per slot: the block's index in the lattice
  std::int32_t storedBlocks = 0;
  int bx = 0, by = 0, bz = 0;  // blocks per axis
  Vec3 origin{};               // node (0, 0, 0)
  Real cell = 1;               // node spacing, m
  Real outside = 1;            // the value of every node that is not stored

  EDDY_HD static int local(int i, int j, int k) {
    return ((k & 7) * kSurfaceBlock + (j & 7)) * kSurfaceBlock + (i & 7);
  }
  // the slot of node (i, j, k)'s block, or -1
  EDDY_HD int slotOf(int i, int j, int k) const {
    if (i < 0 || j < 0 || k < 0) return -1;
    int a = i >> 3, b = j >> 3, c = k >> 3;
    if (a >= bx || b >= by || c >= bz) return -1;
    return slots[(std::size_t(c) * by + b) * bx + a];
  }
  // where node (i, j, k) is stored, or -1
  EDDY_HD long long storageOf(int i, int j, int k) const {
    int s = slotOf(i, j, k);
    return s < 0 ? -1 : (long long)s * kSurfaceBlockNodes + local(i, j, k);
  }
  EDDY_HD Real at(int i, int j, int k) const {
    long long at = storageOf(i, j, k);
    return at < 0 ? outside : values[at];
  }
  // the lattice coordinates of stored node n (slot * 512 + local)
  EDDY_HD void nodeOf(std::int32_t n, int& i, int& j, int& k) const {
    std::uint32_t b = blocks[n / kSurfaceBlockNodes];
    int l = int(n % kSurfaceBlockNodes);
    int a = int(b % std::uint32_t(bx)), bb = int((b / std::uint32_t(bx)) % std::uint32_t(by)),
        c = int(b / (std::uint32_t(bx) * by));
    i = a * kSurfaceBlock + (l & 7), j = bb * kSurfaceBlock + ((l >> 3) & 7),
    k = c * kSurfaceBlock + (l >> 6);
  }
  EDDY_HD Vec3 node(int i, int j, int k) const { return origin + Vec3{Real(i), Real(j), Real(k)} * cell; }
  // the field's gradient at a node by central differences (nodes not stored read as outside)
  EDDY_HD Vec3 gradient(int i, int j, int k) const {
    return Vec3{at(i + 1, j, k) - at(i - 1, j, k), at(i, j + 1, k) - at(i, j - 1, k),
                at(i, j, k + 1) - at(i, j, k - 1)} *
           (1 / (2 * cell));
  }
  std::int32_t storedNodes() const { return storedBlocks * kSurfaceBlockNodes; }

  // calls f(storage index, node position) for every stored node within `reach` of x: the box's rows are
  // clipped to the sphere (half the box's nodes), padded by a thousandth of a cell against rounding, so
  // the caller still measures the distance it needs
  template <class F>
  EDDY_HD void forNodesNear(Vec3 x, Real reach, F&& f) const {
    Real inv = 1 / cell;
    Vec3 a = (x - origin) * inv;  // x in node units
    Real r = reach * inv + Real(1e-3), r2 = r * r;
    int k0 = int(ceilf(a.z - r)), k1 = int(floorf(a.z + r));
    for (int k = k0; k <= k1; ++k) {
      Real dz = Real(k) - a.z, rz2 = r2 - dz * dz;
      if (rz2 <= 0) continue;
      Real rz = sqrtf(rz2);
      int j0 = int(ceilf(a.y - rz)), j1 = int(floorf(a.y + rz));
      for (int j = j0; j <= j1; ++j) {
        Real dy = Real(j) - a.y, ry2 = rz2 - dy * dy;
        if (ry2 <= 0) continue;
        Real ry = sqrtf(ry2);
        int i0 = int(ceilf(a.x - ry)), i1 = int(floorf(a.x + ry));
        for (int i = i0; i <= i1; ++i) {
          long long at = storageOf(i, j, k);
          if (at >= 0) f(std::size_t(at), node(i, j, k));
        }
      }
    }
  }
};

}  // namespace eddy

namespace eddy::EDDY_NS {

// buffers of the surface pipeline grow, never shrink: one built every frame allocates only when the liquid
// grows, and then with half as much again to spare, so a splash that spreads frame by frame does not
// reallocate every frame
template <class T>
void ensureCapacity(Buffer<T>& b, std::size_t count) {
  if (b.size() < count) b = Buffer<T>(kDevice, b.size() == 0 ? count : count + count / 2);
}

// the owner of a block-sparse grid's layout and values
class SurfaceGrid {
 public:
  // stores the blocks holding nodes within `reach` of any of the n particles (and the node below), on a
  // lattice of spacing `cell`; every value starts unset. Throws InputError for non-finite positions and
  // for a lattice too large to index.
  void layout(const Vec3* positions, Index n, Real cell, Real reach, Real outside, Primitives& prims);
  SurfaceGridView view() const;
  Real* values() const { return values_.data(); }
  std::size_t bytes() const;

  // the lattice spanned, in nodes per axis (for reports)
  int nx() const { return view_.bx * kSurfaceBlock; }
  int ny() const { return view_.by * kSurfaceBlock; }
  int nz() const { return view_.bz * kSurfaceBlock; }

 private:
  SurfaceGridView view_{};
  Buffer<Real> scratch_;  // a coordinate per particle, for the box
  Buffer<std::uint32_t> flags_, scan_;
  Buffer<std::int32_t> slots_;
  Buffer<std::uint32_t> blocks_;
  Buffer<Real> values_;
};

}  // namespace eddy::EDDY_NS
