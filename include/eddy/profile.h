// Per-phase timing with fixed slots (GPU: CUDA events; CPU: steady clock).
#pragma once

#include <array>
#include <cstdint>

namespace eddy {

enum class Phase : int {
  NeighborGrid,        // cell indices, sort, reorder, cell ranges
  NeighborLists,       // neighbour lists from the cell ranges
  Density,             // density, lambda (PBF) or pressure (WCSPH)
  PositionCorrection,  // PBF delta-p, WCSPH pressure forces
  Collision,           // colliders and domain
  ViscosityVorticity,  // XSPH / viscosity / vorticity confinement
  Integration,         // prediction, velocity update, emitters, forces
  Output,              // host copies and file writing
  Surface,             // liquid surfaces (run --surface): field, marching cubes, smoothing, the mesh's copy
  Count
};

inline constexpr std::array<const char*, int(Phase::Count)> kPhaseNames = {
    "neighbour grid",      "neighbour lists", "density / lambda",
    "position correction", "collisions",      "viscosity + vorticity",
    "integration",         "output",          "surface"};

inline constexpr std::array<const char*, int(Phase::Count)> kPhaseKeys = {
    "neighbor_grid", "neighbor_lists", "density", "position_correction", "collision", "viscosity_vorticity",
    "integration",   "output",         "surface"};

struct Profile {
  std::array<double, int(Phase::Count)> totalMs{};
  std::array<std::int64_t, int(Phase::Count)> calls{};
  std::int64_t substeps = 0;
  // iterations of the pressure solves so far (DFSPH: the constant-density and the divergence solve)
  std::int64_t densityIterations = 0, divergenceIterations = 0;
  double stepMs = 0;  // all simulation phases (not output)
  // the times of the last kStepHistory substeps (substep k in slot k % kStepHistory), so that a benchmark
  // can take a median without waiting for the GPU after every substep
  static constexpr int kStepHistory = 1024;
  std::array<float, kStepHistory> recentStepMs{};

  void addStep(double ms) {
    recentStepMs[std::size_t(substeps % kStepHistory)] = float(ms);
    stepMs += ms;
    substeps += 1;
  }

  void add(Phase p, double ms) {
    totalMs[int(p)] += ms;
    calls[int(p)] += 1;
  }
  void reset() { *this = Profile{}; }
};

}  // namespace eddy
