// Output writers, stats lines, progress and profile reports.
#include <eddy/error.h>
#include <eddy/output.h>
#include <eddy/particle_files.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace eddy;
namespace fs = std::filesystem;

static_assert(std::endian::native == std::endian::little, "the decoders below read host-order floats");

HostParticles sampleParticles() {
  HostParticles p;
  // awkward values on purpose: negative zero, subnormal, huge, tiny, non-representable decimals
  const float specials[] = {0.0f, -0.0f, 1e-40f, 3.4e38f, -1.17549435e-38f, 0.1f, -2.5f, 1000.125f};
  for (int i = 0; i < 37; ++i) {
    float a = specials[i % 8], b = float(i) * 0.37f - 3.0f, c = std::nextafter(float(i), 100.0f);
    p.position.push_back({a, b, c});
    p.velocity.push_back({-b, c * 0.5f, a});
    p.density.push_back(1000.0f + float(i) * 0.01f);
    // ids beyond 2^24 (where a float slot would round them) and at the top of the range
    p.id.push_back(i % 3 == 0 ? 0xffffffffu - std::uint32_t(i) : (1u << 24) + std::uint32_t(i));
  }
  return p;
}

// a fresh empty folder per test, removed afterwards
class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("eddy_output_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    return names;
  }

  fs::path dir_;
};

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<unsigned char> decodeBase64(const std::string& text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::vector<unsigned char> out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    int v = value(c);
    if (v < 0) {
      EXPECT_TRUE(std::isspace(static_cast<unsigned char>(c))) << "bad base64 character " << int(c);
      continue;
    }
    acc = (acc << 6) | std::uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<unsigned char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

std::string attribute(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  auto at = tag.find(key);
  if (at == std::string::npos) return "";
  at += key.size();
  return tag.substr(at, tag.find('"', at) - at);
}

struct XmlArray {
  std::string tag;  // the opening tag, attributes included
  std::string body;
};

// a small checker: balanced tags, quoted attributes, and the DataArray elements by Name
std::map<std::string, XmlArray> parseVtu(const std::string& xml) {
  std::map<std::string, XmlArray> arrays;
  std::vector<std::string> open;
  std::size_t pos = 0;
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\"?>\n", 0), 0u);
  pos = xml.find("?>") + 2;
  while (true) {
    std::size_t lt = xml.find('<', pos);
    if (lt == std::string::npos) break;
    const std::string text = xml.substr(pos, lt - pos);
    EXPECT_EQ(text.find('&'), std::string::npos);
    std::size_t gt = xml.find('>', lt);
    EXPECT_NE(gt, std::string::npos);
    if (gt == std::string::npos) break;
    std::string tag = xml.substr(lt, gt - lt + 1);
    if (tag[1] == '/') {
      std::string name = tag.substr(2, tag.size() - 3);
      EXPECT_FALSE(open.empty()) << "unexpected " << tag;
      if (open.empty()) break;
      EXPECT_EQ(open.back(), name);
      if (name == "DataArray") {
        // the body of the array is the text just before its closing tag
        std::size_t start = xml.rfind('>', lt - 1) + 1;
        std::size_t openAt = xml.rfind("<DataArray", lt);
        std::string openTag = xml.substr(openAt, start - openAt);
        std::string key = attribute(openTag, "Name");
        arrays[key] = {openTag, xml.substr(start, lt - start)};
      }
      open.pop_back();
    } else {
      std::size_t end = tag.find_first_of(" />", 1);
      std::string name = tag.substr(1, end - 1);
      EXPECT_EQ(std::count(tag.begin(), tag.end(), '"') % 2, 0) << tag;
      if (tag[tag.size() - 2] != '/') open.push_back(name);
    }
    pos = gt + 1;
  }
  EXPECT_TRUE(open.empty());
  return arrays;
}

template <typename T>
std::vector<T> decodeArray(const XmlArray& a) {
  EXPECT_EQ(attribute(a.tag, "format"), "binary");
  std::vector<unsigned char> raw = decodeBase64(a.body);
  EXPECT_GE(raw.size(), 8u);
  if (raw.size() < 8) return {};
  std::uint64_t bytes;
  std::memcpy(&bytes, raw.data(), 8);
  EXPECT_EQ(bytes, raw.size() - 8);
  EXPECT_EQ(bytes % sizeof(T), 0u);
  std::vector<T> values((raw.size() - 8) / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), raw.data() + 8, values.size() * sizeof(T));
  return values;
}

