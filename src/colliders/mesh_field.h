// A triangle mesh's signed distance field as kernels read it: values on a regular grid of nodes in the
// mesh's own frame, negative inside, sampled trilinearly with the interpolant's gradient as the normal.
//
// Within `band` of the surface the node values are exact distances to the nearest triangle; beyond it
// they are lower bounds of the distance (the coarse fill), which is all the contact code and the swept
// test need there. Outside the grid the distance is the band plus the distance to the grid's box.
#pragma once

#include <eddy/backend.h>
#include <eddy/mesh_field.h>
#include <eddy/vec3.h>

#include <cstdint>
#include <string>
#include <vector>

namespace eddy {

// The grid a mesh's field is built on, worked out from the mesh's box before anything is allocated, and
// what the build costs. Node counts are 64-bit: a field at a high sdf_resolution passes 2^31 nodes, and a
// small mesh with a wide band (1.5 h in a scene) passes it at a modest one.
struct MeshFieldLayout {
  int resolution = 0;
  Vec3 meshLo{}, meshHi{};              // the box of the mesh's triangles, local frame
  Vec3 origin{};                        // node (0, 0, 0)
  Real cell = 1;                        // node spacing, m
  Real band = 0;                        // exact within this distance of the surface, m
  std::int64_t nx = 0, ny = 0, nz = 0;  // nodes per axis

  std::int64_t nodes() const { return nx * ny * nz; }
  std::int64_t rows() const { return ny * nz; }  // rows of nodes along x
  std::int64_t cells() const { return (nx - 1) * (ny - 1) * (nz - 1); }
  // device memory at the build's peak and held by the finished field, bytes; `thinCells` for a closed
  // mesh, whose cells get the thin-cell table (a shell's do not)
  double buildBytes(bool thinCells) const;
  double fieldBytes(bool thinCells) const;
};

// the layout MeshSdf::build uses for a mesh (in its own frame); throws InputError for a mesh without
// triangles or extent, a resolution outside 8..2048 or a shell thinner than a cell (naming only the
// setting: the caller prefixes the scene key)
MeshFieldLayout meshFieldLayout(const TriangleMesh& mesh, const MeshSdfSettings& settings);

// Why the field cannot be built: more nodes along an axis or rows than an Index numbers, more cells than
// the thin-cell table's 32-bit ids number (thinCells), or more memory than `freeBytes`. Empty where it
// can. The reason reads after a key, "<key>: <reason>", and names the device memory as `memoryName`.
std::string meshFieldRefusal(const MeshFieldLayout& layout, bool thinCells, double freeBytes,
                             const std::string& memoryName);

// The cells of the field where it cannot be trusted to see the surface (a claw, a fin or a sliver thinner
// than a cell), each with the triangles that overlap it, for exact segment tests (colliders/thin_cells.h).
// Cell (i, j, k) spans nodes i..i+1, j..j+1, k..k+1; its id is (k * (ny - 1) + j) * (nx - 1) + i.
struct ThinCellsView {
  const std::uint32_t* mask = nullptr;       // one bit per cell: set where the cell is thin
  const std::uint32_t* cells = nullptr;      // ids of the thin cells, ascending
  const std::uint32_t* starts = nullptr;     // count + 1 offsets into triangles
  const std::uint32_t* triangles = nullptr;  // the triangles overlapping each thin cell
  const Vec3* vertices = nullptr;            // the mesh in the field's frame
  const std::uint32_t* corners = nullptr;    // three vertex indices per triangle
  const std::uint8_t* bricks = nullptr;      // per brick of 4^3 cells: 1 where it holds a thin cell
  int bx = 0, by = 0, bz = 0;                // bricks along each axis
  int count = 0;                             // thin cells; 0 leaves the field alone
};

struct MeshFieldView {
  const Real* values = nullptr;  // nx * ny * nz nodes, x fastest
  int nx = 0, ny = 0, nz = 0;
  Vec3 origin{};   // node (0, 0, 0), local frame
  Real cell = 1;   // node spacing, m
  Real band = 0;   // exact within this distance of the surface, m
  Real shell = 0;  // a thin shell's thickness, m; 0 for a closed mesh with an inside
  ThinCellsView thin{};

  EDDY_HD Real at(int i, int j, int k) const { return values[(std::size_t(k) * ny + j) * nx + i]; }
  EDDY_HD Vec3 node(int i, int j, int k) const { return origin + Vec3{Real(i), Real(j), Real(k)} * cell; }
  EDDY_HD Vec3 upper() const { return node(nx - 1, ny - 1, nz - 1); }
};

// the field at local point p; *grad (may be null) gets the unit gradient
EDDY_HD inline Real sampleField(const MeshFieldView& f, Vec3 p, Vec3* grad) {
  // clamp into the grid; a point outside adds its distance to the box
  Vec3 hi = f.upper();
  Vec3 q{fminf(fmaxf(p.x, f.origin.x), hi.x), fminf(fmaxf(p.y, f.origin.y), hi.y),
         fminf(fmaxf(p.z, f.origin.z), hi.z)};
  Vec3 out = p - q;
  Real away = length(out);
  if (away > 0) {
    // Outside the grid, read nothing: the grid's faces lie 4 cells beyond the band around the mesh's box,
    // where every node holds the coarse fill (at least the band), so band + away is a lower bound of the
    // distance. It is only ever used further than the band from the surface, where a lower bound is all
    // the contact, wall and swept-path code need (most particles of a large scene are out here).
    // (a shell's nodes hold the distance less half its thickness)
    if (grad) *grad = out / away;
    return f.band - Real(0.5) * f.shell + away;
  }
  Vec3 u = (q - f.origin) * (Real(1) / f.cell);
  int i = int(u.x), j = int(u.y), k = int(u.z);
  i = i < f.nx - 2 ? i : f.nx - 2;
  j = j < f.ny - 2 ? j : f.ny - 2;
  k = k < f.nz - 2 ? k : f.nz - 2;
  Real tx = u.x - Real(i), ty = u.y - Real(j), tz = u.z - Real(k);
  Real c000 = f.at(i, j, k), c100 = f.at(i + 1, j, k), c010 = f.at(i, j + 1, k), c110 = f.at(i + 1, j + 1, k);
  Real c001 = f.at(i, j, k + 1), c101 = f.at(i + 1, j, k + 1), c011 = f.at(i, j + 1, k + 1),
       c111 = f.at(i + 1, j + 1, k + 1);
  // along x on the four edges, then y, then z
  Real e00 = c000 + (c100 - c000) * tx, e10 = c010 + (c110 - c010) * tx;
  Real e01 = c001 + (c101 - c001) * tx, e11 = c011 + (c111 - c011) * tx;
  Real f0 = e00 + (e10 - e00) * ty, f1 = e01 + (e11 - e01) * ty;
  Real d = f0 + (f1 - f0) * tz;
  if (grad) {
    // the trilinear interpolant's own gradient
    Real gx0 = (c100 - c000) + ((c110 - c010) - (c100 - c000)) * ty;
    Real gx1 = (c101 - c001) + ((c111 - c011) - (c101 - c001)) * ty;
    Real gy0 = (e10 - e00), gy1 = (e11 - e01);
    Vec3 g{gx0 + (gx1 - gx0) * tz, gy0 + (gy1 - gy0) * tz, f1 - f0};
    Real l = length(g);
    *grad = l > Real(1e-20) ? g / l : Vec3{0, 1, 0};
  }
  return d;
}

}  // namespace eddy
