#include <eddy/error.h>

#include "solvers/dfsph/divergence_free_sph.h"
#include "solvers/mpm/moving_least_squares_mpm.h"
#include "solvers/pbf/position_based_fluids.h"
#include "solvers/wcsph/weakly_compressible_sph.h"

namespace eddy::EDDY_NS {

namespace {
template <class S>
std::unique_ptr<Solver> make(const SimulationDesc& scene) {
  return std::make_unique<S>(scene);
}
}  // namespace

const std::vector<SolverEntry>& registeredSolvers() {
  // adding a solver: a new folder under src/solvers and one line here
  static const std::vector<SolverEntry> solvers = {
      {"pbf", &make<PositionBasedFluids>},
      {"wcsph", &make<WeaklyCompressibleSph>},
      {"dfsph", &make<DivergenceFreeSph>},
      {"mpm", &make<MovingLeastSquaresMpm>},
  };
  return solvers;
}

std::vector<std::string> solverNames() {
  std::vector<std::string> names;
  for (const SolverEntry& e : registeredSolvers()) names.push_back(e.name);
  return names;
}

std::unique_ptr<Solver> makeSolver(const SimulationDesc& scene) {
  std::string names;
  for (const SolverEntry& e : registeredSolvers()) {
    if (scene.solver == e.name) return e.make(scene);
    names += names.empty() ? e.name : std::string(", ") + e.name;
  }
  throw InputError(scene.sourcePath + ": /solver: unknown solver '" + scene.solver + "'; allowed: " + names);
}

}  // namespace eddy::EDDY_NS
