// Triangle-mesh files: OBJ and PLY (ASCII, little- and big-endian binary) read back what was written,
// polygons become fans, extra properties are skipped, bad files fail with one message naming the file and
// the line or element; inspectMesh counts boundary and non-manifold edges on welded vertices.
#include <eddy/mesh.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "test_support.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;
using test::expectInputError;

class MeshIo : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("eddy_mesh_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string writeBytes(const std::string& name, const std::string& bytes) const {
    std::ofstream out(path(name), std::ios::binary);
    out << bytes;
    return path(name);
  }

  fs::path dir_;
};

// unit cube, corner i at (i & 1, i >> 1 & 1, i >> 2 & 1); six quads, outward
const std::array<std::array<std::uint32_t, 4>, 6> kCubeQuads{{
    {0, 4, 6, 2},  // x = 0
    {1, 3, 7, 5},  // x = 1
    {0, 1, 5, 4},  // y = 0
    {2, 6, 7, 3},  // y = 1
    {0, 2, 3, 1},  // z = 0
    {4, 5, 7, 6},  // z = 1
}};

Vec3 cubeCorner(std::uint32_t i) { return {float(i & 1), float(i >> 1 & 1), float(i >> 2 & 1)}; }

// the cube without the quads listed in `missing`
TriangleMesh cube(std::vector<int> missing = {}) {
  TriangleMesh m;
  for (std::uint32_t i = 0; i < 8; ++i) m.vertices.push_back(cubeCorner(i));
  for (int q = 0; q < 6; ++q) {
    if (std::find(missing.begin(), missing.end(), q) != missing.end()) continue;
    const auto& f = kCubeQuads[q];
    m.triangles.push_back({f[0], f[1], f[2]});
    m.triangles.push_back({f[0], f[2], f[3]});
  }
  return m;
}

// coordinates that do not print short, so a round trip through text must keep every bit
TriangleMesh oddTetrahedron() {
  TriangleMesh m;
  m.vertices = {
      {0.1f, -2.5e-7f, 3.14159274f}, {1.0f / 3.0f, 1e20f, -0.0f}, {-7.25f, 0.7f, 1e-30f}, {2, 3, 4}};
  m.triangles = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
  return m;
}

void expectSameMesh(const TriangleMesh& a, const TriangleMesh& b) {
  ASSERT_EQ(a.vertices.size(), b.vertices.size());
  for (std::size_t i = 0; i < a.vertices.size(); ++i) {
    EXPECT_EQ(std::bit_cast<std::uint32_t>(a.vertices[i].x), std::bit_cast<std::uint32_t>(b.vertices[i].x))
        << i;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(a.vertices[i].y), std::bit_cast<std::uint32_t>(b.vertices[i].y))
        << i;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(a.vertices[i].z), std::bit_cast<std::uint32_t>(b.vertices[i].z))
        << i;
  }
  EXPECT_EQ(a.triangles, b.triangles);
}

// big-endian bytes of a value
template <class T>
std::string bigEndian(T value) {
  char b[sizeof(T)];
  std::memcpy(b, &value, sizeof b);
  if constexpr (std::endian::native == std::endian::little) std::reverse(b, b + sizeof b);
  return std::string(b, sizeof b);
}

template <class T>
std::string littleEndian(T value) {
  char b[sizeof(T)];
  std::memcpy(b, &value, sizeof b);
  if constexpr (std::endian::native == std::endian::big) std::reverse(b, b + sizeof b);
  return std::string(b, sizeof b);
}

// ---------------------------------------------------------------- reading what was written

TEST_F(MeshIo, ObjRoundTrip) {
  const TriangleMesh m = oddTetrahedron();
  writeTriangleMesh(path("t.obj"), m);
  expectSameMesh(loadTriangleMesh(path("t.obj")), m);
}

TEST_F(MeshIo, BinaryPlyRoundTrip) {
  const TriangleMesh m = oddTetrahedron();
  writeTriangleMesh(path("t.ply"), m, /*binaryPly=*/true);
  std::ifstream in(path("t.ply"), std::ios::binary);
  std::string header(64, '\0');
  in.read(header.data(), 64);
  EXPECT_NE(header.find("binary_little_endian"), std::string::npos);
  expectSameMesh(loadTriangleMesh(path("t.ply")), m);
}

TEST_F(MeshIo, AsciiPlyRoundTrip) {
  const TriangleMesh m = oddTetrahedron();
  writeTriangleMesh(path("t.PLY"), m, /*binaryPly=*/false);  // the extension's case does not matter
  expectSameMesh(loadTriangleMesh(path("t.PLY")), m);
}

