// Colliders as fluid at rest. A particle at distance d from a collider surface gets the density share
// rho0 * F(d) of the particles that would sit beyond the surface, and the wall's share of grad C (PBF) or
// of the pressure force (WCSPH) through -A(d) n. F and A are tabulated once from the planar approximation
// of the surface (curvature radius >> h), in the spirit of the density maps of Koschier & Bender 2017,
// "Density Maps for Improved SPH Boundary Handling" (SCA 2017), and of mirrored boundary particles. Where two
// walls meet at a right angle (a tank's edges and corners) the mass beyond both is tabulated too, from the
// same lattice continued into the quarter space behind the edge, and where three meet (a tank's corners) the
// mass in the octant behind the corner.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "colliders/collider.h"
#include "core/sph_kernels.h"

namespace eddy {

// The distinct walls near one particle: distance and unit normal (toward the fluid) of each, and with Owned
// the collider each came from. A face whose normal is within about 8 degrees of a kept one is the same
// wall; the nearer of the two stays. Held in registers (fixed size, loops unrolled); beyond kMax distinct
// walls the farthest is dropped. Three: a box container's corner has three, and a fourth (another collider
// near such a corner) is rare and the farthest; room for four raised the register count of every loop
// that reads the walls (PBF's density pass from 48 to 56, with the tables of walls at right angles).
template <bool Owned>
struct WallFacesOf {
  static constexpr int kMax = 3;
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

// visit(a, z, r2) for each point of the fluid's cubic lattice continued beyond a flat wall at distance d
// (layers at d + s/2, d + 3s/2, ... from the particle, laterally aligned with it) within h of the particle:
// a its offset along one direction in the wall, z its depth from the particle, r2 its squared distance
template <class Visit>
inline void forEachLatticePointBeyond(double h, double s, double d, Visit&& visit) {
  int reach = int(std::ceil(h / s));
  for (int layer = 0; d + s * (0.5 + layer) < h; ++layer) {
    double z = d + s * (0.5 + layer);
    for (int a = -reach; a <= reach; ++a)
      for (int b = -reach; b <= reach; ++b) {
        double r2 = (a * a + b * b) * s * s + z * z;
        if (r2 < h * h) visit(a * s, z, r2);
      }
  }
}

struct WallKernel {
  static constexpr int kSamples = 32;
  static constexpr int kPairSamples = (kSamples + 1) * (kSamples + 1);
  static constexpr int kTripleSamples = kPairSamples * (kSamples + 1);
  Real fraction[kSamples + 1];  // F(d): poly6 mass beyond a wall at distance d, d = 0..h
  Real gradient[kSamples + 1];  // A(d): spiky kernel integrated over the plane at distance d
  Real h = 1, invStep = 1;
  // Two walls at a right angle, at distances d1 and d2: O(d1, d2), the poly6 mass beyond both, and
  // P(d1, d2), the part along the first wall's normal of the spiky gradient over that quarter space (as A);
  // three walls at right angles: T(d1, d2, d3), the mass beyond all three, and R(d1, d2, d3), the gradient's
  // part along the first one's normal. On the grid of the one-wall tables: O, P (kPairSamples values each),
  // then T, R (kTripleSamples each), in device memory on the GPU (makeOverlapTables; too large to travel
  // with every kernel launch as the one-wall tables do). Null: walls overlap as if independent (O = F1 F2,
  // T = F1 F2 F3), which left the edges of a tank at rest 0.6 % under-dense and its corners 1.5 %.
  const Real* overlaps = nullptr;

  // The wall is the fluid's own cubic lattice continued beyond the surface (layers at s/2, 3s/2, ... behind
  // it, laterally aligned with the particle), so a particle resting at s/2 from a flat wall sees exactly
  // the neighbourhood it would have inside the fluid.
  static WallKernel make(const SphKernels& k, Real spacing, Real mass, Real restDensity) {
    WallKernel w;
    w.h = k.h;
    w.invStep = Real(kSamples) / k.h;
    double s = spacing, h = k.h, vol = double(mass) / restDensity;
    for (int i = 0; i <= kSamples; ++i) {
      double d = h * i / kSamples, frac = 0, grad = 0;
      forEachLatticePointBeyond(h, s, d, [&](double, double z, double r2) {
        double r = std::sqrt(r2), q = h - r;
        frac += vol * double(k.poly6Coef) * (h * h - r2) * (h * h - r2) * (h * h - r2);
        grad += vol * -double(k.spikyGradCoef) * q * q * z / r;
      });
      w.fraction[i] = Real(frac);
      w.gradient[i] = Real(grad);
    }
    return w;
  }

