// VTK XML point files: eddy's own .vtu read back bit for bit, ASCII and base64 arrays (UInt32 and UInt64
// byte counts, one or two base64 streams, big endian, Float64, several pieces, PolyData), and bad files
// refused with one line naming the file and what is wrong.
#include <eddy/mesh.h>
#include <eddy/output.h>
#include <eddy/particle_files.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "io/vtu_reader.h"
#include "test_support.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;
using test::expectInputError;

// the test's own base64, so the reader is not checked against the writer's encoder alone
std::string base64(const std::string& bytes) {
  static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t left = bytes.size() - i;
    std::uint32_t v = std::uint32_t(static_cast<unsigned char>(bytes[i])) << 16;
    if (left > 1) v |= std::uint32_t(static_cast<unsigned char>(bytes[i + 1])) << 8;
    if (left > 2) v |= std::uint32_t(static_cast<unsigned char>(bytes[i + 2]));
    out += digits[v >> 18 & 63];
    out += digits[v >> 12 & 63];
    out += left > 1 ? digits[v >> 6 & 63] : '=';
    out += left > 2 ? digits[v & 63] : '=';
  }
  return out;
}

// the bytes of v, little or big endian
template <class T>
std::string bytesOf(T v, bool big = false) {
  std::string b(sizeof v, '\0');
  std::memcpy(b.data(), &v, sizeof v);
  if (big) std::reverse(b.begin(), b.end());
  return b;
}

template <class T>
std::string rawValues(const std::vector<double>& values, bool big = false) {
  std::string raw;
  for (double v : values) raw += bytesOf(T(v), big);
  return raw;
}

// a whole file around one Points array of n points
std::string vtkFile(const std::string& fileAttributes, long long n, const std::string& arrayAttributes,
                    const std::string& content, const std::string& type = "UnstructuredGrid") {
  return "<?xml version=\"1.0\"?>\n<!-- written by hand -->\n<VTKFile type=\"" + type +
         "\" version=\"1.0\" " + fileAttributes + ">\n  <" + type + ">\n    <Piece NumberOfPoints=\"" +
         std::to_string(n) +
         "\" NumberOfCells=\"0\">\n      <PointData/>\n      <Points>\n        <DataArray " +
         arrayAttributes + ">\n" + content + "\n        </DataArray>\n      </Points>\n    </Piece>\n  </" +
         type + ">\n</VTKFile>\n";
}

const std::vector<double> kCoords = {0.5, -1.25, 2.0, 1e-3, 0.1, -7.5};

void expectPoints(const std::vector<Vec3>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size() * 3, want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].x, float(want[3 * i]));
    EXPECT_EQ(got[i].y, float(want[3 * i + 1]));
    EXPECT_EQ(got[i].z, float(want[3 * i + 2]));
  }
}

TEST(VtuReader, ReadsEddysOwnFilesExactly) {
  HostParticles p;
  for (int i = 0; i < 7; ++i) {  // 7: every base64 remainder shows up in the arrays
    p.position.push_back({0.1f * float(i), std::nextafter(1.0f, 2.0f) * float(i), -3.0f + float(i) / 3.0f});
    p.velocity.push_back({1, 2, 3});
    p.density.push_back(1000);
    p.id.push_back(std::uint32_t(i));
  }
  const std::vector<Vec3> got = parseVtkPoints("eddy.vtu", encodeVtu(p));
  ASSERT_EQ(got.size(), p.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(std::memcmp(&got[i], &p.position[i], sizeof(Vec3)), 0) << i;
  }
}

TEST(VtuReader, ReadsAscii) {
  expectPoints(parseVtkPoints("a.vtu", vtkFile("byte_order=\"LittleEndian\"", 2,
                                               "type=\"Float32\" Name=\"Points\" NumberOfComponents=\"3\" "
                                               "format=\"ascii\"",
                                               "  0.5 -1.25 2\n  1e-3 +0.1 -7.5  ")),
               kCoords);
  // Float64, PolyData, attributes in single quotes and any order
  expectPoints(parseVtkPoints("a.vtp", vtkFile("", 2, "format='ascii' NumberOfComponents='3' type='Float64'",
                                               "0.5 -1.25 2 0.001 0.1 -7.5", "PolyData")),
               kCoords);
}