TEST_F(MeshIo, WriterLeavesNoTemporaryFiles) {
  writeTriangleMesh(path("a.obj"), cube());
  writeTriangleMesh(path("a.obj"), cube({0}));  // replaces the file
  EXPECT_EQ(loadTriangleMesh(path("a.obj")).triangles.size(), 10u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(MeshIo, WriterRefusesUnknownExtension) {
  expectInputError([&] { writeTriangleMesh(path("a.stl"), cube()); }, {"a.stl", ".obj, .ply"});
  EXPECT_FALSE(fs::exists(path("a.stl")));
}

TEST_F(MeshIo, BigEndianPlyWrittenByHand) {
  // double coordinates, a ushort property between them, int indices: every size gets swapped
  std::string bytes =
      "ply\nformat binary_big_endian 1.0\ncomment by hand\nelement vertex 3\nproperty double x\n"
      "property ushort flags\nproperty double y\nproperty double z\nelement face 1\n"
      "property list uchar int vertex_indices\nend_header\n";
  const double xyz[3][3] = {{1.5, -2.25, 3}, {4, 5.125, -6}, {0.1, 0.2, 0.3}};
  for (const auto& v : xyz)
    bytes += bigEndian(v[0]) + bigEndian(std::uint16_t(0xBEEF)) + bigEndian(v[1]) + bigEndian(v[2]);
  bytes += char(3) + bigEndian(std::int32_t(2)) + bigEndian(std::int32_t(0)) + bigEndian(std::int32_t(1));
  const TriangleMesh m = loadTriangleMesh(writeBytes("be.ply", bytes));
  ASSERT_EQ(m.vertices.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(m.vertices[i].x, float(xyz[i][0]));
    EXPECT_EQ(m.vertices[i].y, float(xyz[i][1]));
    EXPECT_EQ(m.vertices[i].z, float(xyz[i][2]));
  }
  ASSERT_EQ(m.triangles.size(), 1u);
  EXPECT_EQ(m.triangles[0], (std::array<std::uint32_t, 3>{2, 0, 1}));
}

// ---------------------------------------------------------------- polygons and extra data

TEST_F(MeshIo, ObjQuadAndPentagonBecomeFans) {
  const std::string file =
      writeBytes("poly.obj",
                 "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\nv 3 0 0\nv 3 1 0\nv 2.5 2 0\n"
                 "v 2 1 0\nf 1 2 3 4\nf 5 6 7 8 9\n");
  const TriangleMesh m = loadTriangleMesh(file);
  const std::vector<std::array<std::uint32_t, 3>> expected{
      {0, 1, 2}, {0, 2, 3}, {4, 5, 6}, {4, 6, 7}, {4, 7, 8}};
  EXPECT_EQ(m.triangles, expected);
}

TEST_F(MeshIo, PlyQuadAndPentagonBecomeFans) {
  const std::string file =
      writeBytes("poly.ply",
                 "ply\nformat ascii 1.0\nelement vertex 5\nproperty float x\nproperty float y\n"
                 "property float z\nelement face 2\nproperty list uchar uint vertex_indices\n"
                 "end_header\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0.5 2 0\n4 0 1 2 3\n5 0 1 2 4 3\n");
  const TriangleMesh m = loadTriangleMesh(file);
  const std::vector<std::array<std::uint32_t, 3>> expected{
      {0, 1, 2}, {0, 2, 3}, {0, 1, 2}, {0, 2, 4}, {0, 4, 3}};
  EXPECT_EQ(m.triangles, expected);
}

TEST_F(MeshIo, ObjFaceFormsGroupsMaterialsAndRelativeIndices) {
  // v/vt/vn, v//vn, negative indices, groups and usemtl split tinyobjloader's shapes; the order must hold
  const std::string file =
      writeBytes("mixed.obj",
                 "# comment\nmtllib missing.mtl\no first\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n"
                 "f 1/1/1 2/1/1 3/1/1\ng second\nusemtl red\nv 0 0 1\nf -4//1 -3//1 -1//1\nusemtl blue\n"
                 "f 2/1 3/1 4/1\nl 1 2\n");
  const TriangleMesh m = loadTriangleMesh(file);
  const std::vector<std::array<std::uint32_t, 3>> expected{{0, 1, 2}, {0, 1, 3}, {1, 2, 3}};
  EXPECT_EQ(m.triangles, expected);
  EXPECT_EQ(m.vertices.size(), 4u);
}

TEST_F(MeshIo, ObjWithByteOrderMarkAndCrlf) {
  const TriangleMesh m =
      loadTriangleMesh(writeBytes("bom.obj", "\xEF\xBB\xBFv 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n"));
  EXPECT_EQ(m.vertices.size(), 3u);
  EXPECT_EQ(m.triangles.size(), 1u);
}

TEST_F(MeshIo, AsciiPlyWithByteOrderMarkAndCrlf) {
  const std::string file =
      writeBytes("bom.ply",
                 "\xEF\xBB\xBFply\r\nformat ascii 1.0\r\nelement vertex 3\r\nproperty float x\r\n"
                 "property float y\r\nproperty float z\r\nelement face 1\r\n"
                 "property list uchar int vertex_indices\r\nend_header\r\n0 0 0\r\n1 0 0\r\n"
                 "0 1 0\r\n3 0 1 2\r\n");
  const TriangleMesh m = loadTriangleMesh(file);
  EXPECT_EQ(m.vertices.size(), 3u);
  EXPECT_EQ(m.triangles.size(), 1u);
  // line numbers still count CRLF as one line end: the bad face is on line 13
  const std::string bad =
      writeBytes("bom_bad.ply",
                 "\xEF\xBB\xBFply\r\nformat ascii 1.0\r\nelement vertex 3\r\nproperty float x\r\n"
                 "property float y\r\nproperty float z\r\nelement face 1\r\n"
                 "property list uchar int vertex_indices\r\nend_header\r\n0 0 0\r\n1 0 0\r\n"
                 "0 1 0\r\n3 0 1 7\r\n");
  expectInputError([&] { loadTriangleMesh(bad); }, {"bom_bad.ply:13: face 0", "vertex 7", "3 vertices"});
}

const char* kExtraPropertiesHeader =
    "element vertex 4\nproperty float x\nproperty float nx\nproperty float y\nproperty float z\n"
    "property float ny\nproperty float nz\nproperty uchar red\nproperty uchar green\nproperty uchar blue\n"
    "element face 2\nproperty list uchar int vertex_indices\nproperty uchar flags\n"
    "property list uchar float texcoord\nelement edge 1\nproperty int vertex1\nproperty int "
    "vertex2\nend_header\n";

TEST_F(MeshIo, AsciiPlyExtraPropertiesAreSkipped) {
  const std::string file =
      writeBytes("extra.ply", std::string("ply\nformat ascii 1.0\n") + kExtraPropertiesHeader +
                                  "0 9 0 0 9 9 255 0 0\n1 9 0 0 9 9 0 255 0\n"
                                  "0 9 1 0 9 9 0 0 255\n0 9 0 1 9 9 1 2 3\n"
                                  "3 0 1 2 7 2 0.5 0.5\n3 0 2 3 7 0\n0 1\n");
  const TriangleMesh m = loadTriangleMesh(file);
  ASSERT_EQ(m.vertices.size(), 4u);
  EXPECT_EQ(m.vertices[1].x, 1.0f);
  EXPECT_EQ(m.vertices[2].y, 1.0f);
  EXPECT_EQ(m.vertices[3].z, 1.0f);
  const std::vector<std::array<std::uint32_t, 3>> expected{{0, 1, 2}, {0, 2, 3}};
  EXPECT_EQ(m.triangles, expected);
}

TEST_F(MeshIo, BinaryPlyExtraPropertiesAreSkipped) {
  std::string bytes = std::string("ply\nformat binary_little_endian 1.0\n") + kExtraPropertiesHeader;
  const float xyz[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (const auto& v : xyz)
    bytes += littleEndian(v[0]) + littleEndian(9.0f) + littleEndian(v[1]) + littleEndian(v[2]) +
             littleEndian(9.0f) + littleEndian(9.0f) + "\x01\x02\x03";
  bytes += char(3) + littleEndian(0) + littleEndian(1) + littleEndian(2) + char(7) + char(2) +
           littleEndian(0.5f) + littleEndian(0.5f);
  bytes += char(3) + littleEndian(0) + littleEndian(2) + littleEndian(3) + char(7) + char(0);
  bytes += littleEndian(0) + littleEndian(1);
  const TriangleMesh m = loadTriangleMesh(writeBytes("extra.ply", bytes));
  ASSERT_EQ(m.vertices.size(), 4u);
  EXPECT_EQ(m.vertices[1].x, 1.0f);
  EXPECT_EQ(m.vertices[2].y, 1.0f);
  EXPECT_EQ(m.vertices[3].z, 1.0f);
  const std::vector<std::array<std::uint32_t, 3>> expected{{0, 1, 2}, {0, 2, 3}};
  EXPECT_EQ(m.triangles, expected);
}

// ---------------------------------------------------------------- bad files

TEST_F(MeshIo, ObjNanCoordinateNamesLine) {
  const std::string file = writeBytes("nan.obj", "v 0 0 0\nv 1 0 0\nv 0 nan 0\nf 1 2 3\n");
  expectInputError([&] { loadTriangleMesh(file); }, {"nan.obj:3", "'nan'", "finite"});
}

TEST_F(MeshIo, ObjInfiniteCoordinateNamesLine) {
  const std::string inf = writeBytes("inf.obj", "# cube corner\nv 0 0 0\nv 1 0 0\nv 0 1 -inf\nf 1 2 3\n");
  expectInputError([&] { loadTriangleMesh(inf); }, {"inf.obj:4", "'-inf'", "finite"});
  // too large for a float is infinite too
  const std::string big = writeBytes("big.obj", "v 0 0 0\nv 1e39 0 0\nv 0 1 0\nf 1 2 3\n");
  expectInputError([&] { loadTriangleMesh(big); }, {"big.obj:2", "'1e39'", "float range"});
}

TEST_F(MeshIo, ObjBadVertexLines) {
  const std::string few = writeBytes("few.obj", "v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n");
  expectInputError([&] { loadTriangleMesh(few); }, {"few.obj:2", "three coordinates"});
  const std::string word = writeBytes("word.obj", "v 0 0 0\nv 1 0 0\nv 0 one 0\nf 1 2 3\n");
  expectInputError([&] { loadTriangleMesh(word); }, {"word.obj:3", "'one' is not a number"});
}

TEST_F(MeshIo, PlyNanCoordinateNamesLineOrVertex) {
  const std::string ascii =
      writeBytes("nan.ply",
                 "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                 "property float z\nelement face 1\nproperty list uchar int vertex_indices\n"
                 "end_header\n0 0 0\n1 0 0\n0 NaN 0\n3 0 1 2\n");
  expectInputError([&] { loadTriangleMesh(ascii); }, {"nan.ply:12: vertex 2", "coordinate y", "finite"});

  TriangleMesh m = cube();
  m.vertices[5].z = std::numeric_limits<float>::infinity();
  writeTriangleMesh(path("inf.ply"), m);
  expectInputError([&] { loadTriangleMesh(path("inf.ply")); }, {"inf.ply: vertex 5", "coordinate z is inf"});
}

TEST_F(MeshIo, EmptyMeshIsRefused) {
  const std::string obj = writeBytes("points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
  expectInputError([&] { loadTriangleMesh(obj); }, {"points.obj", "no triangles"});
  const std::string blank = writeBytes("blank.obj", "");
  expectInputError([&] { loadTriangleMesh(blank); }, {"blank.obj", "no triangles"});
  TriangleMesh noFaces = cube();
  noFaces.triangles.clear();
  writeTriangleMesh(path("empty.ply"), noFaces);
  expectInputError([&] { loadTriangleMesh(path("empty.ply")); }, {"empty.ply", "no triangles"});
  const std::string cloud =
      writeBytes("cloud.ply",
                 "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
                 "property float z\nend_header\n0 0 0\n");
  expectInputError([&] { loadTriangleMesh(cloud); }, {"cloud.ply", "element face", "vertex_indices"});
}

TEST_F(MeshIo, MissingFileIsNamed) {
  expectInputError([&] { loadTriangleMesh(path("nowhere.obj")); }, {"nowhere.obj", "not found"});
  expectInputError([&] { loadTriangleMesh(dir_.string() + "/folder.ply"); }, {"folder.ply", "not found"});
  fs::create_directories(dir_ / "dir.obj");
  expectInputError([&] { loadTriangleMesh(path("dir.obj")); }, {"dir.obj", "directory"});
}

// A mesh a scene reads that is missing or bad is refused naming the scene, the key and the file; a missing
// Stanford model (the dragon_* and bunny_tank scenes read them from beside the repository, as on a
// fresh clone without them) also says where to get one and which shipped scenes run without it.
TEST_F(MeshIo, SceneMeshErrorsNameTheKey) {
  fs::create_directories(dir_ / "a" / "b");
  for (const char* name : {"bunny_tank.json", "dragon_pour.json"}) {
    fs::copy_file(test::sourceDir() + "/scenes/" + name, dir_ / "a" / "b" / name);
    const std::string scene = (dir_ / "a" / "b" / name).string();
    const std::string mesh =
        std::string(name) == "bunny_tank.json" ? "stanford-bunny-28k.obj" : "stanford-dragon-100k.obj";
    expectInputError([&] { createSimulation(loadScene(scene), Backend::Cpu); },
                     {scene + ": /colliders/0/shape/file: mesh file '" +
                          (dir_ / "shared/data/meshes" / mesh).string() + "' not found; ",
                      "https://graphics.stanford.edu/data/3Dscanrep/", "scenes/knot_pour.json"});
  }
  // other meshes: the key and the loader's message, without the Stanford note
  const std::string scene = (dir_ / "a" / "b" / "bunny_tank.json").string();
  try {
    createSimulation(loadScene(scene, {"colliders.0.shape.file=tank.obj"}), Backend::Cpu);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), scene + ": /colliders/0/shape/file: mesh file '" +
                                         (dir_ / "a" / "b" / "tank.obj").string() + "' not found");
  }
  writeBytes("a/b/tank.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n");
  expectInputError(
      [&] { createSimulation(loadScene(scene, {"colliders.0.shape.file=tank.obj"}), Backend::Cpu); },
      {scene + ": /colliders/0/shape/file: ", "tank.obj:4", "vertex 4"});
}

// The engine reads no mesh files: a scene carries its meshes from where it was read (loadSceneMeshes in
// loadScene and parseScene), each file read once, so a simulation is made from the scene after the file is
// gone. A scene made in code and never given its meshes is refused naming the key.
TEST_F(MeshIo, TheSceneCarriesItsMeshes) {
  writeTriangleMesh(path("cube.obj"), cube());
  const std::string json = R"({"fluid": {"spacing": 0.05}, "domain": {"min": [0, 0, 0], "max": [2, 2, 2]},
      "colliders": [{"shape": {"type": "mesh", "file": "cube.obj", "scale": 0.4, "translation": [0.2, 0.2, 0.2],
                               "sdf_resolution": 16}},
                    {"shape": {"type": "mesh", "file": "cube.obj", "scale": 0.4, "translation": [1.2, 0.2, 1.2],
                               "sdf_resolution": 16}}],
      "emitters": [{"shape": {"type": "box", "center": [1, 1.5, 1], "half_extents": [0.2, 0.1, 0.2]}}]})";
  const std::string source = path("s.json");
  SceneDesc scene = parseScene(json, source);
  ASSERT_TRUE(scene.colliders[0].shape.mesh);
  EXPECT_EQ(scene.colliders[0].shape.mesh->triangles.size(), 12u);
  EXPECT_EQ(scene.colliders[0].shape.mesh, scene.colliders[1].shape.mesh);  // read once
  EXPECT_TRUE(scene.colliders[0].shape.meshError.empty());
  fs::remove(path("cube.obj"));
  auto sim = createSimulation(scene, Backend::Cpu);
  sim->advanceFrame();
  EXPECT_GT(sim->particleCount(), 0);

  // a file that cannot be read fails the simulation, not the read: its message waits in the shape
  const SceneDesc missing = parseScene(json, source);
  EXPECT_FALSE(missing.colliders[0].shape.mesh);
  expectInputError([&] { createSimulation(missing, Backend::Cpu); },
                   {source + ": /colliders/0/shape/file: mesh file '" + path("cube.obj") + "' not found"});

  // made in code: refused until loadSceneMeshes has read the file
  writeTriangleMesh(path("cube.obj"), cube());
  SceneDesc made = scene;
  for (ColliderDesc& c : made.colliders) c.shape.mesh.reset();
  expectInputError([&] { createSimulation(made, Backend::Cpu); },
                   {source + ": /colliders/0/shape/file: mesh '" + path("cube.obj") + "' was not read",
                    "loadSceneMeshes"});
  loadSceneMeshes(made);
  EXPECT_EQ(createSimulation(made, Backend::Cpu)->particleCount(), sim->particleCount());
}

