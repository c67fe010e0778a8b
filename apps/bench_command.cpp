// `eddy bench`: per-substep timings of one solver over a range of particle counts.
#include "bench_command.h"

#include <eddy/error.h>
#include <eddy/output.h>
#include <eddy/profile.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <numbers>
#include <numeric>
#include <string>
#include <vector>

#include "bench_realtime.h"
#include "bench_render.h"
#include "bench_surface.h"
#include "run_command.h"

namespace eddy::app {

namespace {

// the phases a substep is made of (output is not part of a substep)
constexpr std::array<Phase, 7> kStepPhases{
    Phase::NeighborGrid, Phase::NeighborLists,      Phase::Density,    Phase::PositionCorrection,
    Phase::Collision,    Phase::ViscosityVorticity, Phase::Integration};

struct SizeResult {
  long long requested = 0;
  long long particles = 0;
  Real spacing = 0;
  int gridResolution = 0;  // mpm: cells along the longest domain axis
  std::string error;       // non-empty: skipped
  double medianMs = 0, meanMs = 0, minMs = 0, maxMs = 0;
  std::array<double, kStepPhases.size()> phaseMs{};  // mean per substep
  double particlesPerSecond = 0;
  double memoryMiB = 0;
  double dt = 0;              // s, the substep timed
  double msPerSimulated = 0;  // the median substep over dt: GPU (or CPU) ms per simulated second
  double iterations = 0;      // dfsph: pressure iterations per substep (both solves), mean
};

double shapeVolume(const ShapeDesc& s) {
  constexpr double pi = std::numbers::pi;
  const double r = s.radius, hh = s.halfHeight;
  if (s.type == "box") return 8.0 * s.halfExtents.x * s.halfExtents.y * s.halfExtents.z;
  if (s.type == "sphere") return 4.0 / 3.0 * pi * r * r * r;
  if (s.type == "cylinder") return pi * r * r * 2.0 * hh;
  if (s.type == "capsule") return pi * r * r * 2.0 * hh + 4.0 / 3.0 * pi * r * r * r;
  return 0.0;  // a plane has no finite volume
}

// fluid volume of the volume emitters; nozzles add particles over time, so they do not count
double emitterVolume(const SceneDesc& scene) {
  double volume = 0;
  for (const EmitterDesc& e : scene.emitters) {
    if (e.type != "volume") continue;
    if (e.collider.empty()) {
      volume += shapeVolume(e.shape);
      continue;
    }
    for (const ColliderDesc& c : scene.colliders)
      if (c.name == e.collider) volume += shapeVolume(c.shape);
  }
  return volume;
}

// the longest extent of the domain, which mpm.grid_resolution divides into cells
double longestExtent(const SceneDesc& s) {
  const Vec3 e = s.domain.max - s.domain.min;
  return std::max({double(e.x), double(e.y), double(e.z)});
}

// mpm on the default dam break: a cubic tank with the length of the dam break's and a column of 1/16 of
// its volume (1/4 x 1/2 x 1/2 of the side), so that at 8 particles per cell the grid is a cube:
// 1M particles on 128^3 nodes, 8M on 256^3 (the sizes the MPM literature benchmarks)
void useCubicTank(SceneDesc& s) {
  const Real side = Real(longestExtent(s));
  s.domain.max = s.domain.min + Vec3{side, side, side};
  for (EmitterDesc& e : s.emitters) {
    if (e.type != "volume") continue;
    e.shape.type = "box";
    e.shape.halfExtents = Vec3{side / 8, side / 4, side / 4};
    e.shape.center = s.domain.min + Vec3{side / 8, side / 4, side / 2};
  }
}

// The frame's substep, scaled with the spacing from the scene as written (`written`): the dam break keeps
// its Courant number, the motion of a substep in spacings, at every size. Unscaled, the 1/240 s substep
// moved PBF particles 2.4 spacings at 1M particles: the flow reached 19.8 m/s, nearly 8 times the rest
// density, and the neighbour lists widened to 150 slots. No longer than the solver's own stability limit
// (WCSPH's and MPM's acoustic CFL conditions), which advanceFrame keeps to and a loop of advanceSubstep
// calls must ask for.
Real substepDt(const SceneDesc& s, Real written, Simulation& sim) {
  double dt = 1.0 / (double(s.time.fps) * s.time.substeps) * double(s.fluid.spacing) / double(written);
  return Real(std::min(dt, double(sim.stableSubstep())));
}

// whole number >= min; CLI11's own range checks print DBL_MAX as the upper bound
CLI::Validator atLeast(long long min) {
  const std::string what = "a whole number >= " + std::to_string(min);
  return CLI::Validator(
      [min, what](std::string& text) -> std::string {
        try {
          std::size_t used = 0;
          if (std::stoll(text, &used) >= min && used == text.size()) return {};
        } catch (const std::exception&) {
        }
        return "must be " + what + ", got '" + text + "'";
      },
      "");
}

void checkSolver(const std::string& solver) {
  const std::vector<std::string> names = solverNames();
  if (std::find(names.begin(), names.end(), solver) != names.end()) return;
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  throw InputError("--solver: unknown solver '" + solver + "' (available: " + list + ")");
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// one size: build, warm up, then time substeps through the profile's step times
SizeResult measure(const SceneDesc& base, double volume, long long n, Backend backend,
                   const BenchOptions& o) {
  SizeResult r;
  r.requested = n;
  SceneDesc scene = base;
  scene.fluid.spacing = Real(std::cbrt(volume / double(n)));
  r.spacing = scene.fluid.spacing;
  // mpm: the grid follows the particles, two particle spacings per cell (8 particles per cell), unless
  // --set mpm.grid_resolution fixed it
  const bool fixedGrid = std::any_of(o.overrides.begin(), o.overrides.end(), [](const std::string& s) {
    return s.rfind("mpm.grid_resolution=", 0) == 0;
  });
  if (scene.solver == "mpm" && !fixedGrid)
    scene.mpm.gridResolution =
        std::max(4, int(std::lround(longestExtent(scene) / (2.0 * scene.fluid.spacing))));
  if (scene.solver == "mpm") r.gridResolution = scene.mpm.gridResolution;
  std::unique_ptr<Simulation> sim = createSimulation(scene, backend);
  const Real dt = substepDt(scene, base.fluid.spacing, *sim);
  for (int i = 0; i < o.warmup; ++i) sim->advanceSubstep(dt);
  sim->profile().reset();

  // Substeps run back to back as in a real run; the host reads their times only after each batch.
  // Every other substep records per-phase timers for the phase columns. The others record only their
  // start and end, which leaves the GPU free to overlap one kernel's launch with the previous kernel's
  // tail: they give the substep time.
  std::vector<double> samples;
  double phased = 0;
  const std::int64_t iterationsBefore =
      sim->profile().densityIterations + sim->profile().divergenceIterations;
  for (int done = 0; done < o.substeps;) {
    const int batch = std::min(o.substeps - done, Profile::kStepHistory);
    for (int i = 0; i < batch; ++i) {
      sim->setPhaseTiming((done + i) % 2 == 1);
      sim->advanceSubstep(dt);
    }
    const Profile& p = sim->profile();
    for (int i = 0; i < batch; ++i) {
      const float ms = p.recentStepMs[std::size_t((p.substeps - batch + i) % Profile::kStepHistory)];
      if ((done + i) % 2 == 0) samples.push_back(ms);
      if ((done + i) % 2 == 1) phased += 1;
    }
    done += batch;
  }
  sim->setPhaseTiming(true);
  const Profile& p = sim->profile();
  for (std::size_t i = 0; i < kStepPhases.size(); ++i)
    r.phaseMs[i] = phased > 0 ? p.totalMs[int(kStepPhases[i])] / phased : 0.0;
  r.particles = sim->particleCount();
  r.medianMs = median(samples);
  r.meanMs = std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());
  r.minMs = *std::min_element(samples.begin(), samples.end());
  r.maxMs = *std::max_element(samples.begin(), samples.end());
  r.particlesPerSecond = r.medianMs > 0 ? double(r.particles) / (r.medianMs / 1000.0) : 0.0;
  r.memoryMiB = double(sim->deviceMemoryBytes()) / (1024.0 * 1024.0);
  r.dt = double(dt);
  r.msPerSimulated = r.medianMs / r.dt;
  r.iterations = double(p.densityIterations + p.divergenceIterations - iterationsBefore) / double(o.substeps);
  return r;
}

// a failure at one size (out of memory, too many cells) must not end the whole sweep
SizeResult measureOrSkip(const SceneDesc& base, double volume, long long n, Backend backend,
                         const BenchOptions& o) {
  try {
    return measure(base, volume, n, backend, o);
  } catch (const InputError& e) {
    return SizeResult{.requested = n, .error = e.what()};
  } catch (const RuntimeFailure& e) {
    return SizeResult{.requested = n, .error = e.what()};
  } catch (const std::bad_alloc&) {
    return SizeResult{.requested = n, .error = "out of host memory"};
  }
}

void printHeader(const BenchOptions& o, Backend backend) {
  std::printf("eddy bench: solver %s, backend %s (%s), %d timed substeps after %d warm-up\n",
              o.solver.c_str(), backendName(backend), deviceDescription(backend).c_str(), o.substeps,
              o.warmup);
  // mpm fills the same profile slots with its own stages (src/solvers/mpm/moving_least_squares_mpm.h)
  if (o.solver == "mpm")
    std::printf("%10s %11s %9s %9s %9s %9s %9s %9s %9s %13s %9s", "particles", "ms/substep", "bin", "-",
                "pack", "p2g+grid", "-", "-", "g2p", "Mparticles/s", "MiB");
  else
    std::printf("%10s %11s %9s %9s %9s %9s %9s %9s %9s %13s %9s", "particles", "ms/substep", "grid", "lists",
                "density", "correct", "collide", "visc/vort", "integrate", "Mparticles/s", "MiB");
  std::printf(" %10s %9s%s\n", "dt ms", "ms/sim-s", o.solver == "dfsph" ? " iterations" : "");
  std::printf("%10s %11s %40s\n", "", "(median)", "(mean ms per substep, with phase timers)");
  std::fflush(stdout);
}

void printRow(const SizeResult& r) {
  if (!r.error.empty()) {
    std::printf("%lld: skipped: %s\n", r.requested, r.error.c_str());
  } else {
    std::printf("%10lld %11.3f", r.particles, r.medianMs);
    for (double ms : r.phaseMs) std::printf(" %9.3f", ms);
    std::printf(" %13.2f %9.1f %10.4f %9.1f", r.particlesPerSecond / 1e6, r.memoryMiB, 1000 * r.dt,
                r.msPerSimulated);
    if (r.iterations > 0) std::printf(" %10.1f", r.iterations);
    std::printf("\n");
  }
  std::fflush(stdout);
}

nlohmann::ordered_json resultJson(const SizeResult& r) {
  nlohmann::ordered_json j;
  j["particles_requested"] = r.requested;
  if (!r.error.empty()) {
    j["error"] = r.error;
    return j;
  }
  j["particles"] = r.particles;
  j["spacing"] = r.spacing;
  if (r.gridResolution > 0) j["mpm_grid_resolution"] = r.gridResolution;
  j["ms_per_substep_median"] = r.medianMs;
  j["ms_per_substep_mean"] = r.meanMs;
  j["ms_per_substep_min"] = r.minMs;
  j["ms_per_substep_max"] = r.maxMs;
  nlohmann::ordered_json phases = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < kStepPhases.size(); ++i) phases[kPhaseKeys[int(kStepPhases[i])]] = r.phaseMs[i];
  j["phases"] = phases;
  j["particles_per_second"] = r.particlesPerSecond;
  j["memory_mib"] = r.memoryMiB;
  j["substep_s"] = r.dt;
  j["ms_per_simulated_second"] = r.msPerSimulated;
  if (r.iterations > 0) j["pressure_iterations_per_substep"] = r.iterations;
  return j;
}

void writeJson(const BenchOptions& o, Backend backend, const std::vector<SizeResult>& results) {
  nlohmann::ordered_json j;
  j["solver"] = o.solver;
  j["backend"] = backendName(backend);
  j["device"] = deviceDescription(backend);
  j["substeps"] = o.substeps;
  j["warmup"] = o.warmup;
  j["results"] = nlohmann::ordered_json::array();
  for (const SizeResult& r : results) j["results"].push_back(resultJson(r));
  writeFileAtomic(o.json, j.dump(2) + "\n");
}

}  // namespace

