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

#include "render_command.h"
#include "run_command.h"
#ifdef EDDY_WITH_RENDER
#include <eddy/picture.h>
#endif

namespace eddy::app {

namespace {

#ifdef EDDY_WITH_RENDER
// --render: each frame's picture, drawn as `eddy run --render` and `eddy view` draw it, and waited for (no
// read-back: the picture stays on the device)
class FramePicture {
 public:
  FramePicture(SceneDesc scene, const std::string& mode, const std::string& size) {
    int width = 0, height = 0;
    parseSize(size, "bench: --render-size", width, height);
    scene.render.mode = mode;
    picture_ = std::make_unique<PictureMaker>(scene, width, height, "", "bench");
  }
  std::string description() const { return picture_->device(); }
  void draw(Simulation& sim, const FrameStats& stats) {
    drawMs_.push_back(picture_->drawAndWait(sim, stats));
  }
  const std::vector<double>& drawMilliseconds() const { return drawMs_; }

 private:
  std::unique_ptr<PictureMaker> picture_;
  std::vector<double> drawMs_;
};
#else
class FramePicture {
 public:
  FramePicture(const SceneDesc&, const std::string&, const std::string&) {
    throw InputError("bench: --realtime --render: this build of eddy has no renderer");
  }
  std::string description() const { return {}; }
  void draw(Simulation&, const FrameStats&) {}
  const std::vector<double>& drawMilliseconds() const { return none_; }

 private:
  std::vector<double> none_;
};
#endif

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
  // the renderer first: one that cannot start stops here
  std::unique_ptr<FramePicture> picture =
      o.render ? std::make_unique<FramePicture>(scene, o.renderMode, o.renderSize) : nullptr;
  std::unique_ptr<Simulation> sim = createSimulation(scene, backend);
  // the first frame pays for first touches and lazy set-up: run it before the clock starts
  sim->advanceFrame();
  if (picture) picture->draw(*sim, sim->stats());
  (void)sim->stats();
  sim->profile().reset();
  std::vector<double> warmUp;
  if (picture) warmUp = picture->drawMilliseconds();
  const int frames = std::max(1, scene.time.frames - 1);
  std::vector<double> frameMs;
  frameMs.reserve(std::size_t(frames));
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  for (int f = 0; f < frames; ++f) {
    const auto t0 = Clock::now();
    sim->advanceFrame();
    const FrameStats stats = sim->stats();  // statistics on, as `eddy run` keeps them
    if (picture) picture->draw(*sim, stats);
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
  if (picture) {
    const std::vector<double>& all = picture->drawMilliseconds();
    const std::vector<double> timed(all.begin() + std::ptrdiff_t(warmUp.size()), all.end());
    std::printf(
        "  picture       %s every frame at %s, %s; the GL's time median %.3f ms (in the frame ms "
        "above, with what the picture needs built on the device)\n",
        o.renderMode.c_str(), o.renderSize.c_str(), picture->description().c_str(), percentile(timed, 0.5));
  }
  return 0;
}

}  // namespace eddy::app
