#include "run_folder.h"

#include <eddy/error.h>
#include <eddy/simulation.h>
#include <eddy/surface.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <system_error>

namespace eddy::app {

namespace fs = std::filesystem;

namespace {

bool allDigits(const std::string& s) {
  return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
}

// "frame_000120.png" of render/ -> 120, else -1
int pictureNumber(const std::string& name) {
  if (name.rfind("frame_", 0) != 0 || name.size() <= 10 || name.compare(name.size() - 4, 4, ".png") != 0)
    return -1;
  const std::string digits = name.substr(6, name.size() - 10);
  return allDigits(digits) ? std::stoi(digits) : -1;
}

// "checkpoint_000120.eddy" of checkpoints/ -> true
bool isCheckpointName(const std::string& name) {
  const std::string prefix = "checkpoint_", ext = ".eddy";
  return name.rfind(prefix, 0) == 0 && name.size() > prefix.size() + ext.size() &&
         name.compare(name.size() - ext.size(), ext.size(), ext) == 0 &&
         allDigits(name.substr(prefix.size(), name.size() - prefix.size() - ext.size()));
}

// the regular files of dir/sub whose names `match` accepts, as "sub/name" (or "name")
template <class Match>
void listMatching(const fs::path& dir, const std::string& sub, Match&& match, std::vector<std::string>& out) {
  std::error_code ec;
  const fs::path folder = sub.empty() ? dir : dir / sub;
  if (!fs::is_directory(folder, ec)) return;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    std::error_code typeError;
    if (!e.is_regular_file(typeError)) continue;
    const std::string name = e.path().filename().string();
    if (match(name)) out.push_back(sub.empty() ? name : sub + "/" + name);
  }
}

}  // namespace

int frameFileNumber(const std::string& name) {
  const bool surface = name.rfind("surface_", 0) == 0;
  const std::string prefix = surface ? "surface_" : "particles_";
  const std::size_t dot = name.rfind('.');
  if (name.compare(0, prefix.size(), prefix) != 0 || dot == std::string::npos || dot <= prefix.size())
    return -1;
  // the digits follow the last underscore (after a group's name, if any)
  const std::size_t start = surface ? name.rfind('_', dot) + 1 : prefix.size();
  const std::string ext = name.substr(dot), digits = name.substr(start, dot - start);
  const bool known =
      surface ? (ext == ".ply" || ext == ".obj" || ext == ".vdb") : (ext == ".ply" || ext == ".vtu");
  return known && allDigits(digits) ? std::stoi(digits) : -1;
}

std::vector<std::string> runFiles(const std::string& dir) {
  static const char* kRunFiles[] = {"particles.pvd", "stats.jsonl",  "probes.csv", "forces.csv",
                                    "bodies.csv",    "profile.json", "scene.json"};
  std::vector<std::string> files;
  listMatching(
      dir, "",
      [](const std::string& name) {
        return frameFileNumber(name) >= 0 ||
               std::find(std::begin(kRunFiles), std::end(kRunFiles), name) != std::end(kRunFiles);
      },
      files);
  listMatching(
      dir, "render", [](const std::string& name) { return pictureNumber(name) >= 0; }, files);
  listMatching(dir, "checkpoints", isCheckpointName, files);
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> surfaceFiles(const std::string& dir) {
  std::vector<std::string> files;
  listMatching(
      dir, "",
      [](const std::string& name) { return name.rfind("surface_", 0) == 0 && frameFileNumber(name) >= 0; },
      files);
  std::sort(files.begin(), files.end());
  return files;
}

int removeFilesExcept(const std::string& dir, const std::vector<std::string>& files,
                      const std::set<std::string>& keep) {
  int removed = 0;
  std::set<fs::path> folders;  // the subfolders files went from (checkpoints/, render/)
  for (const std::string& f : files) {
    if (keep.count(f)) continue;
    std::error_code ec;
    if (fs::remove(fs::path(dir) / f, ec)) {
      ++removed;
      if (fs::path(f).has_parent_path()) folders.insert(fs::path(dir) / fs::path(f).parent_path());
    }
  }
  // a folder the earlier run made and this one does not use goes too; one that holds anything else stays
  for (const fs::path& folder : folders) {
    std::error_code ec;
    if (fs::is_empty(folder, ec)) fs::remove(folder, ec);
  }
  return removed;
}

std::uint64_t bytesOf(const std::string& dir, const std::vector<std::string>& files) {
  std::uint64_t total = 0;
  for (const std::string& f : files) {
    std::error_code ec;
    const auto size = fs::file_size(fs::path(dir) / f, ec);
    if (!ec) total += size;
  }
  return total;
}

std::uint64_t particleFileBytes(const SceneDesc& scene, std::int64_t n) {
  // the solvers that add a pressure column (encodePly / encodeVtu write one where the simulation has
  // pressures: all but MPM) and MPM's material index
  const bool pressure = scene.solver != "mpm";
  const bool material = scene.solver == "mpm";
  const std::uint64_t count = std::uint64_t(std::max<std::int64_t>(n, 0));
  const std::uint64_t digits = std::to_string(count).size();
  if (scene.output.format == "vtk") {
    // each array is base64 of an 8-byte length and the data; ~1.1 KB of XML around them
    auto base64 = [](std::uint64_t bytes) { return (bytes + 8 + 2) / 3 * 4; };
    std::uint64_t total = 1000 + 2 * digits + (pressure ? 100 : 0) + (material ? 100 : 0);
    for (std::uint64_t perParticle : {12, 4, 4, 12, 8, 8, 1}) total += base64(perParticle * count) + 60;
    if (pressure) total += base64(4 * count);
    if (material) total += base64(4 * count);
    return total;
  }
  const std::uint64_t header = 167 + digits + (pressure ? 24 : 0) + (material ? 23 : 0);
  return header + count * (32 + (pressure ? 4 : 0) + (material ? 4 : 0));
}

RunSize estimateRun(const SceneDesc& scene, Simulation& sim) {
  RunSize s;
  s.particles = sim.particleCount();
  s.mostParticles = s.particles;
  for (const EmitterDesc& e : scene.emitters)
    if (e.type == "nozzle") s.mostParticles += e.maxParticles;
  s.simulationBytes = sim.deviceMemoryBytes();
  if (scene.output.particles) {
    s.particleFiles = scene.time.frames / scene.output.every + 1;  // frame 0 is the initial state
    s.fileBytes = particleFileBytes(scene, s.particles);
    s.mostFileBytes = particleFileBytes(scene, s.mostParticles);
    // the host copy (position, velocity, density, id, pressure, material) and the encoded file
    s.stagingBytes = std::uint64_t(s.mostParticles) * 40 + s.mostFileBytes;
  }
  return s;
}

std::string formatBytes(double bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 5) bytes /= 1024, ++unit;
  char buf[48];
  std::snprintf(buf, sizeof buf, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, kUnits[unit]);
  return buf;
}

