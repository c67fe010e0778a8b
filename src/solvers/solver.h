// The small interface every solver implements, and the context a step works in. A solver adds the
// particle attributes it needs at set-up and advances the particles by one substep.
#pragma once

#include <eddy/simulation_desc.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "backend/phase_timers.h"
#include "backend/primitives.h"
#include "colliders/collider.h"
#include "colliders/collider_reach.h"
#include "core/sph_kernels.h"
#include "neighbors/neighbor_grid.h"
#include "particles/particle_set.h"
#include "solvers/wall_kernel.h"

namespace eddy::EDDY_NS {

// see Solver::wallTerms
struct WallTerms {
  // where the mirror's pressure varies along the walls (wallLateralAcceleration): each particle's gradient
  // of p / rho^2 as the last substep left it, and the walls' moments; null: none
  const Vec3* gradient = nullptr;
  WallMoments moments;
  bool stepAtLeastZero = false;  // see wallPressureAcceleration
  // whether the mirrored particle beyond a wall has the particle's pressure (and the hydrostatic step to
  // it), as in the SPH solvers; without, the wall pushes with the particle's own pressure only (PBF, whose
  // walls enter only the particle's density constraint, with its lambda)
  bool mirrorsPressure = true;
  // per particle, what the colliders' contacts did to it over the substep (PBF, which moves particles out
  // of the colliders it reaches): xyz the push as an acceleration (m/s^2), w the collider (-1: none); null:
  // no contacts to count
  const Vec4* contactPush = nullptr;
};

// What a grid solver's boundary conditions did to its nodes over the last substep (MPM): per node, the
// force the colliders' conditions put on the fluid there (the node's change of momentum over the substep,
// N) and in w the collider of the last condition that changed it (-1: none); node (x, y, z) is number
// (z ny + y) nx + x, at origin + (x, y, z) spacing. A null push: none recorded.
struct NodePushes {
  const Vec4* push = nullptr;
  Vec3 origin{};
  Real spacing = 0;
  int nx = 0, ny = 0, nz = 0;
  EDDY_HD Index count() const { return Index(nx) * ny * nz; }
  EDDY_HD Vec3 position(Index node) const {
    Index rest = node / nx;
    return origin + Vec3{Real(node % nx), Real(rest % ny), Real(rest / ny)} * spacing;
  }
};

// everything a substep reads (constant model) and writes (mutable state)
struct StepContext {
  const SimulationDesc& scene;
  ParticleSet& particles;
  NeighborGrid& grid;
  Primitives& prims;
  PhaseTimers& timers;
  View<const ColliderData> colliders;  // scene colliders, then the domain container
  SphKernels kernels;
  WallKernel wall;  // colliders seen as fluid at rest density
  Real particleMass = 0;
  Real particleRadius = 0;  // contact distance to colliders
  Real time = 0;            // at the start of the substep
  // per collider, where it can be over this substep (colliders/collider_reach.h), for the per-particle
  // loops to skip the far ones; null: every loop visits every collider
  const ColliderBall* colliderBalls = nullptr;
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual const char* name() const = 0;
  // adds the solver's attributes and sizes its buffers; ctx.particles already has the capacity the
  // emitters will need (the whole particle budget), but no particles yet
  virtual void setup(StepContext& ctx) = 0;
  // largest stable substep for the current state (infinity where the solver has no limit), in two halves
  // so that the host need not drain the GPU for it: launchStableTimeStep queues the maxima it needs into
  // one of two slots (0, 1), stableTimeStepOf reads a slot back (waiting only for the work queued before
  // its launch) and gives the substep they allow, taking the fastest particle to move at least
  // `knownSpeed` (what the scene prescribes for the coming substep: colliders, nozzles)
  virtual void launchStableTimeStep(StepContext& ctx, int slot) {}
  virtual Real stableTimeStepOf(StepContext& ctx, int slot, Real knownSpeed) {
    return std::numeric_limits<Real>::infinity();
  }
  Real stableTimeStep(StepContext& ctx, Real knownSpeed = 0) {
    launchStableTimeStep(ctx, 0);
    return stableTimeStepOf(ctx, 0, knownSpeed);
  }
  virtual void step(StepContext& ctx, Real dt) = 0;

