// Times come from the reconstruction's own CUDA events (steady clock on the CPU): the field, marching
// cubes and smoothing on the device, after one untimed warm-up that sizes the buffers; medians of
// --surface-repeats runs. The mesh's copy to the host is reported apart.
#include "bench_surface.h"

#include <eddy/error.h>
#include <eddy/mesh.h>
#include <eddy/output.h>
#include <eddy/simulation.h>
#include <eddy/surface.h>
#include <eddy/vdb.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_command.h"

namespace eddy::app {

namespace {

struct MethodResult {
  long long requested = 0, particles = 0;
  std::string method;
  double fieldMs = 0, meshMs = 0, totalMs = 0, copyMs = 0;
  std::size_t vertices = 0, triangles = 0, storedNodes = 0;
  double memoryMiB = 0, volume = 0;
  std::string error;
};

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : (v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]));
}

double enclosedVolume(const TriangleMesh& m) {
  double v = 0;
  for (const auto& t : m.triangles) {
    Vec3 a = m.vertices[t[0]], b = m.vertices[t[1]], c = m.vertices[t[2]];
    v += double(dot(a, cross(b, c))) / 6;
  }
  return v;
}

void printRow(const MethodResult& r) {
  if (!r.error.empty()) {
    std::printf("%12lld  %-12s skipped: %s\n", r.requested, r.method.c_str(), r.error.c_str());
    return;
  }
  std::printf("%12lld  %-12s %9.2f %9.2f %9.2f %9.2f %11zu %12zu %9.0f %10.5f\n", r.particles,
              r.method.c_str(), r.fieldMs, r.meshMs, r.totalMs, r.copyMs, r.triangles, r.storedNodes,
              r.memoryMiB, r.volume);
  std::fflush(stdout);
}

std::vector<MethodResult> measureSize(const SceneDesc& base, double volume, long long n, Backend backend,
                                      const BenchOptions& o) {
  SceneDesc scene = base;
  scene.fluid.spacing = Real(std::cbrt(volume / double(n)));
  std::unique_ptr<Simulation> sim = createSimulation(scene, backend);
  for (int f = 0; f < o.settleFrames; ++f) sim->advanceFrame();
  // what the surfaces' volumes are to be read against: each particle's share of the rest lattice
  const double spacing = scene.fluid.spacing;
  std::printf("%12lld  particles x spacing^3 = %.5f m3\n", sim->particleCount(),
              double(sim->particleCount()) * spacing * spacing * spacing);
  std::vector<MethodResult> results;
  for (const std::string& name : o.surfaceMethods) {
    MethodResult r;
    r.requested = n;
    r.particles = sim->particleCount();
    r.method = name;
    try {
      SurfaceSettings s = SurfaceSettings::fromSpacing(scene.fluid.spacing, Real(o.surfaceCell));
      if (!parseSurfaceMethod(name, s.method))
        throw InputError("--surface-methods: unknown method '" + name +
                         "' (allowed: zhu-bridson, yu-turk, sph-density)");
      TriangleMesh mesh;
      SurfaceStats stats;
      sim->buildSurface(mesh, &stats, &s);  // warm-up: sizes the buffers
      std::vector<double> field, march, total, copy;
      for (int k = 0; k < o.surfaceRepeats; ++k) {
        sim->buildSurface(mesh, &stats, &s);
        field.push_back(stats.fieldMilliseconds);
        march.push_back(stats.meshMilliseconds);
        total.push_back(stats.fieldMilliseconds + stats.meshMilliseconds + stats.smoothMilliseconds);
        copy.push_back(stats.copyMilliseconds);
      }
      r.fieldMs = medianOf(field), r.meshMs = medianOf(march), r.totalMs = medianOf(total);
      r.copyMs = medianOf(copy);
      r.vertices = mesh.vertices.size(), r.triangles = mesh.triangles.size();
      r.storedNodes = stats.storedNodes;
      r.memoryMiB = double(stats.bytes) / (1024.0 * 1024.0);
      r.volume = enclosedVolume(mesh);
    } catch (const RuntimeFailure& e) {
      r.error = e.what();
    } catch (const std::bad_alloc&) {
      r.error = "out of host memory";
    }
    results.push_back(r);
    printRow(r);
  }
  // OpenVDB's ParticlesToLevelSet + VolumeToMesh on the same particles at the same voxel size (its CPU
  // threads)
  if (o.surfaceOpenVdb && openVdbAvailable()) {
    MethodResult r;
    r.requested = n;
    r.particles = sim->particleCount();
    r.method = "openvdb-cpu";
    try {
      HostParticles host;
      sim->copyParticles(host);
      Real cell = Real(o.surfaceCell) * scene.fluid.spacing;
      // Spheres of radius sqrt(3)/2 spacings, the smallest that leave no gap in the cubic rest lattice.
      // OpenVDB refuses to rasterise spheres under 1.5 voxels (one spacing at h / 3), so it rasterises
      // larger ones and meshes their level set that much below zero: the union of the smaller spheres.
      const Real spacing = scene.fluid.spacing;
      OpenVdbSurface vdb = openVdbReferenceSurface(
          host.position, std::max(Real(1.05) * spacing, Real(1.55) * cell), cell, Real(0.8660254) * spacing);
      r.fieldMs = vdb.levelSetMilliseconds, r.meshMs = vdb.meshMilliseconds;
      r.totalMs = r.fieldMs + r.meshMs;
      r.vertices = vdb.mesh.vertices.size(), r.triangles = vdb.mesh.triangles.size();
      r.storedNodes = vdb.activeVoxels;
      r.volume = enclosedVolume(vdb.mesh);
    } catch (const InputError& e) {
      r.error = e.what();
    }
    results.push_back(r);
    printRow(r);
  }
  return results;
}

}  // namespace