CLI::App* addBenchCommand(CLI::App& app, BenchOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "bench",
      "Time simulation substeps of a dam break at several particle counts (its substep scaled with the "
      "spacing, so that the flow moves as many spacings a substep at every size) and print a per-phase "
      "table (optionally JSON). Nothing else is written.");
  // the registered solvers (src/solvers/registry.cpp), so that the help follows a new one
  std::string solvers;
  for (const std::string& name : solverNames()) solvers += (solvers.empty() ? "" : "|") + name;
  sub->add_option("--solver", o.solver, "Solver to time (" + solvers + ").")
      ->type_name(solvers)
      ->capture_default_str();
  sub->add_option("--particles", o.particles,
                  "Comma-separated particle counts; each is built and timed on its own.")
      ->type_name("N,N,...")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(atLeast(1))
      ->default_str("65536,262144,1048576,4194304");
  sub->add_option("--backend", o.backend,
                  "Where to run: auto (cuda when a GPU is present, else cpu), cpu, cuda.")
      ->type_name("BACKEND")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  sub->add_option(
         "--substeps", o.substeps,
         "Timed substeps per particle count (the dam break's state changes as it collapses: the first "
         "substeps from the still lattice cost more than the flow does). Every other one records "
         "per-phase timers for the phase columns; the median is taken over the others.")
      ->type_name("N")
      ->check(atLeast(2))
      ->capture_default_str();
  sub->add_option("--warmup", o.warmup, "Untimed substeps before timing (first-touch, caches, clocks).")
      ->type_name("N")
      ->check(atLeast(0))
      ->capture_default_str();
  sub->add_option("--json", o.json, "Also write the results to this JSON file. Default: none.")
      ->type_name("FILE");
  sub->add_option(
         "--scene", o.scene,
         "Scene to scale instead of the built-in dam break; its volume emitters set the fluid volume. "
         "Default: the built-in dam break.")
      ->type_name("FILE");
  sub->add_flag(
      "--realtime", o.realtime,
      "Run --scene (default: the dam break) as written, output off, and print wall time per simulated "
      "second, frame-time percentiles and the share of the time the device spent in the step. "
      "--solver does not apply (--set solver=... does).");
  sub->add_flag(
      "--render", o.render,
      "Time drawing the dam break's particles (OpenGL through EGL; what the picture needs from the "
      "simulation, the GPU time of the draw, and both on the wall clock) instead of substeps; "
      "--surface-repeats and --settle-frames apply. With --realtime: every frame drawn too, end to end.");
  sub->add_option(
         "--render-mode", o.renderMode,
         "What --render draws: particles (spheres coloured by speed, the default), ssfr "
         "(screen-space fluid, with the scene's render.ellipsoids) or surface (the Zhu-Bridson mesh, "
         "rebuilt on the device for every picture).")
      ->check(CLI::IsMember({"particles", "ssfr", "surface"}));
  sub->add_option("--render-size", o.renderSize, "Image size for --render (default 1920x1080).")
      ->type_name("WxH");
  sub->add_flag("--surface", o.surface,
                "Time surface reconstruction (field, marching cubes) instead of substeps, on the dam break "
                "after --settle-frames frames, per method; --particles defaults stay.");
  sub->add_option("--surface-methods", o.surfaceMethods,
                  "Comma-separated methods to time (default: all three).")
      ->type_name("METHOD,...")
      ->delimiter(',')
      ->check(CLI::IsMember({"zhu-bridson", "yu-turk", "sph-density"}));
  sub->add_option("--surface-cell", o.surfaceCell, "Grid cell in particle spacings (default 2/3: h / 3).")
      ->check(CLI::PositiveNumber);
  sub->add_option("--surface-repeats", o.surfaceRepeats, "Timed reconstructions per method (default 10).")
      ->check(CLI::Range(1, 1000));
  sub->add_option(
      "--surface-openvdb", o.surfaceOpenVdb,
      "Also time OpenVDB's ParticlesToLevelSet + VolumeToMesh on the same particles (CPU threads; "
      "where eddy is built with OpenVDB). Default: true.");
  sub->add_option("--settle-frames", o.settleFrames,
                  "Frames simulated before the surface is timed (default 30).")
      ->check(CLI::Range(0, 100000));
  sub->add_option("--set", o.overrides,
                  "Override a scene key before sizing, e.g. --set pbf.iterations=2 (repeatable).")
      ->type_name("KEY.PATH=VALUE")
      ->allow_extra_args(false);
  return sub;
}

