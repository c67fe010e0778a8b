// `eddy run`: load and validate a scene, simulate it frame by frame, write caches, stats and a profile.
#include "run_command.h"

#include <eddy/body_track.h>
#include <eddy/checkpoint.h>
#include <eddy/error.h>
#include <eddy/mesh.h>
#include <eddy/output.h>
#include <eddy/profile.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <eddy/surface.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "background_writer.h"
#include "run_folder.h"
#include "run_render.h"

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
  if (o.surface) overrides.push_back("surface.enabled=true");
  return overrides;
}

// per-frame files: particle caches and surfaces when due, and the stats line (every frame)
class FrameWriter {
 public:
  // statsKept: the stats.jsonl lines that stay in front (a resumed run's frames up to its checkpoint)
  // probes.csv and forces.csv likewise keep probesKept / forcesKept, where the simulation writes them
  // collectionKept: the particle files of a resumed run up to its checkpoint, for particles.pvd
  FrameWriter(std::string dir, const SceneDesc& scene, const Simulation& sim, std::string statsKept = "",
              std::string probesKept = "", std::string forcesKept = "", std::string bodiesKept = "",
              std::vector<CollectionEntry> collectionKept = {})
      : dir_(std::move(dir)),
        output_(scene.output),
        surface_(scene.surface),
        stats_(joinPath(dir_, "stats.jsonl"), std::move(statsKept)),
        collection_(std::move(collectionKept)) {
    if (!sim.probeColumns().empty())
      probes_ =
          std::make_unique<CsvLog>(joinPath(dir_, "probes.csv"), sim.probeColumns(), std::move(probesKept));
    if (!sim.forceColumns().empty())
      forces_ =
          std::make_unique<CsvLog>(joinPath(dir_, "forces.csv"), sim.forceColumns(), std::move(forcesKept));
    // bodies.csv: each rigid body's pose, motion and the fluid's push on it, a row a frame (readBodyTrack)
    std::vector<std::string> columns;  // CsvLog puts "time" first
    for (std::size_t i = 0; i < scene.colliders.size(); ++i) {
      if (scene.colliders[i].density <= 0) continue;
      bodies_.push_back(i);
      const std::string name = bodyName(scene, i);
      for (const char* c : kBodyColumns) columns.push_back(name + "." + c);
    }
    if (!bodies_.empty())
      bodyLog_ = std::make_unique<CsvLog>(joinPath(dir_, "bodies.csv"), columns, std::move(bodiesKept));
  }

  // the surfaces (built on the device, their meshes copied back) are charged to Phase::Surface; their
  // files, the particles' copy, encoding and writes and the stats line to Phase::Output
  // pictures of the frames that are due, drawn as the run goes (apps/run_render.h)
  void renderWith(std::unique_ptr<InRunRenderer> renderer) { render_ = std::move(renderer); }

  void write(Simulation& sim, int frame, const FrameStats& stats) {
    const bool due = frame % output_.every == 0;
    if (render_ && due) {
      const auto t0 = Clock::now();
      char picture[40];
      std::snprintf(picture, sizeof picture, "render/frame_%06d.png", frame);
      written_.insert(picture);
      render_->draw(sim, frame, stats);
      sim.profile().add(Phase::Output, msSince(t0));
    }
    if (surface_.enabled && due) {
      std::vector<std::string> groups = sim.surfaceGroups();
      if (groups.empty()) groups.push_back("");  // one surface of every particle
      for (const std::string& group : groups) {
        auto t0 = Clock::now();
        sim.buildSurface(mesh_, nullptr, nullptr, group);
        sim.profile().add(Phase::Surface, msSince(t0));
        t0 = Clock::now();
        const std::string name = surfaceFileName(frame, surface_.format, group);
        writeTriangleMesh(joinPath(dir_, name), mesh_);
        written_.insert(name);
        sim.profile().add(Phase::Output, msSince(t0));
      }
    }
    const auto t0 = Clock::now();
    if (output_.particles && due) {
      // the copy is the simulation's; encoding and writing run on the writer thread while the next frames
      // are simulated (the copy waits for the file before it, which used the same host buffer)
      files_.wait();
      sim.copyParticles(host_);
      const std::string name = particleFileName(frame, output_.format);
      written_.insert(name);
      // VTU frames get a collection that gives ParaView their times, rewritten once the frame is on disk
      std::string collection;
      if (output_.format == "vtk") {
        collection_.push_back({sim.time(), name});
        collection = encodePvd(collection_);
        written_.insert("particles.pvd");
      }
      files_.submit([this, name, collection = std::move(collection)] {
        const std::string bytes = output_.format == "vtk" ? encodeVtu(host_) : encodePly(host_);
        writeFileAtomic(joinPath(dir_, name), bytes);
        if (!collection.empty()) writeFileAtomic(joinPath(dir_, "particles.pvd"), collection);
      });
    }
    stats_.append(stats);
    written_.insert("stats.jsonl");
    if (probes_) {
      sim.takeProbeRows(rows_);
      probes_->append(rows_);
      written_.insert("probes.csv");
    }
    if (bodyLog_) {
      std::vector<double> row{sim.time()};
      for (std::size_t i : bodies_) {
        const ColliderPose p = sim.colliderPose(i);
        const FluidLoad f = sim.fluidLoad(i);
        for (Real v : {p.center.x, p.center.y, p.center.z, p.orientation.w, p.orientation.x, p.orientation.y,
                       p.orientation.z, p.linearVelocity.x, p.linearVelocity.y, p.linearVelocity.z,
                       p.angularVelocity.x, p.angularVelocity.y, p.angularVelocity.z, f.force.x, f.force.y,
                       f.force.z, f.torque.x, f.torque.y, f.torque.z})
          row.push_back(double(v));
      }
      bodyLog_->append({row});
      written_.insert("bodies.csv");
    }
    // the initial state (frame 0) has no forces yet: nothing has pressed on anything
    if (forces_ && frame > 0) {
      std::vector<double> row = sim.colliderForces();
      row.insert(row.begin(), sim.time());
      forces_->append({row});
      written_.insert("forces.csv");
    }
    sim.profile().add(Phase::Output, msSince(t0));
  }

