// The pressure water at rest has at the start: a volume emitter with "pressure": "hydrostatic" gives each
// of its particles rho0 |g| d, d its depth below the top of its column (the highest particle of any volume
// emitter in the same lattice column along gravity, plus half a spacing: a particle is the centre of a cube
// of one spacing). Water that starts at zero pressure instead settles under its weight over the first
// steps: with WCSPH's finite speed of sound the column rings about its compressed state (a period of 4
// depths / c), and the ringing throws a body in the water about (a sphere of the water's density mid-depth,
// 0.01 m spacing: pushed with 0.08 to 1.84 times its weight over the first 0.1 s, against 0.89 to 1.07 from
// the hydrostatic start; docs/validation.md). The depth runs along gravity; without gravity the pressure
// is zero. It is for water that lies on something: water starting in the air falls at zero pressure.
#pragma once

#include <eddy/simulation_desc.h>

#include <vector>

#include "emitters/volume_emitter.h"

namespace eddy {

// fills the pressure of the volumes (in emitter order) whose emitter asks for a hydrostatic start
void startHydrostatic(const SimulationDesc& scene, std::vector<EmittedParticles>& volumes);

}  // namespace eddy