bool sameBits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

TEST(OutputPly, RoundTripsExactly) {
  const HostParticles p = sampleParticles();
  const std::string bytes = encodePly(p);

  const std::string end = "end_header\n";
  const std::size_t headerEnd = bytes.find(end);
  ASSERT_NE(headerEnd, std::string::npos);
  std::istringstream header(bytes.substr(0, headerEnd));
  std::vector<std::string> lines;
  for (std::string line; std::getline(header, line);) lines.push_back(line);
  const std::vector<std::string> expected = {"ply",
                                             "format binary_little_endian 1.0",
                                             "comment eddy",
                                             "element vertex " + std::to_string(p.size()),
                                             "property float x",
                                             "property float y",
                                             "property float z",
                                             "property float vx",
                                             "property float vy",
                                             "property float vz",
                                             "property float density",
                                             "property uint id"};
  EXPECT_EQ(lines, expected);

  const std::size_t body = headerEnd + end.size();
  ASSERT_EQ(bytes.size() - body, p.size() * 8 * 4);
  for (std::size_t i = 0; i < p.size(); ++i) {
    float v[7];
    std::memcpy(v, bytes.data() + body + i * 32, 28);
    const float want[7] = {p.position[i].x, p.position[i].y, p.position[i].z, p.velocity[i].x,
                           p.velocity[i].y, p.velocity[i].z, p.density[i]};
    for (int k = 0; k < 7; ++k) EXPECT_TRUE(sameBits(v[k], want[k])) << "particle " << i << " field " << k;
    std::uint32_t id;
    std::memcpy(&id, bytes.data() + body + i * 32 + 28, 4);
    EXPECT_EQ(id, p.id[i]) << "particle " << i;
  }
}

// MPM frames carry each particle's emitter (its material) after the id, and the reader gives it back
TEST(OutputPly, MaterialsRoundTrip) {
  HostParticles p;
  for (std::uint32_t i = 0; i < 5; ++i) {
    p.position.push_back({float(i), 0.5f, -1});
    p.velocity.push_back({0, float(i), 0});
    p.density.push_back(1000);
    p.id.push_back(i);
    p.material.push_back(i % 3);
  }
  const std::string bytes = encodePly(p);
  EXPECT_NE(bytes.find("property uint id\nproperty uint material\nend_header\n"), std::string::npos);
  const fs::path file = fs::temp_directory_path() / ("eddy_materials_" + std::to_string(::getpid()) + ".ply");
  std::ofstream(file, std::ios::binary) << bytes;
  const ParticleFrame frame = readParticleFrame(file.string());
  fs::remove(file);
  EXPECT_EQ(frame.material, p.material);
  ASSERT_EQ(frame.position.size(), 5u);
  EXPECT_EQ(frame.position[3].x, 3.0f);
  EXPECT_EQ(frame.velocity[4].y, 4.0f);
  // a frame without the property has no materials; an empty frame reads as empty (a nozzle's first frames)
  p.material.clear();
  std::ofstream(file, std::ios::binary) << encodePly(p);
  EXPECT_TRUE(readParticleFrame(file.string()).material.empty());
  std::ofstream(file, std::ios::binary) << encodePly(HostParticles{});
  EXPECT_TRUE(readParticleFrame(file.string()).position.empty());
  fs::remove(file);
  p.material = {1, 2};
  EXPECT_THROW(encodePly(p), RuntimeFailure);
}

TEST(OutputPly, EmptyCloudHasHeaderOnly) {
  const std::string bytes = encodePly(HostParticles{});
  EXPECT_NE(bytes.find("element vertex 0\n"), std::string::npos);
  EXPECT_EQ(bytes.size(), bytes.find("end_header\n") + 11);
}

