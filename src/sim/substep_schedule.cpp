#include "sim/substep_schedule.h"

#include <algorithm>
#include <cmath>

namespace eddy {

SubstepSchedule::SubstepSchedule(const TimeDesc& time, double frameEnd)
    : frameEnd_(frameEnd),
      fixedDt_(Real(1) / (time.fps * Real(time.substeps))),
      maxSubsteps_(time.maxSubsteps) {}

double SubstepSchedule::lookAheadEnd(double now) const { return std::min(now + double(fixedDt_), frameEnd_); }

SubstepSchedule::Substep SubstepSchedule::next(double now, Real stable, Real bound) {
  Substep s;
  Real dt = std::min(std::min(fixedDt_, stable), bound);
  double remaining = frameEnd_ - now;
  // split what is left of the frame into equal substeps no longer than dt
  int left = std::max(1, int(std::ceil(remaining / dt - 1e-4)));
  int allowed = std::max(1, maxSubsteps_ - taken_);
  // time.max_substeps never stretches a substep past the solver's stability limit (a hair of slack for
  // round-off in the split)
  if (left > allowed && Real(remaining / allowed) > stable * Real(1 + 1e-4)) {
    s.tooLong = true;
    s.allowedDt = remaining / allowed;
  }
  left = std::min(left, allowed);
  s.dt = Real(remaining / left);
  if (left > 1) s.readAheadSlot = taken_ % 2;
  ++taken_;
  return s;
}

}  // namespace eddy
