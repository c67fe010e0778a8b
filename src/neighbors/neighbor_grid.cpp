#include "neighbors/neighbor_grid.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "backend/tiles.h"
#include "colliders/thin_obstacles.h"

namespace eddy::EDDY_NS {

void NeighborGrid::setup(Real cellSize, Index capacity, int maxNeighbors, Vec3 lo, Vec3 hi) {
  cellSize_ = cellSize;
  lo_ = lo;
  hi_ = hi;
  maxNeighbors_ = maxNeighbors;
  stride_ = maxNeighbors > 0 ? maxNeighbors : kInitialSlots;
  ensureCapacity(capacity);
}

void NeighborGrid::ensureCapacity(Index n) {
  n = std::max<Index>(n, 1);
  if (n <= capacity_) return;
  capacity_ = std::max<Index>(n, capacity_ + capacity_ / 2);
  // a periodic tile of about one cell per particle (5..8 bits per axis): a fluid fills a fraction of its
  // tile's cells, and a small table stays in cache (1M particles: 2M cells, 8 MiB of counts)
  int bits = int(std::ceil(std::log2(std::cbrt(double(capacity_)))));
  axisBits_ = std::clamp(bits, 5, 8);
  neighborCounts_.resize(kDevice, capacity_);
  sort_.reserve(std::size_t(1) << (3 * axisBits_), capacity_);
  neighborIndices_.resize(kDevice, listWords(stride_, narrow_));
}

void NeighborGrid::setNarrowLists(bool narrow) {
  narrow_ = narrow;
  if (capacity_ > 0) neighborIndices_.resize(kDevice, listWords(stride_, narrow_));
}

std::size_t NeighborGrid::listWords(Index stride, bool narrow) const {
  // whole 32-particle tiles on CUDA; narrow entries two to a word
  std::size_t slots = std::size_t((capacity_ + 31) / 32 * 32) * std::size_t(stride + kSpareSlots);
  return narrow ? (slots + 1) / 2 : slots;
}

GridView NeighborGrid::grid() const {
  GridView g;
  g.sortedKeys = sort_.sortedKeys();
  g.keyStarts = sort_.starts();
  g.invCellSize = Real(1) / cellSize_;
  g.axisBits = axisBits_;
  g.axisMask = (1u << axisBits_) - 1u;
  g.count = count_;
  return g;
}

NeighborView NeighborGrid::neighbors() const {
  NeighborView v;
  v.counts = neighborCounts_.data();
  v.entries = neighborIndices_.data();
  v.stride = stride_;
  v.narrow = narrow_;
  v.cells = sort_.sortedKeys();
  v.starts = sort_.starts();
  v.steps = grid().steps();
  return v;
}

namespace {
EDDY_HD inline Vec3 positionOf(const Vec3& p) { return p; }
EDDY_HD inline Vec3 positionOf(const Vec4& p) { return xyz(p); }

// calls test(j, x_j) for the sorted particles begin..end, four loaded before any is tested: the loads
// overlap instead of queueing behind the list stores, which matters most where few warps per SM hide the
// latency (small particle counts)
template <class Position, class Test>
EDDY_HD inline void testFourAtATime(const Position* x, std::uint32_t begin, std::uint32_t end, Test&& test) {
  std::uint32_t j = begin;
  for (; j + 4 <= end; j += 4) {
    Vec3 p0 = positionOf(x[j]), p1 = positionOf(x[j + 1]), p2 = positionOf(x[j + 2]),
         p3 = positionOf(x[j + 3]);
    test(j, p0);
    test(j + 1, p1);
    test(j + 2, p2);
    test(j + 3, p3);
  }
  for (; j < end; ++j) test(j, positionOf(x[j]));
}

// the thin obstacles a list build tests its pairs against (a pair whose segment enters one is no pair)
struct BarrierTests {
  const ColliderData* barriers = nullptr;
  int count = 0;
  Real reach = 0;  // a pair whose segment enters a barrier has both ends within h of it
  Real t = 0;

