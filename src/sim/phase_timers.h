// Per-phase timers: CUDA events on the GPU (read back lazily, no stall per phase), a steady clock on
// the CPU. Results accumulate into a Profile with fixed slots.
#pragma once

#include "backend/parallel.h"

#include <eddy/profile.h>

#include <chrono>
#include <vector>

namespace eddy::EDDY_NS {

class PhaseTimers {
 public:
  PhaseTimers();
  ~PhaseTimers();
  PhaseTimers(const PhaseTimers&) = delete;
  PhaseTimers& operator=(const PhaseTimers&) = delete;

  // slot Phase::Count times a whole substep and feeds Profile::stepMs
  void begin(int slot);
  void end(int slot);
  // waits for pending GPU timings and adds them to the profile
  void flush();

  Profile& profile() { return profile_; }

 private:
  static constexpr int kPairs = 256;
  Profile profile_;
  struct Pending {
    int slot;
    int pair;
  };
  std::vector<Pending> pending_;
  int open_[int(Phase::Count) + 1];
  int nextPair_ = 0;
#if EDDY_BACKEND_CUDA
  std::vector<cudaEvent_t> start_, stop_;
#else
  std::chrono::steady_clock::time_point started_[int(Phase::Count) + 1];
#endif
};

class ScopedPhase {
 public:
  ScopedPhase(PhaseTimers& t, Phase p) : t_(t), slot_(int(p)) { t_.begin(slot_); }
  ~ScopedPhase() { t_.end(slot_); }

 private:
  PhaseTimers& t_;
  int slot_;
};

}  // namespace eddy::EDDY_NS
