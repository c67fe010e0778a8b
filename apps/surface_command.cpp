// `eddy surface`: every frame's particles (PLY or VTK XML; read and checked first, so bad input writes
// nothing) become a surface by the chosen method, written atomically as surface_NNNNNN.ply (or .obj, .vdb)
// with the frame's number, or, for an MPM run whose scene gives several material types, one surface per
// type (surface_water_NNNNNN.ply, ...) as the run itself writes them; a progress bar while it works and a
// table of where the time went at the end.
#include "surface_command.h"

#include <eddy/backend.h>
#include <eddy/error.h>
#include <eddy/mesh.h>
#include <eddy/output.h>
#include <eddy/particle_files.h>
#include <eddy/scene.h>
#include <eddy/surface.h>
#include <eddy/vdb.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "run_command.h"
#include "run_folder.h"

namespace eddy::app {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Frame {
  std::string path;
  std::string number;  // the digits of particles_NNNNNN.ply (.vtu), or the file's own stem
};

// the frames to read: the folder's particles_*.ply or particles_*.vtu in order, or the one file given
std::vector<Frame> listFrames(const std::string& input) {
  std::error_code ec;
  if (!fs::exists(input, ec)) throw InputError("surface: input '" + input + "' not found");
  std::vector<Frame> ply, vtu;
  if (!fs::is_directory(input, ec)) {
    // particles_000120.vtu gives surface_000120.ply, like a folder's frames; any other name is kept whole
    std::string stem = fs::path(input).stem().string();
    if (stem.rfind("particles_", 0) == 0 && stem.size() > 10) stem.erase(0, 10);
    return {{input, stem}};
  }
  for (const auto& entry : fs::directory_iterator(input, ec)) {
    const std::string name = entry.path().filename().string(), ext = entry.path().extension().string();
    // eddy's frames only (particles_NNNNNN): a particles_final.ply beside them is no frame of the run
    if (name.rfind("particles_", 0) != 0 || frameFileNumber(name) < 0) continue;
    (ext == ".ply" ? ply : vtu).push_back({entry.path().string(), entry.path().stem().string().substr(10)});
  }
  if (ec) throw InputError("surface: input folder '" + input + "' cannot be read: " + ec.message());
  if (ply.empty() && vtu.empty())
    throw InputError("surface: input folder '" + input +
                     "' holds no particle frames (particles_NNNNNN.ply or .vtu, as `eddy run` writes)");
  // two runs' frames side by side would make one sequence of whichever frames came first
  if (!ply.empty() && !vtu.empty())
    throw InputError("surface: input folder '" + input + "' holds both .ply (" + std::to_string(ply.size()) +
                     ") and .vtu (" + std::to_string(vtu.size()) +
                     ") particle frames; keep frames of one format in the folder");
  std::vector<Frame> frames = ply.empty() ? std::move(vtu) : std::move(ply);
  std::sort(frames.begin(), frames.end(), [](const Frame& a, const Frame& b) { return a.path < b.path; });
  return frames;
}

void prepareOutput(const std::string& out) {
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec || !fs::is_directory(out))
    throw InputError("surface: --out '" + out + "' cannot be created as a folder" +
                     (ec ? ": " + ec.message() : ""));
  // a probe file, so an unwritable folder is found before any work
  fs::path probe = fs::path(out) / ".eddy_write_probe";
  std::FILE* f = std::fopen(probe.string().c_str(), "wb");
  if (!f) throw InputError("surface: --out '" + out + "' is not writable");
  std::fclose(f);
  fs::remove(probe, ec);
}

// The settings eddy surface uses: each flag given, else the run's scene.json beside the frames (its
// fluid.spacing and "surface" section), else the defaults; `from` says where the spacing came from.
struct Resolved {
  double spacing = 0, cell = 2.0 / 3.0, radius = 2;
  std::string method = "zhu-bridson", format = "ply", from;
  int smooth = 0;
  // the surface groups (surfaceGroupNames: empty for one surface of every particle) and each emitter's
  // material type, which a particle's "material" (its emitter's index) selects
  std::vector<std::string> groups, emitterTypes;
  std::string scene;  // the run's scene.json read, if any
};

// the run's scene.json: in the input folder, or beside the one file given
fs::path runSceneFor(const std::string& input) {
  std::error_code ec;
  const fs::path dir = fs::is_directory(input, ec) ? fs::path(input) : fs::path(input).parent_path();
  const fs::path scene = (dir.empty() ? fs::path(".") : dir) / "scene.json";
  return fs::is_regular_file(scene, ec) ? scene : fs::path();
}