  // the barriers within reach of x_i (bit b % 32 for barrier b); most particles have none, and then no
  // pair is tested
  EDDY_HD std::uint32_t near(Vec3 xi) const {
    std::uint32_t bits = 0;
    for (int b = 0; b < count; ++b)
      if (signedDistance(barriers[b], xi, t, nullptr) < reach) bits |= 1u << (b & 31);
    return bits;
  }
  // whether neighbour j of i lies beyond one of the barriers `near` i; the segment is always walked from
  // the lower index, so that i and j agree on their pair bit for bit
  EDDY_HD bool blocked(std::uint32_t near, Index i, Vec3 xi, std::uint32_t j, Vec3 xj) const {
    if (!near) return false;
    Vec3 from = Index(j) < i ? xj : xi, to = Index(j) < i ? xi : xj;
    for (int b = 0; b < count; ++b)
      if ((near >> (b & 31) & 1u) && segmentEntersObstacle(barriers[b], from, to, t)) return true;
    return false;
  }
};
}  // namespace

template <class Position>
void NeighborGrid::recordKeys(const Position* x, Index n) {
  GridView g = grid();
  KeyRecorder keys = sort_.recorder();
  // the list build's overflow counter is cleared here, saving a memset launch per substep
  std::uint32_t* most = check_.words(0);
  Vec3 lo = lo_, hi = hi_;
  std::uint32_t epoch = epoch_;
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        if (i == 0) most[0] = most[7] = 0;
        Vec3 p = positionOf(x[i]);
        int cx, cy, cz;
        g.cellOf(p, cx, cy, cz);
        // The blow-up check rides on this pass, which reads every position anyway (false for NaN). Words 1
        // and 6 hold the number of the last sort that met such a particle, so they need no clearing; the
        // first to mark word 6 leaves its (unsorted) index and position in words 2..5 for the report (the
        // step may move it back inside before the host looks).
        bool valid = p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z;
        if (!valid) {
          most[1] = epoch;
          if (atomicExchangeU32(most + 6, epoch) != epoch) {
            most[2] = std::uint32_t(i);
            __builtin_memcpy(most + 3, &p, sizeof(Vec3));
          }
        }
        // a position that is not finite has no cell: spread such particles over the keys by index, so that
        // a blow-up does not pile them all into one key
        bool finite = p.x - p.x == 0 && p.y - p.y == 0 && p.z - p.z == 0;
        keys.record(i, finite ? g.key(cx, cy, cz) : g.key(i, i >> 5, i >> 10));
      });
}

void NeighborGrid::sortParticles(ParticleSet& particles, const char* positionAttribute, Primitives& prims) {
  ensureCapacity(particles.capacity());
  count_ = particles.size();
  Index n = count_;
  if (n == 0) fillBytes(kDevice, check_.words(0), 0, sizeof(std::uint32_t));
  epoch_ = epoch_ == 0xffffffffu ? 1 : epoch_ + 1;
  if (particles.components(positionAttribute) == 4)
    recordKeys(particles.vec4(positionAttribute).data, n);
  else
    recordKeys(particles.vec3(positionAttribute).data, n);
  sort_.sort(n, prims);
  particles.reorder({sort_.order(), std::size_t(n)});
}

template <class Position>
void NeighborGrid::launchNeighborLists(View<const Position> positions, Real t) {
  // the barrier tests cost registers even where they never run: scenes without a thin obstacle build
  // their lists without them
  bool b = barriers_.size > 0;
  if (kDevice == Device::Cuda && count_ < kListsByLayersBelow && !narrow_ && maxNeighbors_ == 0) {
    b ? launchListsByLayers<Position, true>(positions.data, t)
      : launchListsByLayers<Position, false>(positions.data, t);
  } else if (narrow_) {
    b ? launchLists<Position, true, true>(positions.data, t)
      : launchLists<Position, false, true>(positions.data, t);
  } else {
    b ? launchLists<Position, true, false>(positions.data, t)
      : launchLists<Position, false, false>(positions.data, t);
  }
  check_.queueCopy(0);
}

