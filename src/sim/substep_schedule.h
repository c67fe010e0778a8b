// The substep schedule, the stage of a frame that decides how long each substep is: the frame (1/fps) is
// split into time.substeps substeps, or into more where a limit asks for shorter ones (the solver's
// stability limit, which counts the speeds the scene prescribes, and time.adaptive's bound on the motion:
// time_step.h), never more than time.max_substeps. What is left of the frame is always split into equal
// substeps, so the frame ends on its time exactly.
//
// The solvers' CFL maxima are read back one substep late, so the host never drains the GPU for them:
// substep k takes its limit from the state substep k - 1 started from (the frame's first two from the
// frame's start), read back while substep k - 1 runs. The read-backs alternate between two slots; each
// frame starts from fresh maxima, so a restart from a checkpoint repeats the substeps of an uninterrupted
// run.
#pragma once

#include <eddy/simulation_desc.h>

namespace eddy {

class SubstepSchedule {
 public:
  // the read-back slot of the maxima taken at the frame's start
  static constexpr int kFrameStartSlot = 1;

  // the frame of time (fps, substeps, max_substeps) that ends at frameEnd (s)
  SubstepSchedule(const TimeDesc& time, double frameEnd);

  double frameEnd() const { return frameEnd_; }
  // whether the frame has time left after `now`
  bool running(double now) const { return now < frameEnd_ - 1e-9; }
  // the end of the interval, from `now`, whose prescribed speeds count for the next substep: the
  // longest substep on, within the frame
  double lookAheadEnd(double now) const;
  // the read-back slot that holds the maxima for the next substep
  int limitSlot() const { return taken_ >= 2 ? taken_ % 2 : 1; }

  struct Substep {
    Real dt = 0;  // its length
    // time.max_substeps would stretch it past the stability limit: the run stops, naming allowedDt, the
    // substep max_substeps leaves
    bool tooLong = false;
    double allowedDt = 0;
    // where the maxima for the substep after next are to be read back (launched once this substep has
    // run); -1 where this is the frame's last substep
    int readAheadSlot = -1;
  };
  // the next substep from `now`, given the solver's stability limit and a bound of the simulation's own
  // (time.adaptive's; infinity for none); counts it as taken
  Substep next(double now, Real stable, Real bound);

 private:
  double frameEnd_;
  Real fixedDt_;  // the frame split into time.substeps
  int maxSubsteps_;
  int taken_ = 0;  // substeps of the frame so far
};

}  // namespace eddy
