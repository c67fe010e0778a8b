#include "bench_realtime.h"

#include <eddy/backend.h>
#include <eddy/error.h>
#include <eddy/profile.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

#include "run_command.h"

namespace eddy::app {

namespace {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5))];
}

}  // namespace

int benchRealtime(const BenchOptions& o) {
  std::vector<std::string> overrides = o.overrides;
  overrides.push_back("output.particles=false");
  const SceneDesc scene = loadScene(o.scene, overrides);
  const Backend backend = resolveBackend(o.backend == "cuda"  ? Backend::Cuda
                                         : o.backend == "cpu" ? Backend::Cpu
                                                              : Backend::Auto);
  std::unique_ptr<Simulation> sim = createSimulation(scene, backend);
  // the first frame pays for first touches and lazy set-up: run it before the clock starts
  sim->advanceFrame();
  (void)sim->stats();
  sim->profile().reset();
  const int frames = std::max(1, scene.time.frames - 1);
  std::vector<double> frameMs;
  frameMs.reserve(std::size_t(frames));
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  for (int f = 0; f < frames; ++f) {
    const auto t0 = Clock::now();
    sim->advanceFrame();
    (void)sim->stats();  // statistics on, as `eddy run` keeps them
    frameMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  const double wallMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  const double simulated = double(frames) / double(scene.time.fps);
  const Profile& profile = sim->profile();
  std::printf("eddy bench --realtime: '%s' (%s, %lld particles at the end), backend %s (%s), frames 2..%d\n",
              scene.sourcePath.c_str(), scene.solver.c_str(), (long long)sim->particleCount(),
              backendName(backend), deviceDescription(backend).c_str(), frames + 1);
  std::printf("  simulated     %10.3f s in %lld substeps (%.1f per frame)\n", simulated,
              (long long)profile.substeps, double(profile.substeps) / frames);
  std::printf("  wall clock    %10.3f s: %.3f s per simulated second (%s real time)\n", wallMs / 1000,
              wallMs / 1000 / simulated, wallMs / 1000 <= simulated ? "faster than" : "slower than");
  std::printf("  frame ms      median %.3f, p90 %.3f, p99 %.3f, max %.3f\n", percentile(frameMs, 0.5),
              percentile(frameMs, 0.9), percentile(frameMs, 0.99), percentile(frameMs, 1.0));
  std::printf(
      "  step          %10.3f ms on the device (%.1f %% of the wall clock; the rest the device waited)\n",
      profile.stepMs, 100 * profile.stepMs / wallMs);
  return 0;
}

}  // namespace eddy::app
