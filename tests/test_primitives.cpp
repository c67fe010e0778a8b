// The CPU Primitives against the standard library on random data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "backend/chunked_reduction.h"
#include "backend/primitives.h"

using namespace eddy;
using namespace eddy::cpu;

namespace {

const std::vector<Index> kSizes = {0, 1, 1000, 1 << 20};

// host buffers are plain memory on the CPU backend, but go through Buffer as the engine does
template <class T>
Buffer<T> toBuffer(const std::vector<T>& v) {
  Buffer<T> b(kDevice, std::max<std::size_t>(v.size(), 1));
  b.upload(v.data(), v.size());
  return b;
}

std::vector<Real> randomReals(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  // mixed magnitudes and signs so that the extremes and cancellation matter
  std::uniform_real_distribution<Real> u(-1000, 1000);
  std::uniform_int_distribution<int> e(-8, 8);
  std::vector<Real> v(n);
  for (Real& x : v) x = std::ldexp(u(rng), e(rng));
  return v;
}

std::vector<std::uint32_t> randomU32(std::size_t n, unsigned seed, int bits) {
  std::mt19937 rng(seed);
  std::uint32_t mask = bits >= 32 ? ~0u : ((1u << bits) - 1u);
  std::vector<std::uint32_t> v(n);
  for (std::uint32_t& x : v) x = std::uint32_t(rng()) & mask;
  return v;
}

// reference: stable sort of (key, value) by the low bits of the key
void referenceSort(std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& values, int bits) {
  std::uint32_t mask = bits >= 32 ? ~0u : ((1u << bits) - 1u);
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return (keys[a] & mask) < (keys[b] & mask); });
  std::vector<std::uint32_t> k(keys.size()), v(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    k[i] = keys[order[i]];
    v[i] = values[order[i]];
  }
  keys.swap(k);
  values.swap(v);
}

void checkSortPairs(Primitives& prims, const std::vector<std::uint32_t>& keys,
                    const std::vector<std::uint32_t>& values, int bits, const char* what) {
  Index n = Index(keys.size());
  Buffer<std::uint32_t> k = toBuffer(keys), v = toBuffer(values);
  Buffer<std::uint32_t> kt(kDevice, std::max<Index>(n, 1)), vt(kDevice, std::max<Index>(n, 1));
  if (prims.sortPairs(k.view(n), v.view(n), kt.view(n), vt.view(n), n, bits)) {
    k.swap(kt);
    v.swap(vt);
  }
  std::vector<std::uint32_t> rk = keys, rv = values;
  referenceSort(rk, rv, bits);
  std::vector<std::uint32_t> gk = k.toHost(n), gv = v.toHost(n);
  EXPECT_TRUE(gk == rk) << what << ": keys differ, n=" << n << " bits=" << bits;
  EXPECT_TRUE(gv == rv) << what << ": values differ, n=" << n << " bits=" << bits;
}

}  // namespace

TEST(Primitives, ExclusiveScanMatchesStd) {
  Primitives prims;
  unsigned seed = 100;
  for (Index n : kSizes) {
    for (int bits : {4, 16, 32}) {
      // 32-bit inputs wrap around, which std::exclusive_scan on uint32_t does too
      std::vector<std::uint32_t> in = randomU32(n, seed++, bits);
      std::vector<std::uint32_t> expect(n);
      std::exclusive_scan(in.begin(), in.end(), expect.begin(), std::uint32_t(0));
      Buffer<std::uint32_t> bin = toBuffer(in), bout(kDevice, std::max<Index>(n, 1));
      prims.exclusiveScan(bin.view(n), bout.view(n), n);
      EXPECT_TRUE(bout.toHost(n) == expect) << "n=" << n << " bits=" << bits;
    }
  }
}