  // O, P, T, R (see `overlaps`): entry (i1, i2) of a pair table at i1 (kSamples + 1) + i2 for
  // d1 = h i1 / kSamples and d2 likewise, entry (i1, i2, i3) of a triple table at (i1 (kSamples + 1) + i2)
  // (kSamples + 1) + i3
  static std::vector<Real> makeOverlapTables(const SphKernels& k, Real spacing, Real mass, Real restDensity) {
    std::vector<Real> t(2 * (kPairSamples + kTripleSamples), 0);
    Real* pairMass = t.data();
    Real* pairGradient = pairMass + kPairSamples;
    Real* tripleMass = pairGradient + kPairSamples;
    Real* tripleGradient = tripleMass + kTripleSamples;
    double s = spacing, h = k.h, vol = double(mass) / restDensity;
    int reach = int(std::ceil(h / s));
    // the lattice layers beyond a wall at distance d: z = d + s/2, d + 3s/2, ... below h
    auto layers = [&](int i, double* z) {
      int n = 0;
      for (double d = h * i / kSamples; d + s * (0.5 + n) < h; ++n) z[n] = d + s * (0.5 + n);
      return n;
    };
    std::vector<double> z1(std::size_t(reach) + 1), z2(z1.size()), z3(z1.size());
    // the poly6 mass and the spiky gradient's part along z_a at r2 = z_a^2 + the rest
    auto add = [&](double za, double r2, double& m, double& g) {
      if (r2 >= h * h) return;
      double r = std::sqrt(r2), q = h - r;
      m += vol * double(k.poly6Coef) * (h * h - r2) * (h * h - r2) * (h * h - r2);
      g += vol * -double(k.spikyGradCoef) * q * q * za / r;
    };
    for (int i1 = 0; i1 <= kSamples; ++i1) {
      int n1 = layers(i1, z1.data());
      for (int i2 = 0; i2 <= kSamples; ++i2) {
        int n2 = layers(i2, z2.data());
        double m = 0, g = 0;
        for (int a = 0; a < n1; ++a)
          for (int b = 0; b < n2; ++b)
            for (int c = -reach; c <= reach; ++c)  // along the edge
              add(z1[std::size_t(a)],
                  z1[std::size_t(a)] * z1[std::size_t(a)] + z2[std::size_t(b)] * z2[std::size_t(b)] +
                      c * c * s * s,
                  m, g);
        std::size_t at = std::size_t(i1 * (kSamples + 1) + i2);
        pairMass[at] = Real(m), pairGradient[at] = Real(g);
        for (int i3 = 0; i3 <= kSamples; ++i3) {
          int n3 = layers(i3, z3.data());
          double mt = 0, gt = 0;
          for (int a = 0; a < n1; ++a)
            for (int b = 0; b < n2; ++b)
              for (int c = 0; c < n3; ++c)
                add(z1[std::size_t(a)],
                    z1[std::size_t(a)] * z1[std::size_t(a)] + z2[std::size_t(b)] * z2[std::size_t(b)] +
                        z3[std::size_t(c)] * z3[std::size_t(c)],
                    mt, gt);
          tripleMass[at * (kSamples + 1) + std::size_t(i3)] = Real(mt);
          tripleGradient[at * (kSamples + 1) + std::size_t(i3)] = Real(gt);
        }
      }
    }
    return t;
  }

