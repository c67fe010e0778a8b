// Uniform-grid neighbour search with cell size h. Cells are keyed periodically by their integer
// coordinates: an unbounded domain works (far cells share keys and are told apart by the distance test),
// neighbouring cells stay close in memory, and the 27 cells around a particle always have distinct keys.
// The key order depends on the backend (see kCellRows). Particles are sorted by key with a counting sort over
// a table of keys small enough to stay in the GPU's L2 cache, which also gives every key's run of sorted
// particles; every persistent attribute is reordered. Within a key particles keep their previous order, as
// with a stable sort, on every backend.
#pragma once

#include <cmath>
#include <type_traits>

#include "backend/async_readback.h"
#include "backend/primitives.h"
#include "colliders/collider.h"
#include "neighbors/counting_sort.h"
#include "particles/particle_set.h"

namespace eddy::EDDY_NS {

// The order of the cells' keys. On the CPU: rows along x, the rows in a Morton order of (y, z), so that the
// three cells of a row are one run of sorted particles and a search walks 9 runs instead of 27 cells (a
// faster list build there). On CUDA: a 3-D Morton order, which keeps a warp's 32 particles in a compact block
// of cells (rows made both the list build and the passes over the lists slower there; measured with
// eddy bench, see bench/results).
#if EDDY_BACKEND_CUDA
inline constexpr bool kCellRows = false;
#else
inline constexpr bool kCellRows = true;
#endif

// Steps between neighbouring cells' keys without decoding them: each axis's coordinate sits in the key's
// bits `x`, `y` or `z` (interleaved in the Morton order, side by side in rows), and a coordinate plus or
// minus one is added in place, carries and borrows passing over the other axes' bits. Wraps around the
// periodic tile as the keys do.
struct CellSteps {
  std::uint32_t x = 0, y = 0, z = 0;  // each axis's bits in a key