// The meshes that ship in scenes/meshes (scripts/make_meshes.py writes them): small, closed, manifold, with
// no degenerate triangle; the blob is a sphere (V - E + F = 2), the knot a torus (0).
TEST_F(MeshIo, ShippedMeshesAreSmallAndClosed) {
  struct Shipped {
    const char* name;
    std::size_t vertices, triangles;
    long eulerCharacteristic;
  };
  for (const Shipped& expected :
       {Shipped{"blob_bunny.obj", 2562, 5120, 2}, Shipped{"trefoil_knot.obj", 2304, 4608, 0}}) {
    const std::string file = test::sourceDir() + "/scenes/meshes/" + expected.name;
    ASSERT_TRUE(fs::is_regular_file(file)) << file;
    EXPECT_LT(fs::file_size(file), 200u * 1024u) << file;
    const MeshReport r = inspectMesh(loadTriangleMesh(file));
    EXPECT_EQ(r.vertices, expected.vertices) << expected.name;
    EXPECT_EQ(r.triangles, expected.triangles) << expected.name;
    EXPECT_TRUE(r.closed()) << expected.name << ": " << r.boundaryEdges << " boundary, " << r.nonManifoldEdges
                            << " non-manifold edges";
    EXPECT_EQ(r.degenerateTriangles, 0u) << expected.name;
    EXPECT_EQ(long(r.vertices) - long(3 * r.triangles / 2) + long(r.triangles), expected.eulerCharacteristic)
        << expected.name;
  }
}

