// The limits on a substep that the simulation itself sets, beside each solver's own stability limit
// (Solver::stableTimeStepOf): the speeds the scene prescribes, and time.adaptive's bound on the motion.
#pragma once

#include <eddy/simulation_desc.h>

#include "backend/primitives.h"
#include "core/buffer.h"
#include "particles/particle_set.h"
#include "sim/nozzle_emission.h"
#include "sim/scene_model.h"

namespace eddy::EDDY_NS {

// The fastest a collider's surface or a nozzle's jet moves at some time in [t0, t1], from the scene alone
// (no read-back): the substep limits count it before any particle has that speed, since the solvers' CFL
// maxima are read back one substep late.
Real prescribedSpeed(const SimulationDesc& scene, const SceneModel& model, const NozzleEmission& nozzles,
                     double t0, double t1);

// time.adaptive, in every solver: the substep in which no particle moves more than time.cfl spacings,
// counting the speed gravity can add within the frame and `known` (prescribedSpeed) among the particles'
// speeds; infinity where nothing moves. scratch holds a value per particle.
Real motionTimeStep(const SimulationDesc& scene, const ParticleSet& particles, Primitives& prims,
                    Buffer<Real>& scratch, Real known);

}  // namespace eddy::EDDY_NS