TEST(Primitives, ExclusiveScanInPlace) {
  // in == out is allowed by std::exclusive_scan and by CUB, so callers may rely on it
  Primitives prims;
  std::vector<std::uint32_t> in = randomU32(5000, 3, 8);
  std::vector<std::uint32_t> expect(in.size());
  std::exclusive_scan(in.begin(), in.end(), expect.begin(), std::uint32_t(0));
  Buffer<std::uint32_t> b = toBuffer(in);
  prims.exclusiveScan(b.view(), b.view(), Index(in.size()));
  EXPECT_TRUE(b.toHost(in.size()) == expect);
}

TEST(Primitives, ReductionsMatchStd) {
  Primitives prims;
  unsigned seed = 200;
  for (Index n : kSizes) {
    for (int rep = 0; rep < 3; ++rep) {
      std::vector<Real> v = randomReals(n, seed++);
      Buffer<Real> b = toBuffer(v);
      double sum = prims.sum(b.view(n), n);
      double expectSum = std::accumulate(v.begin(), v.end(), 0.0, [](double a, Real x) { return a + x; });
      double absSum =
          std::accumulate(v.begin(), v.end(), 0.0, [](double a, Real x) { return a + std::abs(x); });
      // a double accumulation of floats: only the order differs
      EXPECT_NEAR(sum, expectSum, 1e-12 * absSum + 1e-300) << "n=" << n;
      if (n == 0) {
        EXPECT_EQ(sum, 0.0);
        EXPECT_EQ(prims.min(b.view(n), n), 0);
        EXPECT_EQ(prims.max(b.view(n), n), 0);
        continue;
      }
      EXPECT_EQ(prims.min(b.view(n), n), *std::min_element(v.begin(), v.end())) << "n=" << n;
      EXPECT_EQ(prims.max(b.view(n), n), *std::max_element(v.begin(), v.end())) << "n=" << n;
    }
  }
}

// the paired sum is each array's sum as sumInto gives it, to the last bit (the conjugate-gradient solve
// relies on that for runs to stay what they were)
TEST(Primitives, PairedSumIsEachSum) {
  Primitives prims;
  unsigned seed = 300;
  for (Index n : kSizes) {
    std::vector<Real> a = randomReals(n, seed++), b = randomReals(n, seed++);
    Buffer<Real> ba = toBuffer(a), bb = toBuffer(b);
    double each[2] = {-1, -1}, paired[2] = {-2, -2};
    prims.sumInto(ba.view(n), n, each);
    prims.sumInto(bb.view(n), n, each + 1);
    prims.sumPairInto(ba.view(n), bb.view(n), n, paired);
    EXPECT_EQ(paired[0], each[0]) << "n=" << n;
    EXPECT_EQ(paired[1], each[1]) << "n=" << n;
    if (n == 0) EXPECT_EQ(paired[0], 0.0);
  }
}

TEST(Primitives, ReductionsOnEdgeValues) {
  Primitives prims;
  // all negative (max must not be clamped at zero) and all positive (min likewise)
  std::vector<Real> neg = {-5.f, -3.f, -7.f, -3.5f}, pos = {5.f, 3.f, 7.f, 3.5f};
  Buffer<Real> bn = toBuffer(neg), bp = toBuffer(pos);
  EXPECT_EQ(prims.max(bn.view(4), 4), -3.f);
  EXPECT_EQ(prims.min(bp.view(4), 4), 3.f);
  EXPECT_EQ(prims.sum(bn.view(4), 4), -18.5);
  // extreme magnitudes survive: sum in double, min/max exact
  std::vector<Real> big(10000, std::numeric_limits<Real>::max() / 2);
  big[1234] = std::numeric_limits<Real>::lowest();
  Buffer<Real> bb = toBuffer(big);
  EXPECT_EQ(prims.min(bb.view(10000), 10000), std::numeric_limits<Real>::lowest());
  EXPECT_EQ(prims.max(bb.view(10000), 10000), std::numeric_limits<Real>::max() / 2);
  EXPECT_TRUE(std::isfinite(prims.sum(bb.view(10000), 10000)));
}

