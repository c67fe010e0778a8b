// A frame's statistics (density errors, kinetic energy, bounds, the fastest particle), folded in one pass
// over the particles so that a frame costs one read-back instead of ten; and the warning a run gets when
// its substeps let particles move several spacings at once.
#pragma once

#include <eddy/simulation.h>

#include <string>

#include "backend/chunked_reduction.h"
#include "core/buffer.h"
#include "solvers/solver.h"

namespace eddy::EDDY_NS {

// the per-frame sums and extremes of one pass
struct FrameSums {
  double densityError, kineticEnergy;  // sums
  Real maxDensityError, maxSpeed;
  Vec3 lo, hi;  // bounds
  static EDDY_HD FrameSums identity() {
    constexpr Real big = 3.4e38f;
    return {0, 0, -big, -big, Vec3{big, big, big}, Vec3{-big, -big, -big}};
  }
  // the maxima keep their first argument unless the second is larger (a NaN never replaces a number)
  static EDDY_HD Real larger(Real a, Real b) { return a < b ? b : a; }
  static EDDY_HD Real smaller(Real a, Real b) { return b < a ? b : a; }
  static EDDY_HD FrameSums combine(const FrameSums& a, const FrameSums& b) {
    return {a.densityError + b.densityError,
            a.kineticEnergy + b.kineticEnergy,
            larger(a.maxDensityError, b.maxDensityError),
            larger(a.maxSpeed, b.maxSpeed),
            Vec3{smaller(a.lo.x, b.lo.x), smaller(a.lo.y, b.lo.y), smaller(a.lo.z, b.lo.z)},
            Vec3{larger(a.hi.x, b.hi.x), larger(a.hi.y, b.hi.y), larger(a.hi.z, b.hi.z)}};
  }
};

class FrameStatistics {
 public:
  // room for `capacity` particles, made at set-up so that no frame allocates
  void reserve(Index capacity);
  // a value per particle, free between calls (the adaptive substep uses it)
  Buffer<Real>& scratch() { return scratch_; }
  // fills s's particle statistics from the particles as they are (their densities brought to the current
  // positions by the caller); lastDt, the last substep's length, measures how far the fastest one moved
  void measure(StepContext& ctx, Solver& solver, Real lastDt, FrameStats& s);
  // a line for Simulation::warnings where a substep let the fastest particle move several spacings
  std::string motionWarning() const;
  std::size_t bytes() const { return scratch_.bytes() + sums_.bytes(); }

 private:
  Buffer<Real> scratch_;
  ChunkedReduction<FrameSums> sums_;
  // the most spacings the fastest particle moved in one substep, seen by measure, and when
  Real fastestMotion_ = 0, fastestMotionSpeed_ = 0;
  int fastestMotionFrame_ = 0;
};

}  // namespace eddy::EDDY_NS