TEST(OutputPly, MismatchedArraysAreRejected) {
  HostParticles p = sampleParticles();
  p.density.pop_back();
  EXPECT_THROW(encodePly(p), RuntimeFailure);
  EXPECT_THROW(encodeVtu(p), RuntimeFailure);
  HostParticles q = sampleParticles();
  q.id.pop_back();
  EXPECT_THROW(encodePly(q), RuntimeFailure);
  EXPECT_THROW(encodeVtu(q), RuntimeFailure);
}

TEST(OutputVtu, WellFormedAndDecodesExactly) {
  const HostParticles p = sampleParticles();
  const std::size_t n = p.size();
  const std::string xml = encodeVtu(p);

  const std::size_t fileTagAt = xml.find("<VTKFile");
  ASSERT_NE(fileTagAt, std::string::npos);
  const std::string fileTag = xml.substr(fileTagAt, xml.find('>', fileTagAt) - fileTagAt + 1);
  EXPECT_EQ(attribute(fileTag, "type"), "UnstructuredGrid");
  EXPECT_EQ(attribute(fileTag, "version"), "0.1");
  EXPECT_EQ(attribute(fileTag, "byte_order"), "LittleEndian");
  EXPECT_EQ(attribute(fileTag, "header_type"), "UInt64");
  const std::size_t pieceAt = xml.find("<Piece");
  ASSERT_NE(pieceAt, std::string::npos);
  const std::string piece = xml.substr(pieceAt, xml.find('>', pieceAt) - pieceAt + 1);
  EXPECT_EQ(attribute(piece, "NumberOfPoints"), std::to_string(n));
  EXPECT_EQ(attribute(piece, "NumberOfCells"), std::to_string(n));

  auto arrays = parseVtu(xml);
  ASSERT_EQ(arrays.size(), 7u);
  for (const char* name : {"Points", "velocity", "density", "id", "connectivity", "offsets", "types"})
    ASSERT_TRUE(arrays.count(name)) << name;
  EXPECT_EQ(attribute(arrays["Points"].tag, "type"), "Float32");
  EXPECT_EQ(attribute(arrays["Points"].tag, "NumberOfComponents"), "3");
  EXPECT_EQ(attribute(arrays["velocity"].tag, "NumberOfComponents"), "3");
  EXPECT_EQ(attribute(arrays["connectivity"].tag, "type"), "Int64");
  EXPECT_EQ(attribute(arrays["types"].tag, "type"), "UInt8");
  EXPECT_EQ(attribute(arrays["id"].tag, "type"), "UInt32");
  EXPECT_EQ(attribute(arrays["id"].tag, "NumberOfComponents"), "1");
  // Points must sit inside <Points>, point data inside <PointData>
  EXPECT_LT(xml.find("<Points>"), xml.find("Name=\"Points\""));
  EXPECT_LT(xml.find("<PointData"), xml.find("Name=\"velocity\""));
  EXPECT_LT(xml.find("Name=\"density\""), xml.find("</PointData>"));
  EXPECT_LT(xml.find("<PointData"), xml.find("Name=\"id\""));
  EXPECT_LT(xml.find("Name=\"id\""), xml.find("</PointData>"));

  auto points = decodeArray<float>(arrays["Points"]);
  auto velocity = decodeArray<float>(arrays["velocity"]);
  auto density = decodeArray<float>(arrays["density"]);
  auto ids = decodeArray<std::uint32_t>(arrays["id"]);
  auto connectivity = decodeArray<std::int64_t>(arrays["connectivity"]);
  auto offsets = decodeArray<std::int64_t>(arrays["offsets"]);
  auto types = decodeArray<std::uint8_t>(arrays["types"]);
  ASSERT_EQ(points.size(), 3 * n);
  ASSERT_EQ(velocity.size(), 3 * n);
  ASSERT_EQ(density.size(), n);
  ASSERT_EQ(ids.size(), n);
  ASSERT_EQ(connectivity.size(), n);
  ASSERT_EQ(offsets.size(), n);
  ASSERT_EQ(types.size(), n);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(sameBits(points[3 * i + 0], p.position[i].x)) << i;
    EXPECT_TRUE(sameBits(points[3 * i + 1], p.position[i].y)) << i;
    EXPECT_TRUE(sameBits(points[3 * i + 2], p.position[i].z)) << i;
    EXPECT_TRUE(sameBits(velocity[3 * i + 0], p.velocity[i].x)) << i;
    EXPECT_TRUE(sameBits(velocity[3 * i + 1], p.velocity[i].y)) << i;
    EXPECT_TRUE(sameBits(velocity[3 * i + 2], p.velocity[i].z)) << i;
    EXPECT_TRUE(sameBits(density[i], p.density[i])) << i;
    EXPECT_EQ(ids[i], p.id[i]) << i;
    EXPECT_EQ(connectivity[i], std::int64_t(i));
    EXPECT_EQ(offsets[i], std::int64_t(i + 1));
    EXPECT_EQ(types[i], 1);  // VTK_VERTEX
  }
}

