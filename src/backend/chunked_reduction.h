// Several reductions in one pass and one read-back. Each loop iteration folds kFan elements in order: the
// elements of a tile of kFan * kFan are dealt out in turn to its kFan iterations (iteration c of a tile
// takes elements c, c + kFan, c + 2 kFan, ...), so that neighbouring iterations read neighbouring elements
// (on the GPU a warp's loads are one contiguous run, not 32 runs kFan elements apart, which left even a small
// frame's statistics waiting on scattered loads). The next pass folds the first pass's results the same way,
// and the host folds the last few. The order is fixed, so the result does not depend on thread timing and is
// the same on every run of either backend. Acc is a plain struct with EDDY_HD static members
// identity() and combine(a, b); the per-frame statistics reduce ten quantities with it where ten separate
// reductions each waited for the GPU.
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
    foldChunks(n, level, element);
    // fold the chunks' results on the device while there are more than kFan of them
    while (count > kFan) {
      const Acc* in = level;
      Acc* out = level + count;
      Index m = count;
      count = chunks(m);
      foldChunks(
          m, out, EDDY_KERNEL(Index i) { return in[i]; });
      level = out;
    }
    host_.resize(std::size_t(count));
    copyBytes(Device::Host, host_.data(), kDevice, level, std::size_t(count) * sizeof(Acc));
    Acc acc = Acc::identity();
    for (const Acc& a : host_) acc = Acc::combine(acc, a);
    return acc;
  }

  // out[c] = the fold of the kFan elements of [0, n) dealt to chunk c (see the top of the file)
  template <class Element>
  static void foldChunks(Index n, Acc* out, Element element) {
    parallelFor(
        chunks(n), EDDY_KERNEL(Index c) {
          Index first = (c / kFan) * (kFan * kFan) + c % kFan;
          Acc acc = Acc::identity();
          EDDY_UNROLL4
          for (Index k = 0; k < kFan; ++k) {
            Index i = first + k * kFan;
            if (i < n) acc = Acc::combine(acc, element(i));
          }
          out[c] = acc;
        });
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
  // kFan chunks per whole tile, and one per element of the last tile's first row
  static Index chunks(Index n) {
    Index rest = n % (kFan * kFan);
    return n / (kFan * kFan) * kFan + (rest < kFan ? rest : kFan);
  }
  Buffer<Acc> levels_;
  std::vector<Acc> host_;
};

}  // namespace eddy::EDDY_NS
