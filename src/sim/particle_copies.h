// Copies of the particles out of the simulation and back: the host copies output writes, one value per
// particle on the device (renderers), and the persistent attributes a saved state carries.
#pragma once

#include <eddy/simulation.h>

#include <string>
#include <vector>

#include "particles/particle_set.h"

namespace eddy::EDDY_NS {

// the attributes output writes, to the host; pressure: a value per particle on the device, or null
void copyToHost(const ParticleSet& particles, const Real* pressure, HostParticles& out);

// Simulation::copyValues for "speed", "id" and "material" (0 without materials), and "density" as the
// particles hold it; throws InputError for another name
void copyValues(const ParticleSet& particles, const std::string& quantity, float* out);

// every persistent attribute into the state (scratch ones are recomputed every substep before they are read)
void saveAttributes(const ParticleSet& particles, SimulationState& state);
// the state's attributes in the set's order; throws InputError, changing nothing, where they do not fit
std::vector<const AttributeState*> matchAttributes(const ParticleSet& particles,
                                                   const SimulationState& state);

}  // namespace eddy::EDDY_NS