  // particles [first, first + count) were just appended by scene emitter `emitterIndex` (position and
  // velocity set, every other attribute zero): set the solver's state of them. Runs in the step loop
  // (nozzles), so it must not allocate.
  virtual void initializeParticles(StepContext& ctx, Index first, Index count, int emitterIndex) {}
  // after initializeParticles, for the particles of a volume emitter whose scene asks for a starting
  // pressure (EmitterDesc::pressure): their pressure in Pa, one a particle, on the device. A solver with an
  // equation of state starts their density at it; the others find their pressure from the positions.
  virtual void startPressure(StepContext& ctx, Index first, Index count, const Real* pressure) {}
  // fills attr::kDensity at the current positions, for statistics and output; the default is the SPH
  // summation over freshly built neighbour lists (it sorts the particles)
  virtual void updateDensity(StepContext& ctx);
  // after updateDensity: out[i] = max(0, rho_i / rho0_i - 1), how far particle i is compressed beyond the
  // rest density of its own material (out has room for every particle); the default takes fluid.rest_density
  // for every particle
  virtual void densityErrors(StepContext& ctx, Real* out);
  // out[i] = particle i's pressure, Pa, from attr::kDensity as updateDensity or the last substep left it
  // (probes, wall forces, output); false where the solver has no pressure (MPM)
  virtual bool pressures(StepContext& ctx, Real* out) { return false; }
  // the factor on the kernel gradients of the solver's pressure force, walls included (wall forces)
  virtual Real gradientScale() const { return 1; }
  // the wall terms of the solver's pressure force beyond wallPressureAcceleration's defaults (wall forces)
  virtual WallTerms wallTerms(StepContext& ctx) { return {}; }
  // the same where only the wall shares of the colliders in `colliders` (bits, colliderVisited) will be read
  // (the rigid bodies' force sums), which a solver may work out for the particles near those alone
  virtual WallTerms wallTermsNear(StepContext& ctx, std::uint32_t colliders) { return wallTerms(ctx); }
  // a grid solver's record of its collider conditions over the last substep, kept where the scene has
  // rigid bodies (their push; see NodePushes)
  virtual NodePushes nodePushes(StepContext& ctx) { return {}; }
  // per-particle masses for the statistics, or an empty view when every particle has ctx.particleMass
  virtual View<const Real> particleMasses(StepContext& ctx) { return {}; }
  // particles the solver has clamped back into the domain since the simulation started
  virtual std::int64_t heldInCount() { return 0; }
  // whether the solver works on ctx.grid (the SPH neighbour grid); false skips its set-up
  virtual bool usesNeighborGrid() const { return true; }
  // whether the solver's own checks (stableTimeStep's maxima) met a value that is not finite
  virtual bool invalidState() const { return false; }
  // most neighbours a list keeps (the nearest); 0 = every neighbour
  virtual int neighborCap() const { return 0; }
  // whether the solver's neighbour lists take 16-bit entries on the GPU (NeighborView): about 95 bytes a
  // particle lighter, and slower to read
  virtual bool narrowNeighborLists() const { return false; }
  // device memory the solver holds beyond particle attributes (grids, tables)
  virtual std::size_t deviceBytes() const { return 0; }
  // the contact distance to colliders (StepContext::particleRadius), in particle spacings: the layer at
  // rest beside a wall sits half a spacing from it
  virtual Real contactSpacings() const { return Real(0.5); }

  // Checkpoints, between frames: what the solver carries from one substep to the next beyond the
  // persistent particle attributes and the scene (counters, a grid read before it is rewritten), as
  // opaque bytes. restoreState takes the bytes of saveState on a solver set up for the same scene; it
  // checks them before changing anything and throws InputError when they do not fit. Stateless solvers
  // (PBF, WCSPH: everything they keep is recomputed each substep) save nothing.
  virtual std::string saveState(StepContext& ctx) { return {}; }
  virtual void restoreState(StepContext& ctx, const std::string& bytes);
};

using SolverFactory = std::unique_ptr<Solver> (*)(const SimulationDesc& scene);

struct SolverEntry {
  const char* name;
  SolverFactory make;
};

// the registered solvers (src/solvers/registry.cpp: one line per solver)
const std::vector<SolverEntry>& registeredSolvers();
// the registered solvers' names, in registration order (the scene key "solver" takes one)
std::vector<std::string> solverNames();
std::unique_ptr<Solver> makeSolver(const SimulationDesc& scene);

}  // namespace eddy::EDDY_NS
