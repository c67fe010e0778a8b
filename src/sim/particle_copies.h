// Copies of the particles out of the simulation and back: the host copies output writes, one value per
// particle on the device (renderers), where the persistent attributes live (for tools that read them in
// place), and the persistent attributes a saved state carries.
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

// the positions into device memory at out
void copyPositionsTo(const ParticleSet& particles, Vec3* out);

// where each persistent attribute lives now (Simulation::particleArrays)
std::vector<ParticleArray> persistentArrays(ParticleSet& particles);

// the particle count, the next id and every persistent attribute into the state (scratch ones are
// recomputed every substep before they are read)
void saveParticles(const ParticleSet& particles, SimulationState& state);
// the state's attributes in the set's order; throws InputError, changing nothing, where they or the
// particle count do not fit
std::vector<const AttributeState*> checkSavedParticles(const ParticleSet& particles,
                                                       const SimulationState& state);
// the state's particles into the set, with room for `room` particles in all; `saved` from
// checkSavedParticles
void restoreParticles(ParticleSet& particles, const SimulationState& state,
                      const std::vector<const AttributeState*>& saved, std::int64_t room);

}  // namespace eddy::EDDY_NS
