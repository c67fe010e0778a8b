// The fluid's force and torque on each rigid body, summed on the device every substep: the wall forces'
// shares (probes/wall_forces.h) of the body colliders only, in two launches whatever the number of bodies,
// in a fixed order (no floating-point atomics), so that CPU runs repeat and resume to the bit, and without
// waiting for the device (the bodies' integration reads the sums there). The per-particle records live in
// the tiles' shared memory; the only scratch is six partials a body per tile of kTile particles (a byte a
// particle for ten bodies, against 24 bytes a particle a body for an array per body and component).
//
// Pass 1, a tile of particles (kLanes lanes of kPerLane particles each, lane l taking l, l + kLanes, ...):
// each particle finds its share of the bodies it is near, as one record in the tile's shared memory: the
// lowest body slot it touches (or none), its share of that body, and the highest slot it touches. A particle
// touches at most one body unless bodies come within 2h of each other; such a particle's shares of its other
// bodies are worked out again where they are summed (the same arithmetic, so the sums stay exact). The tile
// folds, for each slot between the lowest and the highest its particles touch, its lanes' records of that
// slot in lane order and then pairwise over the lanes, into one partial per slot, component and tile. Most
// particles are near no body: a test against each body's bounding sphere skips their wall faces altogether.
// Pass 2, a tile per (slot, component), folds that row of partials the same way into the sum.
// A grid solver (MPM) gives its nodes instead of particles: each node that a body's boundary condition
// changed carries the opposite of the momentum the condition gave it over the substep (NodePushes), and
// the tiles fold the nodes the same way.
#pragma once

#include <vector>

#include "backend/tiles.h"
#include "probes/wall_forces.h"

namespace eddy::EDDY_NS {

class BodyForces {
 public:
  static constexpr int kLanes = 256;
  static constexpr int kPerLane = 2;
  static constexpr Index kTile = kLanes * kPerLane;

  // slotOf: per collider of the simulation (the domain last) its body slot, or -1; slots are 0, 1, ...
  void setup(const std::vector<int>& slotOf, Index particles);
  // room for the partials of this many particles (no allocation in a substep)
  void reserve(Index particles);
  // six values a slot into out (device memory): the force (N) and the torque about the body's centre
  // (N m); nothing waits for them
  void compute(const WallForceInputs& in, double* out);
  // the same from a grid solver's nodes (NodePushes), whose node count sets the scratch at the first call
  void compute(const NodePushes& in, View<const ColliderData> colliders, Real time, double* out);
  std::size_t bytes() const { return slotOf_.bytes() + colliderOf_.bytes() + partials_.bytes(); }
  int slots() const { return slots_; }
  // the body colliders as bits (Measurements::wallForceInputs)
  std::uint32_t colliderBits() const { return bodyBeyond32_ ? kEveryCollider : bodyBits_; }

  // the two passes (public for the CUDA lambdas)
  template <class Shares>
  void foldTiles(const Shares& each, Index count, Index tiles);
  void foldPartials(Index tiles, double* out);

 private:
  int slots_ = 0;
  std::uint32_t bodyBits_ = 0;  // the bodies among the first 32 colliders (colliderVisited)
  bool bodyBeyond32_ = false;   // a body among the colliders after those
  Buffer<int> slotOf_;          // per collider
  Buffer<int> colliderOf_;      // per slot
  Buffer<double> partials_;     // per slot and component, a row of one partial a tile
};

}  // namespace eddy::EDDY_NS