  EDDY_HD Real lookup(const Real* table, Real d) const {
    if (d >= h) return 0;
    Real u = fmaxf(d, Real(0)) * invStep;
    int i = int(u);
    if (i >= kSamples) return table[kSamples];
    Real f = u - Real(i);
    return table[i] * (1 - f) + table[i + 1] * f;
  }
  // the cell of d in a table and the position in it (0 where the wall is h or more away)
  EDDY_HD bool cellOf(Real d, int& i, Real& f) const {
    if (d >= h) return false;
    Real u = fmaxf(d, Real(0)) * invStep;
    i = int(u) < kSamples ? int(u) : kSamples - 1;
    f = u - Real(i);
    return true;
  }
  // bilinear in a pair table
  EDDY_HD Real pairLookup(const Real* table, Real d1, Real d2) const {
    int i1, i2;
    Real f1, f2;
    if (!cellOf(d1, i1, f1) || !cellOf(d2, i2, f2)) return 0;
    const Real* at = table + i1 * (kSamples + 1) + i2;
    return (at[0] * (1 - f2) + at[1] * f2) * (1 - f1) +
           (at[kSamples + 1] * (1 - f2) + at[kSamples + 2] * f2) * f1;
  }
  // trilinear in a triple table
  EDDY_HD Real tripleLookup(const Real* table, Real d1, Real d2, Real d3) const {
    int i1, i2, i3;
    Real f1, f2, f3;
    if (!cellOf(d1, i1, f1) || !cellOf(d2, i2, f2) || !cellOf(d3, i3, f3)) return 0;
    constexpr int n = kSamples + 1;
    const Real* at = table + (i1 * n + i2) * n + i3;
    auto line = [&](const Real* p) { return p[0] * (1 - f3) + p[1] * f3; };
    return ((line(at) * (1 - f2) + line(at + n) * f2) * (1 - f1) +
            (line(at + n * n) * (1 - f2) + line(at + n * n + n) * f2) * f1);
  }

  // walls at right angles (the tables), facing each other (a slab thinner than 2h: nothing beyond both), or
  // at any other angle (taken as independent)
  static constexpr int kRightAngle = 0, kFacing = 1, kOther = 2;
  EDDY_HD int angleOf(Vec3 a, Vec3 b) const {
    Real c = dot(a, b);
    return overlaps && fabsf(c) < Real(0.05) ? kRightAngle : (c < Real(-0.99) ? kFacing : kOther);
  }

  // The mass beyond the walls of `faces` (at most three) by inclusion and exclusion, sum F - sum O + T, and
  // each face's share of its gradient: -n_f times what `effective[f]` gets, A_f less the pairs' parts along
  // n_f plus the triple's. Independent walls make this the product rule, beyond = 1 - prod(1 - F_f).
  template <class Faces>
  EDDY_HD Real beyondFaces(const Faces& faces, Real (&effective)[WallFaces::kMax]) const {
    constexpr int kMax = WallFaces::kMax;
    Real f[kMax], a[kMax];
    Real beyond = 0;
    EDDY_UNROLL
    for (int k = 0; k < kMax; ++k) {
      f[k] = k < faces.count ? lookup(fraction, faces.distance[k]) : 0;
      a[k] = k < faces.count ? lookup(gradient, faces.distance[k]) : 0;
      effective[k] = a[k];
      beyond += f[k];
    }
    // (only read at right angles, which need the tables)
    const Real* pairGradient = overlaps ? overlaps + kPairSamples : nullptr;
    const Real* tripleMass = overlaps ? pairGradient + kPairSamples : nullptr;
    const Real* tripleGradient = overlaps ? tripleMass + kTripleSamples : nullptr;
    EDDY_UNROLL
    for (int g = 0; g < kMax; ++g) {
      EDDY_UNROLL
      for (int k = g + 1; k < kMax; ++k) {
        if (k >= faces.count) continue;
        Real dg = faces.distance[g], dk = faces.distance[k];
        int gk = angleOf(faces.normal[g], faces.normal[k]);
        if (gk == kRightAngle) {
          beyond -= pairLookup(overlaps, dg, dk);
          effective[g] -= pairLookup(pairGradient, dg, dk);
          effective[k] -= pairLookup(pairGradient, dk, dg);
        } else if (gk == kOther) {
          beyond -= f[g] * f[k];
          effective[g] -= a[g] * f[k];
          effective[k] -= a[k] * f[g];
        }
        EDDY_UNROLL
        for (int l = k + 1; l < kMax; ++l) {
          if (l >= faces.count) continue;
          Real dl = faces.distance[l];
          int gl = angleOf(faces.normal[g], faces.normal[l]), kl = angleOf(faces.normal[k], faces.normal[l]);
          if (gk == kFacing || gl == kFacing || kl == kFacing) continue;
          if (gk == kRightAngle && gl == kRightAngle && kl == kRightAngle) {
            beyond += tripleLookup(tripleMass, dg, dk, dl);
            effective[g] += tripleLookup(tripleGradient, dg, dk, dl);
            effective[k] += tripleLookup(tripleGradient, dk, dg, dl);
            effective[l] += tripleLookup(tripleGradient, dl, dg, dk);
          } else {
            beyond += f[g] * f[k] * f[l];
            effective[g] += a[g] * f[k] * f[l];
            effective[k] += a[k] * f[g] * f[l];
            effective[l] += a[l] * f[g] * f[k];
          }
        }
      }
    }
    return beyond;
  }

