// The dense background grid of the MPM solver and the binning of particles into it.
//
// The grid covers the domain with cubic cells of dx = (longest domain extent) / mpm.grid_resolution; node
// (0,0,0) sits kPad cells below domain.min on every axis, so the domain faces have kPad + 1 layers of
// nodes on or beyond them (the wall band) and a particle held inside the domain always finds its whole
// 3x3x3 stencil inside the grid. Every substep the particles are sorted by their base node (the lowest
// node of the stencil, a dense linear index) and each node gets the range of sorted particles based there,
// so the particle-to-grid transfer can gather: a node reads the particles of the 27 base nodes around it,
// in sorted order, without float atomics, and the sums come out the same on every backend and every run.
// The ranges are kept as a table of first particles per node (an exclusive scan of the per-node counts),
// so the particles of consecutive nodes along x, such as the three base nodes of one row of a stencil,
// form one span [first[k], first[k + 3]).
//
// Most of a dense grid is empty, and an empty node still looked up the runs around it. So the grid is
// also cut into blocks of 4^3 nodes, and after each sort a block is marked when particles are based close
// enough to reach one of its nodes; the transfer by node (solvers/mpm/particle_to_grid.h) only zeroes the
// nodes of unmarked blocks, so its cost follows the particles rather than the domain, and its results are
// the same. The marks pay on the CPU, where the empty nodes were most of the serial work (the MPM
// nozzle benchmark ran several times faster with them). On the GPU an empty node costs a thread of its own,
// which runs beside the others, and the large grids, where marks had paid a little, gather by tile, which
// skips empty tiles itself: the GPU never marks.
#pragma once

#include <eddy/simulation_desc.h>

#include "backend/primitives.h"
#include "neighbors/counting_sort.h"
#include "particles/particle_set.h"
#include "solvers/mpm/bspline.h"

namespace eddy::EDDY_NS {

// the grid's geometry, taken by value in kernels
struct MpmGridView {
  Vec3 origin{};  // position of node (0, 0, 0)
  Real dx = 1, invDx = 1;
  int nx = 0, ny = 0, nz = 0;  // nodes per axis

  EDDY_HD Index count() const { return Index(nx) * ny * nz; }
  EDDY_HD Index linear(int x, int y, int z) const { return (Index(z) * ny + y) * nx + x; }
  EDDY_HD void coordinates(Index node, int& x, int& y, int& z) const {
    x = int(node % nx);
    Index rest = node / nx;
    y = int(rest % ny);
    z = int(rest / ny);
  }
  EDDY_HD Vec3 nodePosition(int x, int y, int z) const {
    return origin + Vec3{Real(x), Real(y), Real(z)} * dx;
  }
  // base node of a particle at p, clamped so that its stencil stays in the grid (NaN goes to 0), and
  // fx = (p - origin) / dx - base: the B-spline argument of each axis
  EDDY_HD void locate(Vec3 p, int& bx, int& by, int& bz, Vec3& fx) const {
    Vec3 u = (p - origin) * invDx;
    bx = int(fminf(fmaxf(floorf(u.x - Real(0.5)), Real(0)), Real(nx - 3)));
    by = int(fminf(fmaxf(floorf(u.y - Real(0.5)), Real(0)), Real(ny - 3)));
    bz = int(fminf(fmaxf(floorf(u.z - Real(0.5)), Real(0)), Real(nz - 3)));
    fx = u - Vec3{Real(bx), Real(by), Real(bz)};
  }
};

// which blocks of 4^3 nodes particles reach (MpmGrid::bin marks them), taken by value in kernels
struct MpmBlocks {
  const std::uint8_t* reached = nullptr;  // null: no marks, every node gathers
  int nx = 0, ny = 0;                     // blocks per axis (x, y)

  EDDY_HD Index of(int x, int y, int z) const { return (Index(z >> 2) * ny + (y >> 2)) * nx + (x >> 2); }
  // whether a particle may be based close enough to reach node (x, y, z)
  EDDY_HD bool reaches(int x, int y, int z) const { return !reached || reached[of(x, y, z)] != 0; }
};

class MpmGrid {
 public:
  // layers of nodes beyond each domain face besides the one on it
  static constexpr int kPad = 2;
  // grids of at least this many nodes gather by tile (solvers/mpm/particle_to_grid.h), smaller ones by node
  static constexpr Index kTiledFrom = Index(1) << 19;

  // Sizes the grid for the scene's domain and mpm.grid_resolution, with keys for particleCapacity
  // particles and, with flip, the buffer of pre-update velocities. Throws InputError naming
  // /mpm/grid_resolution when the node count cannot be indexed or the grid does not fit in free memory.
  void setup(const SimulationDesc& scene, Index particleCapacity, bool flip);

  // sorts the particles by base node, fills the node ranges and marks the blocks the particles reach. With
  // `move` the persistent attributes are reordered too, and the k-th sorted particle is particle k;
  // otherwise it is particle order()[k]
  void bin(ParticleSet& particles, Primitives& prims, bool move);
  const std::uint32_t* order() const { return sort_.order(); }
  // every particle's base node, recorded for the sort, and the blocks' marks (public: CUDA lambdas cannot
  // live in private members)
  void recordKeys(const Vec3* x, Index n);
  void markBlocks();

  MpmGridView view() const { return view_; }
  MpmBlocks blocks() const { return {reached_.size() ? reached_.data() : nullptr, blocksX_, blocksY_}; }
  Index nodeCount() const { return view_.count(); }
  // per node: velocity (after the grid update) and mass
  View<Vec4> nodes() const { return nodes_.view(); }
  // per node, flip only: the velocity before forces and boundaries, and mass (empty otherwise)
  View<Vec4> previous() const { return previous_.view(); }
  // per node k (and one past the last node): the first sorted particle whose base node is k or later, so
  // the particles based at nodes k..m are [first[k], first[m + 1])
  const std::uint32_t* first() const { return sort_.starts(); }
  std::size_t bytes() const;

 private:
  MpmGridView view_;
  Buffer<Vec4> nodes_, previous_;
  CountingSort sort_;
  Buffer<std::uint8_t> reached_;  // per block of 4^3 nodes
  int blocksX_ = 0, blocksY_ = 0, blocksZ_ = 0;
};

}  // namespace eddy::EDDY_NS