TEST_F(MeshIo, UnknownExtensionIsRefused) {
  const std::string stl = writeBytes("mesh.stl", "solid x\nendsolid x\n");
  expectInputError([&] { loadTriangleMesh(stl); }, {"mesh.stl", "'.stl'", ".obj, .ply"});
  const std::string none = writeBytes("mesh", "v 0 0 0\n");
  expectInputError([&] { loadTriangleMesh(none); }, {"mesh", "no extension", ".obj, .ply"});
}

TEST_F(MeshIo, ObjFaceIndexingMissingVertexNamesLine) {
  const std::string file = writeBytes("far.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 9\n");
  expectInputError([&] { loadTriangleMesh(file); }, {"far.obj:5", "vertex 9", "3 vertices"});
  const std::string back = writeBytes("back.obj", "v 0 0 0\nv 1 0 0\nf -1 -2 -3\nv 0 1 0\n");
  expectInputError([&] { loadTriangleMesh(back); }, {"back.obj:3", "vertex -3", "only 2 vertices"});
  const std::string zero = writeBytes("zero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n");
  expectInputError([&] { loadTriangleMesh(zero); }, {"zero.obj:4", "'0'"});
  // tinyobjloader refuses these too, but without naming the corner
  for (const char* corner : {"3/0/1", "3/", "3//", "3/1/1/1", "x", "3a"}) {
    const std::string bad =
        writeBytes("corner.obj", std::string("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 ") + corner + "\n");
    expectInputError([&] { loadTriangleMesh(bad); },
                     {"corner.obj:4", "'" + std::string(corner) + "'", "v//vn"});
  }
}

