// The liquid's surface as the zero set of a field on a grid, from particle positions, by the method of
// Zhu & Bridson (2005):
//
//   phi(x) = |x - xbar(x)| - rbar(x),   xbar = sum_i w_i x_i / sum_i w_i,   rbar = sum_i w_i r_i / sum_i w_i,
//   w_i = k(|x - x_i| / R),             k(s) = max(0, (1 - s^2)^3),
//
// negative inside the liquid. Each particle adds its weights to the nodes within R of it (atomic sums, one
// source for the CPU and CUDA); a node no particle reaches is outside. This first version fills a dense
// grid over the particles' box; memory grows with that box.
//
// Reference: Y. Zhu, R. Bridson, "Animating sand as a fluid", ACM Trans. Graph. 24(3), 2005, section 3.
#pragma once

#include "backend/primitives.h"
#include "surface/surface_grid.h"
#include "surface/surface_reconstruction.h"

namespace eddy::EDDY_NS {

class ZhuBridsonField {
 public:
  // positions: n particles on the device
  void build(const Vec3* positions, Index n, const SurfaceSettings& settings, Primitives& prims);
  SurfaceGridView view() const { return grid_; }
  std::size_t bytes() const { return values_.bytes() + sums_.bytes(); }

 private:
  SurfaceGridView grid_{};
  Buffer<Real> values_;
  Buffer<Real> sums_;  // per node: sum w, sum w x, sum w y, sum w z
};

}  // namespace eddy::EDDY_NS
