// Several reductions in one pass and one read-back. Each loop iteration folds a chunk of kFan consecutive
// elements in order, the next pass folds the chunks' results the same way, and the host folds the last
// few. The order is fixed, so the result does not depend on thread timing and is the same on every run of
// either backend. Acc is a plain struct with EDDY_HD static members identity() and combine(a, b); the
// per-frame statistics reduce ten quantities with it where ten separate reductions each waited for the GPU.
#pragma once

#include <vector>

#include "backend/parallel.h"

namespace eddy::EDDY_NS {

template <class Acc>
class ChunkedReduction {
 public:
  static constexpr Index kFan = 32;

  // fold of element(i) over i in [0, n); element is an EDDY_KERNEL lambda returning an Acc
  template <class Element>
  Acc run(Index n, Element element) {
    if (n <= 0) return Acc::identity();
    reserve(n);
    Acc* level = levels_.data();
    Index count = chunks(n);
    parallelFor(
        count, EDDY_KERNEL(Index c) {
          Acc acc = Acc::identity();
          Index end = (c + 1) * kFan < n ? (c + 1) * kFan : n;
          for (Index i = c * kFan; i < end; ++i) acc = Acc::combine(acc, element(i));
          level[c] = acc;
        });
    // fold the chunks' results on the device while there are more than kFan of them
    while (count > kFan) {
      const Acc* in = level;
      Acc* out = level + count;
      Index m = count;
      count = chunks(m);
      parallelFor(
          count, EDDY_KERNEL(Index c) {
            Acc acc = Acc::identity();
            Index end = (c + 1) * kFan < m ? (c + 1) * kFan : m;
            for (Index i = c * kFan; i < end; ++i) acc = Acc::combine(acc, in[i]);
            out[c] = acc;
          });
      level = out;
    }
    host_.resize(std::size_t(count));
    copyBytes(Device::Host, host_.data(), kDevice, level, std::size_t(count) * sizeof(Acc));
    Acc acc = Acc::identity();
    for (const Acc& a : host_) acc = Acc::combine(acc, a);
    return acc;
  }

  // room for n elements' chunks at every level (grows only; called before the step loop where it can)
  void reserve(Index n) {
    std::size_t need = 0;
    for (Index m = chunks(n);; m = chunks(m)) {
      need += std::size_t(m);
      if (m <= kFan) break;
    }
    if (levels_.size() < need) levels_.resize(kDevice, need);
  }

  std::size_t bytes() const { return levels_.bytes(); }

 private:
  static Index chunks(Index n) { return (n + kFan - 1) / kFan; }
  Buffer<Acc> levels_;
  std::vector<Acc> host_;
};

}  // namespace eddy::EDDY_NS
