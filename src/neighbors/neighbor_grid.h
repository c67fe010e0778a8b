// Uniform-grid neighbour search with cell size h. Cells are keyed periodically by their integer
// coordinates: an unbounded domain works (far cells share keys and are told apart by the distance test),
// neighbouring cells stay close in memory, and the 27 cells around a particle always have distinct keys.
// The key order depends on the backend (see kCellRows). Particles are sorted by key with a counting sort over
// a table of keys small enough to stay in the GPU's L2 cache, which also gives every key's run of sorted
// particles; every persistent attribute is reordered. Within a key particles keep their previous order, as
// with a stable sort, on every backend.
#pragma once

#include <cmath>

#include "backend/async_readback.h"
#include "backend/primitives.h"
#include "colliders/collider.h"
#include "neighbors/counting_sort.h"
#include "sim/particle_set.h"

namespace eddy::EDDY_NS {

// The order of the cells' keys. On the CPU: rows along x, the rows in a Morton order of (y, z), so that the
// three cells of a row are one run of sorted particles and a search walks 9 runs instead of 27 cells (the
// list build 11 % faster on 2 cores). On CUDA: a 3-D Morton order, which keeps a warp's 32 particles in a
// compact block of cells (rows made the list build 5 % slower on an H100, the passes over the lists 2-9 %).
#if EDDY_BACKEND_CUDA
inline constexpr bool kCellRows = false;
#else
inline constexpr bool kCellRows = true;
#endif

struct GridView {
  const std::uint32_t* sortedKeys = nullptr;
  // the first sorted particle of each key; key k's run ends where key k + 1's begins (one entry per key
  // and one past the last)
  const std::uint32_t* keyStarts = nullptr;
  Real invCellSize = 1;
  std::uint32_t axisMask = 0;  // cells per axis in the periodic tile, minus one
  int axisBits = 0;
  Index count = 0;

