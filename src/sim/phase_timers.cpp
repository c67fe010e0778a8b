#include "sim/phase_timers.h"

namespace eddy::EDDY_NS {

namespace {
void record(Profile& p, int slot, double ms) {
  if (slot == int(Phase::Count)) {
    p.stepMs += ms;
    p.substeps += 1;
  } else {
    p.add(Phase(slot), ms);
  }
}
}  // namespace

#if EDDY_BACKEND_CUDA

PhaseTimers::PhaseTimers() : start_(kPairs), stop_(kPairs) {
  for (int i = 0; i < kPairs; ++i) {
    checkCuda(cudaEventCreate(&start_[i]), "event create");
    checkCuda(cudaEventCreate(&stop_[i]), "event create");
  }
  pending_.reserve(kPairs);
}

PhaseTimers::~PhaseTimers() {
  for (int i = 0; i < kPairs; ++i) {
    cudaEventDestroy(start_[i]);
    cudaEventDestroy(stop_[i]);
  }
}

void PhaseTimers::begin(int slot) {
  if (nextPair_ == kPairs) flush();
  int pair = nextPair_++;
  open_[slot] = pair;
  cudaEventRecord(start_[pair]);
}

void PhaseTimers::end(int slot) {
  int pair = open_[slot];
  cudaEventRecord(stop_[pair]);
  pending_.push_back({slot, pair});
}

void PhaseTimers::flush() {
  for (const Pending& p : pending_) {
    checkCuda(cudaEventSynchronize(stop_[p.pair]), "kernel execution");
    float ms = 0;
    cudaEventElapsedTime(&ms, start_[p.pair], stop_[p.pair]);
    record(profile_, p.slot, ms);
  }
  pending_.clear();
  nextPair_ = 0;
}

#else

PhaseTimers::PhaseTimers() = default;
PhaseTimers::~PhaseTimers() = default;

void PhaseTimers::begin(int slot) { started_[slot] = std::chrono::steady_clock::now(); }

void PhaseTimers::end(int slot) {
  auto now = std::chrono::steady_clock::now();
  record(profile_, slot, std::chrono::duration<double, std::milli>(now - started_[slot]).count());
}

void PhaseTimers::flush() {}

#endif

}  // namespace eddy::EDDY_NS