  // waits for the particle file being written (before a checkpoint, and at the end of the run)
  void finish() { files_.wait(); }
  // seconds spent encoding and writing particle files on the writer thread, and seconds the simulation
  // waited for them
  double writerSeconds() const { return files_.busySeconds(); }
  double waitedSeconds() const { return files_.waitedSeconds(); }
  // the files written so far, relative to the folder (as runFiles names them)
  const std::set<std::string>& written() const { return written_; }

 private:
  std::vector<std::size_t> bodies_;  // the colliders that are rigid bodies
  std::unique_ptr<CsvLog> bodyLog_;
  std::string dir_;
  OutputDesc output_;
  SurfaceDesc surface_;
  StatsWriter stats_;
  std::unique_ptr<CsvLog> probes_, forces_;  // where the simulation has probes / pressure
  std::vector<std::vector<double>> rows_;
  HostParticles host_;  // reused so big scenes do not reallocate every frame
  TriangleMesh mesh_;
  std::unique_ptr<InRunRenderer> render_;
  std::vector<CollectionEntry> collection_;  // the particle files so far, for particles.pvd
  std::set<std::string> written_;
  // last: destroyed first, so an unfinished file is finished while the members it reads still exist
  BackgroundWriter files_;
};

// the particle files' share of the run: how long they took on the writer thread, and how long the
// simulation waited for them (about zero when writing a frame takes less than simulating one)
void reportWriter(const FrameWriter& writer, bool quiet) {
  if (quiet || writer.writerSeconds() == 0) return;
  std::printf("eddy: particle files written beside the simulation in %.2f s; it waited %.2f s for them\n",
              writer.writerSeconds(), writer.waitedSeconds());
}

// checkpoints of a run: every `every` frames (0: never) into `folder`
struct Checkpointing {
  std::string folder;
  int every = 0;
};

// advances the frames after sim.frame() up to lastFrame, writing, checkpointing and reporting as it goes
void simulateFrames(Simulation& sim, FrameWriter& writer, int lastFrame, const Checkpointing& checkpoints,
                    bool quiet) {
  // quiet silences progress entirely; otherwise a bar on a terminal, sparse lines in a log
  ProgressReporter progress(lastFrame, !quiet && isatty(fileno(stderr)), quiet ? nullptr : stderr);
  const auto start = Clock::now();
  const std::int64_t substepsBefore = sim.substeps();
  for (int frame = sim.frame() + 1; frame <= lastFrame; ++frame) {
    sim.advanceFrame();
    const FrameStats stats = sim.stats();
    writer.write(sim, frame, stats);
    // after the frame's files: a checkpoint never runs ahead of the caches and statistics it resumes
    if (checkpoints.every > 0 && frame % checkpoints.every == 0) {
      const auto t0 = Clock::now();
      writer.finish();
      writeCheckpoint(checkpoints.folder, makeCheckpoint(sim));
      sim.profile().add(Phase::Output, msSince(t0));
    }
    const double seconds = msSince(start) / 1000.0;
    const double rate = seconds > 0 ? double(sim.substeps() - substepsBefore) / seconds : 0.0;
    progress.update(stats, rate);
  }
  const auto t0 = Clock::now();
  writer.finish();
  sim.profile().add(Phase::Output, msSince(t0));
  progress.finish();
}

