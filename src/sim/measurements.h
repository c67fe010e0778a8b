// What a scene asks to be measured in the fluid: its probes (pressure points and wave gauges), sampled
// after each substep they are due, and the forces and torques the fluid puts on each collider. Both read
// the solver's pressure, which is also what particle files write.
#pragma once

#include <eddy/simulation_desc.h>

#include <memory>
#include <string>
#include <vector>

#include "probes/probe_sampler.h"
#include "probes/wall_forces.h"
#include "solvers/solver.h"

namespace eddy::EDDY_NS {

class Measurements {
 public:
  // throws InputError for probes in a scene whose solver has no neighbour grid to read them through
  Measurements(const SimulationDesc& scene, StepContext& ctx, Solver& solver);

  // each particle's pressure, Pa, as the solver has it now; null where the solver has none (PBF, MPM)
  const Real* pressures(StepContext& ctx, Solver& solver);
  // room for the pressures of `capacity` particles (after particles were added between frames)
  void reserve(Index capacity);

  // after a substep that ended at `time`: the probes that are due read the particles where it left them
  void sampleProbes(StepContext& ctx, Solver& solver, double time);
  std::vector<std::string> probeColumns() const;
  void takeProbeRows(std::vector<std::vector<double>>& rows);
  // a restored state's clock: each probe's next sample from `time` on
  void startAt(double time);

  bool hasPressure() const { return hasPressure_; }
  // six columns a collider (and the domain last), empty without pressures
  std::vector<std::string> forceColumns() const;
  // the forces at the particles' current state (densities brought to the current positions by the caller)
  std::vector<double> colliderForces(StepContext& ctx, Solver& solver);
  // what the wall forces read (pressure null without pressures), with the colliders where they are at time t;
  // colliders: those whose shares will be read (bits, colliderVisited), the solver's wall terms may leave
  // the particles near no other unset
  WallForceInputs wallForceInputs(StepContext& ctx, Solver& solver, Real t,
                                  std::uint32_t colliders = kEveryCollider);

  std::size_t bytes() const;

 private:
  const SimulationDesc& scene_;
  Buffer<Real> pressure_;  // a value per particle
  bool hasPressure_ = false;
  std::unique_ptr<ProbeSampler> probes_;  // only with probes in the scene
  WallForces wallForces_;
};

}  // namespace eddy::EDDY_NS
