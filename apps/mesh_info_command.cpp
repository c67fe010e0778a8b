// `eddy mesh-info`: what a collider mesh holds, before a scene uses it.
#include "mesh_info_command.h"

#include <eddy/backend.h>
#include <eddy/error.h>
#include <eddy/mesh.h>
#include <eddy/mesh_field.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <string>

namespace eddy::app {

namespace {

std::string formatVec(Vec3 v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "[%.6g, %.6g, %.6g]", double(v.x), double(v.y), double(v.z));
  return buf;
}

}  // namespace

CLI::App* addMeshInfoCommand(CLI::App& app, MeshInfoOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "mesh-info",
      "Load a triangle mesh (.obj, or .ply in ASCII or binary) and print its vertex and triangle counts, "
      "bounds, whether it is closed (watertight), degenerate triangles and the load time.");
  sub->add_option("file", o.file, "Mesh file: .obj or .ply (ASCII or binary).")
      ->required()
      ->type_name("FILE");
  sub->add_option("--sdf-resolution", o.sdfResolutions,
                  "Also build the mesh's signed distance field with this many nodes along its longest side "
                  "(8 to 2048; a list times each) and print the build time: the median of 5 builds after a "
                  "warm-up. The mesh must be closed, or given --sdf-thickness.")
      ->delimiter(',')
      ->check(CLI::Range(8, 2048))
      ->type_name("N[,N...]");
  sub->add_option(
         "--sdf-band", o.sdfBand,
         "Exact distances at least this far from the surface, in the mesh's units (default: 3 cells; "
         "a scene uses 1.5 h).")
      ->check(CLI::NonNegativeNumber)
      ->type_name("DISTANCE");
  sub->add_option("--sdf-thickness", o.sdfThickness,
                  "Build the field of a thin shell of this thickness around the triangles, in the mesh's "
                  "units, as a scene's \"thickness\" key does (the mesh may then be open).")
      ->check(CLI::PositiveNumber)
      ->type_name("DISTANCE");
  sub->add_option("--backend", o.backend,
                  "Where the field is built: auto (the GPU where there is one), cpu or cuda.")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  return sub;
}

int meshInfoCommand(const MeshInfoOptions& o) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const TriangleMesh mesh = loadTriangleMesh(o.file);
  const double loadMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  const MeshReport r = inspectMesh(mesh);

  std::printf("file:        %s\n", o.file.c_str());
  std::printf("vertices:    %zu\n", r.vertices);
  std::printf("triangles:   %zu\n", r.triangles);
  std::printf("bounds min:  %s\n", formatVec(r.lo).c_str());
  std::printf("bounds max:  %s\n", formatVec(r.hi).c_str());
  std::printf("size:        %s\n", formatVec(r.hi - r.lo).c_str());
  // edges are counted on vertices welded by exact position (see inspectMesh)
  std::printf("closed:      %s (boundary edges: %zu, non-manifold edges: %zu)\n", r.closed() ? "yes" : "no",
              r.boundaryEdges, r.nonManifoldEdges);
  std::printf("degenerate:  %zu triangles\n", r.degenerateTriangles);
  std::printf("load time:   %.1f ms\n", loadMs);
  if (o.sdfResolutions.empty()) return 0;
  if (!r.closed() && !(o.sdfThickness > 0))
    throw InputError("mesh file '" + o.file +
                     "' is not closed: its distance field has no inside (--sdf-resolution); give "
                     "--sdf-thickness to build it as a thin shell");
  Backend backend = resolveBackend(o.backend == "cuda"  ? Backend::Cuda
                                   : o.backend == "cpu" ? Backend::Cpu
                                                        : Backend::Auto);
  std::string where = backend == Backend::Cuda ? "cuda (" + cudaDeviceName() + ")" : "cpu";
  for (int resolution : o.sdfResolutions) {
    MeshSdfSettings settings;
    settings.resolution = resolution;
    settings.band = Real(o.sdfBand);
    settings.shellThickness = Real(o.sdfThickness);
    MeshSdfStats s = timeMeshSdfBuild(mesh, settings, 5, backend);
    std::printf("sdf %4d:    %d x %d x %d nodes, %d propagation passes, build %.2f ms on %s\n", resolution,
                s.nx, s.ny, s.nz, s.propagationPasses, s.milliseconds, where.c_str());
    // the cells the field cannot resolve, whose triangles a particle's path is tested against instead
    std::printf("             %d thin cells (%d triangle entries)\n", s.thinCells, s.thinCellTriangles);
  }
  return 0;
}

}  // namespace eddy::app
