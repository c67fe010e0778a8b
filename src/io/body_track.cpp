#include <eddy/body_track.h>
#include <eddy/error.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

namespace eddy {

namespace {

std::vector<std::string> splitCommas(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

}  // namespace

int BodyTrack::find(const std::string& name) const {
  for (std::size_t b = 0; b < names.size(); ++b)
    if (names[b] == name) return int(b);
  return -1;
}

long BodyTrack::rowAt(double time) const {
  long best = -1;
  double gap = std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < times.size(); ++r)
    if (std::abs(times[r] - time) < gap) gap = std::abs(times[r] - time), best = long(r);
  return best;
}

std::string bodyName(const SimulationDesc& scene, std::size_t collider) {
  const std::string& name = scene.colliders.at(collider).name;
  return name.empty() ? "collider" + std::to_string(collider) : name;
}

BodyTrack readBodyTrack(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  if (!in) throw InputError(path + ": cannot be read");
  if (!std::getline(in, line)) throw InputError(path + ": empty; a header \"time,NAME.x,...\" was expected");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const std::vector<std::string> header = splitCommas(line);
  const std::size_t per = kBodyColumns.size();
  if (header.empty() || header[0] != "time" || (header.size() - 1) % per != 0)
    throw InputError(path + ": line 1: the header is \"time\" and " + std::to_string(per) +
                     " columns a body (NAME.x, NAME.y, ... NAME.tz)");
  BodyTrack track;
  for (std::size_t b = 0; b * per + 1 < header.size(); ++b) {
    const std::string& first = header[1 + b * per];
    const std::size_t dot = first.rfind('.');
    const std::string name = dot == std::string::npos ? first : first.substr(0, dot);
    for (std::size_t k = 0; k < per; ++k) {
      const std::string want = name + "." + kBodyColumns[k];
      if (header[1 + b * per + k] != want)
        throw InputError(path + ": line 1, column " + std::to_string(2 + b * per + k) + ": '" +
                         header[1 + b * per + k] + "' where '" + want + "' was expected");
    }
    track.names.push_back(name);
  }
  for (long number = 2; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> cells = splitCommas(line);
    if (cells.size() != header.size())
      throw InputError(path + ": line " + std::to_string(number) + ": " + std::to_string(cells.size()) +
                       " values where the header has " + std::to_string(header.size()));
    std::vector<double> v(cells.size());
    for (std::size_t k = 0; k < cells.size(); ++k) {
      if (cells[k].empty() && k > 0) {
        v[k] = std::numeric_limits<double>::quiet_NaN();
        continue;
      }
      char* end = nullptr;
      v[k] = std::strtod(cells[k].c_str(), &end);
      if (cells[k].empty() || *end != '\0')
        throw InputError(path + ": line " + std::to_string(number) + ", column " + std::to_string(k + 1) +
                         " (" + header[k] + "): '" + cells[k] + "' is not a number");
    }
    track.times.push_back(v[0]);
    std::vector<ColliderPose> poses;
    std::vector<FluidLoad> loads;
    for (std::size_t b = 0; b < track.names.size(); ++b) {
      const double* c = v.data() + 1 + b * per;
      auto r = [&](int k) { return Real(c[k]); };
      poses.push_back(
          {{r(0), r(1), r(2)}, {r(3), r(4), r(5), r(6)}, {r(7), r(8), r(9)}, {r(10), r(11), r(12)}});
      loads.push_back({{r(13), r(14), r(15)}, {r(16), r(17), r(18)}});
    }
    track.poses.push_back(std::move(poses));
    track.loads.push_back(std::move(loads));
  }
  return track;
}

}  // namespace eddy