  // the coordinate's part of key k moved by d - 1 (d = 0, 1, 2) along the axis with bits m
  EDDY_HD static std::uint32_t step(std::uint32_t k, std::uint32_t m, std::uint32_t d) {
    std::uint32_t one = m & (0u - m);
    std::uint32_t p = k & m;
    return d == 1 ? p : (d == 2 ? ((k | ~m) + one) & m : (p - one) & m);
  }
  // d + 1, d the step from key `from` to key `to` along the axis with bits m (-1, 0 or +1)
  EDDY_HD static std::uint32_t axisCode(std::uint32_t from, std::uint32_t to, std::uint32_t m) {
    std::uint32_t d = ((to & m) - (from & m)) & m;
    return d == 0 ? 1u : (d == (m & (0u - m)) ? 2u : 0u);
  }
  // the offset code from the cell with key `from` to its neighbour with key `to`: each axis's d + 1 in two
  // bits, x lowest
  EDDY_HD std::uint32_t code(std::uint32_t from, std::uint32_t to) const {
    return axisCode(from, to, x) | axisCode(from, to, y) << 2 | axisCode(from, to, z) << 4;
  }
};

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
  // calls there (a measurable share of a PBF run, with the collider loops' calls); the GPU has them as
  // instructions.
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
  // where each axis's coordinate sits in a key
  EDDY_HD CellSteps steps() const {
    if constexpr (kCellRows) {
      std::uint32_t yz = spreadPairs(axisMask) << axisBits;
      return {axisMask, yz, yz << 1};
    }
    std::uint32_t x = spread(axisMask);
    return {x, x << 1, x << 2};
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
  // cells; about a quarter of the edge and corner cells are skipped. A callback that takes a third
  // argument gets a run per cell on every backend, with the cell's key.
  template <class F>
  EDDY_HD void forEachCell(Vec3 p, F&& f) const {
    forEachCellOfLayers(p, -1, 1, f);
  }
  // the same for the layers dzLo..dzHi (of -1, 0, +1) of the 27 cells only
  template <class F>
  EDDY_HD void forEachCellOfLayers(Vec3 p, int dzLo, int dzHi, F&& f) const {
    constexpr bool kWithKey = std::is_invocable_v<F&, std::uint32_t, std::uint32_t, std::uint32_t>;
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
      for (int dz = dzLo; dz <= dzHi; ++dz) {
        Real gz = dz < 0 ? lz * lz : (dz > 0 ? (1 - lz) * (1 - lz) : Real(0));
        for (int dy = -1; dy <= 1; ++dy) {
          Real gy = gz + (dy < 0 ? ly * ly : (dy > 0 ? (1 - ly) * (1 - ly) : Real(0)));
          if (gy >= reach) continue;
          int lo = gy + low < reach ? cx - 1 : cx, hi = gy + high < reach ? cx + 1 : cx;
          if constexpr (kWithKey) {
            std::uint32_t row = rowKey(cy + dy, cz + dz);
            for (int c = lo; c <= hi; ++c) {
              std::uint32_t k = row | (std::uint32_t(c) & axisMask);
              std::uint32_t begin = keyStarts[k], end = keyStarts[k + 1];
              if (end > begin) f(begin, end, k);
            }
          } else {
            forEachRun(rowKey(cy + dy, cz + dz), lo, hi, f);
          }
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
    for (int dz = dzLo; dz <= dzHi; ++dz) {
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
          if constexpr (kWithKey) {
            if (end > begin) f(begin, end, k);
          } else {
            if (end > begin) f(begin, end);
          }
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

// Neighbour lists: on CUDA, tiles of 32 particles (a warp) hold their k-th neighbours side by side, so a
// warp reads contiguous bytes per neighbour and the list build writes into one small tile instead of all
// over the array; on the CPU each particle's neighbours are contiguous (cache lines), followed by one spare
// slot that the branch-free list build may write to.
//
// An entry is narrow (16 bits) or wide (32 bits). A narrow entry names the neighbour's cell by its offset
// from the particle's own cell (CellSteps' code, 6 bits) and the neighbour by its place in that cell's run
// of sorted particles (10 bits): half the bytes of an index, where the lists are most of an SPH solver's
// memory. Decoding costs the passes that read them more time than the bytes save, so only a solver that
// asks takes them (WCSPH, from NeighborGrid::kNarrowListsFrom particles). A wide entry is the index itself;
// the lists turn wide for good when a cell holds more than kMostInCell particles (a pile-up).
#if EDDY_BACKEND_CUDA
inline constexpr int kSpareSlots = 0;
#else
inline constexpr int kSpareSlots = 1;
#endif

// Whether the backend takes narrow entries where a solver asks for them: on the GPU. On the CPU their
// decoding cost more than it saved (WCSPH's substep was markedly slower with them; measured with
// eddy bench --backend cpu --solver wcsph, see bench/results).
#if EDDY_BACKEND_CUDA
inline constexpr bool kNarrowLists = true;
#else
inline constexpr bool kNarrowLists = false;
#endif

struct NeighborView {
  static constexpr int kPlaceBits = 10;
  static constexpr std::uint32_t kMostInCell = 1u << kPlaceBits;

  const std::uint32_t* counts = nullptr;
  const void* entries = nullptr;  // std::uint16_t (narrow) or std::uint32_t (wide)
  Index stride = 0;               // slots per particle
  bool narrow = false;
  const std::uint32_t* cells = nullptr;   // each sorted particle's cell key
  const std::uint32_t* starts = nullptr;  // the first sorted particle of each key (GridView::keyStarts)
  CellSteps steps;

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
  // the keys of the 27 cells around a particle's, as each axis's part for the offsets -1, 0 and +1
  struct Around {
    std::uint32_t x0, x1, x2, y0, y1, y2, z0, z1, z2;
    EDDY_HD std::uint32_t key(std::uint32_t code) const {
      std::uint32_t a = code & 3u, b = code >> 2 & 3u, c = code >> 4 & 3u;
      return (a == 0 ? x0 : (a == 1 ? x1 : x2)) | (b == 0 ? y0 : (b == 1 ? y1 : y2)) |
             (c == 0 ? z0 : (c == 1 ? z1 : z2));
    }
  };
  // what decode() reads particle i's narrow entries against: taken once per particle
  EDDY_HD Around around(Index i) const {
    std::uint32_t k = cells[i];
    Around a;
    a.x0 = CellSteps::step(k, steps.x, 0), a.x1 = k & steps.x, a.x2 = CellSteps::step(k, steps.x, 2);
    a.y0 = CellSteps::step(k, steps.y, 0), a.y1 = k & steps.y, a.y2 = CellSteps::step(k, steps.y, 2);
    a.z0 = CellSteps::step(k, steps.z, 0), a.z1 = k & steps.z, a.z2 = CellSteps::step(k, steps.z, 2);
    return a;
  }
  // a narrow entry's neighbour, for a particle whose around(i) is `around`
  EDDY_HD Index decode(std::uint32_t e, const Around& around) const {
    return Index(starts[around.key(e >> kPlaceBits)] + (e & (kMostInCell - 1)));
  }
  // the k-th neighbour of particle i (slow: prefer forEach)
  EDDY_HD Index at(Index i, Index k) const {
    if (!narrow) return Index(static_cast<const std::uint32_t*>(entries)[slot(i, k)]);
    return decode(static_cast<const std::uint16_t*>(entries)[slot(i, k)], around(i));
  }
  // calls f(j) for every neighbour j of particle i, in list order (Unroll: 1, or 4 entries at a time on
  // the GPU). The format is chosen once per particle: chosen per entry, it kept the compiler from
  // overlapping the loads of successive neighbours, and PBF's passes ran far slower.
  template <int Unroll = 1, class F>
  EDDY_HD void forEach(Index i, F&& f) const {
    static_assert(Unroll == 1 || Unroll == 4);
    Index n = count(i);
    if (narrow) {
      const std::uint16_t* e = static_cast<const std::uint16_t*>(entries);
      Around a = around(i);
      auto at = [&](Index s) { f(decode(e[slot(i, s)], a)); };
      if constexpr (Unroll == 4) {
        EDDY_UNROLL4
        for (Index s = 0; s < n; ++s) at(s);
      } else {
        for (Index s = 0; s < n; ++s) at(s);
      }
    } else {
      const std::uint32_t* e = static_cast<const std::uint32_t*>(entries);
      auto at = [&](Index s) { f(Index(e[slot(i, s)])); };
      if constexpr (Unroll == 4) {
        EDDY_UNROLL4
        for (Index s = 0; s < n; ++s) at(s);
      } else {
        for (Index s = 0; s < n; ++s) at(s);
      }
    }
  }
};

class NeighborGrid {
 public:
  // list slots per particle before any list has overflowed (uncapped lists): a particle at rest with the
  // default support of two spacings has 26 neighbours, and the dam break at 1M particles (PBF, the bench's
  // substep) stays under 48; the lists widen by half when a particle has more
  static constexpr int kInitialSlots = 48;
  // particles from which a solver's narrow lists are taken (FluidSimulation): memory limits the large
  // scenes, and the small ones are where the decoding costs most, in proportion to their substep (measured
  // with eddy bench --solver wcsph, see bench/results)
  static constexpr Index kNarrowListsFrom = Index(1) << 19;
  // particles below which the GPU builds wide lists by layers of cells (launchListsByLayers): it builds
  // them faster in small scenes, the gain shrinks as the scenes grow, and at 4M particles the substep as a
  // whole was slower with it (measured with eddy bench --solver pbf, see bench/results)
  static constexpr Index kListsByLayersBelow = Index(1) << 20;

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
  // whether list entries are 16 bits (see NeighborView; set before setup, wide by default); they turn
  // wide for good after a pile-up
  bool narrowLists() const { return narrow_; }
  void setNarrowLists(bool narrow);

  // every particle's cell key, recorded for the sort, with the blow-up check; and the list build, with
  // or without the barrier tests, for either entry format (public: CUDA lambdas cannot live in private
  // members)
  template <class Position>
  void recordKeys(const Position* x, Index n);
  template <class Position, bool WithBarriers, bool Narrow>
  void launchLists(const Position* x, Real t);
  template <class Position, bool WithBarriers>
  void launchListsByLayers(const Position* x, Real t);

  GridView grid() const;
  NeighborView neighbors() const;
  Real cellSize() const { return cellSize_; }
  std::size_t bytes() const;

 private:
  void ensureCapacity(Index n);
  std::size_t listWords(Index stride, bool narrow) const;

  Real cellSize_ = 1;
  int axisBits_ = 6;
  int maxNeighbors_ = 0;
  Index capacity_ = 0;
  Index count_ = 0;
  Index stride_ = 0;
  bool narrow_ = false;  // see NeighborView
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
