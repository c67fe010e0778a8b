#include "backend/primitives.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#if EDDY_BACKEND_CUDA
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#else
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>
#endif

namespace eddy::EDDY_NS {

namespace {
struct Plus {
  template <class T>
  EDDY_HD T operator()(T a, T b) const {
    return a + b;
  }
};
struct PlusDouble {  // a double accumulator over float inputs (CUB deduces the types from the call)
  EDDY_HD double operator()(double a, double b) const { return a + b; }
};
#if EDDY_BACKEND_CUDA
struct PairAt {  // element i of two arrays, as a double pair
  const Real* a;
  const Real* b;
  EDDY_HD double2 operator()(Index i) const { return make_double2(a[i], b[i]); }
};
struct PlusPair {
  EDDY_HD double2 operator()(double2 p, double2 q) const { return make_double2(p.x + q.x, p.y + q.y); }
};
#endif
struct Min {
  template <class T>
  EDDY_HD T operator()(T a, T b) const {
    return b < a ? b : a;
  }
};
struct Max {
  template <class T>
  EDDY_HD T operator()(T a, T b) const {
    return a < b ? b : a;
  }
};
}  // namespace

void* Primitives::scratch(std::size_t bytes) {
  if (scratch_.size() < bytes)
    scratch_.resize(kDevice, std::max<std::size_t>(bytes, scratch_.size() * 3 / 2));
  return scratch_.data();
}

#if EDDY_BACKEND_CUDA

void Primitives::exclusiveScan(View<std::uint32_t> in, View<std::uint32_t> out, Index n) {
  std::size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, in.data, out.data, n);
  checkCuda(cub::DeviceScan::ExclusiveSum(scratch(bytes), bytes, in.data, out.data, n), "scan");
}

template <class T, class Acc, class Op>
Acc Primitives::reduce(const T* values, Index n, Op op, Acc init) {
  if (n <= 0) return init;
  if (result_.size() < 1) result_.resize(kDevice, 4);
  Acc* r = reinterpret_cast<Acc*>(result_.data());
  std::size_t bytes = 0;
  cub::DeviceReduce::Reduce(nullptr, bytes, values, r, n, op, init);
  checkCuda(cub::DeviceReduce::Reduce(scratch(bytes), bytes, values, r, n, op, init), "reduce");
  Acc h{};
  copyBytes(Device::Host, &h, kDevice, r, sizeof h);
  return h;
}

bool Primitives::sortPairs(View<std::uint32_t> keys, View<std::uint32_t> values, View<std::uint32_t> keysTmp,
                           View<std::uint32_t> valuesTmp, Index n, int bits) {
  cub::DoubleBuffer<std::uint32_t> k(keys.data, keysTmp.data), v(values.data, valuesTmp.data);
  std::size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n, 0, bits);
  checkCuda(cub::DeviceRadixSort::SortPairs(scratch(bytes), bytes, k, v, n, 0, bits), "sort");
  // keys and values always travel together through the same passes
  return k.Current() != keys.data;
}

#else

void Primitives::exclusiveScan(View<std::uint32_t> in, View<std::uint32_t> out, Index n) {
  std::exclusive_scan(in.data, in.data + n, out.data, std::uint32_t(0));
}

// a fixed split into ranges, so the result does not depend on thread timing
template <class T, class Acc, class Op>
Acc Primitives::reduce(const T* values, Index n, Op op, Acc init) {
  const auto chunk = [&](const tbb::blocked_range<Index>& r, Acc acc) {
    tsanEnter();  // see parallel.h
    for (Index i = r.begin(); i != r.end(); ++i) acc = op(acc, Acc(values[i]));
    tsanLeave();
    return acc;
  };
  tsanFork();
  const Acc result =
      tbb::parallel_deterministic_reduce(tbb::blocked_range<Index>(0, n, 4096), init, chunk, op);
  tsanJoin();
  return result;
}

