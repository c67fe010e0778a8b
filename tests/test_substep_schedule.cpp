// The substep schedule on its own: how a frame is split under the limits, the refusal of time.max_substeps
// and the order of the CFL read-back slots.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "sim/substep_schedule.h"

namespace {

using eddy::Real;
using eddy::SubstepSchedule;
using eddy::TimeDesc;

constexpr Real kNone = std::numeric_limits<Real>::infinity();

struct Walked {
  std::vector<double> dts;
  std::vector<int> limitSlots, readAheadSlots;
};

// every substep of the frame [start, end) under a constant stability limit and bound
Walked walk(const TimeDesc& time, double start, double end, Real stable, Real bound = kNone) {
  SubstepSchedule schedule(time, end);
  Walked w;
  double now = start;
  while (schedule.running(now) && w.dts.size() < 100) {
    w.limitSlots.push_back(schedule.limitSlot());
    const SubstepSchedule::Substep s = schedule.next(now, stable, bound);
    EXPECT_FALSE(s.tooLong);
    w.dts.push_back(s.dt);
    w.readAheadSlots.push_back(s.readAheadSlot);
    now += s.dt;
  }
  return w;
}

TEST(SubstepSchedule, SplitsTheFrameIntoTheFixedSubsteps) {
  TimeDesc t;
  t.fps = 60;
  t.substeps = 4;
  const Walked w = walk(t, 0, 1.0 / 60, 1.0f);
  ASSERT_EQ(w.dts.size(), 4u);
  for (double dt : w.dts) EXPECT_NEAR(dt, 1.0 / 240, 1e-9);
  // the first two substeps read the maxima taken at the frame's start; then the slots alternate, and the
  // last substep launches no read-back
  EXPECT_EQ(w.limitSlots, (std::vector<int>{1, 1, 0, 1}));
  EXPECT_EQ(w.readAheadSlots, (std::vector<int>{0, 1, 0, -1}));
}

TEST(SubstepSchedule, ShorterLimitsSplitWhatIsLeftEqually) {
  TimeDesc t;
  t.fps = 60;
  t.substeps = 2;
  // the stability limit asks for 1/600 s: ten equal substeps
  Walked w = walk(t, 0, 1.0 / 60, Real(1.0 / 600));
  ASSERT_EQ(w.dts.size(), 10u);
  for (double dt : w.dts) EXPECT_NEAR(dt, 1.0 / 600, 1e-7);
  // the other bound (time.adaptive's) counts as the stability limit does, and the frame ends on its time
  w = walk(t, 1.0 / 60, 2.0 / 60, 1.0f, Real(1.0 / 300));
  ASSERT_EQ(w.dts.size(), 5u);
  double sum = 1.0 / 60;
  for (double dt : w.dts) sum += dt;
  EXPECT_NEAR(sum, 2.0 / 60, 1e-7);
}

TEST(SubstepSchedule, MaxSubstepsRefusesToStretchPastTheStabilityLimit) {
  TimeDesc t;
  t.fps = 60;
  t.substeps = 1;
  t.maxSubsteps = 3;
  SubstepSchedule schedule(t, 1.0 / 60);
  // the limit would need 10 substeps; max_substeps leaves 3, each 1/180 s, longer than the limit
  SubstepSchedule::Substep s = schedule.next(0, Real(1.0 / 600), kNone);
  EXPECT_TRUE(s.tooLong);
  EXPECT_NEAR(s.allowedDt, 1.0 / 180, 1e-12);
  // a bound of the simulation's own (not the stability limit) is stretched instead: 3 substeps
  SubstepSchedule bounded(t, 1.0 / 60);
  s = bounded.next(0, 1.0f, Real(1.0 / 600));
  EXPECT_FALSE(s.tooLong);
  EXPECT_NEAR(s.dt, 1.0 / 180, 1e-7);
}

}  // namespace
