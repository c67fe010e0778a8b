// MLS-MPM's particle-to-grid transfer and grid update (stage 3 of moving_least_squares_mpm.h): every node
// gathers m_i = sum w m and p_i = sum w (m v + A (x_i - x_p)) over the particles of the 27 base nodes
// around it, then v_i = p_i / m_i + dt (g - c_d (v_i - v_wind)) and the colliders' boundary condition.
//
// The gather needs no float atomics, so its sums come out the same on every backend and every run. It
// runs in one of two forms, chosen by the grid's size alone (so that both backends choose alike):
//   - by node (small grids): a node reads its particles straight from memory, the particles of one row of
//     base nodes along x as one span of the sort. Every particle is read 27 times, once per node of its
//     stencil, but on small grids the tiles' barriers cost more than the reads.
//   - by tile (from MpmGrid::kTiledFrom nodes): a tile of nodes copies the particles around it into
//     shared memory, one slab of base nodes (one z) at a time, and its nodes gather from there; a particle
//     is read from memory about 2.5 times. That makes the stage much faster on large grids (1M particles
//     on 128^3 cells, 8M on 256^3) and slower on small ones (16k particles), where the nodes gather by
//     themselves (measured with `eddy bench --solver mpm`, see bench/results).
#pragma once

#include "solvers/mpm/moving_least_squares_mpm.h"

namespace eddy::EDDY_NS {

// what the grid update applies to a node once its sums are in
struct GridUpdate {
  ForcesDesc forces;
  const ColliderData* colliders = nullptr;
  int colliderCount = 0;
  Real dt = 0, time = 0;  // the substep and its end
  Real tolerance = 0;     // a node this close to a collider surface counts as on it
  MpmBoundary mode = MpmBoundary::Separate;
  Vec4* nodes = nullptr;     // velocity after the update, and mass
  Vec4* previous = nullptr;  // flip only: the velocity before forces and boundaries, and mass
  Vec4* pushes = nullptr;    // where the scene has rigid bodies: the colliders' conditions (NodePushes)
  // where the largest node speed after the update is maximised into (as bits; the CFL condition's grid
  // velocity), or null
  std::uint32_t* fastest = nullptr;
};

// the transfer and the grid update of every node of `grid`, from the sorted packed particles `in`
void particleToGrid(const MpmGrid& grid, const MpmPacked* in, const GridUpdate& update);

// the two forms, whatever the grid's size (the tests compare them)
void gatherByNode(const MpmGrid& grid, const MpmPacked* in, const GridUpdate& update);
void gatherByTile(const MpmGrid& grid, const MpmPacked* in, const GridUpdate& update);

}  // namespace eddy::EDDY_NS