void writeRunSummary(Simulation& sim, const SceneDesc& scene, const RunOptions& o, Backend backend) {
  writeFileAtomic(
      joinPath(o.out, "profile.json"),
      profileJson(sim.profile(), backendName(backend), deviceDescription(backend), sim.particleCount()));
  writeFileAtomic(joinPath(o.out, "scene.json"), sceneToJson(scene));
}

// The lines of DIR/stats.jsonl for frames 0 .. frame of the run that wrote the checkpoint; the last one
// must agree with the checkpoint (substeps, particles), so statistics of another run are not spliced in.
std::string statsUpToCheckpoint(const std::string& dir, const SimulationState& state,
                                const std::string& checkpoint) {
  const std::string path = joinPath(dir, "stats.jsonl");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path + ": missing; resuming keeps the statistics of frames 0 to " +
                     std::to_string(state.frame) + " from it");
  std::string kept, line;
  for (int frame = 0; frame <= state.frame; ++frame) {
    if (!std::getline(in, line))
      throw InputError(path + ": holds " + std::to_string(frame) + " frames, but the checkpoint " +
                       checkpoint + " is at frame " + std::to_string(state.frame));
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    // an integer field, or -1 where it is missing or of another type
    auto field = [&j](const char* key) -> std::int64_t {
      return j.is_object() && j.contains(key) && j[key].is_number_integer() ? j[key].get<std::int64_t>() : -1;
    };
    // the running total of substeps (runs before substeps_total wrote it as "substeps")
    auto total = [&] { return j.contains("substeps_total") ? field("substeps_total") : field("substeps"); };
    const bool ok =
        field("frame") == frame &&
        (frame < state.frame || (total() == state.substeps && field("particles") == state.particles));
    if (!ok)
      throw InputError(path + ": line " + std::to_string(frame + 1) + " is not frame " +
                       std::to_string(frame) + " of the run that wrote " + checkpoint + " (" +
                       std::to_string(state.substeps) + " substeps, " + std::to_string(state.particles) +
                       " particles at frame " + std::to_string(state.frame) + ")");
    kept += line + "\n";
  }
  return kept;
}

// particles.pvd's entries for the frames a resume keeps: each kept stats line whose particle file exists
std::vector<CollectionEntry> collectionUpToCheckpoint(const std::string& dir, const SceneDesc& scene,
                                                      const std::string& statsKept) {
  std::vector<CollectionEntry> entries;
  if (scene.output.format != "vtk" || !scene.output.particles) return entries;
  std::istringstream lines(statsKept);
  std::string line;
  while (std::getline(lines, line)) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("frame") || !j["frame"].is_number_integer() || !j.contains("time") ||
        !j["time"].is_number())
      continue;
    const int frame = j["frame"].get<int>();
    const std::string name = particleFileName(frame, scene.output.format);
    std::error_code ec;
    if (frame % scene.output.every == 0 && std::filesystem::exists(joinPath(dir, name), ec))
      entries.push_back({j["time"].get<double>(), name});
  }
  return entries;
}

