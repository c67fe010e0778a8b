// A scalar field on a regular grid of nodes, negative inside the liquid: what the surface methods build
// and marching cubes reads.
#pragma once

#include <eddy/backend.h>
#include <eddy/vec3.h>

#include <cstddef>

namespace eddy {

struct SurfaceGridView {
  const Real* values = nullptr;  // nx * ny * nz nodes, x fastest
  int nx = 0, ny = 0, nz = 0;
  Vec3 origin{};  // node (0, 0, 0)
  Real cell = 1;  // node spacing, m

  EDDY_HD std::size_t index(int i, int j, int k) const { return (std::size_t(k) * ny + j) * nx + i; }
  EDDY_HD Real at(int i, int j, int k) const { return values[index(i, j, k)]; }
  EDDY_HD Vec3 node(int i, int j, int k) const { return origin + Vec3{Real(i), Real(j), Real(k)} * cell; }
};

}  // namespace eddy
