// The one loop launcher. Engine sources include this and are compiled twice: by the C++ compiler, where
// EDDY_NS is `cpu` and parallelFor runs oneTBB tasks, and by nvcc, where EDDY_NS is `cuda` and parallelFor
// launches a CUDA kernel. Loop bodies are written once as EDDY_KERNEL lambdas.
#pragma once

#include <eddy/error.h>

#include <cstdint>
#include <string>

#include "core/buffer.h"

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define EDDY_NS cuda
#define EDDY_KERNEL [=] __device__
#define EDDY_BACKEND_CUDA 1
#define EDDY_UNROLL _Pragma("unroll")
// a loop with four independent gathers in flight per thread (the PBF density pass: 14% faster)
#define EDDY_UNROLL4 _Pragma("unroll 4")
#else
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#define EDDY_NS cpu
#define EDDY_KERNEL [=]
#define EDDY_BACKEND_CUDA 0
#define EDDY_UNROLL
#define EDDY_UNROLL4
#endif

namespace eddy::EDDY_NS {

using Index = std::int32_t;

// Loops over more indices than an Index holds (a mesh's distance field passes 2^31 nodes at the higher
// sdf_resolution values) run as pieces of at most kLongLoopPiece indices, each offset by a 64-bit base:
// the loop bodies of parallelFor64 take a std::int64_t, while each launch keeps 32-bit thread indices.
inline constexpr std::int64_t kLongLoopPiece = std::int64_t(1) << 30;

// calls launch(base, count) for the consecutive pieces [base, base + count) of [0, n), each of at most
// `most` indices
template <class L>
void forEachPiece(std::int64_t n, std::int64_t most, L&& launch) {
  for (std::int64_t base = 0; base < n; base += most) launch(base, Index(n - base < most ? n - base : most));
}

#if EDDY_BACKEND_CUDA
inline constexpr Device kDevice = Device::Cuda;
inline constexpr Backend kBackend = Backend::Cuda;

inline void checkCuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw RuntimeFailure(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

constexpr int kBlock = 256;  // threads per block of every parallelFor

template <class F>
__device__ inline void forEachIndex(Index n, F& f) {
#if __CUDA_ARCH__ >= 900
  // launched early (see parallelFor): wait until the previous kernel has finished and its writes are
  // visible, then let the next kernel be scheduled in turn
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
#endif
  Index i = Index(blockIdx.x) * Index(blockDim.x) + Index(threadIdx.x);
  if (i < n) f(i);
}

template <class F>
__global__ void forEachKernel(Index n, F f) {
  forEachIndex(n, f);
}

// the same with at least minBlocks blocks resident per multiprocessor: the compiler keeps the loop's
// registers within 65536 / (kBlock minBlocks), spilling on the paths that need more
template <int minBlocks, class F>
__global__ void __launch_bounds__(kBlock, minBlocks) forEachKernelBounded(Index n, F f) {
  forEachIndex(n, f);
}

// programmatic dependent launch needs compute capability 9.0 (Hopper) or newer
inline bool programmaticLaunchSupported() {
  static const bool supported = [] {
    int device = 0, major = 0;
    return cudaGetDevice(&device) == cudaSuccess &&
           cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
           major >= 9;
  }();
  return supported;
}

// Kernels are launched as programmatic dependents of the kernel before them: the GPU schedules their
// blocks while that kernel's last blocks drain, instead of after it has completed. That hides the launch
// gap between dependent kernels (5 % of a PBF substep at 256k particles on an H200).
template <class F>
void launchForEach(void (*kernel)(Index, F), Index n, F f) {
  if (n <= 0) return;
  const unsigned blocks = unsigned((n + kBlock - 1) / kBlock);
  if (programmaticLaunchSupported()) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(kBlock);
    config.attrs = &attribute;
    config.numAttrs = 1;
    checkCuda(cudaLaunchKernelEx(&config, kernel, n, f), "kernel launch");
  } else {
    kernel<<<blocks, kBlock>>>(n, f);
    checkCuda(cudaGetLastError(), "kernel launch");
  }
}

template <class F>
void parallelFor(Index n, F f) {
  launchForEach(forEachKernel<F>, n, f);
}

// parallelFor for a loop whose rare paths (a mesh collider's field, in loops over the colliders) would
// otherwise raise its register count, and so lower its occupancy, in every scene
template <int minBlocks, class F>
void parallelForBounded(Index n, F f) {
  launchForEach(forEachKernelBounded<minBlocks, F>, n, f);
}

// one piece of a parallelFor64: index i of the launch is index base + i of the loop
template <class F>
struct OffsetLoop {
  std::int64_t base;
  F f;
  __device__ void operator()(Index i) { f(base + i); }
};

// parallelFor for n that may pass 2^31 - 1; f takes a std::int64_t
template <class F>
void parallelFor64(std::int64_t n, F f) {
  forEachPiece(n, kLongLoopPiece, [&](std::int64_t base, Index count) {
    parallelFor(count, OffsetLoop<F>{base, f});
  });
}

#else
inline constexpr Device kDevice = Device::Host;
inline constexpr Backend kBackend = Backend::Cpu;

// ThreadSanitizer sees only the synchronisation done in instrumented code. oneTBB's scheduler lives in
// the system libtbb, which is not instrumented, so the two orderings oneTBB guarantees for a parallel loop
// are invisible to it: the fork (what the caller wrote before the loop happens before every iteration) and
// the join (every iteration happens before the loop returns). Without them every loop is reported. Under
// -fsanitize=thread (preset "tsan") the functions below declare these two edges and nothing else, so races
// between the iterations of one loop stay visible; elsewhere they are empty. The synchronisation points
// are globals, so that a chunk reaches its acquire before it reads anything the caller wrote (such as the
// loop body's captures); loops are not nested, so one pair serves them all.
#if defined(__SANITIZE_THREAD__)
#define EDDY_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EDDY_TSAN 1
#endif
#endif
#if defined(EDDY_TSAN)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
inline char tsanForkPoint = 0, tsanJoinPoint = 0;
inline void tsanFork() { __tsan_release(&tsanForkPoint); }   // the caller, right before starting a loop
inline void tsanEnter() { __tsan_acquire(&tsanForkPoint); }  // a chunk, before its first iteration
inline void tsanLeave() { __tsan_release(&tsanJoinPoint); }  // a chunk, after its last iteration
inline void tsanJoin() { __tsan_acquire(&tsanJoinPoint); }   // the caller, after the loop has returned
#else
inline void tsanFork() {}
inline void tsanEnter() {}
inline void tsanLeave() {}
inline void tsanJoin() {}
#endif

template <class F>
void parallelFor(Index n, F f) {
  if (n <= 0) return;
  // small grains keep both cores busy on uneven neighbour counts
  const auto chunk = [&f](const tbb::blocked_range<Index>& r) {
    tsanEnter();
    for (Index i = r.begin(); i != r.end(); ++i) f(i);
    tsanLeave();
  };
  tsanFork();
  tbb::parallel_for(tbb::blocked_range<Index>(0, n, 512), chunk);
  tsanJoin();
}

// a GPU occupancy bound (see the CUDA backend) means nothing on the CPU
template <int minBlocks, class F>
void parallelForBounded(Index n, F f) {
  parallelFor(n, f);
}

// parallelFor for n that may pass 2^31 - 1; f takes a std::int64_t. In the pieces the CUDA backend
// launches, so that the CPU tests walk the same arithmetic.
template <class F>
void parallelFor64(std::int64_t n, F f) {
  forEachPiece(n, kLongLoopPiece, [&](std::int64_t base, Index count) {
    parallelFor(count, [&f, base](Index i) { f(base + i); });
  });
}
#endif

// *p, read while other threads may change it atomically
EDDY_HD inline std::uint32_t atomicLoadU32(const std::uint32_t* p) {
#if defined(__CUDA_ARCH__)
  return *static_cast<const volatile std::uint32_t*>(p);
#else
  return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

// *p = max(*p, v) from inside EDDY_KERNEL bodies; on the GPU one atomic per warp
EDDY_HD inline void atomicMaxU32(std::uint32_t* p, std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  unsigned active = __activemask();
  unsigned most = __reduce_max_sync(active, v);
  if (int(threadIdx.x & 31) == __ffs(active) - 1) atomicMax(p, most);
#else
  std::uint32_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v > cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

// *p = min(*p, v) from inside EDDY_KERNEL bodies; returns what *p held
EDDY_HD inline std::uint32_t atomicMinU32(std::uint32_t* p, std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  return atomicMin(reinterpret_cast<unsigned*>(p), unsigned(v));
#else
  std::uint32_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return cur;
#endif
}

// returns *p and adds one; on the GPU the lanes of a warp that hit the same counter share one atomic
EDDY_HD inline std::uint32_t atomicIncrementU32(std::uint32_t* p) {
#if defined(__CUDA_ARCH__)
  unsigned active = __activemask();
  unsigned peers = __match_any_sync(active, reinterpret_cast<unsigned long long>(p));
  int leader = __ffs(peers) - 1;
  unsigned lane = threadIdx.x & 31u;
  unsigned base = 0;
  if (int(lane) == leader) base = atomicAdd(reinterpret_cast<unsigned*>(p), unsigned(__popc(peers)));
  base = __shfl_sync(peers, base, leader);
  return base + unsigned(__popc(peers & ((1u << lane) - 1u)));
#else
  return __atomic_fetch_add(p, 1u, __ATOMIC_RELAXED);
#endif
}
// *p = min(*p, v) for 64-bit keys (a distance and an index packed into one ordered word)
EDDY_HD inline void atomicMinU64(unsigned long long* p, unsigned long long v) {
#if defined(__CUDA_ARCH__)
  atomicMin(p, v);
#else
  unsigned long long cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}
// sets *p = v and returns what it held
EDDY_HD inline std::uint32_t atomicExchangeU32(std::uint32_t* p, std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  return atomicExch(reinterpret_cast<unsigned*>(p), unsigned(v));
#else
  return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
#endif
}
EDDY_HD inline void atomicAddCount(unsigned long long* p, unsigned long long v) {
#if defined(__CUDA_ARCH__)
  atomicAdd(p, v);
#else
  __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

// float atomic add usable inside EDDY_KERNEL bodies
EDDY_HD inline void atomicAddReal(Real* p, Real v) {
#if defined(__CUDA_ARCH__)
  atomicAdd(p, v);
#else
  auto* a = reinterpret_cast<std::uint32_t*>(p);
  static_assert(sizeof(Real) == sizeof(std::uint32_t));
  std::uint32_t old = __atomic_load_n(a, __ATOMIC_RELAXED);
  for (;;) {
    Real cur;
    __builtin_memcpy(&cur, &old, sizeof cur);
    Real next = cur + v;
    std::uint32_t nextBits;
    __builtin_memcpy(&nextBits, &next, sizeof next);
    if (__atomic_compare_exchange_n(a, &old, nextBits, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
  }
#endif
}

// p[0..3] += v, for four Reals aligned to 16 bytes: one vector atomic on Hopper and newer GPUs (a quarter of
// the atomics of a scatter that sums four values per target), four atomics elsewhere
EDDY_HD inline void atomicAddReal4(Real* p, Vec4 v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  atomicAdd(reinterpret_cast<float4*>(p), make_float4(v.x, v.y, v.z, v.w));
#else
  atomicAddReal(p, v.x);
  atomicAddReal(p + 1, v.y);
  atomicAddReal(p + 2, v.z);
  atomicAddReal(p + 3, v.w);
#endif
}

}  // namespace eddy::EDDY_NS