int benchCommand(const BenchOptions& o) {
  if (o.realtime) return benchRealtime(o);
  checkSolver(o.solver);
  std::vector<std::string> overrides = o.overrides;
  overrides.push_back("solver=" + o.solver);
  overrides.push_back("output.particles=false");
  SceneDesc base = loadScene(o.scene, overrides);
  if (o.solver == "mpm" && o.scene.empty()) useCubicTank(base);
  const double volume = emitterVolume(base);
  if (!(volume > 0))
    throw InputError("bench: scene '" + base.sourcePath +
                     "' has no volume emitter of finite size, so particle counts cannot be set");
  const Backend backend = chooseBackend(o.backend);
  // fail before a long sweep, not after it
  if (!o.json.empty()) {
    const std::string dir = std::filesystem::path(o.json).parent_path().string();
    prepareOutputDir(dir.empty() ? "." : dir);
  }

  if (o.surface) return benchSurface(o, base, volume, backend);
  if (o.render) return benchRender(o, base, volume, backend);
  printHeader(o, backend);
  std::vector<SizeResult> results;
  for (long long n : o.particles) {
    results.push_back(measureOrSkip(base, volume, n, backend, o));
    printRow(results.back());
  }
  if (!o.json.empty()) writeJson(o, backend, results);
  const bool anySkipped =
      std::any_of(results.begin(), results.end(), [](const SizeResult& r) { return !r.error.empty(); });
  return anySkipped ? 1 : 0;
}

}  // namespace eddy::app
