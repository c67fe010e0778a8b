// Meshes made by code for the mesh tests: an icosphere, a box (closed, or with its top left open), and
// writing one to a temporary file.
#pragma once

#include <eddy/mesh.h>
#include <eddy/scene.h>
#include <eddy/vec3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace eddy::test {

// an icosahedron subdivided `levels` times onto the sphere of radius r about the origin
inline TriangleMesh icosphere(Real r, int levels) {
  const Real g = Real((1 + std::sqrt(5.0)) / 2);
  TriangleMesh m;
  m.vertices = {{-1, g, 0},  {1, g, 0},  {-1, -g, 0}, {1, -g, 0}, {0, -1, g},  {0, 1, g},
                {0, -1, -g}, {0, 1, -g}, {g, 0, -1},  {g, 0, 1},  {-g, 0, -1}, {-g, 0, 1}};
  m.triangles = {{0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                 {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                 {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> mid;
    auto middle = [&](std::uint32_t a, std::uint32_t b) {
      auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      m.vertices.push_back((m.vertices[a] + m.vertices[b]) * Real(0.5));
      return mid[key] = std::uint32_t(m.vertices.size() - 1);
    };
    std::vector<std::array<std::uint32_t, 3>> next;
    for (auto t : m.triangles) {
      std::uint32_t ab = middle(t[0], t[1]), bc = middle(t[1], t[2]), ca = middle(t[2], t[0]);
      next.push_back({t[0], ab, ca});
      next.push_back({t[1], bc, ab});
      next.push_back({t[2], ca, bc});
      next.push_back({ab, bc, ca});
    }
    m.triangles = next;
  }
  for (Vec3& v : m.vertices) v = v * (r / length(v));
  return m;
}

// the box [-h, h] about the origin, outward triangles; without its top face (y = +h) when `open`
inline TriangleMesh boxMesh(Vec3 h, bool open = false) {
  TriangleMesh m;
  for (int i = 0; i < 8; ++i)
    m.vertices.push_back({i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z});
  // two triangles per face, counter-clockwise seen from outside
  const std::uint32_t faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                     {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (int f = 0; f < 6; ++f) {
    if (open && f == 3) continue;  // the +y face
    const std::uint32_t* q = faces[f];
    m.triangles.push_back({q[0], q[1], q[2]});
    m.triangles.push_back({q[0], q[2], q[3]});
  }
  return m;
}

// writes mesh to the temporary folder as `name` (.obj or .ply) and returns the path
inline std::string writeTempMesh(const std::string& name, const TriangleMesh& mesh) {
  std::string path = (std::filesystem::temp_directory_path() / name).string();
  writeTriangleMesh(path, mesh);
  return path;
}

// the icosphere of radius 0.1 m about the origin (5120 triangles, within 0.06 mm of the sphere)
inline std::string writeIcosphere(const std::string& name) { return writeTempMesh(name, icosphere(0.1f, 4)); }

// a shape made in code with its mesh read, as loadSceneMeshes reads a scene's (for placeMesh)
inline ShapeDesc& readMesh(ShapeDesc& s) {
  s.mesh = std::make_shared<const TriangleMesh>(loadTriangleMesh(s.file));
  return s;
}

// the ball of radius 0.1 m about the origin: the analytic sphere, or the icosphere in meshFile (its field
// at 96 nodes across)
inline ShapeDesc ballShape(const std::string& meshFile) {
  ShapeDesc s;
  if (meshFile.empty()) {
    s.type = "sphere";
    s.radius = 0.1f;
  } else {
    s.type = "mesh";
    s.file = meshFile;
    s.sdfResolution = 96;
  }
  return s;
}

}  // namespace eddy::test
