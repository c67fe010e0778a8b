// Output: particle caches (PLY, VTK), per-frame statistics, progress, timing profile.
#pragma once

#include <eddy/profile.h>
#include <eddy/simulation.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace eddy {

// Writes bytes to path through a temporary file in the same folder and a rename, so readers never see
// a partial file. Throws RuntimeFailure naming the path on any error.
void writeFileAtomic(const std::string& path, const std::string& bytes);

// Checks that dir exists or can be created and is writable; throws InputError naming dir otherwise.
void prepareOutputDir(const std::string& dir);

// binary little-endian PLY with float x y z vx vy vz density and uint id
std::string encodePly(const HostParticles& p);
// VTK XML unstructured grid (.vtu), points with velocity, density and id (UInt32) point data,
// base64-encoded binary
std::string encodeVtu(const HostParticles& p);

// one file of a ParaView collection: its simulated time in s and its name, relative to the .pvd
struct CollectionEntry {
  double time = 0;
  std::string file;
};
// a ParaView data collection (.pvd): one DataSet per file with its timestep, so ParaView plays the
// frames at their simulated times
std::string encodePvd(const std::vector<CollectionEntry>& entries);

// "particles_000120.ply" (format "ply" or "vtk" -> ".vtu")
std::string particleFileName(int frame, const std::string& format);
// "surface_000120.ply" (format "ply" or "obj"), or "surface_sand_000120.ply" for a material group's surface
std::string surfaceFileName(int frame, const std::string& format, const std::string& group = {});

// one JSON object per line: frame, time, particles, mean_density_error, max_density_error,
// kinetic_energy, bounds_min, bounds_max, max_speed, substeps (this frame's), substeps_total, held_in
std::string statsJsonLine(const FrameStats& s);

// Appends frames to DIR/stats.jsonl; the whole file is rewritten atomically after each frame. `kept`:
// lines that stay in front of the new ones (the frames up to a checkpoint, when a run is resumed).
class StatsWriter {
 public:
  explicit StatsWriter(std::string path, std::string kept = "");
  void append(const FrameStats& s);

 private:
  std::string path_;
  std::string text_;
};

// A CSV log (probes.csv, forces.csv): a header "time,COLUMN,...", then one line per append; the whole
// file is rewritten atomically after each append. NaN values are left empty. `kept`: header and lines that
// stay in front (a resumed run's, up to its checkpoint); empty starts with the header.
class CsvLog {
 public:
  CsvLog(std::string path, const std::vector<std::string>& columns, std::string kept = "");
  void append(const std::vector<std::vector<double>>& rows);

 private:
  std::string path_;
  std::string text_;
};
// the header and lines of the CSV log at path whose time is at most `time` (a checkpoint's), or "" when
// there is no such file
std::string csvUpToTime(const std::string& path, double time);

// per-phase timing table (ms total, ms per substep, share) as printed at the end of a run
std::string formatProfileTable(const Profile& profile);
// the same as JSON
std::string profileJson(const Profile& profile, const std::string& backend, const std::string& device,
                        std::int64_t particles);

// Progress: a redrawn bar on a terminal, plain lines otherwise (about one line per 5% or 10 s).
class ProgressReporter {
 public:
  ProgressReporter(int totalFrames, bool terminal, std::FILE* stream = stderr);
  // substepsPerSecond is wall-clock throughput; eta is derived internally
  void update(const FrameStats& s, double substepsPerSecond);
  // the same bar for other work done frame by frame (`eddy surface`): detail follows "frame N/M"
  void update(int frame, const std::string& detail);
  void finish();

 private:
  void show(int frame, const std::string& barDetail, const std::string& lineDetail);

  int totalFrames_;
  bool terminal_;
  std::FILE* stream_;
  double startSeconds_;
  double lastPrintSeconds_ = -1e9;
  int lastPercent_ = -1;
};

}  // namespace eddy