  // The kernel mass beyond the walls and the integral of grad W over them, over every collider. Each
  // collider within h gives the nearby faces of its surface (a box container up to three, any other shape
  // its nearest one). Faces that face the same way are one wall counted once, at the nearer distance: a
  // plane laid on the domain floor, or a box standing on it, must not double the floor. Different walls
  // (a floor and a side wall at a corner) overlap beyond the particle: beyondFaces counts their overlap once.
  EDDY_HD void accumulate(const ColliderData* cs, int n, Vec3 x, Real t, Real& massFraction, Vec3& gradW,
                          std::uint32_t near = kEveryCollider) const {
    WallFaces faces;
    gatherFaces(cs, n, x, t, faces, near);
    if (faces.count == 0) return;
    if (faces.count == 1) {  // most wall particles: one wall, nothing overlaps
      massFraction += lookup(fraction, faces.distance[0]);
      gradW -= faces.normal[0] * lookup(gradient, faces.distance[0]);
      return;
    }
    Real effective[WallFaces::kMax];
    massFraction += beyondFaces(faces, effective);
    EDDY_UNROLL
    for (int k = 0; k < WallFaces::kMax; ++k)
      if (k < faces.count) gradW -= faces.normal[k] * effective[k];
  }

  // accumulate's gradient face by face: visit(c, g, p) for each wall face, g its share of gradW (the
  // shares sum to gradW) and p the point of the face nearest x, c the index of the collider it belongs to
  // (wall forces on each collider, the density a moving wall adds)
  template <class Visit>
  EDDY_HD void forEachWallShare(const ColliderData* cs, int n, Vec3 x, Real t, Visit&& visit,
                                std::uint32_t near = kEveryCollider) const {
    WallFacesOf<true> faces;
    gatherFaces(cs, n, x, t, faces, near);
    if (faces.count == 0) return;
    Real effective[WallFaces::kMax];
    if (faces.count == 1)
      effective[0] = lookup(gradient, faces.distance[0]);
    else
      beyondFaces(faces, effective);
    EDDY_UNROLL
    for (int k = 0; k < WallFaces::kMax; ++k) {
      if (k >= faces.count) break;
      Real d = faces.distance[k];
      visit(faces.owner[k], faces.normal[k] * -effective[k], x - faces.normal[k] * d);
    }
  }

  // whether any wall face is nearer x than `reach` (at most h)
  EDDY_HD bool anyWithin(const ColliderData* cs, int n, Vec3 x, Real t, Real reach,
                         std::uint32_t near = kEveryCollider) const {
    WallFaces faces;
    gatherFaces(cs, n, x, t, faces, near);
    bool found = false;
    EDDY_UNROLL
    for (int k = 0; k < WallFaces::kMax; ++k) found = found || (k < faces.count && faces.distance[k] < reach);
    return found;
  }

