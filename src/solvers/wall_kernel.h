// Colliders as fluid at rest. A particle at distance d from a collider surface gets the density share
// rho0 * F(d) of the particles that would sit beyond the surface, and the wall's share of grad C (PBF) or
// of the pressure force (WCSPH) through -A(d) n. F and A are tabulated once from the planar approximation
// of the surface (curvature radius >> h), in the spirit of the density maps of Koschier & Bender 2017,
// "Density Maps for Improved SPH Boundary Handling" (SCA 2017), and of mirrored boundary particles.
#pragma once

#include <cmath>
#include <cstdlib>

#include "colliders/collider.h"
#include "core/sph_kernels.h"

namespace eddy {

// The distinct walls near one particle: distance and unit normal (toward the fluid) of each, and with Owned
// the collider each came from. A face whose normal is within about 8 degrees of a kept one is the same
// wall; the nearer of the two stays. Held in registers (fixed size, loops unrolled); beyond kMax distinct
// walls the farthest is dropped.
template <bool Owned>
struct WallFacesOf {
  static constexpr int kMax = 4;
  static constexpr Real kSameWall = Real(0.99);  // cosine between normals of one wall
  Real distance[kMax];
  Vec3 normal[kMax];
  int owner[Owned ? kMax : 1];
  int count = 0;

  EDDY_HD void add(Real d, Vec3 n, int from = 0) {
    int farthest = 0;
    EDDY_UNROLL
    for (int k = 0; k < kMax; ++k) {
      if (k >= count) break;
      if (dot(normal[k], n) > kSameWall) {
        if (d < distance[k]) set(k, d, n, from);
        return;
      }
      if (distance[k] > distance[farthest]) farthest = k;
    }
    EDDY_UNROLL
    for (int k = 0; k < kMax; ++k) {
      bool slot = count < kMax ? k == count : (k == farthest && d < distance[k]);
      if (slot) set(k, d, n, from);
    }
    if (count < kMax) ++count;
  }
  EDDY_HD void set(int k, Real d, Vec3 n, int from) {
    distance[k] = d, normal[k] = n;
    if constexpr (Owned) owner[k] = from;
  }
};
using WallFaces = WallFacesOf<false>;

struct WallKernel {
  static constexpr int kSamples = 32;
  Real fraction[kSamples + 1];  // F(d): poly6 mass beyond a wall at distance d, d = 0..h
  Real gradient[kSamples + 1];  // A(d): spiky kernel integrated over the plane at distance d
  Real h = 1, invStep = 1;

  // The wall is the fluid's own cubic lattice continued beyond the surface (layers at s/2, 3s/2, ... behind
  // it, laterally aligned with the particle), so a particle resting at s/2 from a flat wall sees exactly
  // the neighbourhood it would have inside the fluid.
  static WallKernel make(const SphKernels& k, Real spacing, Real mass, Real restDensity) {
    WallKernel w;
    w.h = k.h;
    w.invStep = Real(kSamples) / k.h;
    double s = spacing, h = k.h, vol = double(mass) / restDensity;
    int reach = int(std::ceil(h / s));
    for (int i = 0; i <= kSamples; ++i) {
      double d = h * i / kSamples, frac = 0, grad = 0;
      for (int layer = 0;; ++layer) {
        double z = d + s * (0.5 + layer);
        if (z >= h) break;
        for (int a = -reach; a <= reach; ++a)
          for (int b = -reach; b <= reach; ++b) {
            double r2 = (a * a + b * b) * s * s + z * z;
            if (r2 >= h * h) continue;
            double r = std::sqrt(r2), q = h - r;
            frac += vol * double(k.poly6Coef) * (h * h - r2) * (h * h - r2) * (h * h - r2);
            grad += vol * -double(k.spikyGradCoef) * q * q * z / r;
          }
      }
      w.fraction[i] = Real(frac);
      w.gradient[i] = Real(grad);
    }
    return w;
  }

  EDDY_HD Real lookup(const Real* table, Real d) const {
    if (d >= h) return 0;
    Real u = fmaxf(d, Real(0)) * invStep;
    int i = int(u);
    if (i >= kSamples) return table[kSamples];
    Real f = u - Real(i);
    return table[i] * (1 - f) + table[i + 1] * f;
  }

