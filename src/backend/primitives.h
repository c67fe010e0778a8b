// Parallel primitives behind one small interface: exclusive scan, reduce, sort by key, gather.
// CUB on CUDA; oneTBB and the standard library on the CPU. Scratch memory is owned here and grows
// only when a larger problem is seen (at set-up), never per step.
#pragma once

#include <cstdint>

#include "backend/parallel.h"

namespace eddy::EDDY_NS {

class Primitives {
 public:
  // out[i] = sum of in[0..i)
  void exclusiveScan(View<std::uint32_t> in, View<std::uint32_t> out, Index n);

  // reductions return to the host (they synchronise on CUDA)
  double sum(View<Real> values, Index n);
  // the same sum left on the device, in *out (device memory); nothing waits for it
  void sumInto(View<Real> values, Index n, double* out);
  // both sums in one pass: out[0] of a, out[1] of b (out 16-byte aligned); each as sumInto would give it
  // on the CPU
  void sumPairInto(View<Real> a, View<Real> b, Index n, double* out);
  Real min(View<Real> values, Index n);
  Real max(View<Real> values, Index n);
  std::uint32_t max(View<std::uint32_t> values, Index n);

  // sorts (key, value) pairs by the low `bits` bits of key, stably; the results land in keys/values,
  // or, where the return value is true, in keysTmp/valuesTmp (the caller swaps its buffers instead of
  // paying for a copy)
  [[nodiscard]] bool sortPairs(View<std::uint32_t> keys, View<std::uint32_t> values,
                               View<std::uint32_t> keysTmp, View<std::uint32_t> valuesTmp, Index n, int bits);

  std::size_t scratchBytes() const { return scratch_.bytes(); }

 private:
  void* scratch(std::size_t bytes);
  template <class T, class Acc, class Op>
  Acc reduce(const T* values, Index n, Op op, Acc init);
  Buffer<unsigned char> scratch_;
  Buffer<double> result_;  // reduction results on the device
};

// dst[i] = src[order[i]] for `components` interleaved values per element
inline void gather(View<const Real> src, View<Real> dst, View<const std::uint32_t> order, Index n,
                   int components) {
  const Real* s = src.data;
  Real* d = dst.data;
  const std::uint32_t* o = order.data;
  // element offsets in 64 bits: 3 n passes 2^31 at 716M particles, within the 2^30 a scene may have
  if (components == 3) {
    parallelFor(
        n, EDDY_KERNEL(Index i) {
          std::size_t j = o[i], k = std::size_t(i);
          d[3 * k + 0] = s[3 * j + 0];
          d[3 * k + 1] = s[3 * j + 1];
          d[3 * k + 2] = s[3 * j + 2];
        });
  } else if (components == 4) {
    auto* d4 = reinterpret_cast<Vec4*>(d);
    auto* s4 = reinterpret_cast<const Vec4*>(s);
    parallelFor(
        n, EDDY_KERNEL(Index i) { d4[i] = s4[o[i]]; });
  } else {
    parallelFor64(
        std::int64_t(n) * components, EDDY_KERNEL(std::int64_t k) {
          std::int64_t i = k / components, c = k - i * components;
          d[k] = s[std::int64_t(o[i]) * components + c];
        });
  }
}

}  // namespace eddy::EDDY_NS