  // the wall faces within h of x: a box container up to three, any other collider its nearest one; near:
  // the colliders that may come within h of x (colliders/collider_reach.h), the others have no face
  template <class Faces>
  EDDY_HD void gatherFaces(const ColliderData* cs, int n, Vec3 x, Real t, Faces& faces,
                           std::uint32_t near = kEveryCollider) const {
    for (int c = 0; c < n; ++c) {
      if (!colliderVisited(near, c)) continue;
      if (cs[c].kind == ShapeKind::Box && cs[c].container) {
        addBoxFaces(cs[c], x, t, faces, c);
        continue;
      }
      if (clearOf(cs[c], x, t, h)) continue;  // its distance is at least h: no face
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
// with pi = p_i / rho_i^2 and hydrostatic = 2 rho0 g / rho_i^2. With stepAtLeastZero the hydrostatic step
// is never negative (DFSPH: above a particle that has little pressure of its own, spray under a lid, the
// negative step held splashes against the dam break's lid, sliding along it at 7 m/s; WCSPH keeps the signed
// step, with which its sphere tank was validated). Shared by the solvers' force passes and the wall forces on
// the colliders (src/probes/wall_forces.h), so both see the same wall.
EDDY_HD inline Real mirrorStep(Vec3 hydrostatic, Vec3 at, Vec3 x, bool stepAtLeastZero) {
  Real step = dot(hydrostatic, at - x);
  return stepAtLeastZero ? fmaxf(step, Real(0)) : step;
}

EDDY_HD inline Vec3 wallPressureAcceleration(const WallKernel& wall, const ColliderData* cs, int n, Vec3 x,
                                             Real t, Real pi, Vec3 hydrostatic, bool stepAtLeastZero = false,
                                             std::uint32_t near = kEveryCollider) {
  Vec3 a{};
  wall.forEachWallShare(
      cs, n, x, t,
      [&](int, Vec3 g, Vec3 at) { a -= g * (2 * pi + mirrorStep(hydrostatic, at, x, stepAtLeastZero)); },
      near);
  return a;
}

// M(d), on WallKernel's grid: sum_b m |W'(r_b)| / r_b a_b^2 over the lattice beyond a wall at distance d,
// a_b the offset of b along a direction in the wall: the wall's share, along the wall, of the moment
// L = sum_j m |W'(r_ij)| / r_ij (x_j - x_i)(x_j - x_i)^T through which a pressure field varying along the
// wall pushes a particle (DFSPH's mirror stiffness, solvers/dfsph/divergence_free_sph.h)
struct WallMoments {
  Real moment[WallKernel::kSamples + 1] = {};
  Real reach = 0;  // M(d) = 0 from here on: no lattice layer beyond the wall within h (h - spacing / 2)

  static WallMoments make(const SphKernels& k, Real spacing, Real mass) {
    WallMoments w;
    double s = spacing, h = k.h;
    for (int i = 0; i <= WallKernel::kSamples; ++i) {
      double d = h * i / WallKernel::kSamples, moment = 0;
      forEachLatticePointBeyond(h, s, d, [&](double a, double, double r2) {
        double r = std::sqrt(r2), q = h - r;
        moment += double(mass) * -double(k.spikyGradCoef) * q * q / r * a * a;
      });
      w.moment[i] = Real(moment);
    }
    w.reach = Real(h - 0.5 * s);
    return w;
  }
};

// The walls' term in WCSPH's continuity rate, for a particle at distance d from a flat wall. The mirror of
// Adami, Hu & Adams (2012) reflects the particle's own velocity, so it leaves out how the fluid stretches
// along the wall: water turning at the wall (v = k (W - x, y, 0), divergence-free) compressed the layer
// beside it at 0.15 rho0 k. On the fluid's lattice continued beyond the wall, a linear field G with no flow
// across the wall (so that G_nn = (v_i - v_wall) . n / d) gives the fluid's own neighbours
//   sum_j m (v_i - v_j) . grad W_ij = -rho0 ((1 - M^(d)) (tr G - G_nn) + (1 - N^(d)) G_nn),
// M^ and N^ the shares of the lattice's moment sum_j m |W'| / r (x_j - x_i)(x_j - x_i)^T that lie beyond
// the wall, along it and across it. The exact rate -rho0 tr G follows without knowing G:
//   d rho_i / dt = (sum_j m (v_i - v_j) . grad W_ij + c(d) 2 rho0 A(d) . (v_i - v_wall)) / (1 - M^(d)),
//   c(d) = (N^ - M^) / (2 d A^(d)),
// the renormalisation of Ferrand et al. (2013, "Unified semi-analytical wall boundary conditions for
// inviscid, laminar or turbulent flows in the meshless SPH method", Int. J. Numer. Meth. Fluids 71) with
// the lattice's own moments: with c = 1 and no renormalisation (the mirror's rate) the rate is exact only
// at d = s/2 and only without stretching. c is capped at 1: near the wall G_nn = v_n / d would grow without
// bound. Only on flat faces (planes and boxes), as wallLateralAcceleration: on a curved one the tables are
// the tangent plane's, and water sloshing in an icosphere tank and in the sphere it approximates parted
// (their highest particles 3.9 mm apart after 0.2 s, 0.02 mm without it).
struct WallContinuity {
  Real along[WallKernel::kSamples + 1] = {};   // M^(d)
  Real normal[WallKernel::kSamples + 1] = {};  // c(d)

  static WallContinuity make(const SphKernels& k, Real spacing) {
    WallContinuity w;
    double s = spacing, h = k.h;
    int reach = int(std::ceil(h / s));
    // |W'(r)| / r up to a constant, which cancels in the shares
    auto weight = [&](double r2) {
      double r = std::sqrt(r2), q = h - r;
      return q * q / r;
    };
    double interior = 0;  // the whole lattice's moment along one axis
    for (int a = -reach; a <= reach; ++a)
      for (int b = -reach; b <= reach; ++b)
        for (int c = -reach; c <= reach; ++c) {
          double r2 = double(a * a + b * b + c * c) * s * s;
          if (r2 > 0 && r2 < h * h) interior += weight(r2) * a * a * s * s;
        }
    for (int i = 0; i <= WallKernel::kSamples; ++i) {
      double d = h * i / WallKernel::kSamples, along = 0, across = 0, gradient = 0;
      forEachLatticePointBeyond(h, s, d, [&](double a, double z, double r2) {
        along += weight(r2) * a * a;
        across += weight(r2) * z * z;
        gradient += weight(r2) * z;
      });
      w.along[i] = Real(along / interior);
      double full = 2 * d * gradient;  // what the mirror's rate stands for, N^ at d = s / 2
      w.normal[i] = gradient <= 0 ? Real(0) : d > 0 ? Real(std::fmin(1.0, (across - along) / full)) : Real(1);
    }
    return w;
  }
};

// The push of one wall face (a share of wallPressureAcceleration's visit: g its gradient share, at its
// nearest point) on a particle at x whose mirror's stiffness varies along the face as the fluid's does,
// kappa_i + (x_b - x_i) . gradient: -M(d) (gradient along the face), times the face's share of the wall's
// gradient where walls overlap (times the solver's gradient factor). Only on flat faces (planes and boxes):
// the face's normal splits the gradient into its parts across and along the wall, and a mesh's normals,
// from its distance field, turn from cell to cell, so that a share of the hydrostatic gradient across the
// wall leaked along it (WCSPH sloshing in an icosphere tank 4.1 % off the analytic sphere in kinetic energy,
// 1.6 % without the term); curved analytic shapes go without it too, so that a mesh and the shape it
// approximates behave alike.
EDDY_HD inline Vec3 wallLateralAcceleration(const WallKernel& wall, const WallMoments& moments,
                                            const ColliderData& collider, Vec3 g, Vec3 at, Vec3 x,
                                            Vec3 gradient) {
  if (collider.kind != ShapeKind::Plane && collider.kind != ShapeKind::Box) return {};
  Vec3 normal = x - at;
  Real d = length(normal);
  Real full = wall.lookup(wall.gradient, d);
  if (!(d > 0) || !(full > 0)) return {};
  normal = normal * (1 / d);
  Real weight = wall.lookup(moments.moment, d) * (length(g) / full);
  return (gradient - normal * dot(normal, gradient)) * -weight;
}

}  // namespace eddy
