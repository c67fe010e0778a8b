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
  Real invR = 1 / r, r2 = r * r;
  Real ks = 1 / (Real(0.15) * r2);
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        Vec3 xi = x[i];
        // weighted sums relative to x_i, for precision: sum w, sum w d, sum w d d^T (its six distinct terms)
        Real sw = 0;
        Vec3 sd{};
        Real sxx = 0, sxy = 0, sxz = 0, syy = 0, syz = 0, szz = 0;
        int neighbours = 0;
        cells.forEachCellWithinTwo(xi, [&](std::uint32_t begin, std::uint32_t end) {
          for (std::uint32_t j = begin; j < end; ++j) {
            Vec3 d = x[j] - xi;
            Real d2 = dot(d, d);
            if (d2 >= r2) continue;
            Real s = sqrtf(d2) * invR;
            Real w = 1 - s * s * s;
            sw += w;
            sd += d * w;
            Vec3 wd = d * w;
            sxx += wd.x * d.x, sxy += wd.x * d.y, sxz += wd.x * d.z;
            syy += wd.y * d.y, syz += wd.y * d.z, szz += wd.z * d.z;
            neighbours += d2 > 0;
          }
        });
        Vec3 mean = sd / sw;  // sw >= 1: the particle itself
        Mat3 sdd;
        sdd.m[0][0] = sxx, sdd.m[0][1] = sdd.m[1][0] = sxy, sdd.m[0][2] = sdd.m[2][0] = sxz;
        sdd.m[1][1] = syy, sdd.m[1][2] = sdd.m[2][1] = syz, sdd.m[2][2] = szz;
        Mat3 C = sdd * (1 / sw) - outer(mean, mean);
        Mat3 U, V;
        Vec3 sigma;
        svd3(C, U, sigma, V);
        if (neighbours > kMinNeighbors) {
          Real s1 = fabsf(sigma.x);
          Vec3 S =
              Vec3{s1, fmaxf(fabsf(sigma.y), s1 / kStretchRatio), fmaxf(fabsf(sigma.z), s1 / kStretchRatio)} *
              ks;
          // V's columns are C's principal directions (C is symmetric); G = V S^-1 V^T / h
          stretch[i] = composeSvd(V, Vec3{1 / S.x, 1 / S.y, 1 / S.z} * (1 / h), V);
          reach[i] = h * fmaxf(S.x, fmaxf(S.y, S.z));
        } else {
          // too few neighbours to trust their directions: a round kernel, k_n as wide
          stretch[i] = Mat3::identity() * (1 / (kIsolatedScale * h));
          reach[i] = kIsolatedScale * h;
        }
        centre[i] = xi + mean * kCentreSmoothing;
      });
}

void YuTurkField::buildKernels(const Vec3* positions, Index n, const SurfaceSettings& s, Primitives& prims) {
  Real h = s.kernelRadius, r = 2 * s.kernelRadius;
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
  buildKernels(positions, n, s, prims);

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
