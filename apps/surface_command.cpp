// `eddy surface`: every frame's particles (read and checked first, so bad input writes nothing) become a
// Zhu–Bridson surface, written atomically as surface_NNNNNN.ply (or .obj) with the frame's number.
#include "surface_command.h"

#include <eddy/backend.h>
#include <eddy/error.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "colliders/triangle_mesh.h"
#include "surface/openvdb_level_set.h"
#include "surface/surface_reconstruction.h"

namespace eddy::app {

namespace {

namespace fs = std::filesystem;

struct Frame {
  std::string path;
  std::string number;  // the digits of particles_NNNNNN.ply, or the file's own stem
};

// the frames to read: the folder's particles_*.ply in order, or the one file given
std::vector<Frame> listFrames(const std::string& input) {
  std::error_code ec;
  if (!fs::exists(input, ec)) throw InputError("surface: input '" + input + "' not found");
  std::vector<Frame> frames;
  if (!fs::is_directory(input, ec)) {
    frames.push_back({input, fs::path(input).stem().string()});
    return frames;
  }
  for (const auto& entry : fs::directory_iterator(input, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("particles_", 0) == 0 && entry.path().extension() == ".ply")
      frames.push_back({entry.path().string(), entry.path().stem().string().substr(10)});
  }
  if (ec) throw InputError("surface: input folder '" + input + "' cannot be read: " + ec.message());
  if (frames.empty())
    throw InputError("surface: input folder '" + input +
                     "' holds no particle frames (particles_NNNNNN.ply, as `eddy run --format ply` writes)");
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

}  // namespace

CLI::App* addSurfaceCommand(CLI::App& app, SurfaceOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "surface",
      "Reconstruct the liquid's surface from particle frames written earlier (PLY with x, y, z per vertex: "
      "eddy's or anyone's): one triangle mesh per frame, by the method of Zhu & Bridson (2005) and marching "
      "cubes, on the GPU where there is one.");
  sub->add_option("input", o.input, "A folder of particles_NNNNNN.ply frames, or one PLY file.")
      ->required()
      ->type_name("PATH");
  sub->add_option("--out", o.out, "Folder for surface_NNNNNN.ply (created if missing).")
      ->required()
      ->type_name("DIR");
  sub->add_option("--spacing", o.spacing, "The particles' rest spacing in m (the scene's fluid.spacing).")
      ->required()
      ->check(CLI::PositiveNumber)
      ->type_name("M");
  sub->add_option("--cell", o.cell,
                  "Grid cell, in particle spacings (default 2/3: h / 3 with h = 2 spacings).")
      ->check(CLI::PositiveNumber)
      ->type_name("SPACINGS");
  sub->add_option("--radius", o.radius, "Kernel radius R, in particle spacings (default 2).")
      ->check(CLI::PositiveNumber)
      ->type_name("SPACINGS");
  sub->add_option(
         "--method", o.method,
         "zhu-bridson (default: distance to the kernel-weighted centre), yu-turk (anisotropic kernels: "
         "flat water reads flat, sheets stay thin) or sph-density (the colour field's half level).")
      ->check(CLI::IsMember({"zhu-bridson", "yu-turk", "sph-density"}));
  sub->add_option("--smooth", o.smooth, "Taubin smoothing iterations of the mesh (default 0).")
      ->check(CLI::Range(0, 1000))
      ->type_name("N");
  sub->add_option(
         "--format", o.format,
         "ply (binary mesh with normals), obj, or vdb (an OpenVDB narrow-band level set, 3 cells each "
         "side, for Houdini and Blender; needs a build with OpenVDB).")
      ->check(CLI::IsMember({"ply", "obj", "vdb"}));
  sub->add_option("--backend", o.backend,
                  "Where the surfaces are built: auto (the GPU where there is one), cpu or cuda.")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  return sub;
}

int surfaceCommand(const SurfaceOptions& o) {
  if (o.format == "vdb" && !openVdbAvailable())
    throw InputError(
        "surface: --format vdb: this build of eddy has no OpenVDB (install libopenvdb-dev and rebuild)");
  std::vector<Frame> frames = listFrames(o.input);
  // every frame is read and checked before anything is written
  for (const Frame& f : frames) (void)loadPointCloud(f.path);
  prepareOutput(o.out);
  Backend backend = resolveBackend(o.backend == "cuda"  ? Backend::Cuda
                                   : o.backend == "cpu" ? Backend::Cpu
                                                        : Backend::Auto);
  SurfaceSettings s = SurfaceSettings::fromSpacing(Real(o.spacing), Real(o.cell), Real(o.radius));
  parseSurfaceMethod(o.method, s.method);
  s.smoothingIterations = o.smooth;
  checkSurfaceSettings(s);
  std::printf("eddy surface: %zu frame(s), %s, cell %.4g m, kernel radius %.4g m, on %s\n", frames.size(),
              surfaceMethodName(s.method), double(s.cell), double(s.kernelRadius),
              backend == Backend::Cuda ? "cuda" : "cpu");
  double fieldMs = 0, meshMs = 0;
  std::size_t triangles = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    std::vector<Vec3> particles = loadPointCloud(frames[i].path);
    SurfaceStats stats;
    TriangleMesh mesh = reconstructSurface(particles, s, backend, &stats);
    std::string name = "surface_" + frames[i].number + "." + o.format;
    if (o.format == "vdb")  // the exact distance to the mesh, 3 cells each side
      writeVdbLevelSet((fs::path(o.out) / name).string(), levelSetOfMesh(mesh, s.cell, Vec3{}, 3));
    else
      writeTriangleMesh((fs::path(o.out) / name).string(), mesh);
    fieldMs += stats.fieldMilliseconds;
    meshMs += stats.meshMilliseconds;
    triangles += mesh.triangles.size();
    std::printf(
        "  [%zu/%zu] %s: %zu particles -> %zu vertices, %zu triangles (grid %d x %d x %d; field %.1f ms, "
        "mesh %.1f ms)\n",
        i + 1, frames.size(), name.c_str(), particles.size(), mesh.vertices.size(), mesh.triangles.size(),
        stats.nx, stats.ny, stats.nz, stats.fieldMilliseconds, stats.meshMilliseconds);
    std::fflush(stdout);
  }
  std::printf("done: %zu triangles in all; field %.1f ms, marching cubes %.1f ms\n", triangles, fieldMs,
              meshMs);
  return 0;
}

}  // namespace eddy::app
