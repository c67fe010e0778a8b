#include "neighbors/counting_sort.h"

#include <algorithm>

namespace eddy::EDDY_NS {

void CountingSort::reserve(std::size_t keyCount, Index capacity) {
  std::size_t n = std::size_t(std::max<Index>(capacity, 1));
  if (keys_.size() < n) {
    for (Buffer<std::uint32_t>* b : {&keys_, &sortedKeys_, &order_, &arrivals_}) b->resize(kDevice, n);
    // the keys of long runs (at most n / 33) and, last, their count
    longRuns_ = Buffer<std::uint32_t>(kDevice, n / 33 + 2);
    longRuns_.fillZero();
  }
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

namespace {

// a run longer than this is sorted by index first, so that ranking stays O(k log k) in a pile-up (a
// blow-up, a collapsed cell) instead of O(k^2)
constexpr std::uint32_t kShortRun = 32;

// in-place heap sort of a[0..n) (one thread per long run: rare, and never quadratic)
EDDY_HD inline void heapSort(std::uint32_t* a, std::uint32_t n) {
  auto siftDown = [a](std::uint32_t root, std::uint32_t end) {
    for (;;) {
      std::uint32_t child = 2 * root + 1;
      if (child >= end) return;
      if (child + 1 < end && a[child + 1] > a[child]) ++child;
      if (a[root] >= a[child]) return;
      std::uint32_t t = a[root];
      a[root] = a[child];
      a[child] = t;
      root = child;
    }
  };
  for (std::uint32_t i = n / 2; i-- > 0;) siftDown(i, n);
  for (std::uint32_t end = n; end-- > 1;) {
    std::uint32_t t = a[0];
    a[0] = a[end];
    a[end] = t;
    siftDown(0, end);
  }
}

}  // namespace

void CountingSort::place(Index n) {
  const std::uint32_t* keys = keys_.data();
  const std::uint32_t* starts = starts_.data();
  std::uint32_t* slots = order_.data();
  std::uint32_t* arrivals = arrivals_.data();
  std::uint32_t* counts = counts_.data();
  std::uint32_t* longRuns = longRuns_.data();
  std::uint32_t* longCount = longRuns_.data() + longRuns_.size() - 1;
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        std::uint32_t k = keys[i], slot = slots[i];
        arrivals[starts[k] + slot] = std::uint32_t(i);
        // the counts are spent: clear them for the next sort (only keys in use can be non-zero)
        if (slot == 0) counts[k] = 0;
        // one particle of each long run lists its key
        if (slot == kShortRun) longRuns[atomicIncrementU32(longCount)] = k;
      });
  // long runs (none in a healthy fluid) get their arrivals sorted by index; the launch covers the most
  // there can be and its threads find nothing to do otherwise
  parallelFor(
      n / Index(kShortRun + 1) + 1, EDDY_KERNEL(Index r) {
        if (std::uint32_t(r) >= *longCount) return;
        std::uint32_t k = longRuns[r];
        heapSort(arrivals + starts[k], starts[k + 1] - starts[k]);
      });
  // the slots are spent too: the same buffer takes the order
  std::uint32_t* order = order_.data();
  std::uint32_t* sorted = sortedKeys_.data();
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        if (i == 0) *longCount = 0;  // read by the kernel before only
        std::uint32_t k = keys[i], begin = starts[k], end = starts[k + 1];
        std::uint32_t rank = 0;
        if (end - begin <= kShortRun) {
          // a key holds a handful of particles (about 8 in a fluid at rest): rank by a scan of the run
          for (std::uint32_t s = begin; s < end; ++s) rank += arrivals[s] < std::uint32_t(i) ? 1u : 0u;
        } else {
          // a long run is sorted: binary search
          std::uint32_t lo = begin, hi = end;
          while (lo < hi) {
            std::uint32_t mid = lo + (hi - lo) / 2;
            if (arrivals[mid] < std::uint32_t(i))
              lo = mid + 1;
            else
              hi = mid;
          }
          rank = lo - begin;
        }
        order[begin + rank] = std::uint32_t(i);
        sorted[begin + rank] = k;
      });
}

std::size_t CountingSort::bytes() const { return keys_.bytes() * 4 + counts_.bytes() + starts_.bytes(); }

}  // namespace eddy::EDDY_NS
