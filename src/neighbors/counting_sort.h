// Stable counting sort of particles by a small integer key (a grid cell or node), with every key's run of
// sorted particles as a by-product. The caller computes each particle's key in its own kernel and hands it
// to record(), which also takes an arrival slot in the key with an atomic counter; sort() then scans the
// counts into the first sorted particle of every key, places each particle in its key's run in arrival
// order and ranks it there by its current index: by a scan of a short run, by a binary search of a long
// run sorted first (O(k log k) where particles pile up, never O(k^2)). The result is the order a stable
// sort gives, on every backend and thread count, whatever order the atomics ran in.
#pragma once

#include "backend/primitives.h"

namespace eddy::EDDY_NS {

// what a key kernel needs, taken by value
struct KeyRecorder {
  std::uint32_t* keys = nullptr;
  std::uint32_t* slots = nullptr;
  std::uint32_t* counts = nullptr;

  EDDY_HD void record(Index i, std::uint32_t key) const {
    keys[i] = key;
    slots[i] = atomicIncrementU32(counts + key);
  }
};

class CountingSort {
 public:
  // keys in [0, keyCount), room for `capacity` particles; grows only (set-up, never in the step loop)
  void reserve(std::size_t keyCount, Index capacity);

  KeyRecorder recorder();
  // after every one of the n particles has been recorded
  void sort(Index n, Primitives& prims);

  // per sorted slot: the particle's index before the sort
  const std::uint32_t* order() const { return order_.data(); }
  const std::uint32_t* sortedKeys() const { return sortedKeys_.data(); }
  // per key and one past the last: the first sorted particle with that key or a larger one, so the
  // particles with keys k..m are [starts[k], starts[m + 1])
  const std::uint32_t* starts() const { return starts_.data(); }
  std::size_t keyCount() const { return keyCount_; }
  std::size_t bytes() const;

  // the placing pass (public: CUDA lambdas cannot live in private members)
  void place(Index n);

 private:
  std::size_t keyCount_ = 0;
  Buffer<std::uint32_t> keys_, sortedKeys_;  // per particle: before and after the sort
  Buffer<std::uint32_t> order_;              // per particle: arrival slot in its key, then the sort order
  Buffer<std::uint32_t> arrivals_;           // per sorted slot: each key's particles in arrival order
  Buffer<std::uint32_t> counts_;             // per key (+1); all zero between sorts
  Buffer<std::uint32_t> starts_;             // per key (+1)
  Buffer<std::uint32_t> longRuns_;           // keys of runs longer than 32, then their count
};

}  // namespace eddy::EDDY_NS
