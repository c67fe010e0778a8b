// Nozzle emitter: a disc that releases layers of particles along its direction at a fixed speed.
#pragma once

#include <eddy/simulation_desc.h>
#include <eddy/simulation_state.h>
#include <eddy/vec3.h>

#include <vector>

#include "emitters/volume_emitter.h"

namespace eddy {

// A layer (the square lattice of the given spacing clipped to the disc) is released every
// spacing/speed seconds from "start" to "stop", so consecutive layers are exactly one spacing apart
// and never overlap earlier ones. With rate > 0 a layer carries rate*spacing/speed points on average
// (a fractional accumulator keeps the long-run rate exact), taken in a fixed shuffled order so that
// successive layers cover the whole disc. Emission stops at maxParticles.
class NozzleEmitter {
 public:
  // throws InputError for non-positive spacing, radius or speed, a zero direction, or a rate above
  // what the disc can hold (the message gives the maximum)
  NozzleEmitter(const EmitterDesc& e, Real spacing);

  // particles released during [time, time + dt), placed where they are at time + dt (a layer released
  // s seconds before time + dt sits speed*s along the direction): add them after the existing
  // particles have been advanced to time + dt. Layers due before the first active call are not
  // caught up.
  EmittedParticles emit(Real time, Real dt);
  void emit(Real time, Real dt, EmittedParticles& out);

  // a paused nozzle: the layers due during [time, time + dt) are dropped, so that none is owed on resuming
  void skip(Real time, Real dt);

  long long emitted() const { return emitted_; }
  // everything that changes from one call to the next (checkpoints); the layer and its shuffled order
  // follow from the scene (the seed is drawn from only in the constructor)
  NozzleState state() const;
  // throws InputError when s cannot come from this nozzle (cursor beyond the layer, too many emitted)
  void checkState(const NozzleState& s) const;
  void restore(const NozzleState& s);
  // points in one full layer, and the largest rate the disc can hold (particles per second)
  int layerSize() const { return static_cast<int>(layer_.size()); }
  double maxRate() const;

 private:
  EmitterDesc desc_;
  Vec3 dir_;
  std::vector<Vec3> layer_;  // offsets in the disc plane, in shuffled order
  double interval_;          // seconds between layers
  double nextRelease_ = 0;   // time of the next layer
  bool started_ = false;
  double rateCarry_ = 0;    // fractional particles owed by the rate
  std::size_t cursor_ = 0;  // next point of layer_ to use when the rate thins layers
  long long emitted_ = 0;
};

}  // namespace eddy
