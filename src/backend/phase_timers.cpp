#include "backend/phase_timers.h"

namespace eddy::EDDY_NS {

void PhaseTimers::beginSubstep() { record(kStepBegin); }
void PhaseTimers::mark(Phase p) {
  if (phases_) record(int(p));
}
void PhaseTimers::endSubstep() { record(kStepEnd); }

// the interval that began with a `tag` mark has ended after ms
void PhaseTimers::close(int tag, double ms) {
  if (tag >= 0) profile_.add(Phase(tag), ms);
}

#if EDDY_BACKEND_CUDA

PhaseTimers::PhaseTimers() : events_(kEvents) {
  for (cudaEvent_t& e : events_) checkCuda(cudaEventCreate(&e), "event create");
  tags_.reserve(kEvents);
}

PhaseTimers::~PhaseTimers() {
  for (cudaEvent_t& e : events_) cudaEventDestroy(e);
}

void PhaseTimers::record(int tag) {
  // keep whole substeps together: flush only at a substep boundary
  if (tag == kStepBegin && tags_.size() + 64 > events_.size()) flush();
  cudaEventRecord(events_[tags_.size()]);
  tags_.push_back(tag);
}

void PhaseTimers::flush() {
  if (tags_.empty()) return;
  checkCuda(cudaEventSynchronize(events_[tags_.size() - 1]), "kernel execution");
  std::size_t stepStart = 0;
  for (std::size_t k = 0; k < tags_.size(); ++k) {
    if (tags_[k] == kStepBegin) stepStart = k;
    if (k + 1 == tags_.size()) break;
    float ms = 0;
    cudaEventElapsedTime(&ms, events_[k], events_[k + 1]);
    close(tags_[k], ms);
    if (tags_[k + 1] == kStepEnd) {
      float step = 0;
      cudaEventElapsedTime(&step, events_[stepStart], events_[k + 1]);
      profile_.addStep(step);
    }
  }
  tags_.clear();
}

#else

PhaseTimers::PhaseTimers() = default;
PhaseTimers::~PhaseTimers() = default;

void PhaseTimers::record(int tag) {
  auto now = std::chrono::steady_clock::now();
  if (lastTag_ != kStepEnd) close(lastTag_, std::chrono::duration<double, std::milli>(now - last_).count());
  if (tag == kStepBegin) stepStart_ = now;
  if (tag == kStepEnd) {
    profile_.addStep(std::chrono::duration<double, std::milli>(now - stepStart_).count());
  }
  last_ = now;
  lastTag_ = tag;
}

void PhaseTimers::flush() {}

#endif

}  // namespace eddy::EDDY_NS