TEST(Primitives, UnsignedMaxMatchesStd) {
  Primitives prims;
  unsigned seed = 300;
  for (Index n : kSizes) {
    std::vector<std::uint32_t> v = randomU32(n, seed++, 32);
    Buffer<std::uint32_t> b = toBuffer(v);
    std::uint32_t expect = n ? *std::max_element(v.begin(), v.end()) : 0u;
    EXPECT_EQ(prims.max(b.view(n), n), expect) << "n=" << n;
  }
}

TEST(Primitives, SortPairsMatchesStableSort) {
  // values 0..n-1, as the neighbour grid passes them
  Primitives prims;
  unsigned seed = 400;
  for (Index n : kSizes)
    for (int bits : {1, 3, 8, 15, 18, 24, 27, 31, 32}) {
      std::vector<std::uint32_t> keys = randomU32(n, seed++, bits);
      std::vector<std::uint32_t> values(n);
      std::iota(values.begin(), values.end(), 0u);
      checkSortPairs(prims, keys, values, bits, "iota values");
    }
}

TEST(Primitives, SortPairsIsStableForArbitraryValues) {
  // the interface promises a stable sort of (key, value) pairs; the values are payload and must not
  // take part in the order (CUB's radix sort on the GPU behaves so)
  Primitives prims;
  unsigned seed = 500;
  for (Index n : {Index(1000), Index(1 << 16)})
    for (int bits : {4, 12, 27}) {
      std::vector<std::uint32_t> keys = randomU32(n, seed++, bits);
      std::vector<std::uint32_t> values = randomU32(n, seed++, 32);
      checkSortPairs(prims, keys, values, bits, "random values");
    }
}

TEST(Primitives, SortPairsReusesScratchAcrossSizes) {
  // a large sort then a small one then a large one again: the scratch grows once and stays valid
  Primitives prims;
  for (Index n : {Index(1 << 18), Index(17), Index(1 << 19), Index(0), Index(3)}) {
    std::vector<std::uint32_t> keys = randomU32(n, 600 + n, 21);
    std::vector<std::uint32_t> values(n);
    std::iota(values.begin(), values.end(), 0u);
    checkSortPairs(prims, keys, values, 21, "scratch reuse");
  }
}

TEST(Primitives, GatherMatchesIndexing) {
  std::mt19937 rng(700);
  for (Index n : {Index(0), Index(1), Index(1000), Index(100000)})
    for (int components : {1, 2, 3, 4}) {
      for (bool permutation : {true, false}) {
        std::size_t m = std::size_t(std::max<Index>(n, 1)) + 7;  // source may be longer than the output
        std::vector<Real> src = randomReals(m * components, unsigned(n * 10 + components));
        std::vector<std::uint32_t> order(n);
        if (permutation) {
          std::iota(order.begin(), order.end(), 0u);
          std::shuffle(order.begin(), order.end(), rng);
        } else {
          // repeated indices are allowed: a gather is not a permutation
          std::uniform_int_distribution<std::uint32_t> pick(0, std::uint32_t(m - 1));
          for (std::uint32_t& o : order) o = pick(rng);
        }
        Buffer<Real> bs = toBuffer(src), bd(kDevice, std::size_t(std::max<Index>(n, 1)) * components);
        Buffer<std::uint32_t> bo = toBuffer(order);
        gather({bs.data(), bs.size()}, bd.view(), {bo.data(), bo.size()}, n, components);
        std::vector<Real> got = bd.toHost(std::size_t(n) * components);
        std::vector<Real> expect(std::size_t(n) * components);
        for (Index i = 0; i < n; ++i)
          for (int c = 0; c < components; ++c)
            expect[std::size_t(i) * components + c] = src[std::size_t(order[i]) * components + c];
        EXPECT_TRUE(got == expect) << "n=" << n << " components=" << components
                                   << (permutation ? " permutation" : " repeats");
      }
    }
}

