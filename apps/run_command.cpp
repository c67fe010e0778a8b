// `eddy run`: load and validate a scene, simulate it frame by frame, write caches, stats and a profile.
#include "run_command.h"

#include <eddy/error.h>
#include <eddy/output.h>
#include <eddy/profile.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace eddy::app {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string joinPath(const std::string& dir, const std::string& name) {
  return (std::filesystem::path(dir) / name).string();
}

Backend parseBackend(const std::string& name) {
  if (name == "auto") return Backend::Auto;
  if (name == "cpu") return Backend::Cpu;
  if (name == "cuda") return Backend::Cuda;
  throw InputError("--backend: unknown backend '" + name + "' (allowed: auto, cpu, cuda)");
}

// why cuda is missing: not compiled in, or compiled in but no device
std::string cudaBuildNote() {
#ifdef EDDY_WITH_CUDA
  return "backends cpu, cuda; no usable CUDA device was found";
#else
  return "backends cpu only, compiled without CUDA";
#endif
}

// --set first, then the dedicated flags, so that --frames / --format win over a --set of the same key
std::vector<std::string> sceneOverrides(const RunOptions& o) {
  std::vector<std::string> overrides = o.sets;
  if (o.framesSet) overrides.push_back("time.frames=" + std::to_string(o.frames));
  if (!o.format.empty()) overrides.push_back("output.format=" + o.format);
  return overrides;
}

// per-frame files: particle caches when due, and the stats line (every frame)
class FrameWriter {
 public:
  FrameWriter(std::string dir, const OutputDesc& output)
      : dir_(std::move(dir)), output_(output), stats_(joinPath(dir_, "stats.jsonl")) {}

  // the copy, encoding and writes are charged to Phase::Output
  void write(Simulation& sim, int frame, const FrameStats& stats) {
    const auto t0 = Clock::now();
    if (output_.particles && frame % output_.every == 0) {
      sim.copyParticles(host_);
      const std::string bytes = output_.format == "vtk" ? encodeVtu(host_) : encodePly(host_);
      writeFileAtomic(joinPath(dir_, particleFileName(frame, output_.format)), bytes);
    }
    stats_.append(stats);
    sim.profile().add(Phase::Output, msSince(t0));
  }

 private:
  std::string dir_;
  OutputDesc output_;
  StatsWriter stats_;
  HostParticles host_;  // reused so big scenes do not reallocate every frame
};

// advances every frame after frame 0, writing and reporting as it goes
void simulateFrames(Simulation& sim, FrameWriter& writer, int frames, bool quiet) {
  // quiet silences progress entirely; otherwise a bar on a terminal, sparse lines in a log
  ProgressReporter progress(frames, !quiet && isatty(fileno(stderr)), quiet ? nullptr : stderr);
  const auto start = Clock::now();
  const std::int64_t substepsBefore = sim.substeps();
  for (int frame = 1; frame <= frames; ++frame) {
    sim.advanceFrame();
    const FrameStats stats = sim.stats();
    writer.write(sim, frame, stats);
    const double seconds = msSince(start) / 1000.0;
    const double rate = seconds > 0 ? double(sim.substeps() - substepsBefore) / seconds : 0.0;
    progress.update(stats, rate);
  }
  progress.finish();
}

void writeRunSummary(Simulation& sim, const SceneDesc& scene, const RunOptions& o, Backend backend) {
  writeFileAtomic(
      joinPath(o.out, "profile.json"),
      profileJson(sim.profile(), backendName(backend), deviceDescription(backend), sim.particleCount()));
  writeFileAtomic(joinPath(o.out, "scene.json"), sceneToJson(scene));
}

}  // namespace

CLI::App* addRunCommand(CLI::App& app, RunOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "run",
      "Simulate a scene and write particle caches, per-frame statistics (stats.jsonl), the timing "
      "profile (profile.json) and the resolved scene (scene.json) to the output folder.");
  sub->add_option("scene", o.scene, "Scene file (JSON). Default: the built-in dam break.")->type_name("FILE");
  CLI::Option* frames =
      sub->add_option("--frames", o.frames, "Number of frames to simulate. Default: the scene's time.frames.")
          ->type_name("N");
  sub->add_option("--out", o.out, "Output folder; created if missing, existing files are overwritten.")
      ->type_name("DIR")
      ->capture_default_str();
  sub->add_option("--backend", o.backend,
                  "Where to run: auto (cuda when a GPU is present, else cpu), cpu, cuda.")
      ->type_name("BACKEND")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  sub->add_option("--format", o.format,
                  "Particle cache format: ply or vtk (.vtu files). Default: the scene's output.format (ply).")
      ->type_name("ply|vtk");
  // one value per --set, so a following SCENE is not swallowed as a second override
  sub->add_option("--set", o.sets,
                  "Override a scene key before validation, e.g. --set pbf.iterations=6. Repeatable. "
                  "Default: none.")
      ->type_name("KEY.PATH=VALUE")
      ->allow_extra_args(false);
  sub->add_flag("-q,--quiet", o.quiet,
                "No progress and no timing table; errors and the summary line still print. Default: off.");
  sub->callback([&o, frames] { o.framesSet = frames->count() > 0; });
  return sub;
}

int runCommand(const RunOptions& o) {
  const auto start = Clock::now();
  const SceneDesc scene = loadScene(o.scene, sceneOverrides(o));
  const Backend backend = chooseBackend(o.backend);
  // the simulation first: a scene too large for memory must fail before anything is written
  std::unique_ptr<Simulation> sim = createSimulation(scene, backend);
  prepareOutputDir(o.out);

  // frame 0 is the initial state, so a cache of n frames holds n + 1 files
  FrameWriter writer(o.out, scene.output);
  writer.write(*sim, 0, sim->stats());
  simulateFrames(*sim, writer, scene.time.frames, o.quiet);

  if (!o.quiet) std::fputs(formatProfileTable(sim->profile()).c_str(), stdout);
  writeRunSummary(*sim, scene, o, backend);
  std::printf("eddy: %d frames, %lld particles, %.2f s wall clock, backend %s (%s), output in '%s'\n",
              scene.time.frames, static_cast<long long>(sim->particleCount()), msSince(start) / 1000.0,
              backendName(backend), deviceDescription(backend).c_str(), o.out.c_str());
  return 0;
}

Backend chooseBackend(const std::string& requested) {
  const Backend b = parseBackend(requested);
  if (b == Backend::Cuda && !cudaAvailable())
    throw InputError("--backend cuda: no CUDA GPU is available (this build: " + cudaBuildNote() + ")");
  return resolveBackend(b);
}

std::string builtBackends() {
#ifdef EDDY_WITH_CUDA
  return "cpu, cuda";
#else
  return "cpu";
#endif
}

std::string deviceDescription(Backend backend) {
  if (backend == Backend::Cuda) {
    const std::string name = cudaDeviceName();
    return name.empty() ? "CUDA GPU" : name;
  }
  return "CPU, " + std::to_string(std::thread::hardware_concurrency()) + " threads";
}

}  // namespace eddy::app