int benchSurface(const BenchOptions& o, const SceneDesc& base, double volume, Backend backend) {
  std::printf(
      "eddy bench --surface: the dam break after %d frames, backend %s (%s), cell %.3g spacings, median of "
      "%d after a warm-up\n",
      o.settleFrames, backendName(backend), deviceDescription(backend).c_str(), o.surfaceCell,
      o.surfaceRepeats);
  for (const std::string& set : o.overrides) std::printf("  scene: --set %s\n", set.c_str());
  std::printf("%12s  %-12s %9s %9s %9s %9s %11s %12s %9s %10s\n", "particles", "method", "field ms",
              "mesh ms", "total ms", "copy ms", "triangles", "grid nodes", "MiB", "volume m3");
  std::vector<MethodResult> all;
  for (long long n : o.particles) {
    std::vector<MethodResult> rs;
    try {
      rs = measureSize(base, volume, n, backend, o);
    } catch (const RuntimeFailure& e) {
      rs.push_back(MethodResult{.requested = n, .method = "-", .error = e.what()});
      printRow(rs.back());
    } catch (const InputError& e) {
      rs.push_back(MethodResult{.requested = n, .method = "-", .error = e.what()});
      printRow(rs.back());
    }
    all.insert(all.end(), rs.begin(), rs.end());
  }
  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["benchmark"] = "surface";
    j["backend"] = backendName(backend);
    j["device"] = deviceDescription(backend);
    j["settle_frames"] = o.settleFrames;
    j["overrides"] = o.overrides;
    j["cell_spacings"] = o.surfaceCell;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const MethodResult& r : all)
      rows.push_back({{"requested", r.requested},
                      {"particles", r.particles},
                      {"method", r.method},
                      {"field_ms", r.fieldMs},
                      {"mesh_ms", r.meshMs},
                      {"total_ms", r.totalMs},
                      {"copy_ms", r.copyMs},
                      {"vertices", r.vertices},
                      {"triangles", r.triangles},
                      {"grid_nodes", r.storedNodes},
                      {"memory_mib", r.memoryMiB},
                      {"volume_m3", r.volume},
                      {"error", r.error}});
    j["results"] = rows;
    writeFileAtomic(o.json, j.dump(2) + "\n");
  }
  return std::any_of(all.begin(), all.end(), [](const MethodResult& r) { return !r.error.empty(); }) ? 1 : 0;
}

}  // namespace eddy::app
