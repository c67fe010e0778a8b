// Checkpoint files: encoding, checks, and the checkpoints folder of a run (layout in eddy/checkpoint.h).
#include <eddy/checkpoint.h>
#include <eddy/error.h>
#include <eddy/output.h>
#include <eddy/scene_io.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <vector>

namespace eddy {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'E', 'D', 'D', 'Y', 'C', 'K', 'P', 'T'};
constexpr std::size_t kHeaderBytes = sizeof kMagic + 4 + 8 + 8;
constexpr int kMaxComponents = 16;  // as ParticleSet

std::uint64_t fnv1a(const char* data, std::size_t n) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= std::uint8_t(data[i]);
    h *= 1099511628211ull;
  }
  return h;
}

// little-endian fields appended to a string
struct Writer {
  std::string out;
  void u8(std::uint8_t v) { out.push_back(char(v)); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(char((v >> (8 * i)) & 0xffu));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(char((v >> (8 * i)) & 0xffu));
  }
  void f64(double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    u64(bits);
  }
  void blob(const std::string& bytes) {
    u64(bytes.size());
    out += bytes;
  }
};

// the same fields read back; running past the end means the payload is not what its header promised
struct Reader {
  const std::string& bytes;
  std::size_t pos;
  const std::string& path;

  void need(std::uint64_t n) {
    if (n > bytes.size() - pos)
      throw InputError(path + ": corrupted checkpoint: a field at byte " + std::to_string(pos) +
                       " runs past the end of the file");
  }
  std::uint64_t little(int n) {
    need(std::uint64_t(n));
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint64_t(std::uint8_t(bytes[pos + i])) << (8 * i);
    pos += std::size_t(n);
    return v;
  }
  std::uint8_t u8() { return std::uint8_t(little(1)); }
  std::uint32_t u32() { return std::uint32_t(little(4)); }
  std::uint64_t u64() { return little(8); }
  double f64() {
    std::uint64_t bits = u64();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  std::string blob() {
    std::uint64_t n = u64();
    need(n);
    std::string s = bytes.substr(pos, std::size_t(n));
    pos += std::size_t(n);
    return s;
  }
};

nlohmann::json sceneIdentity(const SceneDesc& scene) {
  nlohmann::json j = nlohmann::json::parse(sceneToJson(scene));
  j["time"].erase("frames");
  return j;
}

std::string typeName(AttributeType t) { return t == AttributeType::UInt32 ? "UInt32" : "Float32"; }

}  // namespace

std::uint64_t checkpointSceneHash(const SceneDesc& scene) {
  const std::string text = sceneIdentity(scene).dump();
  return fnv1a(text.data(), text.size());
}

std::string sceneDifference(const SceneDesc& checkpoint, const SceneDesc& here) {
  const nlohmann::json a = sceneIdentity(checkpoint), b = sceneIdentity(here);
  const nlohmann::json patch = nlohmann::json::diff(a, b);
  if (patch.empty()) return "";
  const nlohmann::json& op = patch.front();
  const std::string path = op.at("path").get<std::string>();
  const std::string kind = op.at("op").get<std::string>();
  if (kind == "add") return path + " is not in the checkpoint's scene, " + op.at("value").dump() + " here";
  const std::string before = a.at(nlohmann::json::json_pointer(path)).dump();
  if (kind == "remove") return path + " is " + before + " in the checkpoint, not set here";
  return path + " is " + before + " in the checkpoint, " + op.at("value").dump() + " here";
}

Checkpoint makeCheckpoint(Simulation& sim) {
  Checkpoint c;
  c.sceneJson = sceneToJson(sim.scene());
  c.sceneHash = checkpointSceneHash(sim.scene());
  c.state = sim.saveState();
  return c;
}