Resolved resolveSettings(const SurfaceOptions& o) {
  Resolved r;
  const fs::path scenePath = runSceneFor(o.input);
  if (!scenePath.empty()) {
    const std::string where = scenePath.string();
    std::ifstream in(scenePath, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object())
      throw InputError("surface: " + where + ": not a scene (expected a JSON object, as `eddy run` writes)");
    auto at = [&](const char* section, const char* key) -> const nlohmann::json* {
      if (!j.contains(section) || !j[section].is_object() || !j[section].contains(key)) return nullptr;
      return &j[section][key];
    };
    auto number = [&](const char* section, const char* key, double& out) {
      const nlohmann::json* v = at(section, key);
      if (!v) return;
      if (!v->is_number() || !std::isfinite(v->get<double>()) || !(v->get<double>() > 0))
        throw InputError("surface: " + where + ": /" + section + "/" + key +
                         ": expected a finite number > 0, got " + v->dump());
      out = v->get<double>();
    };
    auto text_ = [&](const char* key, std::string& out) {
      const nlohmann::json* v = at("surface", key);
      if (!v) return;
      if (!v->is_string())
        throw InputError("surface: " + where + ": /surface/" + key + ": expected a string");
      out = v->get<std::string>();
    };
    number("fluid", "spacing", r.spacing);
    number("surface", "cell", r.cell);
    number("surface", "radius", r.radius);
    text_("method", r.method);
    text_("format", r.format);
    if (const nlohmann::json* v = at("surface", "smooth")) {
      if (!v->is_number_integer() || v->get<long long>() < 0 || v->get<long long>() > 1000)
        throw InputError("surface: " + where + ": /surface/smooth: expected an integer 0 to 1000, got " +
                         v->dump());
      r.smooth = v->get<int>();
    }
    // the run's groups, by the rule the run used (only the keys it reads: solver, surface.groups and the
    // emitters' material types)
    SceneDesc groupsOf;
    if (j.contains("solver") && j["solver"].is_string()) groupsOf.solver = j["solver"].get<std::string>();
    text_("groups", groupsOf.surface.groups);
    if (!o.groups.empty()) groupsOf.surface.groups = o.groups;
    if (j.contains("emitters") && j["emitters"].is_array())
      for (const nlohmann::json& e : j["emitters"]) {
        EmitterDesc emitter;
        if (e.is_object() && e.contains("material") && e["material"].is_object() &&
            e["material"].contains("type") && e["material"]["type"].is_string())
          emitter.material.type = e["material"]["type"].get<std::string>();
        groupsOf.emitters.push_back(emitter);
        r.emitterTypes.push_back(emitter.material.type);
      }
    if (groupsOf.surface.groups != "material" && groupsOf.surface.groups != "all")
      throw InputError("surface: " + where + ": /surface/groups: unknown value '" + groupsOf.surface.groups +
                       "' (allowed: material, all)");
    r.groups = surfaceGroupNames(groupsOf);
    SurfaceMethod method;
    if (!parseSurfaceMethod(r.method, method))
      throw InputError("surface: " + where + ": /surface/method: unknown method '" + r.method +
                       "' (allowed: zhu-bridson, yu-turk, sph-density)");
    if (r.format != "ply" && r.format != "obj")
      throw InputError("surface: " + where + ": /surface/format: unknown format '" + r.format +
                       "' (allowed: ply, obj)");
    r.from = r.scene = where;
  }
  if (o.spacing > 0) r.spacing = o.spacing, r.from = "--spacing";
  if (o.cell > 0) r.cell = o.cell;
  if (o.radius > 0) r.radius = o.radius;
  if (!o.method.empty()) r.method = o.method;
  if (!o.format.empty()) r.format = o.format;
  if (o.smooth >= 0) r.smooth = o.smooth;
  if (!(r.spacing > 0))
    throw InputError("surface: --spacing is needed: " +
                     (scenePath.empty() ? "'" + o.input + "' has no scene.json beside its frames"
                                        : "'" + scenePath.string() + "' has no /fluid/spacing") +
                     " to read the particles' spacing from (give the run's fluid.spacing in m)");
  return r;
}

