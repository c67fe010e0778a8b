// Exact triangle tests where a mesh's distance field is too coarse to see the surface.
//
// A feature thinner than a field cell (a claw, the tip of a horn, a fin) may hold no node inside it, so
// the trilinear field reads it as a shallow dent of positive distance, and a small, fast particle can
// pass through it. The DirectCompute SPH framework's grid-local collision detection keeps, for each grid
// cell, the triangles that overlap it, and tests a particle's path against them. Here only the cells the
// field cannot resolve keep their lists (the "thin" cells), so a well-resolved mesh pays nothing:
//
//   a cell is thin where two of its triangles face away from each other (normals more than 120 degrees
//   apart: both sides of a sheet, a spike or a sharp ridge inside one cell), or where the field read at
//   a point of the surface in the cell is off by more than 0.6 of a cell (more than at the corner of a
//   box, where the trilinear field rounds it off by up to half a cell).
//
// A path whose box touches a brick of 4^3 cells that holds a thin cell walks the cells it crosses and
// tests the triangles of the thin ones; every other path is left to the field alone, at the cost of a
// brick lookup.
//
// References:
//   T. Möller, B. Trumbore, "Fast, minimum storage ray-triangle intersection", J. Graphics Tools 2(1),
//     1997 (the segment test).
//   J. Amanatides, A. Woo, "A fast voxel traversal algorithm for ray tracing", Eurographics 1987.
//   T. Akenine-Möller, "Fast 3D triangle-box overlap testing", J. Graphics Tools 6(1), 2001 (which cells
//     a triangle overlaps).
#pragma once

#include "colliders/mesh_field.h"
#include "colliders/triangle_geometry.h"

#if defined(__CUDACC__)
#define EDDY_NOINLINE __noinline__
#else
#define EDDY_NOINLINE __attribute__((noinline))
#endif

namespace eddy {

constexpr int kThinWalkCells = 96;  // cells one path walks at most (a substep moves a few)
constexpr int kThinBrick = 4;       // cells along a brick's side

// whether the box of the segment a -> b (field frame) touches a brick that holds a thin cell: a path that
// does not cannot cross one, and is left to the field alone
EDDY_HD inline bool segmentNearThinCells(const MeshFieldView& f, Vec3 a, Vec3 b) {
  const ThinCellsView& t = f.thin;
  Real inv = 1 / (f.cell * kThinBrick);
  Vec3 lo = (cwiseMin(a, b) - f.origin) * inv, hi = (cwiseMax(a, b) - f.origin) * inv;
  int i0 = int(fmaxf(floorf(lo.x), 0)), j0 = int(fmaxf(floorf(lo.y), 0)), k0 = int(fmaxf(floorf(lo.z), 0));
  int i1 = int(fminf(floorf(hi.x), Real(t.bx - 1))), j1 = int(fminf(floorf(hi.y), Real(t.by - 1))),
      k1 = int(fminf(floorf(hi.z), Real(t.bz - 1)));
  for (int k = k0; k <= k1; ++k)
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i)
        if (t.bricks[(k * t.by + j) * t.bx + i]) return true;
  return false;
}

EDDY_HD inline std::uint32_t thinCellId(const MeshFieldView& f, int i, int j, int k) {
  return (std::uint32_t(k) * std::uint32_t(f.ny - 1) + std::uint32_t(j)) * std::uint32_t(f.nx - 1) +
         std::uint32_t(i);
}

