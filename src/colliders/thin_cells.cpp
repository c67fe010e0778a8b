#include "colliders/thin_cells.h"

#include <eddy/error.h>

#include <cstdint>
#include <string>
#include <utility>

#include "colliders/mesh_sdf.h"

namespace eddy::EDDY_NS {

namespace {

constexpr Real kOpposedNormals = Real(-0.5);  // cos 120 degrees: two faces of one thin part
constexpr Real kMisread = Real(0.6);  // cells: a misreading at the surface beyond a box corner's (0.5)

// calls visit(id) for every cell of the field that triangle abc overlaps
template <class Visit>
EDDY_HD void forOverlappedCells(const MeshFieldView& f, Vec3 a, Vec3 b, Vec3 c, Visit&& visit) {
  Real inv = 1 / f.cell;
  Vec3 lo = (cwiseMin(a, cwiseMin(b, c)) - f.origin) * inv,
       hi = (cwiseMax(a, cwiseMax(b, c)) - f.origin) * inv;
  int i0 = int(floorf(lo.x)), i1 = int(floorf(hi.x)), j0 = int(floorf(lo.y)), j1 = int(floorf(hi.y)),
      k0 = int(floorf(lo.z)), k1 = int(floorf(hi.z));
  i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0, k0 = k0 < 0 ? 0 : k0;
  i1 = i1 > f.nx - 2 ? f.nx - 2 : i1, j1 = j1 > f.ny - 2 ? f.ny - 2 : j1, k1 = k1 > f.nz - 2 ? f.nz - 2 : k1;
  // a hair wider than the cell, so a triangle along a cell face counts in both cells
  Real half = Real(0.5) * f.cell * Real(1.0001);
  for (int k = k0; k <= k1; ++k)
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        Vec3 center = f.node(i, j, k) + Vec3{half, half, half} * Real(1 / 1.0001);
        if (triangleOverlapsCube(center, half, a, b, c)) visit(thinCellId(f, i, j, k));
      }
}

// whether the field misses the surface in cell `id`, which m triangles overlap (see thin_cells.h)
EDDY_HD bool cellIsThin(const MeshFieldView& f, const TriangleSoup& mesh, std::uint32_t id,
                        const std::uint32_t* tris, int m) {
  std::uint32_t cx = std::uint32_t(f.nx - 1), cy = std::uint32_t(f.ny - 1);
  int i = int(id % cx), j = int((id / cx) % cy), k = int(id / (cx * cy));
  Vec3 lo = f.node(i, j, k), hi = f.node(i + 1, j + 1, k + 1);
  Vec3 center = (lo + hi) * Real(0.5);
  Real slack = Real(1e-4) * f.cell;
  auto inCell = [&](Vec3 p) {
    return p.x >= lo.x - slack && p.y >= lo.y - slack && p.z >= lo.z - slack && p.x <= hi.x + slack &&
           p.y <= hi.y + slack && p.z <= hi.z + slack;
  };
  auto misread = [&](Vec3 p) { return inCell(p) && fabsf(sampleField(f, p, nullptr)) > kMisread * f.cell; };
  for (int q = 0; q < m; ++q) {
    Vec3 a, b, c;
    mesh.corners(tris[q], a, b, c);
    Vec3 nq = normalizeOr(cross(b - a, c - a), Vec3{0, 0, 0});
    for (int p = 0; p < q; ++p) {
      Vec3 a2, b2, c2;
      mesh.corners(tris[p], a2, b2, c2);
      if (dot(nq, normalizeOr(cross(b2 - a2, c2 - a2), Vec3{0, 0, 0})) < kOpposedNormals) return true;
    }
    // the field read on the surface: at the triangle's point nearest the cell's centre, its corners and
    // its centroid, where they lie in the cell
    if (misread(closestOnTriangle(center, a, b, c)) || misread(a) || misread(b) || misread(c) ||
        misread((a + b + c) * Real(1.0 / 3.0)))
      return true;
  }
  return false;
}

}  // namespace