// A surface section that cannot build a surface of particles anywhere in the domain fails now, naming its
// key, rather than at frame 0 once the folder has been touched. Particles stay inside the domain (the walls
// hold them; one far outside stops the run), so the domain bounds the surface grid.
void checkSurfaceFits(const SceneDesc& scene) {
  if (!scene.surface.enabled) return;
  const std::string refusal =
      surfaceLatticeRefusal(scene.domain.min, scene.domain.max, surfaceSettingsFor(scene));
  if (!refusal.empty()) {
    char cell[32];
    std::snprintf(cell, sizeof cell, "%g", double(scene.surface.cell));
    throw InputError(scene.sourcePath + ": /surface/cell: " + cell + " spacings makes " + refusal +
                     "; raise /surface/cell");
  }
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
  CLI::Option* out = sub->add_option(
      "--out", o.out,
      "Output folder; created if missing. A folder holds one run: once this run's first frame "
      "is written, the files an earlier run left there (its frames, surfaces, pictures, "
      "checkpoints, statistics) are removed; other files stay.");
  out->type_name("DIR")->capture_default_str();
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
  sub->add_flag("--surface", o.surface,
                "Also write the liquid's surface, built on the device, as surface_NNNNNN.ply beside the "
                "particle frames (the scene's \"surface\" section sets method, cell, radius, smoothing, "
                "format; same as --set surface.enabled=true). Default: off.");
  sub->add_flag("--render", o.render,
                "Also draw each frame whose files are due to DIR/render/frame_NNNNNN.png as the run goes, "
                "from the simulation's own memory (CUDA-OpenGL interop on the GPU), as the scene's "
                "\"render\" section says (mode, camera, light, colours; --set render.mode=ssfr). "
                "Default: off.");
  sub->add_option("--render-size", o.renderSize, "Picture size for --render (default 1280x720).")
      ->type_name("WxH");
  sub->add_flag("-q,--quiet", o.quiet,
                "No progress and no timing table; errors and the summary line still print. Default: off.");
  sub->add_option("--checkpoint-every", o.checkpointEvery,
                  "Write a checkpoint every N frames to DIR/checkpoints (the last two are kept), from which "
                  "--resume continues the run. Default: none.")
      ->type_name("N")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  sub->add_option("--resume", o.resume,
                  "Continue the run in DIR from its latest checkpoint: the scene stored in the checkpoint is "
                  "run (a SCENE or --set describing another scene is refused), frames and stats.jsonl lines "
                  "up to the checkpoint are kept, and the run goes on to time.frames or --frames.")
      ->type_name("DIR")
      ->excludes(out);
  sub->callback([&o, frames] { o.framesSet = frames->count() > 0; });
  return sub;
}