std::string encodeCheckpoint(const Checkpoint& c) {
  const SimulationState& s = c.state;
  Writer w;
  w.blob(c.eddyVersion);
  w.blob(c.sceneJson);
  w.u64(c.sceneHash);
  w.u32(std::uint32_t(s.frame));
  w.f64(s.time);
  w.u64(std::uint64_t(s.substeps));
  w.u64(std::uint64_t(s.particles));
  w.u32(s.nextId);
  w.u32(std::uint32_t(s.attributes.size()));
  for (const AttributeState& a : s.attributes) {
    w.blob(a.name);
    w.u32(std::uint32_t(a.components));
    w.u32(std::uint32_t(a.type));
    w.blob(a.bytes);
  }
  w.blob(s.solver);
  w.u32(std::uint32_t(s.nozzles.size()));
  for (const NozzleState& n : s.nozzles) {
    w.f64(n.nextRelease);
    w.u8(n.started ? 1 : 0);
    w.f64(n.rateCarry);
    w.u64(n.cursor);
    w.u64(std::uint64_t(n.emitted));
  }
  w.blob(s.bodies);

  Writer file;
  file.out.reserve(kHeaderBytes + w.out.size());
  file.out.append(kMagic, sizeof kMagic);
  file.u32(kCheckpointFormatVersion);
  file.u64(w.out.size());
  file.u64(fnv1a(w.out.data(), w.out.size()));
  file.out += w.out;
  return file.out;
}

Checkpoint decodeCheckpoint(const std::string& bytes, const std::string& path) {
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw InputError(path + ": not an eddy checkpoint (the file does not start with \"EDDYCKPT\")");
  if (bytes.size() < kHeaderBytes)
    throw InputError(path + ": truncated checkpoint: " + std::to_string(bytes.size()) +
                     " bytes, shorter than the " + std::to_string(kHeaderBytes) + "-byte header");
  Reader header{bytes, sizeof kMagic, path};
  const std::uint32_t format = header.u32();
  if (format != kCheckpointFormatVersion)
    throw InputError(path + ": checkpoint format version " + std::to_string(format) + "; eddy " + kVersion +
                     " reads version " + std::to_string(kCheckpointFormatVersion) + " only");
  const std::uint64_t size = header.u64(), checksum = header.u64();
  const std::uint64_t have = bytes.size() - kHeaderBytes;
  if (have < size)
    throw InputError(path + ": truncated checkpoint: the header announces " + std::to_string(size) +
                     " bytes of data, the file holds " + std::to_string(have));
  if (have > size)
    throw InputError(path + ": corrupted checkpoint: " + std::to_string(have - size) +
                     " bytes beyond the announced end");
  if (fnv1a(bytes.data() + kHeaderBytes, size) != checksum)
    throw InputError(path + ": corrupted checkpoint: the checksum of its " + std::to_string(size) +
                     " bytes of data does not match the header");

  Reader r{bytes, kHeaderBytes, path};
  Checkpoint c;
  c.eddyVersion = r.blob();
  if (c.eddyVersion != kVersion)
    throw InputError(path + ": written by eddy " + c.eddyVersion + "; this is eddy " + kVersion +
                     ", which resumes only its own checkpoints (another version may step differently)");
  c.sceneJson = r.blob();
  c.sceneHash = r.u64();
  SimulationState& s = c.state;
  s.frame = int(r.u32());
  s.time = r.f64();
  s.substeps = std::int64_t(r.u64());
  s.particles = std::int64_t(r.u64());
  s.nextId = r.u32();
  auto corrupted = [&](const std::string& what) {
    throw InputError(path + ": corrupted checkpoint: " + what);
  };
  if (s.frame < 0 || s.particles < 0 || s.substeps < 0)
    corrupted("negative frame, substep or particle count");
  // a resumed run starts from these numbers: a non-finite one would only surface as a blow-up later
  if (!std::isfinite(s.time) || s.time < 0)
    corrupted("the time " + std::to_string(s.time) + " is not a finite number >= 0");
  const std::uint32_t attributes = r.u32();
  for (std::uint32_t k = 0; k < attributes; ++k) {
    AttributeState a;
    a.name = r.blob();
    a.components = int(r.u32());
    const std::uint32_t type = r.u32();
    if (a.components < 1 || a.components > kMaxComponents || type > 1)
      corrupted("particle attribute '" + a.name + "' has " + std::to_string(a.components) +
                " components of type " + std::to_string(type));
    a.type = AttributeType(type);
    a.bytes = r.blob();
    if (a.bytes.size() != std::uint64_t(s.particles) * std::uint64_t(a.components) * 4)
      corrupted("particle attribute '" + a.name + "' (" + std::to_string(a.components) + " " +
                typeName(a.type) + ") holds " + std::to_string(a.bytes.size()) + " bytes for " +
                std::to_string(s.particles) + " particles");
    if (a.type == AttributeType::Float32)
      for (std::size_t i = 0; i < a.bytes.size() / 4; ++i) {
        float v;
        std::memcpy(&v, a.bytes.data() + 4 * i, 4);
        if (!std::isfinite(v))
          corrupted("particle " + std::to_string(i / std::size_t(a.components)) + " has a " + a.name +
                    " that is not a finite number");
      }
    s.attributes.push_back(std::move(a));
  }
  s.solver = r.blob();
  const std::uint32_t nozzles = r.u32();
  for (std::uint32_t k = 0; k < nozzles; ++k) {
    NozzleState n;
    n.nextRelease = r.f64();
    n.started = r.u8() != 0;
    n.rateCarry = r.f64();
    if (!std::isfinite(n.nextRelease) || !std::isfinite(n.rateCarry))
      corrupted("nozzle " + std::to_string(k) + "'s release time or rate is not a finite number");
    n.cursor = r.u64();
    n.emitted = std::int64_t(r.u64());
    s.nozzles.push_back(n);
  }
  s.bodies = r.blob();
  if (r.pos != bytes.size()) corrupted(std::to_string(bytes.size() - r.pos) + " bytes after the last field");
  return c;
}