// A frame's particles: all of them in one part, or one part per surface group (r.groups), each of the
// particles whose emitter (their "material") has that group's material type. Throws InputError naming
// the file where the groups need a material the file does not give.
std::vector<std::vector<Vec3>> readFrame(const std::string& path, const Resolved& r) {
  if (r.groups.empty()) return {loadPointCloud(path)};
  ParticleFrame frame = readParticleFrame(path);
  if (frame.material.size() != frame.position.size())
    throw InputError("surface: particle file '" + path +
                     "' has no \"material\" for its particles, which the run's surface groups (" + r.scene +
                     ": /surface/groups \"material\") need to tell them apart; give --groups all for one "
                     "surface of every particle");
  std::vector<std::vector<Vec3>> parts(r.groups.size());
  for (std::size_t k = 0; k < frame.position.size(); ++k) {
    const std::uint32_t emitter = frame.material[k];
    if (emitter >= r.emitterTypes.size())
      throw InputError("surface: particle file '" + path + "': a particle's material (emitter " +
                       std::to_string(emitter) + ") is not an emitter of the run's scene (" + r.scene + ": " +
                       std::to_string(r.emitterTypes.size()) + " emitters)");
    const auto g = std::find(r.groups.begin(), r.groups.end(), r.emitterTypes[emitter]) - r.groups.begin();
    parts[std::size_t(g)].push_back(frame.position[k]);
  }
  return parts;
}

// wall-clock milliseconds of each phase, summed over the frames
struct Phases {
  double check = 0;  // the first pass: every frame read and checked before anything is written
  double read = 0, field = 0, mesh = 0, smooth = 0, write = 0;
  double other = 0;  // the rest of a reconstruction: buffers set up, particles and mesh copied
};

// the columns of `eddy run`'s table, per frame instead of per substep
std::string formatPhaseTable(const Phases& p, std::size_t frames, double totalMs, bool smoothing) {
  std::string out;
  char buf[200];
  auto row = [&](const char* name, double ms, const char* share) {
    std::snprintf(buf, sizeof buf, "  %-24s %14.3f %14.4f %10s\n", name, ms,
                  frames ? ms / double(frames) : 0.0, share);
    out += buf;
  };
  auto phase = [&](const char* name, double ms) {
    char share[32] = "-";
    if (totalMs > 0) std::snprintf(share, sizeof share, "%.1f%%", 100.0 * ms / totalMs);
    row(name, ms, share);
  };
  std::snprintf(buf, sizeof buf, "  %-24s %14s %14s %10s\n", "phase", "total ms", "ms/frame", "% of total");
  out += buf;
  out += "  " + std::string(24 + 1 + 14 + 1 + 14 + 1 + 10, '-') + "\n";
  phase("check (read first)", p.check);
  phase("read", p.read);
  phase("field", p.field);
  phase("marching cubes", p.mesh);
  if (smoothing) phase("smoothing", p.smooth);
  phase("setup and copies", p.other);
  phase("write", p.write);
  row("total (wall clock)", totalMs, totalMs > 0 ? "100.0%" : "-");
  return out;
}

}  // namespace