TEST(VtuReader, ReadsBinaryWithEitherHeader) {
  const std::string data = rawValues<float>(kCoords);
  const std::string floats = "type=\"Float32\" NumberOfComponents=\"3\" format=\"binary\"";
  // UInt32 byte count: given, and by default (files older than header_type)
  const std::string u32 = base64(bytesOf(std::uint32_t(data.size())) + data);
  expectPoints(parseVtkPoints("u32.vtu", vtkFile("header_type=\"UInt32\"", 2, floats, u32)), kCoords);
  expectPoints(parseVtkPoints("old.vtu", vtkFile("", 2, floats, u32)), kCoords);
  // UInt64, the header encoded as a base64 stream of its own (padded), then the data
  const std::string split = base64(bytesOf(std::uint64_t(data.size()))) + "\n" + base64(data);
  expectPoints(parseVtkPoints("u64.vtu", vtkFile("header_type=\"UInt64\"", 2, floats, split)), kCoords);
  // big-endian doubles
  const std::string big = rawValues<double>(kCoords, true);
  expectPoints(
      parseVtkPoints("big.vtu", vtkFile("byte_order=\"BigEndian\" header_type=\"UInt32\"", 2,
                                        "type=\"Float64\" NumberOfComponents=\"3\" format=\"binary\"",
                                        base64(bytesOf(std::uint32_t(big.size()), true) + big))),
      kCoords);
}

TEST(VtuReader, ReadsEveryPiece) {
  const std::string piece1 =
      "<Piece NumberOfPoints=\"1\"><Points><DataArray type=\"Float32\" NumberOfComponents=\"3\" "
      "format=\"ascii\">0.5 -1.25 2</DataArray></Points></Piece>";
  const std::string empty = "<Piece NumberOfPoints=\"0\"/>";
  const std::string piece2 =
      "<Piece NumberOfPoints=\"1\"><PointData><DataArray type=\"Float32\" Name=\"density\" format=\"ascii\">"
      "1000</DataArray></PointData><Points><DataArray type=\"Float32\" NumberOfComponents=\"3\" "
      "format=\"ascii\">0.001 0.1 -7.5</DataArray></Points></Piece>";
  const std::string file = "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid>" + piece1 + empty + piece2 +
                           "</UnstructuredGrid></VTKFile>";
  expectPoints(parseVtkPoints("pieces.vtu", file), kCoords);
}

