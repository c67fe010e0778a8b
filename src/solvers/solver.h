// The small interface every solver implements, and the context a step works in. A solver adds the
// particle attributes it needs at set-up and advances the particles by one substep.
#pragma once

#include <eddy/scene.h>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "backend/primitives.h"
#include "colliders/collider.h"
#include "core/sph_kernels.h"
#include "neighbors/neighbor_grid.h"
#include "sim/particle_set.h"
#include "sim/phase_timers.h"
#include "solvers/wall_kernel.h"

namespace eddy::EDDY_NS {

// everything a substep reads (constant model) and writes (mutable state)
struct StepContext {
  const SceneDesc& scene;
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
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual const char* name() const = 0;
  // adds the solver's attributes
  virtual void setup(StepContext& ctx) = 0;
  // largest stable substep for the current state (infinity where the solver has no limit)
  virtual Real stableTimeStep(StepContext& ctx) { return std::numeric_limits<Real>::infinity(); }
  virtual void step(StepContext& ctx, Real dt) = 0;
};

using SolverFactory = std::unique_ptr<Solver> (*)(const SceneDesc& scene);

struct SolverEntry {
  const char* name;
  SolverFactory make;
};

// the registered solvers (src/solvers/registry.cpp: one line per solver)
const std::vector<SolverEntry>& registeredSolvers();
std::unique_ptr<Solver> makeSolver(const SceneDesc& scene);

}  // namespace eddy::EDDY_NS