CLI::App* addSurfaceCommand(CLI::App& app, SurfaceOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "surface",
      "Reconstruct the liquid's surface from particle frames written earlier (PLY with x, y, z per vertex, "
      "eddy's or anyone's, or VTK XML .vtu/.vtp files with a Points array): one triangle mesh per frame, on "
      "the GPU where there is one. Every frame is read and checked before anything is written; a progress "
      "bar runs while it works and a table of the time per phase (read, field, marching cubes, smoothing, "
      "write) follows.");
  sub->add_option("input", o.input,
                  "A folder of particles_NNNNNN.ply or particles_NNNNNN.vtu frames (as `eddy run --format "
                  "ply|vtk` writes; not both formats in one folder), or one .ply, .vtu or .vtp file.")
      ->required()
      ->type_name("PATH");
  sub->add_option("--out", o.out,
                  "Folder for surface_NNNNNN.ply (created if missing). Surface files already there "
                  "(surface_*NNNNNN.ply, .obj, .vdb: an earlier reconstruction's, or the run's own) are "
                  "replaced by this one's: those it does not rewrite are removed once its first frame is "
                  "written.")
      ->required()
      ->type_name("DIR");
  // each setting defaults to the run's scene.json beside the frames, where there is one
  sub->add_option("--spacing", o.spacing,
                  "The particles' rest spacing in m. Default: fluid.spacing of the run's scene.json beside "
                  "the frames (needed where there is none).")
      ->check(CLI::PositiveNumber)
      ->type_name("M");
  sub->add_option("--cell", o.cell,
                  "Grid cell, in particle spacings. Default: the scene.json's surface.cell, else 2/3 (h / 3 "
                  "with h = 2 spacings).")
      ->check(CLI::PositiveNumber)
      ->type_name("SPACINGS");
  sub->add_option("--radius", o.radius,
                  "Kernel radius R, in particle spacings. Default: the scene.json's surface.radius, else 2.")
      ->check(CLI::PositiveNumber)
      ->type_name("SPACINGS");
  sub->add_option(
         "--method", o.method,
         "zhu-bridson (distance to the kernel-weighted centre), yu-turk (anisotropic kernels: flat water "
         "reads flat, sheets stay thin) or sph-density (the colour field's half level). Default: the "
         "scene.json's surface.method, else zhu-bridson.")
      ->check(CLI::IsMember({"zhu-bridson", "yu-turk", "sph-density"}));
  sub->add_option(
         "--smooth", o.smooth,
         "Taubin smoothing iterations of the mesh. Default: the scene.json's surface.smooth, else 0.")
      ->check(CLI::Range(0, 1000))
      ->type_name("N");
  sub->add_option(
         "--format", o.format,
         "ply (binary mesh with normals), obj, or vdb (an OpenVDB narrow-band level set, 3 cells each "
         "side, for Houdini and Blender; needs a build with OpenVDB). Default: the scene.json's "
         "surface.format, else ply.")
      ->check(CLI::IsMember({"ply", "obj", "vdb"}));
  sub->add_option(
         "--groups", o.groups,
         "material: for an MPM run whose scene.json gives several material types, one surface per "
         "type (surface_water_NNNNNN.ply, surface_sand_NNNNNN.ply, ...), as the run writes them; all: "
         "one surface of every particle. Default: the scene.json's surface.groups, else material.")
      ->check(CLI::IsMember({"material", "all"}));
  sub->add_option("--backend", o.backend,
                  "Where the surfaces are built: auto (the GPU where there is one), cpu or cuda.")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  sub->add_flag("-q,--quiet", o.quiet,
                "No progress, per-frame lines or timing table; errors and the summary line still print. "
                "Default: off.");
  return sub;
}