bool Primitives::sortPairs(View<std::uint32_t> keys, View<std::uint32_t> values, View<std::uint32_t> keysTmp,
                           View<std::uint32_t> valuesTmp, Index n, int bits) {
  // pack (key, index) so that ties keep their input order, then move the values along
  auto* packed = static_cast<std::uint64_t*>(scratch(std::size_t(n) * sizeof(std::uint64_t)));
  const std::uint32_t mask = bits >= 32 ? ~0u : ((1u << bits) - 1u);
  std::uint32_t* k = keys.data;
  std::uint32_t* v = values.data;
  std::uint32_t* vTmp = valuesTmp.data;
  parallelFor(n, [=](Index i) {
    packed[i] = (std::uint64_t(k[i] & mask) << 32) | std::uint32_t(i);
    vTmp[i] = v[i];
  });
#if defined(EDDY_TSAN)
  // oneTBB's parallel sort hands the elements between threads inside libtbb, where ThreadSanitizer cannot
  // see the synchronisation and eddy cannot declare it (see parallel.h); the result is the same serially
  std::sort(packed, packed + n);
#else
  tbb::parallel_sort(packed, packed + n);
#endif
  parallelFor(n, [=](Index i) {
    k[i] = std::uint32_t(packed[i] >> 32);
    v[i] = vTmp[std::uint32_t(packed[i])];
  });
  return false;
}

#endif

// sums in double on the CPU (exactly repeatable); CUB sums floats on the GPU
double Primitives::sum(View<Real> values, Index n) {
#if EDDY_BACKEND_CUDA
  return reduce(values.data, n, Plus{}, Real(0));
#else
  return reduce(values.data, n, Plus{}, 0.0);
#endif
}

// as sum, in double on both backends
void Primitives::sumInto(View<Real> values, Index n, double* out) {
#if EDDY_BACKEND_CUDA
  std::size_t bytes = 0;
  cub::DeviceReduce::Reduce(nullptr, bytes, values.data, out, n, PlusDouble{}, 0.0);
  checkCuda(cub::DeviceReduce::Reduce(scratch(bytes), bytes, values.data, out, n, PlusDouble{}, 0.0),
            "reduce");
#else
  *out = n > 0 ? reduce(values.data, n, Plus{}, 0.0) : 0.0;
#endif
}

// two sums in one pass; on the CPU each in sumInto's order, to the last bit
void Primitives::sumPairInto(View<Real> a, View<Real> b, Index n, double* out) {
#if EDDY_BACKEND_CUDA
  auto pairs = thrust::make_transform_iterator(thrust::counting_iterator<Index>(0), PairAt{a.data, b.data});
  auto* sums = reinterpret_cast<double2*>(out);
  std::size_t bytes = 0;
  cub::DeviceReduce::Reduce(nullptr, bytes, pairs, sums, n, PlusPair{}, make_double2(0, 0));
  checkCuda(cub::DeviceReduce::Reduce(scratch(bytes), bytes, pairs, sums, n, PlusPair{}, make_double2(0, 0)),
            "reduce");
#else
  const Real* x = a.data;
  const Real* y = b.data;
  using Pair = std::pair<double, double>;
  const auto chunk = [&](const tbb::blocked_range<Index>& r, Pair acc) {
    tsanEnter();  // see parallel.h
    for (Index i = r.begin(); i != r.end(); ++i) {
      acc.first = acc.first + double(x[i]);
      acc.second = acc.second + double(y[i]);
    }
    tsanLeave();
    return acc;
  };
  const auto join = [](Pair p, Pair q) { return Pair{p.first + q.first, p.second + q.second}; };
  tsanFork();
  const Pair result = n > 0 ? tbb::parallel_deterministic_reduce(tbb::blocked_range<Index>(0, n, 4096),
                                                                 Pair{0.0, 0.0}, chunk, join)
                            : Pair{0.0, 0.0};
  tsanJoin();
  out[0] = result.first;
  out[1] = result.second;
#endif
}
Real Primitives::min(View<Real> values, Index n) {
  return n > 0 ? reduce(values.data, n, Min{}, std::numeric_limits<Real>::max()) : 0;
}
Real Primitives::max(View<Real> values, Index n) {
  return n > 0 ? reduce(values.data, n, Max{}, std::numeric_limits<Real>::lowest()) : 0;
}
std::uint32_t Primitives::max(View<std::uint32_t> values, Index n) {
  return reduce(values.data, n, Max{}, std::uint32_t(0));
}

}  // namespace eddy::EDDY_NS
