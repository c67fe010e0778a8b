// The layout of a mesh's distance field and the checks that it can be built, before anything is allocated.
// Host-only: compiled once, into namespace eddy (see EDDY_HOST_FILES in src/CMakeLists.txt).
#include "colliders/mesh_field.h"

#include <eddy/error.h>
#include <eddy/mesh.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace eddy {

namespace {

// nodes along an axis are kept below this; a field anywhere near it is refused long before
constexpr double kMostAxisNodes = double(std::int64_t(1) << 40);
// Index (int32) numbers the rows of nodes along x, and each row's entry plus one past the last in the ray
// test's tables
constexpr std::int64_t kMostRows = INT32_MAX - 1;
// the thin-cell table names a cell by a 32-bit id (colliders/thin_cells.h)
constexpr std::int64_t kMostThinCells = std::int64_t(1) << 32;
// the mesh's vertices and triangles, the ray test's triangle lists and the thin-cell pairs, which the node
// counts alone do not give: a margin like the particle check's
constexpr double kBuildSlack = double(std::size_t(64) << 20);

// as the build always counted them, in Real
std::int64_t axisNodes(Real span, Real cell) {
  double cells = std::ceil(span / cell);
  return std::int64_t(std::min(cells, kMostAxisNodes)) + 1;
}

std::string mib(double bytes) { return std::to_string(std::int64_t(bytes / (1024.0 * 1024.0))); }

}  // namespace

double MeshFieldLayout::buildBytes(bool thinCells) const {
  // per node: the values (4 bytes), the nearest triangle twice (Jacobi passes, 8 each) and the changed
  // flags twice (1 each); the row tables; the thin cells' bit mask, which is built while those live
  double bytes = double(nodes()) * (sizeof(Real) + 2 * sizeof(unsigned long long) + 2) +
                 double(rows() + 1) * 2 * sizeof(std::uint32_t) + kBuildSlack;
  if (thinCells) bytes += double(cells()) / 8;
  return bytes;
}

double MeshFieldLayout::fieldBytes(bool thinCells) const {
  double bytes = double(nodes()) * sizeof(Real) + double(rows() + 1) * 2 * sizeof(std::uint32_t);
  if (thinCells) bytes += double(cells()) / 8 + double(cells()) / 64;  // the mask and the bricks
  return bytes;
}

MeshFieldLayout meshFieldLayout(const TriangleMesh& mesh, const MeshSdfSettings& s) {
  if (mesh.triangles.empty()) throw InputError("the mesh has no triangles");
  if (!(s.resolution >= 8 && s.resolution <= 2048))
    throw InputError("sdf_resolution must be between 8 and 2048, got " + std::to_string(s.resolution));
  Vec3 lo = mesh.vertices[mesh.triangles[0][0]], hi = lo;
  for (const auto& t : mesh.triangles)
    for (std::uint32_t v : t) {
      lo = cwiseMin(lo, mesh.vertices[v]);
      hi = cwiseMax(hi, mesh.vertices[v]);
    }
  Vec3 size = hi - lo;
  Real longest = std::max({size.x, size.y, size.z});
  if (!(longest > 0)) throw InputError("the mesh has no extent");
  Real cell = longest / Real(s.resolution - 1);
  // a shell thinner than a cell could fall between the nodes: the interpolated distance would never
  // reach zero inside it
  if (s.shellThickness > 0 && s.shellThickness < cell)
    throw InputError("thickness " + std::to_string(s.shellThickness) +
                     " m is thinner than a distance-field cell (" + std::to_string(cell) +
                     " m); raise sdf_resolution to at least " +
                     std::to_string(int(std::ceil(longest / s.shellThickness)) + 1) + " or the thickness");
  if (!(s.shellThickness >= 0 && std::isfinite(s.shellThickness)))
    throw InputError("thickness must be a non-negative distance");
  MeshFieldLayout l;
  l.resolution = s.resolution;
  l.meshLo = lo;
  l.meshHi = hi;
  l.cell = cell;
  // a shell's surface lies half its thickness off the triangles: the band reaches that much further
  l.band = std::max(s.band + Real(0.5) * s.shellThickness, 3 * cell);
  Real margin = l.band + 4 * cell;
  l.origin = lo - Vec3{margin, margin, margin};
  l.nx = axisNodes(size.x + 2 * margin, cell);
  l.ny = axisNodes(size.y + 2 * margin, cell);
  l.nz = axisNodes(size.z + 2 * margin, cell);
  return l;
}

std::string meshFieldRefusal(const MeshFieldLayout& l, bool thinCells, double freeBytes,
                             const std::string& memoryName) {
  char band[160];
  std::snprintf(band, sizeof band, "a band of %.4g m (%.0f cells) and 4 cells more", double(l.band),
                std::ceil(double(l.band / l.cell)));
  std::string what = std::to_string(l.resolution) + " nodes along the mesh's longest side, with " + band +
                     " on every side, make a distance field of " + std::to_string(l.nx) + " x " +
                     std::to_string(l.ny) + " x " + std::to_string(l.nz) + " nodes";
  double rows = double(l.ny) * double(l.nz);
  if (double(l.nx) > double(kMostRows) || rows > double(kMostRows))
    return what + ", more rows of nodes along x than the build can index (2^31 - 2)";
  if (thinCells && l.cells() > kMostThinCells)
    return what + ", whose " + std::to_string(l.cells()) +
           " cells are more than the 2^32 the thin-cell table can name";
  double need = l.buildBytes(thinCells);
  if (need > freeBytes)
    return what + " (" + std::to_string(l.nodes()) + "), which needs about " + mib(need) + " MiB of " +
           memoryName + " memory to build, but only " + mib(freeBytes) + " MiB are free";
  return {};
}

}  // namespace eddy