int surfaceCommand(const SurfaceOptions& o) {
  const auto start = Clock::now();
  const Resolved r = resolveSettings(o);
  if (r.format == "vdb" && !openVdbAvailable())
    throw InputError(
        "surface: --format vdb: this build of eddy has no OpenVDB (install libopenvdb-dev and rebuild)");
  const std::vector<Frame> frames = listFrames(o.input);
  // a missing GPU is found before the frames are read and anything is written
  const Backend backend = chooseBackend(o.backend);
  SurfaceSettings s = SurfaceSettings::fromSpacing(Real(r.spacing), Real(r.cell), Real(r.radius));
  parseSurfaceMethod(r.method, s.method);
  s.smoothingIterations = r.smooth;
  checkSurfaceSettings(s);

  // quiet silences progress entirely; otherwise a bar on a terminal, sparse lines in a log
  const int count = int(frames.size());
  const bool bar = !o.quiet && isatty(fileno(stderr));
  std::FILE* progressStream = o.quiet ? nullptr : stderr;
  auto fileName = [](const Frame& f) { return fs::path(f.path).filename().string(); };
  Phases t;

  // every frame is read and checked before anything is written; a bar on a terminal only, so that in a
  // log bad input reads as its one error line
  ProgressReporter checking(count, bar, bar ? stderr : nullptr);
  try {
    for (int i = 0; i < count; ++i) {
      const std::vector<std::vector<Vec3>> parts = readFrame(frames[i].path, r);
      // a frame whose particles span more than the surface grid can index fails here, not after the
      // frames before it were written
      Vec3 lo{}, hi{};
      bool any = false;
      for (const std::vector<Vec3>& points : parts)
        for (const Vec3& p : points) {
          lo = any ? cwiseMin(lo, p) : p, hi = any ? cwiseMax(hi, p) : p;
          any = true;
        }
      if (any) {
        const std::string refusal = surfaceLatticeRefusal(lo, hi, s);
        if (!refusal.empty())
          throw InputError("surface: particle file '" + frames[i].path + "': its particles span from (" +
                           std::to_string(lo.x) + ", " + std::to_string(lo.y) + ", " + std::to_string(lo.z) +
                           ") to (" + std::to_string(hi.x) + ", " + std::to_string(hi.y) + ", " +
                           std::to_string(hi.z) + ") m: " + refusal +
                           "; raise --cell or remove the stray particles");
      }
      checking.update(i + 1, "checked " + fileName(frames[i]));
    }
  } catch (...) {
    checking.finish();  // the error goes on a line of its own
    throw;
  }
  checking.finish();
  t.check = msSince(start);
  prepareOutput(o.out);
  // surfaces already in --out, replaced by these once the first is written
  const std::vector<std::string> earlier = surfaceFiles(o.out);
  std::set<std::string> written;

  if (!o.quiet)
    std::printf(
        "eddy surface: %d frame(s), %s, spacing %.4g m (%s), cell %.4g m, kernel radius %.4g m, on %s\n",
        count, surfaceMethodName(s.method), r.spacing, r.from.c_str(), double(s.cell), double(s.kernelRadius),
        backend == Backend::Cuda ? "cuda" : "cpu");
  if (!o.quiet && !r.groups.empty()) {
    std::string list;
    for (const std::string& g : r.groups) list += (list.empty() ? "" : ", ") + g;
    std::printf("eddy surface: a surface per material type (%s: /surface/groups): %s\n", r.scene.c_str(),
                list.c_str());
  }
  // one line per frame for logs and scripts; on a terminal the bar says it
  const bool frameLines = !o.quiet && !isatty(fileno(stdout));
  ProgressReporter progress(count, bar, progressStream);
  std::size_t triangles = 0;
  for (int i = 0; i < count; ++i) {
    auto t0 = Clock::now();
    const std::vector<std::vector<Vec3>> parts = readFrame(frames[i].path, r);
    t.read += msSince(t0);

    std::size_t particles = 0, frameTriangles = 0, frameVertices = 0;
    SurfaceStats stats;
    std::string name;
    for (std::size_t g = 0; g < parts.size(); ++g) {
      t0 = Clock::now();
      TriangleMesh mesh = reconstructSurface(parts[g], s, backend, &stats);
      const double built = stats.fieldMilliseconds + stats.meshMilliseconds + stats.smoothMilliseconds;
      t.field += stats.fieldMilliseconds;
      t.mesh += stats.meshMilliseconds;
      t.smooth += stats.smoothMilliseconds;
      // device times (CUDA events) can overlap the host's clock a little: never below zero
      t.other += std::max(0.0, msSince(t0) - built);

      t0 = Clock::now();
      name = "surface_" + (r.groups.empty() ? std::string() : r.groups[g] + "_") + frames[i].number + "." +
             r.format;
      if (r.format == "vdb")  // the exact distance to the mesh, 3 cells each side
        writeVdbLevelSet((fs::path(o.out) / name).string(), levelSetOfMesh(mesh, s.cell, Vec3{}, 3));
      else
        writeTriangleMesh((fs::path(o.out) / name).string(), mesh);
      t.write += msSince(t0);
      particles += parts[g].size();
      frameTriangles += mesh.triangles.size();
      frameVertices += mesh.vertices.size();
      written.insert(name);
    }
    triangles += frameTriangles;
    if (i == 0) {
      const int replaced = removeFilesExcept(o.out, earlier, written);
      if (replaced > 0 && !o.quiet)
        std::printf("eddy surface: removed %d earlier surface file(s) in '%s'\n", replaced, o.out.c_str());
    }

    if (frameLines) {
      std::printf(
          "  [%d/%d] %s: %zu particles -> %zu vertices, %zu triangles (grid %d x %d x %d; field %.1f ms, "
          "mesh %.1f ms)\n",
          i + 1, count, name.c_str(), particles, frameVertices, frameTriangles, stats.nx, stats.ny, stats.nz,
          stats.fieldMilliseconds, stats.meshMilliseconds);
      std::fflush(stdout);
    }
    progress.update(i + 1, name + "  " + std::to_string(particles) + " particles  " +
                               std::to_string(frameTriangles) + " triangles");
  }
  progress.finish();

  const double totalMs = msSince(start);
  if (!o.quiet)
    std::fputs(formatPhaseTable(t, frames.size(), totalMs, s.smoothingIterations > 0).c_str(), stdout);
  std::printf("eddy surface: %d frame(s), %zu triangles in all, %.2f s wall clock, on %s, output in '%s'\n",
              count, triangles, totalMs / 1000.0, backend == Backend::Cuda ? "cuda" : "cpu", o.out.c_str());
  return 0;
}

}  // namespace eddy::app