namespace {

// ChunkedReduction: a sum, a minimum and a count folded together, against the plain loop, at sizes around
// the chunk and tile boundaries (one level, two, three; a last tile of more than one row) and twice in a
// row through the same buffers
struct SumMinCount {
  double sum;
  Real lowest;
  long long count;
  static SumMinCount identity() { return {0, std::numeric_limits<Real>::max(), 0}; }
  static SumMinCount combine(const SumMinCount& a, const SumMinCount& b) {
    return {a.sum + b.sum, std::min(a.lowest, b.lowest), a.count + b.count};
  }
};

}  // namespace

TEST(Primitives, ChunkedReductionMatchesTheLoop) {
  ChunkedReduction<SumMinCount> reduction;
  const Index k = ChunkedReduction<SumMinCount>::kFan;
  for (Index n : {Index(0), Index(1), k - 1, k, k + 1, 2 * k + 3, k * k, k * k + 1, k * k + 3 * k + 5,
                  k * k * k + 7, Index(1) << 20}) {
    std::vector<Real> v = randomReals(std::size_t(n), unsigned(n) + 11);
    const Real* d = v.data();
    for (int repeat = 0; repeat < 2; ++repeat) {
      SumMinCount r = reduction.run(n, [=](Index i) { return SumMinCount{d[i], d[i], 1}; });
      double sum = std::accumulate(v.begin(), v.end(), 0.0);
      EXPECT_EQ(r.count, n) << n;
      EXPECT_NEAR(r.sum, sum, 1e-9 * std::max(1.0, std::fabs(sum))) << n;
      EXPECT_EQ(r.lowest, n ? *std::min_element(v.begin(), v.end()) : std::numeric_limits<Real>::max()) << n;
    }
  }
}

// A loop over more indices than an Index holds (a mesh's distance field past 2^31 nodes) visits each one
// once: in pieces of 2^30, each offset by a 64-bit base. Index(n) of such a count is negative, and
// parallelFor(Index(n), ...) ran nothing. The body only tests the index, so 2^31 + 4 visits take seconds.
TEST(Primitives, LongLoopVisitsEveryIndexPast2To31) {
  const std::int64_t n = (std::int64_t(1) << 31) + 4;
  // the pieces: consecutive, at most 2^30 each, covering [0, n)
  std::int64_t next = 0;
  int pieces = 0;
  forEachPiece(n, kLongLoopPiece, [&](std::int64_t base, Index count) {
    EXPECT_EQ(base, next);
    EXPECT_GT(count, 0);
    EXPECT_LE(count, kLongLoopPiece);
    next = base + count;
    ++pieces;
  });
  EXPECT_EQ(next, n);
  EXPECT_EQ(pieces, 3);

  // every index: a count of those on a 2^16 grid, and each of the 8 indices around the start and the two
  // seams between pieces marked once (the last seam's window ends at the last index, n - 1)
  std::vector<std::uint32_t> marks(24, 0);
  std::uint32_t* mark = marks.data();
  unsigned long long onGrid = 0;
  unsigned long long* grid = &onGrid;
  parallelFor64(n, [=](std::int64_t i) {
    if ((i & 0xffff) == 0) atomicAddCount(grid, 1);
    std::int64_t s = i + 4;  // seam w's window [w 2^30 - 4, w 2^30 + 4) is s in [w 2^30, w 2^30 + 8)
    if ((s & (kLongLoopPiece - 1)) < 8) atomicIncrementU32(&mark[8 * (s >> 30) + (s & 7)]);
  });
  EXPECT_EQ(onGrid, (unsigned long long)((n + 0xffff) >> 16));
  for (int k = 0; k < 24; ++k)
    EXPECT_EQ(marks[std::size_t(k)], k < 4 ? 0u : 1u) << "index " << (k / 8) * kLongLoopPiece + k % 8 - 4;
}
