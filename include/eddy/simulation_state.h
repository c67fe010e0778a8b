// What a simulation carries from one frame to the next (Simulation::saveState, checkpoints), apart from the
// simulation itself: the engine's particle storage and emitters use these types too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace eddy {

// element type of a particle attribute: both are 32 bits wide, so the engine stores and moves them alike
enum class AttributeType : std::uint32_t { Float32 = 0, UInt32 = 1 };

// one persistent particle attribute, host copy: size * components elements of 4 bytes, raw
struct AttributeState {
  std::string name;
  int components = 1;
  AttributeType type = AttributeType::Float32;
  std::string bytes;
};

// what a nozzle emitter carries from one substep to the next (see src/emitters/nozzle_emitter.h)
struct NozzleState {
  double nextRelease = 0;    // s, time of the next layer
  bool started = false;      // whether the first layer has been scheduled
  double rateCarry = 0;      // fractional particles owed by the rate
  std::uint64_t cursor = 0;  // next point of the shuffled layer, when the rate thins layers
  std::int64_t emitted = 0;  // particles released so far
};

// Everything a simulation carries between frames that is not derived from the scene: enough for a fresh
// simulation of the same scene to continue where this one stopped, bit for bit on the same backend (the
// layout is the same on both, so a state also moves between CPU and GPU, which differ by round-off).
struct SimulationState {
  int frame = 0;
  double time = 0;
  std::int64_t substeps = 0;
  std::int64_t particles = 0;
  std::uint32_t nextId = 0;                // id of the next particle to be emitted
  std::vector<AttributeState> attributes;  // every persistent attribute, in the simulation's order
  std::string solver;                      // the solver's own state, opaque (Solver::saveState)
  std::vector<NozzleState> nozzles;        // one per nozzle emitter, in scene order
  std::string bodies;                      // the rigid bodies' motion, opaque
};

}  // namespace eddy