TEST_F(MeshIo, FaceWithFewerThanThreeVertices) {
  const std::string obj = writeBytes("two.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2\n");
  expectInputError([&] { loadTriangleMesh(obj); }, {"two.obj:5", "2 vertices", "at least 3"});
  const std::string ply =
      writeBytes("two.ply",
                 "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                 "property float z\nelement face 2\nproperty list uchar int vertex_indices\n"
                 "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n2 0 1\n");
  expectInputError([&] { loadTriangleMesh(ply); }, {"two.ply:14: face 1", "2 vertices", "at least 3"});
}

TEST_F(MeshIo, PlyFaceIndexingMissingVertexNamesFace) {
  const std::string ascii =
      writeBytes("far.ply",
                 "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                 "property float z\nelement face 2\nproperty list uchar int vertex_indices\n"
                 "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 -1 2\n");
  expectInputError([&] { loadTriangleMesh(ascii); }, {"far.ply:14: face 1", "vertex -1", "3 vertices"});

  TriangleMesh m = cube();
  writeTriangleMesh(path("far_bin.ply"), m);
  std::string bytes;
  {
    std::ifstream in(path("far_bin.ply"), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // the last index of triangle 7: 13 bytes per face, the file ends with the 12 faces
  const std::size_t at = bytes.size() - (12 - 7) * 13 + 9;
  const std::string eight = littleEndian(std::uint32_t(8));
  bytes.replace(at, 4, eight);
  const std::string file = writeBytes("far_bin.ply", bytes);
  expectInputError([&] { loadTriangleMesh(file); }, {"far_bin.ply: face 7", "vertex 8", "8 vertices"});
}

TEST_F(MeshIo, TruncatedBinaryPlyNamesElement) {
  writeTriangleMesh(path("cut.ply"), cube());
  const auto size = fs::file_size(path("cut.ply"));
  fs::resize_file(path("cut.ply"), size - 20);  // into face 10 of 12
  expectInputError([&] { loadTriangleMesh(path("cut.ply")); },
                   {"cut.ply: face 10", "truncated", "element face 12"});
  fs::resize_file(path("cut.ply"), size - 12 * 13 - 30);  // into the vertices
  expectInputError([&] { loadTriangleMesh(path("cut.ply")); },
                   {"cut.ply: vertex 5", "truncated", "element vertex 8"});
}

TEST_F(MeshIo, TruncatedOrOverlongAsciiPlyNamesLine) {
  const std::string head =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
      "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n";
  const std::string cut = writeBytes("cut.ply", head + "3 0 1\n");
  expectInputError([&] { loadTriangleMesh(cut); }, {"cut.ply:13: face 0", "truncated"});
  const std::string longer = writeBytes("long.ply", head + "3 0 1 2\n3 0 1 2\n");
  expectInputError([&] { loadTriangleMesh(longer); }, {"long.ply:14", "after the last element"});
}

TEST_F(MeshIo, MalformedPlyHeaders) {
  const std::string vertexPart = "element vertex 1\nproperty float x\nproperty float y\nproperty float z\n";
  auto ply = [&](const std::string& name, const std::string& text) { return writeBytes(name, text); };
  expectInputError([&] { loadTriangleMesh(ply("a.ply", "PLY?\n")); }, {"a.ply", "first line must be 'ply'"});
  expectInputError([&] { loadTriangleMesh(ply("b.ply", "ply\nformat ascii 1.0\n" + vertexPart)); },
                   {"b.ply", "no end_header"});
  expectInputError([&] { loadTriangleMesh(ply("c.ply", "ply\nformat utf8 1.0\nend_header\n")); },
                   {"c.ply:2", "'utf8'", "binary_big_endian"});
  expectInputError(
      [&] { loadTriangleMesh(ply("d.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty int64 x\n")); },
      {"d.ply:4", "'int64'", "float64"});
  expectInputError(
      [&] {
        loadTriangleMesh(
            ply("e.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty int x\nend_header\n"));
      },
      {"e.ply:4", "'x'", "float or double"});
  expectInputError(
      [&] {
        loadTriangleMesh(
            ply("f.ply", "ply\nformat ascii 1.0\n" + vertexPart +
                             "element face 1\nproperty list uchar float vertex_indices\nend_header\n"));
      },
      {"f.ply:8", "'vertex_indices'", "list of integers"});
  expectInputError([&] { loadTriangleMesh(ply("g.ply", "ply\nformat ascii 1.0\nelement vertex many\n")); },
                   {"g.ply:3", "element NAME COUNT"});
  expectInputError([&] { loadTriangleMesh(ply("h.ply", "ply\nformat ascii 1.0\nproperty float x\n")); },
                   {"h.ply:3", "before any element"});
  expectInputError([&] { loadTriangleMesh(ply("i.ply", "ply\n" + vertexPart + "end_header\n")); },
                   {"i.ply", "no format line"});
  expectInputError([&] { loadTriangleMesh(ply("j.ply", "ply\nformat ascii 1.0\nvertices 3\n")); },
                   {"j.ply:3", "'vertices'", "end_header"});
}

// ---------------------------------------------------------------- inspection

TEST_F(MeshIo, ClosedCube) {
  const MeshReport r = inspectMesh(cube());
  EXPECT_EQ(r.vertices, 8u);
  EXPECT_EQ(r.triangles, 12u);
  EXPECT_TRUE(r.closed());
  EXPECT_EQ(r.boundaryEdges, 0u);
  EXPECT_EQ(r.nonManifoldEdges, 0u);
  EXPECT_EQ(r.degenerateTriangles, 0u);
  EXPECT_EQ(r.lo.x, 0.0f);
  EXPECT_EQ(r.hi.y, 1.0f);
  EXPECT_EQ(r.hi.z, 1.0f);
}

TEST_F(MeshIo, OpenBoxHasFourBoundaryEdges) {
  const MeshReport r = inspectMesh(cube({3}));  // no lid
  EXPECT_FALSE(r.closed());
  EXPECT_EQ(r.boundaryEdges, 4u);
  EXPECT_EQ(r.nonManifoldEdges, 0u);
}

TEST_F(MeshIo, SeamVerticesAreWeldedByPosition) {
  // every quad with its own four corners, as exporters write meshes with per-face normals
  TriangleMesh m;
  for (const auto& q : kCubeQuads) {
    const auto base = static_cast<std::uint32_t>(m.vertices.size());
    for (std::uint32_t c : q) m.vertices.push_back(cubeCorner(c));
    m.triangles.push_back({base, base + 1, base + 2});
    m.triangles.push_back({base, base + 2, base + 3});
  }
  m.vertices[0].x = -0.0f;  // -0 and +0 are the same position
  const MeshReport r = inspectMesh(m);
  EXPECT_EQ(r.vertices, 24u);
  EXPECT_TRUE(r.closed()) << r.boundaryEdges << " boundary edges";
}

TEST_F(MeshIo, EdgesCountWhicheverWayTrianglesRun) {
  TriangleMesh m = cube();
  for (std::size_t i = 0; i < m.triangles.size(); i += 3) std::swap(m.triangles[i][1], m.triangles[i][2]);
  EXPECT_TRUE(inspectMesh(m).closed());
}

TEST_F(MeshIo, NonManifoldAndDegenerateTriangles) {
  TriangleMesh m = cube();
  m.vertices.push_back({0.5f, -1, 0});  // 8: a fin on edge 0-1
  m.vertices.push_back({0.5f, 0, 0});   // 9: on edge 0-1
  m.triangles.push_back({0, 1, 8});     // edge 0-1 now used three times
  m.triangles.push_back({0, 9, 1});     // collinear: zero area
  m.triangles.push_back({2, 2, 3});     // repeated corner
  const MeshReport r = inspectMesh(m);
  EXPECT_EQ(r.nonManifoldEdges, 1u);  // 0-1 (now four uses)
  EXPECT_EQ(r.boundaryEdges, 4u);     // 0-8, 1-8, 0-9, 9-1
  EXPECT_EQ(r.degenerateTriangles, 2u);
  EXPECT_FALSE(r.closed());
  EXPECT_EQ(r.lo.y, -1.0f);
}

// ---------------------------------------------------------------- the shared Stanford meshes

struct SharedMesh {
  const char* name;
  std::size_t vertices, triangles;
  Vec3 lo, hi;
};

class MeshIoShared : public MeshIo, public ::testing::WithParamInterface<SharedMesh> {};

TEST_P(MeshIoShared, LoadsClosedAndSurvivesPly) {
  const SharedMesh& expected = GetParam();
  const std::string file = test::sourceDir() + "/../shared/data/meshes/" + expected.name;
  if (!fs::exists(file)) GTEST_SKIP() << file << " is not there (the shared data folder is missing)";
  const TriangleMesh m = loadTriangleMesh(file);
  const MeshReport r = inspectMesh(m);
  std::printf(
      "%s: %zu vertices, %zu triangles, bounds [%g, %g, %g] to [%g, %g, %g], closed: %s "
      "(boundary edges %zu, non-manifold edges %zu), degenerate triangles %zu\n",
      expected.name, r.vertices, r.triangles, r.lo.x, r.lo.y, r.lo.z, r.hi.x, r.hi.y, r.hi.z,
      r.closed() ? "yes" : "no", r.boundaryEdges, r.nonManifoldEdges, r.degenerateTriangles);
  EXPECT_EQ(r.vertices, expected.vertices);
  EXPECT_EQ(r.triangles, expected.triangles);
  // both are closed (V - E + F with E = 3F/2 gives 2 for the bunny, 0 for the dragon: genus 1)
  EXPECT_TRUE(r.closed());
  EXPECT_EQ(r.degenerateTriangles, 0u);
  EXPECT_FLOAT_EQ(r.lo.x, expected.lo.x);
  EXPECT_FLOAT_EQ(r.lo.y, expected.lo.y);
  EXPECT_FLOAT_EQ(r.lo.z, expected.lo.z);
  EXPECT_FLOAT_EQ(r.hi.x, expected.hi.x);
  EXPECT_FLOAT_EQ(r.hi.y, expected.hi.y);
  EXPECT_FLOAT_EQ(r.hi.z, expected.hi.z);
  // what comes back through binary PLY is what was read from the OBJ
  writeTriangleMesh(path("copy.ply"), m);
  expectSameMesh(loadTriangleMesh(path("copy.ply")), m);
}

// counts and bounds checked independently of eddy (a few lines of Python over the OBJ text)
INSTANTIATE_TEST_SUITE_P(Stanford, MeshIoShared,
                         ::testing::Values(SharedMesh{"stanford-bunny-28k.obj",
                                                      14290,
                                                      28576,
                                                      {-0.99953f, -0.986269f, -0.771401f},
                                                      {0.999706f, 0.986857f, 0.774312f}},
                                           SharedMesh{"stanford-dragon-100k.obj",
                                                      50000,
                                                      100000,
                                                      {-7.0467f, 0.0f, -3.1513f},
                                                      {7.0467f, 9.9399f, 3.1513f}}),
                         [](const auto& info) {
                           return std::string(info.param.name).find("bunny") != std::string::npos ? "Bunny"
                                                                                                  : "Dragon";
                         });

}  // namespace
}  // namespace eddy
