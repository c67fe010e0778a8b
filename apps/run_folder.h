// A run's output folder: the files eddy writes there (recognised by name, so that a new run replaces an
// earlier run's and nothing else), and what a run will need of the disk and memory before it starts.
#pragma once

#include <eddy/scene.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace eddy {
class Simulation;
struct SurfaceSettings;
}  // namespace eddy

namespace eddy::app {

// frame number of a frame's file ("particles_000120.ply" / ".vtu", "surface_000120.ply" / ".obj" / ".vdb",
// a material group's "surface_sand_000120.ply"), or -1 for any other name
int frameFileNumber(const std::string& name);

// The files of an eddy run in dir, as paths relative to dir: particle and surface frames, particles.pvd,
// stats.jsonl, probes.csv, forces.csv, bodies.csv, profile.json, scene.json, render/frame_NNNNNN.png and
// checkpoints/checkpoint_NNNNNN.eddy. Any other file is not eddy's and is never listed.
std::vector<std::string> runFiles(const std::string& dir);

// the surface files (surface_*NNNNNN.ply / .obj / .vdb) in dir, relative to dir
std::vector<std::string> surfaceFiles(const std::string& dir);

// removes those of `files` (relative to dir) that are not in `keep`; returns how many were removed
int removeFilesExcept(const std::string& dir, const std::vector<std::string>& files,
                      const std::set<std::string>& keep);

// bytes of the files (relative to dir) that exist
std::uint64_t bytesOf(const std::string& dir, const std::vector<std::string>& files);

// What a run will hold and write: particles now and at most (nozzles add up to their max_particles), the
// simulation's memory and the host's staging of one particle file, and the particle files' bytes.
struct RunSize {
  std::int64_t particles = 0, mostParticles = 0;
  std::uint64_t simulationBytes = 0;  // on the device (the host for the CPU backend)
  std::uint64_t stagingBytes = 0;     // host copy and encoding of one particle file, at mostParticles
  int particleFiles = 0;
  std::uint64_t fileBytes = 0, mostFileBytes = 0;  // one particle file, at particles / mostParticles
  std::uint64_t diskBytes() const { return fileBytes * std::uint64_t(particleFiles); }
  std::uint64_t mostDiskBytes() const { return mostFileBytes * std::uint64_t(particleFiles); }
};

// the bytes of one particle file of n particles in the scene's format, as encodePly / encodeVtu write it
std::uint64_t particleFileBytes(const SceneDesc& scene, std::int64_t n);

RunSize estimateRun(const SceneDesc& scene, Simulation& sim);

// one line: particles, memory, files and disk, and the disk's free space
std::string describeRunSize(const RunSize& size, bool cuda, std::uint64_t freeDisk);

// Refuses (InputError naming the keys to change) a run whose particle files cannot fit the free disk space
// (`freed`: the bytes of the earlier run's files it replaces) or whose staging cannot fit the host memory.
void checkRunFits(const SceneDesc& scene, const RunSize& size, std::uint64_t freeDisk, std::uint64_t freed,
                  const std::string& dir);

// free bytes on the file system of dir (or of the nearest folder above it that exists)
std::uint64_t freeDiskBytes(const std::string& dir);

// "1.2 GiB", "37.1 KiB", "512 B"
std::string formatBytes(double bytes);

// Why a surface over particles spanning lo .. hi cannot be built with these settings (its block lattice
// has more blocks than SurfaceGrid can index), or "" when it can; the same count SurfaceGrid::layout makes,
// with the kernel radius as the reach (the least any method reaches).
std::string surfaceLatticeRefusal(Vec3 lo, Vec3 hi, const SurfaceSettings& settings);

}  // namespace eddy::app