TEST(OutputVtu, Base64PaddingForEveryRemainder) {
  // 1, 2 and 3 particles give byte counts with every remainder mod 3 in some array
  for (int count = 0; count <= 3; ++count) {
    HostParticles p;
    for (int i = 0; i < count; ++i) {
      p.position.push_back({float(i), 2.0f, -1.0f});
      p.velocity.push_back({0.5f, float(-i), 0.0f});
      p.density.push_back(999.5f);
      p.id.push_back(std::uint32_t(i));
    }
    auto arrays = parseVtu(encodeVtu(p));
    auto types = decodeArray<std::uint8_t>(arrays["types"]);
    auto density = decodeArray<float>(arrays["density"]);
    ASSERT_EQ(types.size(), std::size_t(count));
    ASSERT_EQ(density.size(), std::size_t(count));
    for (float d : density) EXPECT_EQ(d, 999.5f);
  }
}

TEST(OutputNames, ParticleFileNames) {
  EXPECT_EQ(particleFileName(120, "ply"), "particles_000120.ply");
  EXPECT_EQ(particleFileName(0, "ply"), "particles_000000.ply");
  EXPECT_EQ(particleFileName(120, "vtk"), "particles_000120.vtu");
  EXPECT_EQ(particleFileName(1234567, "ply"), "particles_1234567.ply");
  EXPECT_THROW(particleFileName(1, "obj"), InputError);
  EXPECT_THROW(particleFileName(1, ""), InputError);
  EXPECT_THROW(particleFileName(1, "PLY"), InputError);
}

TEST_F(OutputFileTest, AtomicWriteReplacesAndLeavesNoTemp) {
  const fs::path file = dir_ / "data.bin";
  writeFileAtomic(file.string(), std::string("first version\0with nul", 22));
  EXPECT_EQ(readAll(file), std::string("first version\0with nul", 22));
  writeFileAtomic(file.string(), "2");
  EXPECT_EQ(readAll(file), "2");
  writeFileAtomic(file.string(), "");
  EXPECT_EQ(readAll(file), "");
  EXPECT_EQ(listing(), std::vector<std::string>{"data.bin"});
}

TEST_F(OutputFileTest, AtomicWriteIntoMissingFolderThrows) {
  const fs::path file = dir_ / "missing" / "data.bin";
  try {
    writeFileAtomic(file.string(), "bytes");
    FAIL() << "expected RuntimeFailure";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(std::strerror(ENOENT)), std::string::npos) << e.what();
  }
  EXPECT_TRUE(listing().empty());
}

TEST_F(OutputFileTest, AtomicWriteOntoFolderThrowsAndCleansUp) {
  // the rename fails (target is a non-empty folder) after the temp file was written
  fs::create_directories(dir_ / "taken" / "inside");
  EXPECT_THROW(writeFileAtomic((dir_ / "taken").string(), "bytes"), RuntimeFailure);
  EXPECT_EQ(listing(), std::vector<std::string>{"taken"});
}

TEST_F(OutputFileTest, PrepareCreatesNestedFoldersAndLeavesNoProbe) {
  const fs::path out = dir_ / "a" / "b" / "c";
  prepareOutputDir(out.string());
  EXPECT_TRUE(fs::is_directory(out));
  EXPECT_TRUE(fs::is_empty(out));
  prepareOutputDir(out.string());  // already there: fine
  prepareOutputDir((dir_ / "a" / "trailing/").string());
  EXPECT_TRUE(fs::is_directory(dir_ / "a" / "trailing"));
}