std::string describeRunSize(const RunSize& s, bool cuda, std::uint64_t freeDisk) {
  std::string line = std::to_string(s.particles) + " particles";
  if (s.mostParticles > s.particles)
    line += " (up to " + std::to_string(s.mostParticles) + " from the nozzles)";
  line += ", " + formatBytes(double(s.simulationBytes)) + (cuda ? " of GPU memory" : " of memory");
  if (s.stagingBytes) line += " + " + formatBytes(double(s.stagingBytes)) + " of host memory for the files";
  if (s.particleFiles == 0) return line + ", no particle files";
  line += ", " + std::to_string(s.particleFiles) + " particle files of " + formatBytes(double(s.fileBytes));
  if (s.mostFileBytes > s.fileBytes) line += " to " + formatBytes(double(s.mostFileBytes));
  line += " = " + formatBytes(double(s.diskBytes()));
  if (s.mostDiskBytes() > s.diskBytes()) line += " to " + formatBytes(double(s.mostDiskBytes()));
  return line + " on disk (" + formatBytes(double(freeDisk)) + " free)";
}

void checkRunFits(const SceneDesc& scene, const RunSize& s, std::uint64_t freeDisk, std::uint64_t freed,
                  const std::string& dir) {
  // the particle files the run certainly writes (nozzles may add more): refused only when even they cannot
  // fit
  const double need = double(s.diskBytes()), room = double(freeDisk) + double(freed);
  if (need > room)
    throw InputError(
        scene.sourcePath + ": the run writes " + std::to_string(s.particleFiles) + " particle files of " +
        formatBytes(double(s.fileBytes)) + " (" + std::to_string(s.particles) +
        " particles) = " + formatBytes(need) + ", but the disk of '" + dir + "' has " + formatBytes(room) +
        " free" + (freed ? " (counting the earlier run's files it replaces)" : "") +
        "; raise /fluid/spacing or /output/every, lower /time/frames, or set /output/particles to "
        "false");
  const double host = double(freeHostMemoryBytes());
  if (double(s.stagingBytes) > host)
    throw InputError(scene.sourcePath + ": writing a particle file of " + std::to_string(s.mostParticles) +
                     " particles needs " + formatBytes(double(s.stagingBytes)) +
                     " of host memory, but only " + formatBytes(host) +
                     " are free; raise /fluid/spacing or set /output/particles to false");
}

std::uint64_t freeDiskBytes(const std::string& dir) {
  std::error_code ec;
  fs::path p = fs::absolute(dir.empty() ? fs::path(".") : fs::path(dir), ec);
  while (!p.empty() && !fs::exists(p, ec) && p != p.parent_path()) p = p.parent_path();
  const fs::space_info info = fs::space(p, ec);
  // a file system with no capacity (/proc, /sys) holds no files at all: that the folder cannot be made
  // is the message to give, not the disk's size
  if (ec || info.capacity == 0) return std::numeric_limits<std::uint64_t>::max();
  return std::uint64_t(info.available);
}

std::string surfaceLatticeRefusal(Vec3 lo, Vec3 hi, const SurfaceSettings& s) {
  // SurfaceGrid::layout: blocks of 8 nodes a side over the box, one cell beyond the reach on each side, at
  // most 2^27 of them
  constexpr double kBlock = 8, kMostBlocks = double(1u << 27);
  const double margin = double(s.kernelRadius) + double(s.cell);
  const double extent[3] = {double(hi.x) - lo.x, double(hi.y) - lo.y, double(hi.z) - lo.z};
  double blocks = 1, cells[3];
  for (int axis = 0; axis < 3; ++axis) {
    cells[axis] = std::ceil((extent[axis] + 2 * margin) / double(s.cell));
    blocks *= std::ceil((cells[axis] + 1) / kBlock);
  }
  if (blocks <= kMostBlocks) return "";
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "a surface grid of %.3g x %.3g x %.3g cells of %.3g m over %.3g x %.3g x %.3g m, more than "
                "its %.0f blocks of 8^3 nodes can index",
                cells[0], cells[1], cells[2], double(s.cell), extent[0], extent[1], extent[2], kMostBlocks);
  return buf;
}

}  // namespace eddy::app
