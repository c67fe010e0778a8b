#include "surface/yu_turk_field.h"

#include <cmath>

namespace eddy::EDDY_NS {

namespace {

constexpr Real kPi = Real(3.14159265358979323846);

}  // namespace

void YuTurkField::computeKernels(Index n, Real r, Real h) {
  GridView cells = grid_.grid();
  const Vec3* x = particles_.vec3("x").data;
  Vec3* centre = centres_.data();
  Mat3* stretch = stretch_.data();
  Real* reach = reach_.data();
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        Vec3 xi = x[i];
        Kernel k = kernelOf(cells, x, xi, r, h);
        stretch[i] = k.G;
        reach[i] = k.reach;
        centre[i] = xi + k.towardsMean * kCentreSmoothing;
      });
}

void YuTurkField::buildKernels(const Vec3* positions, Index n, const SurfaceSettings& s, Real r,
                               Primitives& prims) {
  Real h = s.kernelRadius;
  // a sorted copy of the particles on a neighbour grid of cell r
  if (!ready_) {
    particles_.addAttribute("x", 3);
    ready_ = true;
  }
  particles_.restore(n, 0);
  Vec3* copy = particles_.vec3("x").data;
  parallelFor(
      n, EDDY_KERNEL(Index i) { copy[i] = positions[i]; });
  // cells of half the neighbourhood, two of them each way: a third of the particles 27 cells of the whole
  // neighbourhood would hold (no neighbour lists: the kernels walk the cells)
  grid_.setup(r / 2, n, 1);
  grid_.sortParticles(particles_, "x", prims);
  ensureCapacity(centres_, std::size_t(n));
  ensureCapacity(stretch_, std::size_t(n));
  ensureCapacity(reach_, std::size_t(n));
  computeKernels(n, r, h);
}

void YuTurkField::build(const Vec3* positions, Index n, const SurfaceSettings& s, SurfaceGrid& grid,
                        Primitives& prims) {
  buildKernels(positions, n, s, 2 * s.kernelRadius, prims);

  // the colour field of the stretched kernels around the smoothed centres
  Real farthest = prims.max(reach_.view(), n);
  Real iso = s.isoLevel;
  grid.layout(centres_.data(), n, s.cell, farthest, iso, prims);
  SurfaceGridView g = grid.view();
  Real* values = grid.values();
  parallelFor(
      g.storedNodes(), EDDY_KERNEL(Index i) { values[i] = iso; });
  const Vec3* centre = centres_.data();
  const Mat3* stretch = stretch_.data();
  const Real* reach = reach_.data();
  Real volume = s.particleVolume;
  Real unitPoly6 = Real(315) / (64 * kPi);  // P(q) = unitPoly6 (1 - q^2)^3 integrates to 1 over q < 1
  parallelFor(
      n, EDDY_KERNEL(Index p) {
        Vec3 c = centre[p];
        Mat3 G = stretch[p];
        Real weight = volume * determinant(G) * unitPoly6;
        g.forNodesNear(c, reach[p], [&](std::size_t at, Vec3 node) {
          Vec3 q = G * (node - c);
          Real u = 1 - dot(q, q);
          if (u > 0) atomicAddReal(values + at, -weight * u * u * u);
        });
      });
}

std::size_t YuTurkField::bytes() const {
  return particles_.bytes() + grid_.bytes() + centres_.bytes() + stretch_.bytes() + reach_.bytes();
}

}  // namespace eddy::EDDY_NS