  EDDY_HD static std::uint32_t spread(std::uint32_t v) {
    // insert two zero bits between each of the low 10 bits
    v &= 0x3ffu;
    v = (v | (v << 16)) & 0x030000ffu;
    v = (v | (v << 8)) & 0x0300f00fu;
    v = (v | (v << 4)) & 0x030c30c3u;
    v = (v | (v << 2)) & 0x09249249u;
    return v;
  }
  EDDY_HD static std::uint32_t spreadPairs(std::uint32_t v) {
    // insert a zero bit between each of the low 8 bits
    v &= 0xffu;
    v = (v | (v << 4)) & 0x0f0fu;
    v = (v | (v << 2)) & 0x3333u;
    v = (v | (v << 1)) & 0x5555u;
    return v;
  }
  // Clamped to +-2^30 before the conversion: a particle beyond 2^31 cells (emitted far outside the domain,
  // or a NaN position) made it undefined behaviour (found by fuzzing). Keys alias periodically anyway, so
  // this changes nothing for cells nearer than 2^30. On the CPU the clamp compares (a NaN goes to the low
  // end, as with fmaxf) and the floor corrects the conversion's truncation: fminf and fmaxf were library
  // calls there (3 % of a PBF run at 65k with the collider loops' calls); the GPU has them as instructions.
  EDDY_HD static int cellIndex(Real x) {
    constexpr Real kLimit = 1073741824.0f;
#if defined(__CUDA_ARCH__)
    return int(fminf(fmaxf(floorf(x), -kLimit), kLimit));
#else
    Real v = x >= -kLimit ? (x <= kLimit ? x : kLimit) : -kLimit;
    int i = int(v);
    return Real(i) > v ? i - 1 : i;
#endif
  }
  EDDY_HD void cellOf(Vec3 p, int& cx, int& cy, int& cz) const {
    cx = cellIndex(p.x * invCellSize);
    cy = cellIndex(p.y * invCellSize);
    cz = cellIndex(p.z * invCellSize);
  }
  EDDY_HD std::uint32_t key(int cx, int cy, int cz) const {
    if constexpr (kCellRows) return rowKey(cy, cz) | (std::uint32_t(cx) & axisMask);
    return spread(std::uint32_t(cx) & axisMask) | (spread(std::uint32_t(cy) & axisMask) << 1) |
           (spread(std::uint32_t(cz) & axisMask) << 2);
  }
  // with kCellRows, a row's key: (y, z) in Morton order, shifted past the bits of x
  EDDY_HD std::uint32_t rowKey(int cy, int cz) const {
    return (spreadPairs(std::uint32_t(cy) & axisMask) | (spreadPairs(std::uint32_t(cz) & axisMask) << 1))
           << axisBits;
  }
  // with kCellRows: calls f(begin, end) for the sorted particles of the row's cells lo..hi (at most five),
  // one run of consecutive keys, or two where the cells wrap around the periodic tile
  template <class F>
  EDDY_HD void forEachRun(std::uint32_t row, int lo, int hi, F& f) const {
    std::uint32_t a = std::uint32_t(lo) & axisMask, b = std::uint32_t(hi) & axisMask;
    auto run = [&](std::uint32_t first, std::uint32_t last) {
      std::uint32_t begin = keyStarts[row | first], end = keyStarts[(row | last) + 1];
      if (end > begin) f(begin, end);
    };
    if (a <= b) {
      run(a, b);
    } else {
      run(a, axisMask);
      run(0, b);
    }
  }
  // calls f(begin, end) for the sorted particles of the 27 cells around p that come within one cell size
  // of p (distance to particles not checked), a run per cell or, with kCellRows, per row of up to three
  // cells; about a quarter of the edge and corner cells are skipped
  template <class F>
  EDDY_HD void forEachCell(Vec3 p, F&& f) const {
    Vec3 u = p * invCellSize;
    Real fx = floorf(u.x), fy = floorf(u.y), fz = floorf(u.z);
    int cx = cellIndex(u.x), cy = cellIndex(u.y), cz = cellIndex(u.z);  // as cellOf
    // squared distance, in cell units, from p to the low and high faces of its cell; u carries a rounding
    // error that grows with its magnitude, so a cell is skipped only when it is clearly beyond reach
    Real lx = u.x - fx, ly = u.y - fy, lz = u.z - fz;
    Real reach = Real(1.01) + Real(1e-5) * fmaxf(fabsf(u.x), fmaxf(fabsf(u.y), fabsf(u.z)));
    if constexpr (kCellRows) {
      // a row's end cells are dropped where out of reach
      Real low = lx * lx, high = (1 - lx) * (1 - lx);
      for (int dz = -1; dz <= 1; ++dz) {
        Real gz = dz < 0 ? lz * lz : (dz > 0 ? (1 - lz) * (1 - lz) : Real(0));
        for (int dy = -1; dy <= 1; ++dy) {
          Real gy = gz + (dy < 0 ? ly * ly : (dy > 0 ? (1 - ly) * (1 - ly) : Real(0)));
          if (gy >= reach) continue;
          forEachRun(rowKey(cy + dy, cz + dz), gy + low < reach ? cx - 1 : cx,
                     gy + high < reach ? cx + 1 : cx, f);
        }
      }
      return;
    }
    // the Morton parts of the three neighbouring coordinates per axis, spread once (9, not 81)
    std::uint32_t kx0 = spread(std::uint32_t(cx - 1) & axisMask), kx1 = spread(std::uint32_t(cx) & axisMask),
                  kx2 = spread(std::uint32_t(cx + 1) & axisMask);
    std::uint32_t ky0 = spread(std::uint32_t(cy - 1) & axisMask) << 1,
                  ky1 = spread(std::uint32_t(cy) & axisMask) << 1,
                  ky2 = spread(std::uint32_t(cy + 1) & axisMask) << 1;
    std::uint32_t kz0 = spread(std::uint32_t(cz - 1) & axisMask) << 2,
                  kz1 = spread(std::uint32_t(cz) & axisMask) << 2,
                  kz2 = spread(std::uint32_t(cz + 1) & axisMask) << 2;
    for (int dz = -1; dz <= 1; ++dz) {
      Real gz = dz < 0 ? lz * lz : (dz > 0 ? (1 - lz) * (1 - lz) : Real(0));
      std::uint32_t kz = dz < 0 ? kz0 : (dz > 0 ? kz2 : kz1);
      for (int dy = -1; dy <= 1; ++dy) {
        Real gy = gz + (dy < 0 ? ly * ly : (dy > 0 ? (1 - ly) * (1 - ly) : Real(0)));
        if (gy >= reach) continue;
        std::uint32_t kyz = kz | (dy < 0 ? ky0 : (dy > 0 ? ky2 : ky1));
        for (int dx = -1; dx <= 1; ++dx) {
          if (gy + (dx < 0 ? lx * lx : (dx > 0 ? (1 - lx) * (1 - lx) : Real(0))) >= reach) continue;
          std::uint32_t k = kyz | (dx < 0 ? kx0 : (dx > 0 ? kx2 : kx1));
          std::uint32_t begin = keyStarts[k], end = keyStarts[k + 1];
          if (end > begin) f(begin, end);
        }
      }
    }
  }
  // the same for a reach of two cell sizes: the 125 cells around p, each skipped unless its nearest point
  // lies within two cell sizes of p (about 60 are left). On a grid of half the reach this looks at a
  // third of the particles the 27 cells of a full-reach grid hold.
  template <class F>
  EDDY_HD void forEachCellWithinTwo(Vec3 p, F&& f) const {
    Vec3 u = p * invCellSize;
    int cx = cellIndex(u.x), cy = cellIndex(u.y), cz = cellIndex(u.z);
    Real lx = u.x - floorf(u.x), ly = u.y - floorf(u.y), lz = u.z - floorf(u.z);
    Real reach = Real(4.04) + Real(1e-5) * fmaxf(fabsf(u.x), fmaxf(fabsf(u.y), fabsf(u.z)));
    // the gap, in cells, from p to the cell at offset d along an axis where p sits at l in its own cell
    auto gap = [](int d, Real l) { return d < 0 ? l + Real(-d - 1) : (d > 0 ? Real(d) - l : Real(0)); };
    for (int dz = -2; dz <= 2; ++dz) {
      Real gz = gap(dz, lz);
      gz *= gz;
      std::uint32_t kz = spread(std::uint32_t(cz + dz) & axisMask) << 2;
      for (int dy = -2; dy <= 2; ++dy) {
        Real gy = gap(dy, ly);
        gy = gz + gy * gy;
        if (gy >= reach) continue;
        if constexpr (kCellRows) {
          // the row's cells within reach are consecutive around cx: trim each end
          int lo = -2, hi = 2;
          while (lo < 0 && gy + gap(lo, lx) * gap(lo, lx) >= reach) ++lo;
          while (hi > 0 && gy + gap(hi, lx) * gap(hi, lx) >= reach) --hi;
          forEachRun(rowKey(cy + dy, cz + dz), cx + lo, cx + hi, f);
          continue;
        }
        std::uint32_t kyz = kz | (spread(std::uint32_t(cy + dy) & axisMask) << 1);
        for (int dx = -2; dx <= 2; ++dx) {
          Real gx = gap(dx, lx);
          if (gy + gx * gx >= reach) continue;
          std::uint32_t k = kyz | spread(std::uint32_t(cx + dx) & axisMask);
          std::uint32_t begin = keyStarts[k], end = keyStarts[k + 1];
          if (end > begin) f(begin, end);
        }
      }
    }
  }
};

// neighbour lists: on CUDA, tiles of 32 particles (a warp) hold their k-th neighbours side by side, so a
// warp reads 128 contiguous bytes per neighbour and the list build writes into one small tile instead of
// all over the array; on the CPU each particle's neighbours are contiguous (cache lines), followed by one
// spare slot that the branch-free list build may write to
#if EDDY_BACKEND_CUDA
inline constexpr int kSpareSlots = 0;
#else
inline constexpr int kSpareSlots = 1;
#endif

struct NeighborView {
  const std::uint32_t* counts = nullptr;
  const std::uint32_t* indices = nullptr;
  Index stride = 0;  // slots per particle

