#include "neighbors/counting_sort.h"

#include <algorithm>

namespace eddy::EDDY_NS {

void CountingSort::reserve(std::size_t keyCount, Index capacity) {
  std::size_t n = std::size_t(std::max<Index>(capacity, 1));
  if (keys_.size() < n)
    for (Buffer<std::uint32_t>* b : {&keys_, &sortedKeys_, &order_, &arrivals_}) b->resize(kDevice, n);
  if (keyCount != keyCount_) {
    keyCount_ = keyCount;
    // one entry past the last key: the scan's total, where the last key's run ends
    counts_ = Buffer<std::uint32_t>(kDevice, keyCount + 1);
    counts_.fillZero();
    starts_ = Buffer<std::uint32_t>(kDevice, keyCount + 1);
    starts_.fillZero();
  }
}

KeyRecorder CountingSort::recorder() { return {keys_.data(), order_.data(), counts_.data()}; }

void CountingSort::sort(Index n, Primitives& prims) {
  Index entries = Index(keyCount_ + 1);
  prims.exclusiveScan(counts_.view(entries), starts_.view(entries), entries);
  place(n);
}

void CountingSort::place(Index n) {
  const std::uint32_t* keys = keys_.data();
  const std::uint32_t* starts = starts_.data();
  std::uint32_t* slots = order_.data();
  std::uint32_t* arrivals = arrivals_.data();
  std::uint32_t* counts = counts_.data();
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        std::uint32_t k = keys[i], slot = slots[i];
        arrivals[starts[k] + slot] = std::uint32_t(i);
        // the counts are spent: clear them for the next sort (only keys in use can be non-zero)
        if (slot == 0) counts[k] = 0;
      });
  // the slots are spent too: the same buffer takes the order
  std::uint32_t* order = order_.data();
  std::uint32_t* sorted = sortedKeys_.data();
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        std::uint32_t k = keys[i], begin = starts[k], end = starts[k + 1];
        // a key holds a handful of particles (about 8 in a fluid at rest), so ranking by a scan of the run
        // is cheap
        std::uint32_t rank = 0;
        for (std::uint32_t s = begin; s < end; ++s) rank += arrivals[s] < std::uint32_t(i) ? 1u : 0u;
        order[begin + rank] = std::uint32_t(i);
        sorted[begin + rank] = k;
      });
}

std::size_t CountingSort::bytes() const { return keys_.bytes() * 4 + counts_.bytes() + starts_.bytes(); }

}  // namespace eddy::EDDY_NS