TEST_F(OutputFileTest, PrepareRejectsUnwritablePaths) {
  const std::string proc = "/proc/eddy_nope";
  try {
    prepareOutputDir(proc);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("output folder '" + proc + "' is not writable"), std::string::npos)
        << e.what();
  }

  const fs::path file = dir_ / "plain_file";
  std::ofstream(file) << "x";
  EXPECT_THROW(prepareOutputDir(file.string()), InputError);
  EXPECT_THROW(prepareOutputDir((file / "sub" / "deeper").string()), InputError);
  EXPECT_EQ(listing(), std::vector<std::string>{"plain_file"});
  EXPECT_EQ(readAll(file), "x");
}

FrameStats sampleStats() {
  FrameStats s;
  s.frame = 42;
  s.time = 42.0 / 60.0;
  s.particles = 28160;
  s.meanDensityError = 0.0123456789012345;
  s.maxDensityError = 0.25;
  s.kineticEnergy = 1.5e-7;
  s.boundsMin = {0.1f, -0.0f, -1.17549435e-38f};
  s.boundsMax = {1.0f / 3.0f, 2.5f, 1e30f};
  s.maxSpeed = 3.75;
  s.substeps = 1234567890123LL;
  s.frameSubsteps = 7;
  s.heldIn = 17;
  return s;
}

TEST(OutputStats, JsonLineHasKeysAndRoundTrips) {
  const FrameStats s = sampleStats();
  const std::string line = statsJsonLine(s);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const auto j = nlohmann::json::parse(line);
  for (const char* key :
       {"frame", "time", "particles", "mean_density_error", "max_density_error", "kinetic_energy",
        "bounds_min", "bounds_max", "max_speed", "substeps", "substeps_total", "held_in"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j.size(), 12u);
  EXPECT_EQ(j["frame"].get<int>(), 42);
  EXPECT_EQ(j["time"].get<double>(), s.time);
  EXPECT_EQ(j["particles"].get<std::int64_t>(), 28160);
  EXPECT_EQ(j["mean_density_error"].get<double>(), s.meanDensityError);
  EXPECT_EQ(j["kinetic_energy"].get<double>(), s.kineticEnergy);
  EXPECT_EQ(j["substeps"].get<std::int64_t>(), s.frameSubsteps);
  EXPECT_EQ(j["substeps_total"].get<std::int64_t>(), s.substeps);
  EXPECT_EQ(j["held_in"].get<std::int64_t>(), 17);
  const float mins[3] = {s.boundsMin.x, s.boundsMin.y, s.boundsMin.z};
  const float maxs[3] = {s.boundsMax.x, s.boundsMax.y, s.boundsMax.z};
  ASSERT_EQ(j["bounds_min"].size(), 3u);
  ASSERT_EQ(j["bounds_max"].size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE(sameBits(float(j["bounds_min"][k].get<double>()), mins[k])) << k;
    EXPECT_TRUE(sameBits(float(j["bounds_max"][k].get<double>()), maxs[k])) << k;
  }
  // floats print in their short form, not as widened doubles
  EXPECT_NE(line.find("[0.1,"), std::string::npos) << line;
}

TEST(OutputStats, NonFiniteValuesStayValidJson) {
  FrameStats s = sampleStats();
  s.maxSpeed = std::numeric_limits<double>::quiet_NaN();
  s.boundsMax.x = std::numeric_limits<float>::infinity();
  EXPECT_NO_THROW(nlohmann::json::parse(statsJsonLine(s)));
}

TEST_F(OutputFileTest, StatsWriterAppendsLines) {
  const fs::path file = dir_ / "stats.jsonl";
  StatsWriter writer(file.string());
  FrameStats s = sampleStats();
  for (int f = 1; f <= 3; ++f) {
    s.frame = f;
    writer.append(s);
  }
  std::istringstream in(readAll(file));
  int expect = 1;
  for (std::string line; std::getline(in, line); ++expect)
    EXPECT_EQ(nlohmann::json::parse(line)["frame"].get<int>(), expect);
  EXPECT_EQ(expect, 4);
  EXPECT_EQ(readAll(file).back(), '\n');
  EXPECT_EQ(listing(), std::vector<std::string>{"stats.jsonl"});
}

Profile sampleProfile() {
  Profile p;
  for (int i = 0; i < int(Phase::Count); ++i) p.add(Phase(i), 10.0 * (i + 1));
  p.substeps = 200;
  p.stepMs = 250.0;
  return p;
}

TEST(OutputProfile, TableListsEveryPhase) {
  const std::string table = formatProfileTable(sampleProfile());
  for (const char* name : kPhaseNames) EXPECT_NE(table.find(name), std::string::npos) << name;
  EXPECT_NE(table.find("step (all phases)"), std::string::npos);
  EXPECT_NE(table.find("substeps: 200"), std::string::npos) << table;
  EXPECT_NE(table.find("substeps/s: 800.0"), std::string::npos) << table;
  // neighbour grid: 10 ms of a 250 ms step
  EXPECT_NE(table.find("4.0%"), std::string::npos) << table;
  // an empty profile must not divide by zero
  const std::string empty = formatProfileTable(Profile{});
  EXPECT_EQ(empty.find("nan"), std::string::npos) << empty;
  EXPECT_EQ(empty.find("inf"), std::string::npos) << empty;
}

TEST(OutputProfile, JsonHasPhasesByKey) {
  const auto j = nlohmann::json::parse(profileJson(sampleProfile(), "cuda", "NVIDIA H100", 28160));
  EXPECT_EQ(j["backend"], "cuda");
  EXPECT_EQ(j["device"], "NVIDIA H100");
  EXPECT_EQ(j["particles"].get<std::int64_t>(), 28160);
  EXPECT_EQ(j["substeps"].get<std::int64_t>(), 200);
  EXPECT_DOUBLE_EQ(j["step_ms_total"].get<double>(), 250.0);
  EXPECT_DOUBLE_EQ(j["step_ms_per_substep"].get<double>(), 1.25);
  ASSERT_EQ(j["phases"].size(), std::size_t(Phase::Count));
  for (int i = 0; i < int(Phase::Count); ++i) {
    const auto& ph = j["phases"][kPhaseKeys[i]];
    EXPECT_DOUBLE_EQ(ph["total_ms"].get<double>(), 10.0 * (i + 1));
    EXPECT_DOUBLE_EQ(ph["per_substep_ms"].get<double>(), 10.0 * (i + 1) / 200.0);
    EXPECT_EQ(ph["calls"].get<std::int64_t>(), 1);
  }
}

std::string readStream(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  char buf[4096];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, got);
  return text;
}