  // The kernel mass beyond the walls and the integral of grad W over them, over every collider. Each
  // collider within h gives the nearby faces of its surface (a box container up to three, any other shape
  // its nearest one). Faces that face the same way are one wall counted once, at the nearer distance: a
  // plane laid on the domain floor, or a box standing on it, must not double the floor. Different walls
  // (a floor and a side wall at a corner) overlap beyond the particle, and treating them as independent
  // (exact for a separable kernel) gives beyond = 1 - prod(1 - F_f), and its gradient by the product rule.
  EDDY_HD void accumulate(const ColliderData* cs, int n, Vec3 x, Real t, Real& massFraction,
                          Vec3& gradW) const {
    WallFaces faces;
    gatherFaces(cs, n, x, t, faces);
    Real inside = 1;  // prod (1 - F_f)
    Vec3 grad{};      // sum_f grad_f prod_{g != f} (1 - F_g), built incrementally
    EDDY_UNROLL
    for (int k = 0; k < WallFaces::kMax; ++k) {
      if (k >= faces.count) break;
      Real d = faces.distance[k];
      Real f = lookup(fraction, d);
      grad = grad * (1 - f) - faces.normal[k] * (lookup(gradient, d) * inside);
      inside *= 1 - f;
    }
    massFraction += 1 - inside;
    gradW += grad;
  }

  // accumulate's gradient face by face: visit(c, g, p) for each wall face, g its share of gradW (the
  // shares sum to gradW) and p the point of the face nearest x, c the index of the collider it belongs to
  // (wall forces on each collider, the density a moving wall adds)
  template <class Visit>
  EDDY_HD void forEachWallShare(const ColliderData* cs, int n, Vec3 x, Real t, Visit&& visit) const {
    WallFacesOf<true> faces;
    gatherFaces(cs, n, x, t, faces);
    Real keep[WallFaces::kMax];  // 1 - F_f
    EDDY_UNROLL
    for (int k = 0; k < WallFaces::kMax; ++k)
      keep[k] = k < faces.count ? 1 - lookup(fraction, faces.distance[k]) : 1;
    EDDY_UNROLL
    for (int k = 0; k < WallFaces::kMax; ++k) {
      if (k >= faces.count) break;
      Real others = 1;  // prod_{g != f} (1 - F_g)
      EDDY_UNROLL
      for (int g = 0; g < WallFaces::kMax; ++g)
        if (g != k) others *= keep[g];
      Real d = faces.distance[k];
      visit(faces.owner[k], faces.normal[k] * (-lookup(gradient, d) * others), x - faces.normal[k] * d);
    }
  }

  // the wall faces within h of x: a box container up to three, any other collider its nearest one
  template <class Faces>
  EDDY_HD void gatherFaces(const ColliderData* cs, int n, Vec3 x, Real t, Faces& faces) const {
    for (int c = 0; c < n; ++c) {
      if (cs[c].kind == ShapeKind::Box && cs[c].container) {
        addBoxFaces(cs[c], x, t, faces, c);
        continue;
      }
      Vec3 nrm;
      Real d = signedDistance(cs[c], x, t, &nrm);
      if (d < h) faces.add(d, nrm, c);
    }
  }

  // the faces of a box container within h of x; their normals point into the tank
  template <class Faces>
  EDDY_HD void addBoxFaces(const ColliderData& c, Vec3 x, Real t, Faces& faces, int index) const {
    Quat q = colliderOrientation(c, t);
    Vec3 local = toLocal(c, q, x - colliderCenter(c, t));
    // axes one by one with scalars: an array indexed by the axis would live in GPU local memory
    addFacePair(local.x, c.halfExtents.x, toWorld(c, q, Vec3{1, 0, 0}), faces, index);
    addFacePair(local.y, c.halfExtents.y, toWorld(c, q, Vec3{0, 1, 0}), faces, index);
    addFacePair(local.z, c.halfExtents.z, toWorld(c, q, Vec3{0, 0, 1}), faces, index);
  }
  template <class Faces>
  EDDY_HD void addFacePair(Real p, Real halfExtent, Vec3 axis, Faces& faces, int index) const {
    Real dLow = p + halfExtent, dHigh = halfExtent - p;
    if (dLow < h) faces.add(dLow, axis, index);
    if (dHigh < h) faces.add(dHigh, -axis, index);
  }
};

// The wall term of the pressure force, per unit rho0 (times the solver's gradient factor): the mirrored
// particle of each wall face has the particle's density and its pressure p_i plus the hydrostatic step to
// the mirror point, 2 (at - x_i) across the face (Adami, Hu & Adams 2012, "A generalized wall boundary
// condition for smoothed particle hydrodynamics", J. Comput. Phys. 231):
//   -sum_f A_f (p_i + p_w,f) / rho_i^2,   p_w,f / rho_i^2 = pi + hydrostatic . (at_f - x_i)
// with pi = p_i / rho_i^2 and hydrostatic = 2 rho0 g / rho_i^2. Shared by the solvers' force passes and the
// wall forces on the colliders (src/probes/wall_forces.h), so both see the same wall.
EDDY_HD inline Vec3 wallPressureAcceleration(const WallKernel& wall, const ColliderData* cs, int n, Vec3 x,
                                             Real t, Real pi, Vec3 hydrostatic) {
  Vec3 a{};
  wall.forEachWallShare(cs, n, x, t,
                        [&](int, Vec3 g, Vec3 at) { a -= g * (2 * pi + dot(hydrostatic, at - x)); });
  return a;
}

}  // namespace eddy
