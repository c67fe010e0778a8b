// The counting sort against std::stable_sort: the same order for random and clustered keys, the key runs,
// and a second sort on the same object (the counts must have been cleared by the first).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "neighbors/counting_sort.h"

using namespace eddy;
using namespace eddy::cpu;

namespace {

// keys recorded from many threads at once, as the engine's key kernels do
void record(CountingSort& sort, const std::vector<std::uint32_t>& keys) {
  KeyRecorder recorder = sort.recorder();
  const std::uint32_t* k = keys.data();
  parallelFor(
      Index(keys.size()), EDDY_KERNEL(Index i) { recorder.record(i, k[i]); });
}

void expectStableOrder(const CountingSort& sort, const std::vector<std::uint32_t>& keys) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> expected(n);
  std::iota(expected.begin(), expected.end(), 0u);
  std::stable_sort(expected.begin(), expected.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  std::size_t wrongOrder = 0, wrongKey = 0;
  for (std::size_t s = 0; s < n; ++s) {
    wrongOrder += sort.order()[s] != expected[s];
    wrongKey += sort.sortedKeys()[s] != keys[expected[s]];
  }
  EXPECT_EQ(wrongOrder, 0u);
  EXPECT_EQ(wrongKey, 0u);
  // starts[k] = how many keys are below k, for every key and one past the last
  std::vector<std::uint32_t> below(sort.keyCount() + 1, 0);
  for (std::uint32_t k : keys) below[k + 1] += 1;
  std::partial_sum(below.begin(), below.end(), below.begin());
  std::size_t wrongStart = 0;
  for (std::size_t k = 0; k <= sort.keyCount(); ++k) wrongStart += sort.starts()[k] != below[k];
  EXPECT_EQ(wrongStart, 0u);
}

std::vector<std::uint32_t> randomKeys(std::size_t n, std::uint32_t keyCount, unsigned seed, bool clustered) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::uint32_t> any(0, keyCount - 1);
  std::vector<std::uint32_t> keys(n);
  for (std::size_t i = 0; i < n; ++i)
    // clustered: long runs of one key, as consecutive particles of a sorted fluid share a cell
    keys[i] = clustered ? std::uint32_t((i / 37 + any(rng) % 3) % keyCount) : any(rng);
  return keys;
}

}  // namespace

TEST(CountingSort, StableOrderAndKeyRuns) {
  for (std::uint32_t keyCount : {1u, 7u, 4096u})
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(100000)})
      for (bool clustered : {false, true}) {
        SCOPED_TRACE(testing::Message() << "keys " << keyCount << ", particles " << n
                                        << (clustered ? ", clustered" : ", random"));
        CountingSort sort;
        sort.reserve(keyCount, Index(n));
        std::vector<std::uint32_t> keys = randomKeys(n, keyCount, 7u + unsigned(n), clustered);
        record(sort, keys);
        Primitives prims;
        sort.sort(Index(n), prims);
        expectStableOrder(sort, keys);
      }
}

TEST(CountingSort, SortsAgainWithNewKeys) {
  CountingSort sort;
  Primitives prims;
  const std::size_t n = 50000;
  sort.reserve(1000, Index(n));
  for (unsigned round = 0; round < 3; ++round) {
    std::vector<std::uint32_t> keys = randomKeys(n, 1000, 100 + round, round == 1);
    record(sort, keys);
    sort.sort(Index(n), prims);
    expectStableOrder(sort, keys);
  }
}

// Every particle in one key, as NaN positions once all fell into one cell: ranking by a scan of the run was
// O(k^2) (2e6 particles: 2e12 comparisons, hours); the long run is now sorted first and searched, about a
// second here
TEST(CountingSort, APileUpInOneKeyIsNotQuadratic) {
  const std::size_t n = 2000000;
  CountingSort sort;
  Primitives prims;
  sort.reserve(64, Index(n));
  std::vector<std::uint32_t> keys(n, 5);
  for (std::size_t i = 0; i < n; i += 1000) keys[i] = std::uint32_t(i / 1000 % 64);  // a few short runs too
  record(sort, keys);
  sort.sort(Index(n), prims);
  expectStableOrder(sort, keys);
}