TEST(OutputProgress, PlainLinesAreSparseAndEndWithLastFrame) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  ProgressReporter progress(120, false, f);
  FrameStats s = sampleStats();
  for (int frame = 1; frame <= 120; ++frame) {
    s.frame = frame;
    s.time = frame / 60.0;
    progress.update(s, 1234.4);
  }
  progress.finish();
  const std::string text = readStream(f);
  std::fclose(f);

  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  ASSERT_FALSE(lines.empty());
  EXPECT_LE(lines.size(), 12u) << text;  // one per 10% and the last
  EXPECT_EQ(lines.back(), "frame 120/120 (100%) t=2.000 s particles=28160 substeps/s=1234 eta=0s");
  EXPECT_NE(text.find("frame 60/120 (50%) t=1.000 s"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST(OutputProgress, TerminalRedrawsOneLine) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  ProgressReporter progress(120, true, f);
  FrameStats s = sampleStats();
  for (int frame : {60, 120}) {
    s.frame = frame;
    s.time = frame / 60.0;
    progress.update(s, 1234.4);
  }
  progress.finish();
  const std::string text = readStream(f);
  std::fclose(f);

  EXPECT_EQ(text.front(), '\r');
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  EXPECT_EQ(text.back(), '\n');
  EXPECT_NE(
      text.find("[##########----------]  50% frame 60/120  t=1.000 s  28,160 particles  1,234 substeps/s"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("[####################] 100% frame 120/120  t=2.000 s"), std::string::npos) << text;
  EXPECT_NE(text.find("ETA 0 s"), std::string::npos) << text;
}

}  // namespace
