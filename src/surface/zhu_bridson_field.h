// The liquid's surface as the zero set of a field on a grid, from particle positions, by the method of
// Zhu & Bridson (2005):
//
//   phi(x) = |x - xbar(x)| - rbar(x),   xbar = sum_i w_i x_i / sum_i w_i,   rbar = sum_i w_i r_i / sum_i w_i,
//   w_i = k(|x - x_i| / R),             k(s) = max(0, (1 - s^2)^3),
//
// negative inside the liquid, every r_i the same: 0.57 spacing by default, which puts a flat layer's
// surface on the plane the layer fills, so a body's mesh encloses its particles' volume.
//
// Where particles are a few spacings apart, the weighted centre lies between them: midway between two
// particles 2 to 4 spacings apart xbar = x, so phi = -r there with no particle near, and the mesh grows a
// droplet of its own. Zhu & Bridson note that the formula misbehaves where the centre strays from the
// particles; here the field is bounded below where the particles are sparse and far: with d1 and d2 the
// distances to the nearest and the second nearest particle, W = sum_i w_i,
//
//   b(x) = min(d1 - 0.7 r_reach, d2 - r_reach),
//   phi(x) = max(|x - xbar(x)| - rbar(x), b(x)) where b > 0 and W < 1.5, the paper's phi elsewhere,
//
// so in spray the surface lies within 0.7 r_reach of a particle or within r_reach of two. r_reach is one
// spacing by default. The droplet between two particles parts from them from 2.4 spacings apart, where it
// comes within 0.89 spacing of each: 0.7 cuts it whole (r = 0.57 keeps a lone particle's sphere), and
// two particles more than 2 r_reach apart, or three around a gap as wide, get nothing drawn between them.
// W < 1.5 (a bulk neighbourhood sums to 5.1 at rest, a flat top to about 2.5; the particles about a
// droplet to under 0.8) keeps the bound out of sampled liquid: a flat layer's surface passes sqrt(3) / 2
// spacing from its particles, a lattice ball's terraces farther, and a void inside the liquid would
// otherwise become a bubble. Where the bound does not apply the field is the paper's, value for value, so
// those vertices stay where they were; where it cuts, the vertex lies between the last node inside and
// the first the bound puts outside.
//
// Each particle adds its weights to the stored nodes within R of it and lowers their two smallest squared
// distances (atomic sums and minima, one source for the CPU and CUDA); a node no particle reaches is
// outside by R. The distances are tracked up to r_reach + cell only: an edge between a node inside the
// bound and one beyond that cannot exist, so the clamp changes no sign change and no vertex.
//
// Reference: Y. Zhu, R. Bridson, "Animating sand as a fluid", ACM Trans. Graph. 24(3), 2005, section 3.
#pragma once

#include <eddy/surface.h>

#include "backend/primitives.h"
#include "surface/surface_grid.h"

namespace eddy::EDDY_NS {

class ZhuBridsonField {
 public:
  static constexpr Real kNearReach = Real(0.7);     // of r_reach: the reach of a particle alone
  static constexpr Real kSparseWeight = Real(1.5);  // W below which the bound applies

  // lays out grid around the n particles (positions on the device) and fills its values
  void build(const Vec3* positions, Index n, const SurfaceSettings& settings, SurfaceGrid& grid,
             Primitives& prims);
  std::size_t bytes() const { return sums_.bytes() + nearest_.bytes(); }

 private:
  Buffer<Real> sums_;  // per node: sum w, sum w (x_i - node) on each axis
  Buffer<std::uint32_t>
      nearest_;  // per node: the two smallest squared distances to a particle, as float bits
};

}  // namespace eddy::EDDY_NS