template <class Position, bool WithBarriers, bool Narrow>
void NeighborGrid::launchLists(const Position* x, Real t) {
  Index n = count_;
  GridView g = grid();
  Real h2 = cellSize_ * cellSize_;
  NeighborView nv = neighbors();
  std::uint32_t* counts = neighborCounts_.data();
  // entries as 32 bits (wide) or 16 (narrow): one of the two is null
  std::uint32_t* wide = Narrow ? nullptr : neighborIndices_.data();
  std::uint16_t* narrow = Narrow ? reinterpret_cast<std::uint16_t*>(neighborIndices_.data()) : nullptr;
  CellSteps steps = g.steps();
  std::uint32_t* most = check_.words(0);
  bool capped = maxNeighbors_ > 0;
  BarrierTests walls{barriers_.data, int(barriers_.size), cellSize_ * Real(1.001), t};
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        Vec3 xi = positionOf(x[i]);
        std::uint32_t own = Narrow ? nv.cells[i] : 0;
        Index c = 0;
        // WithBarriers is a template constant: the tests are compiled out where it is false
        std::uint32_t near = WithBarriers ? walls.near(xi) : 0;
        auto blocked = [&](std::uint32_t j, Vec3 xj) {
          return WithBarriers && walls.blocked(near, i, xi, j, xj);
        };
        // a cell's entries are `high | (j - base)`: its offset code above the place in its run (narrow), or
        // the index (wide: both zero); a run too long for a narrow place turns the lists wide (on the host)
        auto entryParts = [&](std::uint32_t begin, std::uint32_t end, std::uint32_t key, std::uint32_t& high,
                              std::uint32_t& base) {
          high = 0;
          base = 0;
          if (Narrow) {  // a template constant, as below
            if (end - begin > NeighborView::kMostInCell) most[7] = 1;
            high = steps.code(own, key) << NeighborView::kPlaceBits;
            base = begin;
          }
        };
        auto put = [&](std::size_t slot, std::uint32_t entry) {
          if (Narrow)
            narrow[slot] = std::uint16_t(entry);
          else
            wide[slot] = entry;
        };
        if (capped) {
          // a capped list keeps the nearest neighbours: once full, a closer candidate replaces the farthest
          // kept one. Kept in visit order instead, the lists were one-sided (-z cells first) and momentum
          // drifted. Ties at the cut go to the one visited first.
          Real farthest = -1;
          Index farSlot = 0;
          auto findFarthest = [&] {
            farthest = -1;
            for (Index k = 0; k < nv.stride; ++k) {
              Vec3 d = xi - positionOf(x[nv.at(i, k)]);
              if (dot(d, d) > farthest) farthest = dot(d, d), farSlot = k;
            }
          };
          g.forEachCell(xi, [&](std::uint32_t begin, std::uint32_t end, std::uint32_t key) {
            std::uint32_t high, base;
            entryParts(begin, end, key, high, base);
            for (std::uint32_t j = begin; j < end; ++j) {
              Vec3 xj = positionOf(x[j]);
              Vec3 d = xi - xj;
              Real r2 = dot(d, d);
              if (!(r2 < h2) || Index(j) == i || blocked(j, xj)) continue;
              if (c < nv.stride) {
                put(nv.slot(i, c), high | (j - base));
              } else {
                if (farthest < 0) findFarthest();
                if (r2 < farthest) {
                  put(nv.slot(i, farSlot), high | (j - base));
                  findFarthest();
                }
              }
              ++c;
            }
          });
          counts[i] = std::uint32_t(c);
          atomicMaxU32(most, std::uint32_t(c));
          return;
        }
#if EDDY_BACKEND_CUDA
        g.forEachCell(xi, [&](std::uint32_t begin, std::uint32_t end, std::uint32_t key) {
          std::uint32_t high, base;
          entryParts(begin, end, key, high, base);
          testFourAtATime(x, begin, end, [&](std::uint32_t j, Vec3 p) {
            Vec3 d = xi - p;
            if (dot(d, d) < h2 && Index(j) != i && !blocked(j, p)) {
              if (c < nv.stride) put(nv.slot(i, c), high | (j - base));
              ++c;
            }
          });
        });
#else
    // On the CPU the accept test is a coin flip for the branch predictor (a quarter of the candidates
    // pass), so every candidate is stored and the count advances by the test's result; four candidates at
    // a time keep the count's dependency chain short. Rejected ones are overwritten; past the last slot the
    // stores land in the row's spare slot.
    const Index last = nv.stride;
    auto accept = [&](std::uint32_t j) -> Index {
      Vec3 xj = positionOf(x[j]);
      Vec3 d = xi - xj;
      Index a = (dot(d, d) < h2) & (Index(j) != i);
      if (WithBarriers && a) a = !blocked(j, xj);
      return a;
    };
    // entry(j) is what the row stores for candidate j
    auto walk = [&](auto* row, std::uint32_t begin, std::uint32_t end, auto entry) {
      std::uint32_t j = begin;
      for (; j + 4 <= end; j += 4) {
        Index a0 = accept(j), a1 = accept(j + 1), a2 = accept(j + 2), a3 = accept(j + 3);
        Index c1 = c + a0, c2 = c1 + a1, c3 = c2 + a2;
        row[c < last ? c : last] = entry(j);
        row[c1 < last ? c1 : last] = entry(j + 1);
        row[c2 < last ? c2 : last] = entry(j + 2);
        row[c3 < last ? c3 : last] = entry(j + 3);
        c = c3 + a3;
      }
      for (; j < end; ++j) {
        Index a = accept(j);
        row[c < last ? c : last] = entry(j);
        c += a;
      }
    };
    if constexpr (Narrow) {
      std::uint16_t* row = narrow + nv.slot(i, 0);
      g.forEachCell(xi, [&](std::uint32_t begin, std::uint32_t end, std::uint32_t key) {
        std::uint32_t high, base;
        entryParts(begin, end, key, high, base);
        walk(row, begin, end, [=](std::uint32_t j) { return std::uint16_t(high | (j - base)); });
      });
    } else {
      // wide entries need no cell: runs of up to three cells
      std::uint32_t* row = wide + nv.slot(i, 0);
      g.forEachCell(xi, [&](std::uint32_t begin, std::uint32_t end) {
        walk(row, begin, end, [](std::uint32_t j) { return j; });
      });
    }
#endif
        counts[i] = std::uint32_t(c);
        atomicMaxU32(most, std::uint32_t(c));
      });
}