// the triangles of thin cell `id`, as [*begin, *end) in f.thin.triangles; false where the cell is not thin
EDDY_HD inline bool thinCellTriangles(const ThinCellsView& t, std::uint32_t id, std::uint32_t* begin,
                                      std::uint32_t* end) {
  if (!((t.mask[id >> 5] >> (id & 31u)) & 1u)) return false;
  int lo = 0, hi = t.count - 1;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (t.cells[mid] < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  *begin = t.starts[lo];
  *end = t.starts[lo + 1];
  return true;
}

// The first crossing of the path a + dir s, s in [s0, s1] (dir a unit vector, all in the field's frame),
// with a triangle of a thin cell it passes: *sHit, and *normal the triangle's unit normal facing a. Out of
// line: only paths near a thin feature get here, and the loop would crowd the collider kernels' registers.
EDDY_HD EDDY_NOINLINE inline bool firstThinCrossing(const MeshFieldView& f, Vec3 a, Vec3 dir, Real s0,
                                                    Real s1, Real* sHit, Vec3* normal) {
  // clip the path to the box of cells (the mesh lies well inside it)
  Vec3 lo = f.origin, hi = f.upper();
  Real da[3] = {dir.x, dir.y, dir.z}, pa[3] = {a.x, a.y, a.z}, la[3] = {lo.x, lo.y, lo.z},
       ha[3] = {hi.x, hi.y, hi.z};
  for (int ax = 0; ax < 3; ++ax) {
    if (da[ax] == 0) {
      if (pa[ax] < la[ax] || pa[ax] > ha[ax]) return false;
      continue;
    }
    Real t0 = (la[ax] - pa[ax]) / da[ax], t1 = (ha[ax] - pa[ax]) / da[ax];
    s0 = fmaxf(s0, fminf(t0, t1));
    s1 = fminf(s1, fmaxf(t0, t1));
  }
  if (!(s0 <= s1)) return false;
  // Amanatides–Woo: the cell the clipped path starts in, then one cell face at a time
  int n[3] = {f.nx - 1, f.ny - 1, f.nz - 1}, cell[3], step[3];
  Real next[3], delta[3];
  Real inv = 1 / f.cell;
  for (int ax = 0; ax < 3; ++ax) {
    Real at = pa[ax] + da[ax] * s0;
    int c = int(floorf((at - la[ax]) * inv));
    cell[ax] = c < 0 ? 0 : (c > n[ax] - 1 ? n[ax] - 1 : c);
    step[ax] = da[ax] > 0 ? 1 : (da[ax] < 0 ? -1 : 0);
    if (step[ax] == 0) {
      next[ax] = delta[ax] = Real(1e30);
    } else {
      Real face = la[ax] + Real(cell[ax] + (step[ax] > 0)) * f.cell;
      next[ax] = (face - pa[ax]) / da[ax];
      delta[ax] = f.cell / fabsf(da[ax]);
    }
  }
  const ThinCellsView& t = f.thin;
  Real best = s1;
  bool found = false;
  for (int walked = 0; walked < kThinWalkCells; ++walked) {
    std::uint32_t begin, end;
    if (thinCellTriangles(t, thinCellId(f, cell[0], cell[1], cell[2]), &begin, &end)) {
      for (std::uint32_t q = begin; q < end; ++q) {
        std::uint32_t tri = t.triangles[q];
        Vec3 p0 = t.vertices[t.corners[3 * tri]], p1 = t.vertices[t.corners[3 * tri + 1]],
             p2 = t.vertices[t.corners[3 * tri + 2]];
        Real s;
        if (segmentCrossesTriangle(a, dir, s0, best, p0, p1, p2, s)) {
          best = s;
          found = true;
          Vec3 nn = cross(p1 - p0, p2 - p0);
          *normal = dot(nn, dir) > 0 ? -nn : nn;
        }
      }
    }
    int ax = next[0] < next[1] ? (next[0] < next[2] ? 0 : 2) : (next[1] < next[2] ? 1 : 2);
    // a crossing before this cell's exit is the first: the cells further on lie beyond it
    if (next[ax] > (found ? best : s1)) break;
    cell[ax] += step[ax];
    if (cell[ax] < 0 || cell[ax] >= n[ax]) break;
    next[ax] += delta[ax];
  }
  if (!found) return false;
  *sHit = best;
  *normal = normalizeOr(*normal, Vec3{0, 1, 0});
  return true;
}

}  // namespace eddy
