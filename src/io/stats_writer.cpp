// Per-frame statistics as JSON lines.
#include <eddy/output.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace eddy {

namespace {

// json stores doubles; widening 0.1f would print 0.10000000149011612, so pick the shortest decimal
// that still reads back as the same float
double shortestDouble(float f) {
  if (!std::isfinite(f)) return f;
  char buf[32];
  for (int digits = 6; digits <= 9; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, double(f));
    if (std::strtof(buf, nullptr) == f) break;
  }
  return std::strtod(buf, nullptr);
}

nlohmann::ordered_json vecJson(const Vec3& v) {
  return {shortestDouble(v.x), shortestDouble(v.y), shortestDouble(v.z)};
}

}  // namespace

std::string statsJsonLine(const FrameStats& s) {
  nlohmann::ordered_json j;
  j["frame"] = s.frame;
  j["time"] = s.time;
  j["particles"] = s.particles;
  j["mean_density_error"] = s.meanDensityError;
  j["max_density_error"] = s.maxDensityError;
  j["kinetic_energy"] = s.kineticEnergy;
  j["bounds_min"] = vecJson(s.boundsMin);
  j["bounds_max"] = vecJson(s.boundsMax);
  j["max_speed"] = s.maxSpeed;
  j["substeps"] = s.frameSubsteps;
  j["substeps_total"] = s.substeps;
  j["held_in"] = s.heldIn;
  // non-finite numbers become null, which keeps every line valid JSON
  return j.dump();
}

StatsWriter::StatsWriter(std::string path, std::string kept)
    : path_(std::move(path)), text_(std::move(kept)) {}

void StatsWriter::append(const FrameStats& s) {
  text_ += statsJsonLine(s);
  text_ += '\n';
  // whole-file rewrite: a reader (or a crash) never sees a torn last line
  writeFileAtomic(path_, text_);
}

CsvLog::CsvLog(std::string path, const std::vector<std::string>& columns, std::string kept)
    : path_(std::move(path)), text_(std::move(kept)) {
  if (!text_.empty()) return;
  text_ = "time";
  for (const std::string& c : columns) text_ += "," + c;
  text_ += '\n';
}

void CsvLog::append(const std::vector<std::vector<double>>& rows) {
  if (rows.empty()) return;
  char buf[32];
  for (const std::vector<double>& row : rows) {
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (k > 0) text_ += ',';
      if (std::isnan(row[k])) continue;  // not sampled at this time
      // the time to the nanosecond; values to float precision
      std::snprintf(buf, sizeof buf, k == 0 ? "%.9f" : "%.7g", row[k]);
      text_ += buf;
    }
    text_ += '\n';
  }
  writeFileAtomic(path_, text_);
}

std::string csvUpToTime(const std::string& path, double time) {
  std::ifstream in(path, std::ios::binary);
  std::string kept, line;
  if (!in || !std::getline(in, line)) return "";
  kept = line + "\n";
  while (std::getline(in, line)) {
    if (std::strtod(line.c_str(), nullptr) > time + 1e-9) break;
    kept += line + "\n";
  }
  return kept;
}

}  // namespace eddy