  EDDY_HD Index count(Index i) const {
    Index c = Index(counts[i]);
    return c < stride ? c : stride;
  }
  EDDY_HD std::size_t slot(Index i, Index k) const {
#if EDDY_BACKEND_CUDA
    return std::size_t(i >> 5) * std::size_t(stride << 5) + std::size_t(k << 5) + std::size_t(i & 31);
#else
    return std::size_t(i) * (stride + kSpareSlots) + k;
#endif
  }
  EDDY_HD Index at(Index i, Index k) const { return Index(indices[slot(i, k)]); }
};

class NeighborGrid {
 public:
  // list slots per particle before any list has overflowed (uncapped lists): a particle at rest with the
  // default support of two spacings has 26 neighbours, and the dam break at 1M particles (PBF, the bench's
  // substep) stays under 48; the lists widen by half when a particle has more
  static constexpr int kInitialSlots = 48;

  NeighborGrid() = default;
  NeighborGrid(const NeighborGrid&) = delete;
  NeighborGrid& operator=(const NeighborGrid&) = delete;

  // maxNeighbors = 0: no cap (lists grow when a particle has more neighbours than fit). A particle outside
  // [lo, hi] or not finite has blown up: invalidPositions() reports it after the list build.
  void setup(Real cellSize, Index capacity, int maxNeighbors, Vec3 lo = Vec3{-1e30f, -1e30f, -1e30f},
             Vec3 hi = Vec3{1e30f, 1e30f, 1e30f});

