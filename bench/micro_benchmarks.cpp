// CPU micro-benchmarks of the neighbour grid and primitives:
//   ./build/bin/eddy_micro_bench --benchmark_filter=Grid
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "neighbors/neighbor_grid.h"

namespace {

using namespace eddy;
using namespace eddy::cpu;

// particles on a jittered cubic lattice at spacing 1, the grid at support 2 (about 33 neighbours)
ParticleSet makeParticles(Index n) {
  int side = int(std::cbrt(double(n))) + 1;
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> jitter(-0.1f, 0.1f);
  std::vector<Vec3> pos, vel;
  for (int z = 0; z < side && Index(pos.size()) < n; ++z)
    for (int y = 0; y < side && Index(pos.size()) < n; ++y)
      for (int x = 0; x < side && Index(pos.size()) < n; ++x) {
        pos.push_back({x + jitter(rng), y + jitter(rng), z + jitter(rng)});
        vel.push_back({});
      }
  ParticleSet p;
  p.addAttribute("position", 3);
  p.addAttribute("velocity", 3);
  p.append(pos, vel);
  return p;
}

void GridRebuild(benchmark::State& state) {
  ParticleSet p = makeParticles(Index(state.range(0)));
  NeighborGrid grid;
  Primitives prims;
  grid.setup(2.0f, p.capacity(), 0);
  for (auto _ : state) grid.sortParticles(p, "position", prims);
  state.SetItemsProcessed(state.iterations() * p.size());
}
BENCHMARK(GridRebuild)->Arg(65536)->Arg(262144)->Unit(benchmark::kMillisecond);

void GridNeighborLists(benchmark::State& state) {
  ParticleSet p = makeParticles(Index(state.range(0)));
  NeighborGrid grid;
  Primitives prims;
  grid.setup(2.0f, p.capacity(), 0);
  grid.sortParticles(p, "position", prims);
  auto x = p.vec3("position");
  for (auto _ : state) grid.buildNeighborLists(asConst(x), 0, prims);
  state.SetItemsProcessed(state.iterations() * p.size());
}
BENCHMARK(GridNeighborLists)->Arg(65536)->Arg(262144)->Unit(benchmark::kMillisecond);

void SortPairs(benchmark::State& state) {
  Index n = Index(state.range(0));
  std::mt19937 rng(3);
  std::vector<std::uint32_t> keys(n), values(n);
  Buffer<std::uint32_t> k(Device::Host, n), v(Device::Host, n), kt(Device::Host, n), vt(Device::Host, n);
  Primitives prims;
  for (auto _ : state) {
    state.PauseTiming();
    for (Index i = 0; i < n; ++i) keys[i] = rng() & ((1u << 21) - 1), values[i] = std::uint32_t(i);
    k.upload(keys.data(), n);
    v.upload(values.data(), n);
    state.ResumeTiming();
    benchmark::DoNotOptimize(prims.sortPairs(k.view(), v.view(), kt.view(), vt.view(), n, 21));
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(SortPairs)->Arg(65536)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
