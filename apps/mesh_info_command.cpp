// `eddy mesh-info`: what a collider mesh holds, before a scene uses it.
#include "mesh_info_command.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <string>

#include "colliders/triangle_mesh.h"

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
  // TODO(issue 9): once the signed-distance field exists, print "SDF build time at resolution N: ... ms"
  // here (and add --sdf-resolution N then, not before).
  return 0;
}

}  // namespace eddy::app
