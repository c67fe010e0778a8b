// The force and torque the fluid puts on each collider: the reaction to the wall pressure term through
// which the colliders, seen as fluid at rest, push the particles (wallPressureAcceleration in
// solvers/wall_kernel.h). Particle i near a wall face f of collider c feels -m rho0 A_f (p_i + p_w,f) /
// rho_i^2, A_f the face's share of the wall kernel's gradient integral and p_w,f the mirrored particle's
// pressure; collider c feels the opposite, at the face's point nearest the particle:
//   F_c = sum_i m rho0 A_f (p_i + p_w,f) / rho_i^2   (times the solver's gradient factor),   T_c = sum_i (x_f
//   - center_c) x (that force).
// Where the solver's mirror pressure varies along the walls (DFSPH), the push along each face that this
// gives the particle (wallLateralAcceleration) is counted too. For a fluid at rest this sums to the weight
// the walls carry (tests/test_probes.cpp). Contact impulses (particles that reach a wall despite the
// pressure) are not counted.
#pragma once

#include <string>
#include <vector>

#include "backend/primitives.h"
#include "colliders/collider.h"
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
};

class WallForces {
 public:
  // six values per collider (fx fy fz, N; tx ty tz, N m about the collider's centre), in collider order
  void compute(const WallForceInputs& in, Primitives& prims, std::vector<double>& out);
  // the same for some colliders only, left on the device: slotOf[c] is collider c's slot (or -1), and
  // out (device memory) gets six values a slot; nothing waits for them. The scratch must have been sized
  // by reserve() beforehand (no allocation in a substep).
  void computeOnDevice(const WallForceInputs& in, Primitives& prims, const int* slotOf, int slots,
                       double* out);
  void reserve(Index particles, int slots);
  std::size_t bytes() const { return scratch_.bytes(); }
  // each particle's share of each slot's six values, into the scratch (public for the CUDA lambda)
  void shares(const WallForceInputs& in, const int* slotOf, int slots);

 private:
  Buffer<Real> scratch_;  // one value per particle, per slot and component
};

}  // namespace eddy::EDDY_NS
