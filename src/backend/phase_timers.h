// Per-phase timers: CUDA events on the GPU (read back lazily, no stall per phase), a steady clock on
// the CPU. A phase runs from its mark to the next mark, so one event per phase boundary is enough: the
// substep is a chain of marks, and the gaps the host leaves between phases count to the phase before.
// Results accumulate into a Profile with fixed slots.
#pragma once

#include <eddy/profile.h>

#include <chrono>
#include <vector>

#include "backend/parallel.h"

namespace eddy::EDDY_NS {

class PhaseTimers {
 public:
  PhaseTimers();
  ~PhaseTimers();
  PhaseTimers(const PhaseTimers&) = delete;
  PhaseTimers& operator=(const PhaseTimers&) = delete;

  void beginSubstep();
  // the work queued from here to the next mark belongs to phase p (ignored while phase timing is off)
  void mark(Phase p);
  void setPhaseTiming(bool on) { phases_ = on; }
  void endSubstep();
  // waits for pending GPU timings and adds them to the profile
  void flush();

  Profile& profile() { return profile_; }

 private:
  static constexpr int kStepBegin = -1, kStepEnd = -2;
  void record(int tag);
  void close(int tag, double ms);

  Profile profile_;
  int lastTag_ = kStepEnd;
  bool phases_ = true;
#if EDDY_BACKEND_CUDA
  static constexpr int kEvents = 2048;
  std::vector<cudaEvent_t> events_;
  std::vector<int> tags_;  // what each recorded event starts
#else
  std::chrono::steady_clock::time_point last_, stepStart_;
#endif
};

}  // namespace eddy::EDDY_NS