  // sorts the particles by cell of `positionAttribute` (Vec3 or Vec4) and reorders every persistent
  // attribute
  void sortParticles(ParticleSet& particles, const char* positionAttribute, Primitives& prims);
  // obstacles thinner than the cell size (the SPH support), which particles on their two sides would
  // otherwise see through: a pair whose segment enters one is not a pair. The view must outlive the grid.
  void setBarriers(View<const ColliderData> barriers) { barriers_ = barriers; }

  // builds neighbour lists (pairs closer than the cell size, self excluded, none across a barrier at time
  // t) over the sorted positions (Vec3, or Vec4 whose w is ignored)
  template <class Position>
  void buildNeighborLists(View<const Position> positions, Real t, Primitives& prims);
  // the same in two halves, so that work on the lists can be queued before the host learns whether they
  // held every neighbour: launch, queue work, then listsComplete(); when it says no, the lists were
  // widened and both must run again. On the GPU the answer waits only for the list build itself (an
  // event and a pinned copy of its largest count), not for the work queued after it.
  template <class Position>
  void launchNeighborLists(View<const Position> positions, Real t);
  bool listsComplete();
  // whether the last list build met a particle that was not finite or outside the bounds (read back with
  // the list check, so it costs no extra wait)
  bool invalidPositions() const { return invalid_; }
  // after invalidPositions(): one such particle's sorted index and where it was (slow path, reads back)
  bool invalidParticle(Index& index, Vec3& position) const;
  // the largest neighbour count seen by any list build so far (the cap, where set, keeps the nearest)
  Index mostNeighborsSeen() const { return mostSeen_; }

  // every particle's cell key, recorded for the sort, with the blow-up check; and the list build, with
  // or without the barrier tests (public: CUDA lambdas cannot live in private members)
  template <class Position>
  void recordKeys(const Position* x, Index n);
  template <class Position, bool WithBarriers>
  void launchLists(const Position* x, Real t);

  GridView grid() const;
  NeighborView neighbors() const;
  Real cellSize() const { return cellSize_; }
  std::size_t bytes() const;

 private:
  void ensureCapacity(Index n);
  std::size_t listSlots() const;

  Real cellSize_ = 1;
  int axisBits_ = 6;
  int maxNeighbors_ = 0;
  Index capacity_ = 0;
  Index count_ = 0;
  Index stride_ = 0;
  CountingSort sort_;
  Buffer<std::uint32_t> neighborCounts_, neighborIndices_;
  Vec3 lo_{}, hi_{};
  View<const ColliderData> barriers_;
  bool invalid_ = false;
  std::uint32_t epoch_ = 0;  // sorts so far (wrapping past zero), to tell this sort's blow-up marks apart
  Index mostSeen_ = 0;
  // slot 0's words: the largest count of the last build; the epoch of the last sort that met an invalid
  // position, the first one's index (before that sort) and position, and the epoch that claimed it. The
  // first two are read back after each list build.
  AsyncReadback check_;
};

}  // namespace eddy::EDDY_NS