std::string checkpointFileName(int frame) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "checkpoint_%06d.eddy", frame);
  return buf;
}

std::string checkpointDir(const std::string& outputDir) {
  return (fs::path(outputDir) / "checkpoints").string();
}

std::vector<int> checkpointFrames(const std::string& folder) {
  std::vector<int> frames;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return frames;
  const std::string prefix = "checkpoint_", suffix = ".eddy";
  for (const fs::directory_entry& e : fs::directory_iterator(folder, ec)) {
    const std::string name = e.path().filename().string();
    // temporary files of an interrupted write end in ".tmp.<pid>" and are never taken
    if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
      continue;
    if (e.is_regular_file(ec)) frames.push_back(std::stoi(digits));
  }
  std::sort(frames.begin(), frames.end());
  return frames;
}

Checkpoint readCheckpoint(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw InputError(path + ": cannot read the checkpoint: " + std::strerror(errno));
  std::string bytes;
  char buf[1 << 16];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.append(buf, got);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw InputError(path + ": cannot read the checkpoint: read error");
  return decodeCheckpoint(bytes, path);
}

std::string writeCheckpoint(const std::string& folder, const Checkpoint& c, int keep) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw RuntimeFailure("cannot create the checkpoint folder '" + folder + "': " + ec.message());
  const int frame = c.state.frame;
  const std::string path = (fs::path(folder) / checkpointFileName(frame)).string();
  writeFileAtomic(path, encodeCheckpoint(c));
  // only now that the new one is complete: keep it and the keep - 1 newest before it; any later ones
  // belong to a run this one has replaced
  std::vector<int> older;
  for (int f : checkpointFrames(folder))
    if (f != frame) {
      if (f < frame)
        older.push_back(f);
      else
        fs::remove(fs::path(folder) / checkpointFileName(f), ec);
    }
  const std::size_t kept = std::size_t(std::max(keep - 1, 0));
  for (std::size_t i = 0; i + kept < older.size(); ++i)
    fs::remove(fs::path(folder) / checkpointFileName(older[i]), ec);
  return path;
}

}  // namespace eddy