void ThinCells::build(const MeshFieldView& field, const Vec3* vertices, const std::uint32_t* corners,
                      Index triangleCount, Primitives& prims) {
  MeshFieldView f = field;
  f.thin = ThinCellsView{};
  TriangleSoup mesh{vertices, corners};
  std::size_t cellCount = std::size_t(f.nx - 1) * std::size_t(f.ny - 1) * std::size_t(f.nz - 1);
  int bits = 1;
  while (bits < 32 && (std::size_t(1) << bits) < cellCount) ++bits;

  // 1. (cell, triangle) for every cell a triangle overlaps, sorted by cell
  Buffer<std::uint32_t> counts(kDevice, std::size_t(triangleCount) + 1),
      offsets(kDevice, std::size_t(triangleCount) + 1);
  counts.fillZero();
  std::uint32_t* count = counts.data();
  // the pairs in 64 bits too: the 32-bit scan would wrap without a sign, and the passes over the pairs
  // number them by Index
  Buffer<unsigned long long> pairCount(kDevice, 1);
  pairCount.fillZero();
  unsigned long long* allPairs = pairCount.data();
  parallelFor(
      triangleCount, EDDY_KERNEL(Index tri) {
        Vec3 a, b, c;
        mesh.corners(std::uint32_t(tri), a, b, c);
        std::uint32_t n = 0;
        forOverlappedCells(f, a, b, c, [&](std::uint32_t) { ++n; });
        count[tri] = n;
        atomicAddCount(allPairs, n);
      });
  unsigned long long pairs64 = 0;
  pairCount.download(&pairs64, 1);
  if (pairs64 >= std::uint64_t(INT32_MAX))
    throw InputError(
        "sdf_resolution: the mesh's triangles overlap " + std::to_string(pairs64) +
        " cells of the field in all, more than the 2^31 - 2 the thin-cell test can number; lower "
        "sdf_resolution");
  prims.exclusiveScan(counts.view(), offsets.view(), triangleCount + 1);
  std::uint32_t pairs = 0;
  offsets.download(&pairs, 1, std::size_t(triangleCount));
  view_ = ThinCellsView{};
  listed_ = 0;
  if (pairs == 0) return;
  Buffer<std::uint32_t> keys(kDevice, pairs + 1), values(kDevice, pairs + 1), keysTmp(kDevice, pairs + 1),
      valuesTmp(kDevice, pairs + 1);
  {
    const std::uint32_t* offset = offsets.data();
    std::uint32_t* key = keys.data();
    std::uint32_t* value = values.data();
    parallelFor(
        triangleCount, EDDY_KERNEL(Index tri) {
          Vec3 a, b, c;
          mesh.corners(std::uint32_t(tri), a, b, c);
          std::uint32_t at = offset[tri];
          forOverlappedCells(f, a, b, c, [&](std::uint32_t id) {
            key[at] = id;
            value[at] = std::uint32_t(tri);
            ++at;
          });
        });
  }
  if (prims.sortPairs(keys.view(), values.view(), keysTmp.view(), valuesTmp.view(), Index(pairs), bits)) {
    keys.swap(keysTmp);
    values.swap(valuesTmp);
  }

  // 2. which cells are thin (decided at each cell's first pair), and which pairs and cells to keep
  Buffer<std::uint32_t> thin(kDevice, pairs + 1), keep(kDevice, pairs + 1), keepAt(kDevice, pairs + 1),
      head(kDevice, pairs + 1), headAt(kDevice, pairs + 1);
  keep.fillZero();
  head.fillZero();
  {
    const std::uint32_t* key = keys.data();
    const std::uint32_t* value = values.data();
    std::uint32_t* isThin = thin.data();
    parallelFor(
        Index(pairs), EDDY_KERNEL(Index p) {
          if (p > 0 && key[p - 1] == key[p]) return;
          Index end = p + 1;
          while (end < Index(pairs) && key[end] == key[p]) ++end;
          isThin[p] = cellIsThin(f, mesh, key[p], value + p, int(end - p));
        });
    std::uint32_t* kept = keep.data();
    std::uint32_t* first = head.data();
    parallelFor(
        Index(pairs), EDDY_KERNEL(Index p) {
          Index start = p;
          while (start > 0 && key[start - 1] == key[p]) --start;
          kept[p] = isThin[start];
          first[p] = start == p ? isThin[p] : 0u;
        });
  }
  prims.exclusiveScan(keep.view(), keepAt.view(), Index(pairs) + 1);
  prims.exclusiveScan(head.view(), headAt.view(), Index(pairs) + 1);
  std::uint32_t thinCount = 0;
  keepAt.download(&listed_, 1, pairs);
  headAt.download(&thinCount, 1, pairs);

  // 3. the thin cells' triangle lists, and a bit per cell
  triangles_ = Buffer<std::uint32_t>(kDevice, std::size_t(listed_) + 1);
  cells_ = Buffer<std::uint32_t>(kDevice, std::size_t(thinCount) + 1);
  starts_ = Buffer<std::uint32_t>(kDevice, std::size_t(thinCount) + 1);
  {
    const std::uint32_t* key = keys.data();
    const std::uint32_t* value = values.data();
    const std::uint32_t* kept = keep.data();
    const std::uint32_t* keptAt = keepAt.data();
    const std::uint32_t* first = head.data();
    const std::uint32_t* firstAt = headAt.data();
    std::uint32_t* listed = triangles_.data();
    std::uint32_t* cells = cells_.data();
    std::uint32_t* starts = starts_.data();
    parallelFor(
        Index(pairs), EDDY_KERNEL(Index p) {
          if (!kept[p]) return;
          listed[keptAt[p]] = value[p];
          if (first[p]) {
            cells[firstAt[p]] = key[p];
            starts[firstAt[p]] = keptAt[p];
          }
        });
  }
  starts_.upload(&listed_, 1, thinCount);
  std::size_t words = (cellCount + 31) / 32;
  mask_ = Buffer<std::uint32_t>(kDevice, words);
  {
    const std::uint32_t* cells = cells_.data();
    std::uint32_t* mask = mask_.data();
    int n = int(thinCount);
    parallelFor(
        Index(words), EDDY_KERNEL(Index w) {
          // the first thin cell at or after this word's first cell, then every one inside the word
          std::uint32_t from = std::uint32_t(w) * 32u;
          int lo = 0, hi = n;
          while (lo < hi) {
            int mid = (lo + hi) >> 1;
            if (cells[mid] < from)
              lo = mid + 1;
            else
              hi = mid;
          }
          std::uint32_t word = 0;
          for (int q = lo; q < n && cells[q] < from + 32u; ++q) word |= 1u << (cells[q] - from);
          mask[w] = word;
        });
  }
  // 4. a byte per brick of kThinBrick^3 cells: whether any of its cells is thin
  int bx = (f.nx - 1 + kThinBrick - 1) / kThinBrick, by = (f.ny - 1 + kThinBrick - 1) / kThinBrick,
      bz = (f.nz - 1 + kThinBrick - 1) / kThinBrick;
  bricks_ = Buffer<std::uint8_t>(kDevice, std::size_t(bx) * by * bz);
  {
    const std::uint32_t* mask = mask_.data();
    std::uint8_t* bricks = bricks_.data();
    parallelFor(
        Index(bx) * by * bz, EDDY_KERNEL(Index b) {
          int i0 = int(b % bx) * kThinBrick, j0 = int((b / bx) % by) * kThinBrick,
              k0 = int(b / (Index(bx) * by)) * kThinBrick;
          std::uint8_t any = 0;
          for (int k = k0; k < k0 + kThinBrick && k < f.nz - 1; ++k)
            for (int j = j0; j < j0 + kThinBrick && j < f.ny - 1; ++j)
              for (int i = i0; i < i0 + kThinBrick && i < f.nx - 1; ++i) {
                std::uint32_t id = thinCellId(f, i, j, k);
                any |= std::uint8_t((mask[id >> 5] >> (id & 31u)) & 1u);
              }
          bricks[b] = any;
        });
  }
  synchronizeDevice(kDevice);
  view_ = ThinCellsView{};
  view_.mask = mask_.data();
  view_.cells = cells_.data();
  view_.starts = starts_.data();
  view_.triangles = triangles_.data();
  view_.vertices = vertices;
  view_.corners = corners;
  view_.bricks = bricks_.data();
  view_.bx = bx;
  view_.by = by;
  view_.bz = bz;
  view_.count = int(thinCount);
}

std::size_t ThinCells::bytes() const {
  return mask_.bytes() + cells_.bytes() + starts_.bytes() + triangles_.bytes() + bricks_.bytes();
}

}  // namespace eddy::EDDY_NS