namespace {

// `eddy run --resume DIR`: every check (checkpoint, scene, statistics, restore) before anything is written
int resumeCommand(const RunOptions& o, Clock::time_point start) {
  const std::string& dir = o.resume;
  const std::string folder = checkpointDir(dir);
  const std::vector<int> frames = checkpointFrames(folder);
  if (frames.empty())
    throw InputError("--resume '" + dir + "': no checkpoint to resume from (no " + folder +
                     "/checkpoint_NNNNNN.eddy); a run writes them with --checkpoint-every N");
  const std::string path = joinPath(folder, checkpointFileName(frames.back()));
  const Checkpoint c = readCheckpoint(path);

  // the checkpoint's own scene, run to --frames where given
  std::vector<std::string> framesOverride;
  if (o.framesSet) framesOverride.push_back("time.frames=" + std::to_string(o.frames));
  SceneDesc scene = parseScene(c.sceneJson, path, framesOverride);
  if (checkpointSceneHash(scene) != c.sceneHash)
    throw InputError(path +
                     ": the scene stored in the checkpoint does not match the checkpoint's scene hash");
  // a SCENE, --set or --format only confirms that scene
  if (!o.scene.empty() || !o.sets.empty() || !o.format.empty()) {
    const SceneDesc given = o.scene.empty() ? parseScene(c.sceneJson, path, sceneOverrides(o))
                                            : loadScene(o.scene, sceneOverrides(o));
    if (checkpointSceneHash(given) != c.sceneHash)
      throw InputError(path + ": written for a different scene than " +
                       (o.scene.empty() ? std::string("the one --set/--format give") : "'" + o.scene + "'") +
                       ": " + sceneDifference(scene, given) +
                       " (resume without SCENE and --set to run the checkpoint's own scene)");
  }
  const int from = c.state.frame;
  if (scene.time.frames <= from)
    throw InputError(path + ": the checkpoint is at frame " + std::to_string(from) +
                     " and the run ends at frame " + std::to_string(scene.time.frames) +
                     ": nothing left to simulate (raise --frames)");
  const std::string statsKept = statsUpToCheckpoint(dir, c.state, path);
  checkSurfaceFits(scene);

  const Backend backend = chooseBackend(o.backend);
  std::unique_ptr<Simulation> sim = createSimulation(scene, backend);
  try {
    sim->restoreState(c.state);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
  // the interrupted run's frames and pictures after the checkpoint are simulated again
  std::vector<std::string> later;
  for (const std::string& f : runFiles(dir)) {
    const std::string name = std::filesystem::path(f).filename().string();
    const bool picture = f.rfind("render/", 0) == 0;
    const int number = picture ? std::atoi(name.c_str() + 6) : frameFileNumber(name);
    if (f.rfind("checkpoints/", 0) != 0 && number > from) later.push_back(f);
  }
  // what the rest of the run needs, told and checked before the folder is touched, as for a fresh run
  RunSize size = estimateRun(scene, *sim);
  if (size.particleFiles > 0)
    size.particleFiles = scene.time.frames / scene.output.every - from / scene.output.every;
  const std::uint64_t freeDisk = freeDiskBytes(dir);
  if (!o.quiet) std::printf("eddy: %s\n", describeRunSize(size, backend == Backend::Cuda, freeDisk).c_str());
  std::fflush(stdout);
  checkRunFits(scene, size, freeDisk, bytesOf(dir, later), dir);
  // a renderer that cannot start (bad size, no GL) stops the run before anything is written
  std::unique_ptr<InRunRenderer> renderer =
      o.render ? std::make_unique<InRunRenderer>(scene, dir, o.renderSize) : nullptr;
  prepareOutputDir(dir);
  removeFilesExcept(dir, later, {});
  FrameWriter writer(dir, scene, *sim, statsKept, csvUpToTime(joinPath(dir, "probes.csv"), c.state.time),
                     csvUpToTime(joinPath(dir, "forces.csv"), c.state.time),
                     csvUpToTime(joinPath(dir, "bodies.csv"), c.state.time),
                     collectionUpToCheckpoint(dir, scene, statsKept));
  if (renderer) writer.renderWith(std::move(renderer));
  simulateFrames(*sim, writer, scene.time.frames, {folder, o.checkpointEvery}, o.quiet);

  if (!o.quiet) std::fputs(formatProfileTable(sim->profile()).c_str(), stdout);
  reportWriter(writer, o.quiet);
  for (const std::string& w : sim->warnings()) std::fprintf(stderr, "eddy: warning: %s\n", w.c_str());
  RunOptions summary = o;
  summary.out = dir;
  writeRunSummary(*sim, scene, summary, backend);
  std::printf(
      "eddy: resumed at frame %d of %d, %lld particles, %.2f s wall clock, backend %s (%s), output in '%s'\n",
      from, scene.time.frames, static_cast<long long>(sim->particleCount()), msSince(start) / 1000.0,
      backendName(backend), deviceDescription(backend).c_str(), dir.c_str());
  return 0;
}

}  // namespace

int runCommand(const RunOptions& o) {
  const auto start = Clock::now();
  if (!o.resume.empty()) return resumeCommand(o, start);
  const SceneDesc scene = loadScene(o.scene, sceneOverrides(o));
  checkSurfaceFits(scene);
  const Backend backend = chooseBackend(o.backend);
  // the simulation first: a scene too large for memory must fail before anything is written
  std::unique_ptr<Simulation> sim = createSimulation(scene, backend);
  // then what its files need of the disk, counting the earlier run's files that it replaces
  const std::vector<std::string> earlier = runFiles(o.out);
  const RunSize size = estimateRun(scene, *sim);
  const std::uint64_t freeDisk = freeDiskBytes(o.out);
  if (!o.quiet) std::printf("eddy: %s\n", describeRunSize(size, backend == Backend::Cuda, freeDisk).c_str());
  std::fflush(stdout);  // seen before a long run starts, in a log too
  checkRunFits(scene, size, freeDisk, bytesOf(o.out, earlier), o.out);
  // likewise a renderer that cannot start (bad size, no GL, an unreadable environment image)
  std::unique_ptr<InRunRenderer> renderer =
      o.render ? std::make_unique<InRunRenderer>(scene, o.out, o.renderSize) : nullptr;
  prepareOutputDir(o.out);

  // frame 0 is the initial state, so a cache of n frames holds n + 1 files
  FrameWriter writer(o.out, scene, *sim);
  InRunRenderer* drawing = renderer.get();
  if (renderer) writer.renderWith(std::move(renderer));
  writer.write(*sim, 0, sim->stats());
  writer.finish();
  writeFileAtomic(joinPath(o.out, "scene.json"), sceneToJson(scene));
  // Only now, with this run's first frame on disk, do the earlier run's files go: its later frames,
  // surfaces and pictures would otherwise read as this run's, and its checkpoints would resume it.
  std::set<std::string> keep = writer.written();
  keep.insert("scene.json");
  const int replaced = removeFilesExcept(o.out, earlier, keep);
  if (replaced > 0 && !o.quiet)
    std::printf("eddy: removed %d file(s) of an earlier run in '%s'\n", replaced, o.out.c_str());
  if (drawing && !o.quiet) std::printf("eddy: rendering with %s\n", drawing->description().c_str());
  simulateFrames(*sim, writer, scene.time.frames, {checkpointDir(o.out), o.checkpointEvery}, o.quiet);

  if (!o.quiet) std::fputs(formatProfileTable(sim->profile()).c_str(), stdout);
  reportWriter(writer, o.quiet);
  for (const std::string& w : sim->warnings()) std::fprintf(stderr, "eddy: warning: %s\n", w.c_str());
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