namespace {

// the list build by layers: tiles of kLayerParticles particles, three lanes each (one per layer of cells,
// dz = -1, 0, +1), which keep their first kStagedEntries entries in shared memory until the lanes below
// them have counted theirs (32-bit entries: with 16-bit ones this was slower;
// measured with eddy bench --solver wcsph, see bench/results)
constexpr int kLayerParticles = 32;
constexpr int kStagedEntries = 24;

struct StagedLists {
  // entry s of lane l at [s][l]: the lanes of a warp write to distinct banks whatever their s
  std::uint32_t entries[kStagedEntries][3 * kLayerParticles];
  std::uint32_t counts[3 * kLayerParticles];
};

}  // namespace

// Wide lists on the GPU below kListsByLayersBelow particles, where a lane a particle leaves the GPU waiting
// on each lane's long chain of loads: each particle's search is split over three lanes, one per layer of
// the 27 cells, so that each walks a third of the candidates; the entries keep the order of one walk over
// all 27 cells. A lane with more than kStagedEntries neighbours in its layer walks it again for the rest.
template <class Position, bool WithBarriers>
void NeighborGrid::launchListsByLayers(const Position* x, Real t) {
  Index n = count_;
  GridView g = grid();
  Real h2 = cellSize_ * cellSize_;
  NeighborView nv = neighbors();
  std::uint32_t* counts = neighborCounts_.data();
  std::uint32_t* indices = neighborIndices_.data();
  std::uint32_t* most = check_.words(0);
  BarrierTests walls{barriers_.data, int(barriers_.size), cellSize_ * Real(1.001), t};
  parallelForTiles<3 * kLayerParticles, StagedLists>(
      (n + kLayerParticles - 1) / kLayerParticles,
      EDDY_KERNEL(TileContext<3 * kLayerParticles, StagedLists> & tile) {
        StagedLists& staged = tile.shared();
        Index first = tile.index() * kLayerParticles;
        PerLane<std::uint32_t, 3 * kLayerParticles> found;
        // walks the layer's cells for particle i, calling keep(s, j) for its s-th neighbour j there
        auto walk = [&](Index i, int layer, auto&& keep) {
          Vec3 xi = positionOf(x[i]);
          std::uint32_t near = WithBarriers ? walls.near(xi) : 0;
          std::uint32_t s = 0;
          g.forEachCellOfLayers(xi, layer - 1, layer - 1, [&](std::uint32_t begin, std::uint32_t end) {
            testFourAtATime(x, begin, end, [&](std::uint32_t j, Vec3 p) {
              Vec3 d = xi - p;
              if (dot(d, d) < h2 && Index(j) != i && !(WithBarriers && walls.blocked(near, i, xi, j, p)))
                keep(s++, j);
            });
          });
          return s;
        };
        auto put = [&](Index i, Index slot, std::uint32_t j) {
          if (slot < nv.stride) indices[nv.slot(i, slot)] = j;
        };
        tile.forLanes([&](int lane) {
          Index i = first + lane % kLayerParticles;
          std::uint32_t c = 0;
          if (i < n)
            c = walk(i, lane / kLayerParticles, [&](std::uint32_t s, std::uint32_t j) {
              if (s < kStagedEntries) staged.entries[s][lane] = j;
            });
          staged.counts[lane] = c;
          found[lane] = c;
        });
        tile.forLanes([&](int lane) {
          int k = lane % kLayerParticles, layer = lane / kLayerParticles;
          Index i = first + k;
          if (i >= n) return;
          std::uint32_t before = 0;
          for (int l = 0; l < layer; ++l) before += staged.counts[l * kLayerParticles + k];
          std::uint32_t c = found[lane];
          for (std::uint32_t s = 0; s < c && s < std::uint32_t(kStagedEntries); ++s)
            put(i, Index(before + s), staged.entries[s][lane]);
          if (c > std::uint32_t(kStagedEntries))
            walk(i, layer, [&](std::uint32_t s, std::uint32_t j) {
              if (s >= std::uint32_t(kStagedEntries)) put(i, Index(before + s), j);
            });
          if (layer == 0) {
            std::uint32_t total = staged.counts[k] + staged.counts[kLayerParticles + k] +
                                  staged.counts[2 * kLayerParticles + k];
            counts[i] = total;
            atomicMaxU32(most, total);
          }
        });
      });
}

