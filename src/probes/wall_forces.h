// The force and torque the fluid puts on each collider: the reaction to the wall pressure term through
// which the colliders, seen as fluid at rest, push the particles (wallPressureAcceleration in
// solvers/wall_kernel.h). Particle i near a wall face f of collider c feels -m rho0 A_f (p_i + p_w,f) /
// rho_i^2, A_f the face's share of the wall kernel's gradient integral and p_w,f the mirrored particle's
// pressure; collider c feels the opposite, at the face's point nearest the particle:
//   F_c = sum_i m rho0 A_f (p_i + p_w,f) / rho_i^2   (times the solver's gradient factor),   T_c = sum_i (x_f
//   - center_c) x (that force).
// Where the solver's mirror pressure varies along the walls (DFSPH), the push along each face that this
// gives the particle (wallLateralAcceleration) is counted too. For a fluid at rest this sums to the weight
// the walls carry (tests/test_probes.cpp). Where a solver moves particles out of the colliders they reach
// (PBF), the push each such contact gave a particle over the substep is counted too, to the collider that
// gave it; the SPH solvers' velocity contacts are not counted.
#pragma once

#include <string>
#include <vector>

#include "backend/primitives.h"
#include "colliders/collider.h"
#include "colliders/collider_reach.h"
#include "solvers/solver.h"
#include "solvers/wall_kernel.h"

namespace eddy::EDDY_NS {

struct WallForceInputs {
  const Vec3* position = nullptr;
  const Real* pressure = nullptr;
  const Real* density = nullptr;
  Index count = 0;
  View<const ColliderData> colliders;
  WallKernel wall;
  Real mass = 0, restDensity = 0, time = 0;
  Real gradientScale = 1;  // the solver's factor on its kernel gradients
  Vec3 gravity{};          // for the hydrostatic step to the mirrored particles
  // the solver's own wall terms (DFSPH's: the mirror pressure's variation along the walls)
  WallTerms terms;
  // the colliders' balls over the substep that ends at `time` (StepContext::colliderBalls), or null
  const ColliderBall* balls = nullptr;
};

// One particle's reaction on the colliders, wall face by wall face (the formulas above). Built from the
// inputs on the host and taken by value into kernels: the wall forces below and the rigid bodies' force
// sums (probes/body_forces.h) add up the very same shares.
struct WallShares {
  const Vec3* position = nullptr;
  const Real* pressure = nullptr;
  const Real* density = nullptr;
  const ColliderData* colliders = nullptr;
  int colliderCount = 0;
  WallKernel wall;
  Real scale = 0, time = 0, lateralScale = 0;
  Vec3 hydrostatic{};  // 2 rho0 g
  Real mirror = 2;     // p_i + p_w = mirror p_i (WallTerms::mirrorsPressure)
  Real mass = 0;
  const Vec4* contactPush = nullptr;  // WallTerms::contactPush
  const Vec3* lateral = nullptr;
  WallMoments moments;
  bool stepAtLeastZero = false;
  const ColliderBall* balls = nullptr;  // skips the colliders far from the particle

  static WallShares of(const WallForceInputs& in) {
    WallShares s;
    s.position = in.position;
    s.pressure = in.pressure;
    s.density = in.density;
    s.colliders = in.colliders.data;
    s.colliderCount = int(in.colliders.size);
    s.wall = in.wall;
    s.scale = in.mass * in.restDensity * in.gradientScale;
    s.time = in.time;
    s.lateralScale = in.mass * in.gradientScale;
    s.hydrostatic = in.terms.mirrorsPressure ? in.gravity * (2 * in.restDensity) : Vec3{};
    s.mirror = in.terms.mirrorsPressure ? 2 : 1;
    s.mass = in.mass;
    s.contactPush = in.terms.contactPush;
    s.lateral = in.terms.gradient;
    s.moments = in.terms.moments;
    s.stepAtLeastZero = in.terms.stepAtLeastZero;
    s.balls = in.balls;
    return s;
  }

  // visit(c, force, torque) for each wall face near particle i whose collider c wanted(c) accepts: the
  // force on c (N) and its torque about c's centre (N m)
  template <class Wanted, class Visit>
  EDDY_HD void forEach(Index i, Wanted&& wanted, Visit&& visit) const {
    const ColliderData* cs = colliders;
    Vec3 x = position[i];
    // the opposite of the wall term of the particle's pressure force (wallPressureAcceleration)
    Real inv = 1 / (density[i] * density[i]), pi = pressure[i] * inv;
    Vec3 step = hydrostatic * inv;
    wall.forEachWallShare(
        cs, colliderCount, x, time,
        [&](int c, Vec3 g, Vec3 at) {
          if (!wanted(c)) return;
          Vec3 force = g * (scale * (mirror * pi + mirrorStep(step, at, x, stepAtLeastZero)));
          if (lateral)
            force -= wallLateralAcceleration(wall, moments, cs[c], g, at, x, lateral[i]) * lateralScale;
          visit(c, force, cross(at - colliderCenter(cs[c], time), force));
        },
        collidersNear(balls, colliderCount, x, wall.h));
    if (!contactPush) return;
    // the contact that moved the particle out of a collider: that collider receives the opposite push
    Vec4 push = contactPush[i];
    int c = int(push.w);
    if (c < 0 || !wanted(c)) return;
    Vec3 force = xyz(push) * -mass;
    visit(c, force, cross(x - colliderCenter(cs[c], time), force));
  }
};

// the six values of every collider, summed over the particles (the output's forces.csv)
class WallForces {
 public:
  // six values per collider (fx fy fz, N; tx ty tz, N m about the collider's centre), in collider order
  void compute(const WallForceInputs& in, Primitives& prims, std::vector<double>& out);
  void reserve(Index particles, int colliders);
  std::size_t bytes() const { return scratch_.bytes(); }
  // each particle's share of each collider's six values, into the scratch (public for the CUDA lambda)
  void shares(const WallForceInputs& in);

 private:
  Buffer<Real> scratch_;  // one value per particle, per collider and component
};

}  // namespace eddy::EDDY_NS
