// The scene's nozzle emitters over a run: which of them are switched on, what each has released, and the
// particles they add to the set in a substep (handed to the solver with the emitter they came from).
#pragma once

#include <eddy/simulation.h>
#include <eddy/simulation_desc.h>

#include <vector>

#include "emitters/nozzle_emitter.h"
#include "solvers/solver.h"

namespace eddy::EDDY_NS {

class NozzleEmission {
 public:
  explicit NozzleEmission(const SimulationDesc& scene);

  std::size_t size() const { return nozzles_.size(); }
  // Simulation::setNozzleActive: a paused nozzle skips its layers
  void setActive(std::size_t nozzle, bool active);
  // appends the particles the active nozzles release during [ctx.time, ctx.time + dt); no allocation once
  // the first layers have been made
  void emit(StepContext& ctx, Solver& solver, Real dt);
  // the fastest an active nozzle's jet moves at some time in [t0, t1] (0 where none emits then)
  Real fastestJet(double t0, double t1) const;

  std::vector<NozzleState> states() const;
  // particles the nozzles may still release, each up to its max_particles (the room they keep reserved)
  std::int64_t remaining() const;
  // the same for nozzles in the given states (checkStates first)
  std::int64_t remaining(const std::vector<NozzleState>& states) const;
  // throws InputError where the states cannot come from these nozzles; changes nothing
  void checkStates(const std::vector<NozzleState>& states) const;
  void restore(const std::vector<NozzleState>& states);

 private:
  const SimulationDesc& scene_;
  std::vector<NozzleEmitter> nozzles_;
  std::vector<int> emitter_;  // scene emitter index of each nozzle
  std::vector<char> active_;  // setActive
  EmittedParticles emitted_;  // reused every substep
};

}  // namespace eddy::EDDY_NS
