// The message a blow-up stops a run with: where (frame, substep, solver), who (the offending particle of
// lowest id, and where it was), why (the likely cause) and what to change, in one paragraph.
#pragma once

#include <eddy/simulation.h>
#include <eddy/simulation_desc.h>

#include <cstdint>
#include <string>

namespace eddy {

enum class BlowUpKind {
  InvalidState,     // positions or velocities not finite, or particles far outside the domain
  SubstepTooShort,  // the solver's stability limit needs shorter substeps than time.max_substeps allows
};

struct BlowUpFacts {
  BlowUpKind kind = BlowUpKind::InvalidState;
  std::string solver;
  int frame = 0;             // the frame being computed (1 = the first after the initial state)
  std::int64_t substep = 0;  // substeps completed before the one that failed, plus one
  Vec3 lo{}, hi{};           // the box a particle may not leave (the domain with a margin)
  double neededDt = 0;       // SubstepTooShort: the stable substep, s
  double allowedDt = 0;      // SubstepTooShort: the substep time.max_substeps leaves the rest of the frame, s
  // the offending particle where the check that found it knows it (its index in the particle arrays, and
  // where it was then); otherwise it is searched for in the particles
  bool known = false;
  std::size_t index = 0;
  Vec3 position{};
};

// the offending particle of lowest id in p: a position or velocity that is not finite, or a position
// outside [lo, hi]; false when every particle is fine
bool findOffendingParticle(const HostParticles& p, Vec3 lo, Vec3 hi, std::size_t& index);

std::string blowUpMessage(const BlowUpFacts& facts, const SimulationDesc& scene,
                          const HostParticles& particles);

}  // namespace eddy
