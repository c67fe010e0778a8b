// Loops over tiles: groups of Lanes lanes that share a scratch of type Shared and meet at barriers, for
// passes where neighbouring work items read the same data (MPM's particle-to-grid transfer: the nodes of a
// tile gather from one copy of the particles around them instead of each reading them from memory).
//
//   parallelForTiles<Lanes, Shared>(tiles, EDDY_KERNEL(auto& tile) {
//     tile.forLanes([&](int lane) { tile.shared().x[lane] = ...; });  // every lane, then a barrier
//     ...                                                             // uniform code, once per tile
//   });
//
// The body runs once per tile. Code outside forLanes must be the same for every lane (it may read Shared,
// written before the last barrier); forLanes(g) runs g(lane) for each lane and then waits for all of them,
// so that what one lane wrote to Shared is visible to the others after it. A value a lane keeps from one
// forLanes to the next lives in PerLane<T, Lanes>. On the GPU a tile is a block of Lanes threads, Shared is
// in shared memory (at most 48 KiB, trivially constructible) and a PerLane is a register; on the CPU the
// lanes of a tile run one after another, in lane order, and a PerLane is an array. The two backends thus
// run every lane's arithmetic in the same order.
#pragma once

#include <memory>

#include "backend/parallel.h"

namespace eddy::EDDY_NS {

// four reals without default values, for a tile's Shared (shared memory cannot hold a type with an
// initialiser, as Vec4 has)
struct alignas(16) TileVec4 {
  Real x, y, z, w;
};

#if EDDY_BACKEND_CUDA

template <class T, int Lanes>
struct PerLane {
  T value;
  __device__ T& operator[](int) { return value; }
};

template <int Lanes, class Shared>
class TileContext {
 public:
  __device__ TileContext(Index tile, Shared& shared) : tile_(tile), shared_(shared) {}
  __device__ Index index() const { return tile_; }
  __device__ Shared& shared() { return shared_; }
  template <class G>
  __device__ void forLanes(G&& g) {
    g(int(threadIdx.x));
    __syncthreads();
  }

 private:
  Index tile_;
  Shared& shared_;
};

template <int Lanes, class Shared, class F>
__global__ void __launch_bounds__(Lanes) forEachTileKernel(Index tiles, F f) {
  static_assert(sizeof(Shared) <= 48 * 1024, "a tile's shared scratch must fit 48 KiB");
  __shared__ Shared shared;
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
#endif
  TileContext<Lanes, Shared> tile(Index(blockIdx.x), shared);
  f(tile);
}

template <int Lanes, class Shared, class F>
void parallelForTiles(Index tiles, F f) {
  if (tiles <= 0) return;
  auto kernel = forEachTileKernel<Lanes, Shared, F>;
  if (programmaticLaunchSupported()) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(unsigned(tiles));
    config.blockDim = dim3(Lanes);
    config.attrs = &attribute;
    config.numAttrs = 1;
    checkCuda(cudaLaunchKernelEx(&config, kernel, tiles, f), "kernel launch");
  } else {
    kernel<<<unsigned(tiles), Lanes>>>(tiles, f);
    checkCuda(cudaGetLastError(), "kernel launch");
  }
}

#else

template <class T, int Lanes>
struct PerLane {
  T value[Lanes];
  T& operator[](int lane) { return value[lane]; }
};

template <int Lanes, class Shared>
class TileContext {
 public:
  TileContext(Index tile, Shared& shared) : tile_(tile), shared_(shared) {}
  Index index() const { return tile_; }
  Shared& shared() { return shared_; }
  template <class G>
  void forLanes(G&& g) {
    for (int lane = 0; lane < Lanes; ++lane) g(lane);
  }

 private:
  Index tile_;
  Shared& shared_;
};

template <int Lanes, class Shared, class F>
void parallelForTiles(Index tiles, F f) {
  if (tiles <= 0) return;
  const auto chunk = [&f](const tbb::blocked_range<Index>& r) {
    tsanEnter();
    // one scratch per task, reused by its tiles (a tile's Shared may be tens of KiB: not on the stack)
    auto shared = std::make_unique<Shared>();
    for (Index t = r.begin(); t != r.end(); ++t) {
      TileContext<Lanes, Shared> tile(t, *shared);
      f(tile);
    }
    tsanLeave();
  };
  tsanFork();
  tbb::parallel_for(tbb::blocked_range<Index>(0, tiles, 1), chunk);
  tsanJoin();
}

#endif

}  // namespace eddy::EDDY_NS