TEST(VtuReader, BadFilesNameTheFileAndTheFault) {
  const std::string data = rawValues<float>(kCoords);
  const std::string u64 = base64(bytesOf(std::uint64_t(data.size())) + data);
  const std::string floats = "type=\"Float32\" NumberOfComponents=\"3\" format=\"binary\"";
  const std::string header = "header_type=\"UInt64\"";
  const std::string whole = vtkFile(header, 2, floats, u64);
  struct Case {
    const char* what;
    std::string text;
    std::string mention;
  } cases[] = {
      {"not xml", "ply\nformat ascii 1.0\n", "not a VTK XML file"},
      {"image data", vtkFile(header, 2, floats, u64, "ImageData"), "'ImageData' is not read"},
      {"no points",
       "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid><Piece NumberOfPoints=\"2\"><PointData/>"
       "</Piece></UnstructuredGrid></VTKFile>",
       "no Points array"},
      {"no piece", "<VTKFile type=\"PolyData\"><PolyData/></VTKFile>", "no <Piece>"},
      {"no particles", vtkFile(header, 0, floats, ""), "holds no particles"},
      {"two components",
       vtkFile(header, 3, "type=\"Float32\" NumberOfComponents=\"2\" format=\"ascii\"", "0 0 1 1 2 2"),
       "2 component(s) per point; it needs 3"},
      {"one component by default", vtkFile(header, 2, "type=\"Float32\" format=\"ascii\"", "0 0 0 1 1 1"),
       "1 component(s)"},
      {"integers",
       vtkFile(header, 2, "type=\"Int32\" NumberOfComponents=\"3\" format=\"ascii\"", "0 0 0 1 1 1"),
       "type 'Int32'; allowed: Float32, Float64"},
      {"base64 cut mid-group", vtkFile(header, 2, floats, u64.substr(0, u64.size() - 3)),
       "base64 data is truncated"},
      {"base64 cut at a group", vtkFile(header, 2, floats, u64.substr(0, u64.size() - 8)),
       "binary data is truncated"},
      {"not base64", vtkFile(header, 2, floats, "AAAA*AAA"), "not valid base64"},
      {"count disagrees", vtkFile(header, 3, floats, u64), "3 points need 36"},
      {"nan",
       vtkFile(header, 2, "type=\"Float32\" NumberOfComponents=\"3\" format=\"ascii\"", "0 0 0 1 nan 1"),
       "point 1 (1, nan, 1) is not a finite position"},
      {"nan binary",
       vtkFile(header, 1, floats,
               base64(bytesOf(std::uint64_t(12)) +
                      rawValues<float>({0, std::numeric_limits<double>::quiet_NaN(), 0}))),
       "point 0"},
      {"beyond float",
       vtkFile(header, 1, "type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\"", "0 1e300 0"),
       "not a finite position"},
      {"too few values",
       vtkFile(header, 2, "type=\"Float32\" NumberOfComponents=\"3\" format=\"ascii\"", "0 0 0 1"),
       "holds 4 values; 2 points need 6"},
      {"a word", vtkFile(header, 1, "type=\"Float32\" NumberOfComponents=\"3\" format=\"ascii\"", "0 zero 0"),
       "'zero' is not a number"},
      {"appended",
       vtkFile(header, 2, "type=\"Float32\" NumberOfComponents=\"3\" format=\"appended\" offset=\"0\"", ""),
       "\"appended\" data, which is not read"},
      {"compressed", vtkFile(header + " compressor=\"vtkZLibDataCompressor\"", 2, floats, u64),
       "compressed data (vtkZLibDataCompressor) is not read"},
      {"huge count", vtkFile(header, 4000000000000000000LL, floats, u64), "truncated: too short"},
      {"cut in the points", whole.substr(0, whole.find(u64) + 5), "DataArray is not closed"},
      {"cut in a tag", whole.substr(0, whole.find("<Points>") + 4), "is not closed"},
      {"cut after the points", whole.substr(0, whole.find("</Piece>")), "ends before </VTKFile>"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    try {
      (void)parseVtkPoints("frames/particles_000007.vtu", c.text);
      ADD_FAILURE() << "no InputError";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind("particle file 'frames/particles_000007.vtu'", 0), 0u) << msg;
      EXPECT_NE(msg.find(c.mention), std::string::npos) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
  }
}

// a file cut anywhere, or with any one byte changed, is read or refused with an InputError, never more
TEST(VtuReader, EveryCutOrChangedByteIsReadOrRefused) {
  HostParticles p;
  for (int i = 0; i < 3; ++i) {
    p.position.push_back({float(i), 0.5f, -1.0f});
    p.velocity.push_back({});
    p.density.push_back(1000);
    p.id.push_back(std::uint32_t(i));
  }
  const std::string good = encodeVtu(p);
  std::size_t refused = 0;
  for (std::size_t cut = 0; cut < good.size(); ++cut) {
    try {
      (void)parseVtkPoints("cut.vtu", good.substr(0, cut));
    } catch (const InputError&) {
      ++refused;
    }
  }
  // only the final newline may go
  EXPECT_EQ(refused, good.size() - 1);
  for (std::size_t at = 0; at < good.size(); ++at) {
    for (char c : {'\0', '<', '>', '"', '=', 'A', '9', ' '}) {
      std::string bad = good;
      bad[at] = c;
      try {
        const std::vector<Vec3> got = parseVtkPoints("changed.vtu", bad);
        EXPECT_LE(got.size(), 3u);
      } catch (const InputError&) {
      }
    }
  }
}

// loadPointCloud picks the reader by the extension, any case
TEST(VtuReader, LoadPointCloudReadsVtkFiles) {
  const fs::path dir = fs::temp_directory_path() / ("eddy_vtu_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string file = vtkFile("", 2, "type=\"Float32\" NumberOfComponents=\"3\" format=\"ascii\"",
                                   "0.5 -1.25 2 0.001 0.1 -7.5");
  for (const char* name : {"a.vtu", "b.VTU", "c.vtp"}) {
    std::ofstream((dir / name).string(), std::ios::binary) << file;
    expectPoints(loadPointCloud((dir / name).string()), kCoords);
  }
  expectInputError([&] { loadPointCloud((dir / "missing.vtu").string()); }, {"missing.vtu", "not found"});
  expectInputError([&] { loadPointCloud((dir / "a.vtk").string()); }, {"a.vtk", ".vtu or .vtp"});
  fs::remove_all(dir);
}

// every attribute `eddy run --format vtk` writes comes back, as the PLY frames' do: a renderer colouring
// by speed, density, id or material reads the same values from either format
TEST(VtuReader, ReadsBackEveryAttributeEddyWrites) {
  HostParticles p;
  for (int i = 0; i < 5; ++i) {
    p.position.push_back({0.1f * float(i), 0.2f, -0.3f * float(i)});
    p.velocity.push_back({0.5f * float(i), -1.5f, 2.25f + float(i)});
    p.density.push_back(1000.0f + 3.5f * float(i));
    p.id.push_back(std::uint32_t(40 + i));
    p.material.push_back(std::uint32_t(i % 3));
  }
  const fs::path dir = fs::temp_directory_path() / ("eddy_vtu_attributes_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "particles_000003.vtu").string();
  std::ofstream(path, std::ios::binary) << encodeVtu(p);
  const ParticleFrame f = readParticleFrame(path);
  ASSERT_EQ(f.position.size(), 5u);
  ASSERT_EQ(f.velocity.size(), 5u);
  ASSERT_EQ(f.density.size(), 5u);
  ASSERT_EQ(f.id.size(), 5u);
  ASSERT_EQ(f.material.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(std::memcmp(&f.velocity[i], &p.velocity[i], sizeof(Vec3)), 0) << i;
    EXPECT_EQ(f.density[i], float(p.density[i])) << i;
    EXPECT_EQ(f.id[i], p.id[i]) << i;
    EXPECT_EQ(f.material[i], p.material[i]) << i;
  }
  // without materials (PBF, WCSPH) there is no material array, and none is made up
  p.material.clear();
  std::ofstream(path, std::ios::binary) << encodeVtu(p);
  EXPECT_TRUE(readParticleFrame(path).material.empty());
  fs::remove_all(dir);
}

// point data in ASCII and of other integer types, and arrays of other names skipped
TEST(VtuReader, ReadsAsciiPointData) {
  const std::string points =
      "<Points><DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">0 0 0 1 1 1"
      "</DataArray></Points>";
  const std::string data =
      "<PointData><DataArray type=\"Float32\" Name=\"velocity\" NumberOfComponents=\"3\" format=\"ascii\">"
      "1 2 3 -4 5 -6</DataArray><DataArray type=\"Float32\" Name=\"pressure\" format=\"ascii\">7 8"
      "</DataArray><DataArray type=\"Int64\" Name=\"id\" format=\"ascii\">9 10</DataArray></PointData>";
  const std::string file =
      "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid><Piece NumberOfPoints=\"2\">" + data + points +
      "</Piece></UnstructuredGrid></VTKFile>";
  const ParticleFrame f = parseVtkParticles("a.vtu", file);
  ASSERT_EQ(f.velocity.size(), 2u);
  EXPECT_EQ(f.velocity[1].x, -4.0f);
  EXPECT_EQ(f.velocity[1].z, -6.0f);
  ASSERT_EQ(f.id.size(), 2u);
  EXPECT_EQ(f.id[1], 10u);
  EXPECT_TRUE(f.density.empty());
}

// a velocity or density that is not finite is refused with the file named, as a position is: one such
// particle would make the colour map run from 0 to inf
TEST(VtuReader, RefusesAttributesThatAreNotFinite) {
  HostParticles p;
  for (int i = 0; i < 3; ++i) {
    p.position.push_back({0.1f * float(i), 0, 0});
    p.velocity.push_back({0, 0, 0});
    p.density.push_back(1000);
    p.id.push_back(std::uint32_t(i));
  }
  const fs::path dir = fs::temp_directory_path() / ("eddy_vtu_finite_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* format : {"vtu", "ply"}) {
    for (int which = 0; which < 2; ++which) {
      HostParticles bad = p;
      if (which == 0)
        bad.velocity[1].y = std::numeric_limits<float>::infinity();
      else
        bad.density[2] = std::numeric_limits<float>::quiet_NaN();
      const std::string path = (dir / (std::string("particles_000001.") + format)).string();
      std::ofstream(path, std::ios::binary) << (format[0] == 'v' ? encodeVtu(bad) : encodePly(bad));
      expectInputError([&] { readParticleFrame(path); },
                       {path, which == 0 ? "velocity" : "density", "not a finite number"});
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace eddy
