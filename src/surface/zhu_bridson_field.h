// The liquid's surface as the zero set of a field on a grid, from particle positions, by the method of
// Zhu & Bridson (2005):
//
//   phi(x) = |x - xbar(x)| - rbar(x),   xbar = sum_i w_i x_i / sum_i w_i,   rbar = sum_i w_i r_i / sum_i w_i,
//   w_i = k(|x - x_i| / R),             k(s) = max(0, (1 - s^2)^3),
//
// negative inside the liquid, every r_i the same: 0.57 spacing by default, which puts a flat layer's
// surface on the plane the layer fills, so a body's mesh encloses its particles' volume. Each particle adds
// its weights to the stored nodes within R of it (atomic sums, one source for the CPU and CUDA); a node no
// particle reaches is outside by R.
//
// Reference: Y. Zhu, R. Bridson, "Animating sand as a fluid", ACM Trans. Graph. 24(3), 2005, section 3.
#pragma once

#include "backend/primitives.h"
#include "surface/surface_grid.h"
#include "surface/surface_reconstruction.h"

namespace eddy::EDDY_NS {

class ZhuBridsonField {
 public:
  // lays out grid around the n particles (positions on the device) and fills its values
  void build(const Vec3* positions, Index n, const SurfaceSettings& settings, SurfaceGrid& grid,
             Primitives& prims);
  std::size_t bytes() const { return sums_.bytes(); }

 private:
  Buffer<Real> sums_;  // per node: sum w, sum w (x_i - node) on each axis
};

}  // namespace eddy::EDDY_NS
