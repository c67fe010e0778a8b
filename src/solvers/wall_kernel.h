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

  // sums over colliders: the kernel mass beyond the walls and the integral of grad W over them
  EDDY_HD void accumulate(const ColliderData* cs, int n, Vec3 x, Real t, Real& massFraction,
                          Vec3& gradW) const {
    for (int c = 0; c < n; ++c) {
      if (cs[c].kind == ShapeKind::Box && cs[c].container) {
        accumulateBoxFaces(cs[c], x, t, massFraction, gradW);
        continue;
      }
      Vec3 nrm;
      Real d = signedDistance(cs[c], x, t, &nrm);
      if (d >= h) continue;
      massFraction += lookup(fraction, d);
      gradW -= nrm * lookup(gradient, d);
    }
  }

  // Inside a tank every face near the particle counts, not only the nearest one. Near an edge or a corner
  // the regions beyond two faces overlap; treating the faces as independent (exact for a separable
  // kernel) gives beyond = 1 - prod(1 - F_f), and its gradient by the product rule.
  EDDY_HD void accumulateBoxFaces(const ColliderData& c, Vec3 x, Real t, Real& massFraction,
                                  Vec3& gradW) const {
    Quat q = colliderOrientation(c, t);
    Vec3 local = toLocal(c, q, x - colliderCenter(c, t));
    Real inside = 1;  // prod (1 - F_f)
    Vec3 grad{};      // sum_f grad_f prod_{g != f} (1 - F_g), built incrementally
    // axes one by one with scalars: an array indexed by the axis would live in GPU local memory
    addFacePair(local.x, c.halfExtents.x, toWorld(c, q, Vec3{1, 0, 0}), inside, grad);
    addFacePair(local.y, c.halfExtents.y, toWorld(c, q, Vec3{0, 1, 0}), inside, grad);
    addFacePair(local.z, c.halfExtents.z, toWorld(c, q, Vec3{0, 0, 1}), inside, grad);
    massFraction += 1 - inside;
    gradW += grad;
  }

  // the low and high faces along one box axis; their normals point into the tank
  EDDY_HD void addFacePair(Real p, Real halfExtent, Vec3 axis, Real& inside, Vec3& grad) const {
    Real dLow = p + halfExtent, dHigh = halfExtent - p;
    if (dLow < h) addFace(lookup(fraction, dLow), axis * -lookup(gradient, dLow), inside, grad);
    if (dHigh < h) addFace(lookup(fraction, dHigh), axis * lookup(gradient, dHigh), inside, grad);
  }
  EDDY_HD static void addFace(Real f, Vec3 gf, Real& inside, Vec3& grad) {
    grad = grad * (1 - f) + gf * inside;
    inside *= 1 - f;
  }
};

}  // namespace eddy
