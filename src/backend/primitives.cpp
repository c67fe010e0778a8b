#include "backend/primitives.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#if EDDY_BACKEND_CUDA
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#else
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>
#endif

namespace eddy::EDDY_NS {

void* Primitives::scratch(std::size_t bytes) {
  if (scratch_.size() < bytes) scratch_.resize(kDevice, std::max<std::size_t>(bytes, scratch_.size() * 3 / 2));
  return scratch_.data();
}

#if EDDY_BACKEND_CUDA

void Primitives::exclusiveScan(View<std::uint32_t> in, View<std::uint32_t> out, Index n) {
  std::size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, in.data, out.data, n);
  checkCuda(cub::DeviceScan::ExclusiveSum(scratch(bytes), bytes, in.data, out.data, n), "scan");
}

double Primitives::sum(View<Real> values, Index n) {
  if (n <= 0) return 0;
  if (result_.size() < 1) result_.resize(kDevice, 4);
  Real* r = reinterpret_cast<Real*>(result_.data());
  std::size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, values.data, r, n);
  checkCuda(cub::DeviceReduce::Sum(scratch(bytes), bytes, values.data, r, n), "reduce");
  Real h = 0;
  copyBytes(Device::Host, &h, kDevice, r, sizeof h);
  return h;
}

Real Primitives::min(View<Real> values, Index n) {
  if (n <= 0) return 0;
  if (result_.size() < 1) result_.resize(kDevice, 4);
  Real* r = reinterpret_cast<Real*>(result_.data());
  std::size_t bytes = 0;
  cub::DeviceReduce::Min(nullptr, bytes, values.data, r, n);
  checkCuda(cub::DeviceReduce::Min(scratch(bytes), bytes, values.data, r, n), "reduce");
  Real h = 0;
  copyBytes(Device::Host, &h, kDevice, r, sizeof h);
  return h;
}

Real Primitives::max(View<Real> values, Index n) {
  if (n <= 0) return 0;
  if (result_.size() < 1) result_.resize(kDevice, 4);
  Real* r = reinterpret_cast<Real*>(result_.data());
  std::size_t bytes = 0;
  cub::DeviceReduce::Max(nullptr, bytes, values.data, r, n);
  checkCuda(cub::DeviceReduce::Max(scratch(bytes), bytes, values.data, r, n), "reduce");
  Real h = 0;
  copyBytes(Device::Host, &h, kDevice, r, sizeof h);
  return h;
}

std::uint32_t Primitives::max(View<std::uint32_t> values, Index n) {
  if (n <= 0) return 0;
  if (result_.size() < 1) result_.resize(kDevice, 4);
  auto* r = reinterpret_cast<std::uint32_t*>(result_.data());
  std::size_t bytes = 0;
  cub::DeviceReduce::Max(nullptr, bytes, values.data, r, n);
  checkCuda(cub::DeviceReduce::Max(scratch(bytes), bytes, values.data, r, n), "reduce");
  std::uint32_t h = 0;
  copyBytes(Device::Host, &h, kDevice, r, sizeof h);
  return h;
}

void Primitives::sortPairs(View<std::uint32_t> keys, View<std::uint32_t> values, View<std::uint32_t> keysTmp,
                           View<std::uint32_t> valuesTmp, Index n, int bits) {
  cub::DoubleBuffer<std::uint32_t> k(keys.data, keysTmp.data), v(values.data, valuesTmp.data);
  std::size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n, 0, bits);
  checkCuda(cub::DeviceRadixSort::SortPairs(scratch(bytes), bytes, k, v, n, 0, bits), "sort");
  // results must end up in keys/values
  if (k.Current() != keys.data)
    checkCuda(cudaMemcpyAsync(keys.data, k.Current(), n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice), "sort");
  if (v.Current() != values.data)
    checkCuda(cudaMemcpyAsync(values.data, v.Current(), n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice),
              "sort");
}

#else

void Primitives::exclusiveScan(View<std::uint32_t> in, View<std::uint32_t> out, Index n) {
  std::exclusive_scan(in.data, in.data + n, out.data, std::uint32_t(0));
}

template <class T, class Init, class Join>
static auto deterministicReduce(const T* v, Index n, Init init, Join join) {
  return tbb::parallel_deterministic_reduce(
      tbb::blocked_range<Index>(0, n, 4096), init,
      [&](const tbb::blocked_range<Index>& r, decltype(init) acc) {
        for (Index i = r.begin(); i != r.end(); ++i) acc = join(acc, decltype(init)(v[i]));
        return acc;
      },
      join);
}

double Primitives::sum(View<Real> values, Index n) {
  return deterministicReduce(values.data, n, 0.0, [](double a, double b) { return a + b; });
}
Real Primitives::min(View<Real> values, Index n) {
  if (n <= 0) return 0;
  return deterministicReduce(values.data, n, std::numeric_limits<Real>::max(),
                             [](Real a, Real b) { return std::min(a, b); });
}
Real Primitives::max(View<Real> values, Index n) {
  if (n <= 0) return 0;
  return deterministicReduce(values.data, n, std::numeric_limits<Real>::lowest(),
                             [](Real a, Real b) { return std::max(a, b); });
}
std::uint32_t Primitives::max(View<std::uint32_t> values, Index n) {
  return deterministicReduce(values.data, n, std::uint32_t(0),
                             [](std::uint32_t a, std::uint32_t b) { return std::max(a, b); });
}

void Primitives::sortPairs(View<std::uint32_t> keys, View<std::uint32_t> values, View<std::uint32_t> keysTmp,
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
  tbb::parallel_sort(packed, packed + n);
  parallelFor(n, [=](Index i) {
    k[i] = std::uint32_t(packed[i] >> 32);
    v[i] = vTmp[std::uint32_t(packed[i])];
  });
}

#endif

}  // namespace eddy::EDDY_NS