bool NeighborGrid::listsComplete() {
  // waits for the list build only, not for the work queued after it
  const std::uint32_t* words = check_.read(0);
  Index largest = Index(words[0]);
  invalid_ = words[1] == epoch_;
  mostSeen_ = std::max(mostSeen_, largest);
  // a cell held more particles than a narrow entry can place: wide entries from now on (rare: a pile-up)
  bool widen = narrow_ && words[7] != 0;
  // a cap keeps the nearest by design
  if (!widen && (maxNeighbors_ > 0 || largest <= stride_)) return true;
  // more neighbours than slots: widen the lists (rare, geometric) where memory allows; the caller builds
  // them again
  Index stride = stride_;
  if (maxNeighbors_ == 0 && largest > stride_)
    stride = std::max<Index>(largest + largest / 4, stride_ + stride_ / 2);
  std::size_t need = listWords(stride, narrow_ && !widen) * sizeof(std::uint32_t);
  std::size_t free = freeDeviceBytes(kDevice) + neighborIndices_.bytes();
  if (need > free)
    throw RuntimeFailure("not enough " + std::string(kDevice == Device::Cuda ? "GPU" : "host") +
                         " memory: the neighbour lists need about " + std::to_string(need >> 20) +
                         " MiB for " + std::to_string(largest) + " neighbours per particle, but only " +
                         std::to_string(free >> 20) +
                         " MiB are free; particles have piled up (a blow-up?), or increase /fluid/spacing "
                         "or set pbf.max_neighbors");
  stride_ = stride;
  if (widen) narrow_ = false;
  neighborIndices_.resize(kDevice, listWords(stride_, narrow_));
  fillBytes(kDevice, check_.words(0), 0, sizeof(std::uint32_t));
  return false;
}

template <class Position>
void NeighborGrid::buildNeighborLists(View<const Position> positions, Real t, Primitives& prims) {
  do {
    launchNeighborLists(positions, t);
  } while (!listsComplete());
}

template void NeighborGrid::buildNeighborLists<Vec3>(View<const Vec3>, Real, Primitives&);
template void NeighborGrid::buildNeighborLists<Vec4>(View<const Vec4>, Real, Primitives&);
template void NeighborGrid::launchNeighborLists<Vec3>(View<const Vec3>, Real);
template void NeighborGrid::launchNeighborLists<Vec4>(View<const Vec4>, Real);

bool NeighborGrid::invalidParticle(Index& index, Vec3& position) const {
  if (!invalid_) return false;
  std::uint32_t words[6];
  copyBytes(Device::Host, words, kDevice, check_.words(0), sizeof words);
  // the check ran before the sort: find where the particle went (dst[k] = src[order[k]])
  std::vector<std::uint32_t> order(static_cast<std::size_t>(count_));
  copyBytes(Device::Host, order.data(), kDevice, sort_.order(), order.size() * sizeof(std::uint32_t));
  auto at = std::find(order.begin(), order.end(), words[2]);
  index = at == order.end() ? Index(words[2]) : Index(at - order.begin());
  Real xyz[3];
  __builtin_memcpy(xyz, words + 3, sizeof xyz);
  position = Vec3{xyz[0], xyz[1], xyz[2]};
  return true;
}

std::size_t NeighborGrid::bytes() const {
  return sort_.bytes() + neighborCounts_.bytes() + neighborIndices_.bytes();
}

}  // namespace eddy::EDDY_NS
