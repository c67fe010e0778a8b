#include "sim/nozzle_emission.h"

#include <eddy/error.h>

#include <algorithm>
#include <string>

namespace eddy::EDDY_NS {

NozzleEmission::NozzleEmission(const SimulationDesc& scene) : scene_(scene) {
  for (std::size_t i = 0; i < scene.emitters.size(); ++i) {
    const EmitterDesc& e = scene.emitters[i];
    if (e.type != "nozzle") continue;
    nozzles_.emplace_back(e, scene.fluid.spacing);
    emitter_.push_back(int(i));
    active_.push_back(1);
  }
}

void NozzleEmission::setActive(std::size_t k, bool active) {
  if (k >= nozzles_.size())
    throw RuntimeFailure("setNozzleActive: the scene has " + std::to_string(nozzles_.size()) +
                         " nozzle emitters, no nozzle " + std::to_string(k));
  active_[k] = active ? 1 : 0;
}

void NozzleEmission::emit(StepContext& ctx, Solver& solver, Real dt) {
  for (std::size_t k = 0; k < nozzles_.size(); ++k) {
    if (!active_[k]) {
      nozzles_[k].skip(ctx.time, dt);
      continue;
    }
    nozzles_[k].emit(ctx.time, dt, emitted_);
    Index first = ctx.particles.size();
    ctx.particles.append(emitted_.position, emitted_.velocity);
    if (ctx.particles.size() > first)
      solver.initializeParticles(ctx, first, ctx.particles.size() - first, emitter_[k]);
  }
}

// A nozzle counts while it is active, has particles left to emit and its emission window overlaps the
// interval (the times compare in the scene's precision).
Real NozzleEmission::fastestJet(double t0, double t1) const {
  Real fastest = 0;
  for (std::size_t k = 0; k < nozzles_.size(); ++k) {
    const EmitterDesc& e = scene_.emitters[std::size_t(emitter_[k])];
    bool emitting = active_[k] && nozzles_[k].emitted() < e.maxParticles;
    if (emitting && e.start < Real(t1) && e.stop > Real(t0)) fastest = std::max(fastest, e.speed);
  }
  return fastest;
}

std::vector<NozzleState> NozzleEmission::states() const {
  std::vector<NozzleState> s;
  for (const NozzleEmitter& n : nozzles_) s.push_back(n.state());
  return s;
}

std::int64_t NozzleEmission::remaining() const {
  std::int64_t left = 0;
  for (std::size_t k = 0; k < nozzles_.size(); ++k)
    left += std::max<std::int64_t>(
        0, scene_.emitters[std::size_t(emitter_[k])].maxParticles - nozzles_[k].emitted());
  return left;
}

std::int64_t NozzleEmission::remaining(const std::vector<NozzleState>& states) const {
  std::int64_t left = 0;
  for (std::size_t k = 0; k < nozzles_.size() && k < states.size(); ++k)
    left +=
        std::max<std::int64_t>(0, scene_.emitters[std::size_t(emitter_[k])].maxParticles - states[k].emitted);
  return left;
}

void NozzleEmission::checkStates(const std::vector<NozzleState>& s) const {
  if (s.size() != nozzles_.size())
    throw InputError("the saved state does not fit the scene: " + std::to_string(s.size()) +
                     " nozzle emitters saved, the scene has " + std::to_string(nozzles_.size()));
  for (std::size_t k = 0; k < nozzles_.size(); ++k) nozzles_[k].checkState(s[k]);
}

void NozzleEmission::restore(const std::vector<NozzleState>& s) {
  for (std::size_t k = 0; k < nozzles_.size(); ++k) nozzles_[k].restore(s[k]);
}

}  // namespace eddy::EDDY_NS
