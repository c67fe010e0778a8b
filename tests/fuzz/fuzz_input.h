// The bad-input harness shared by the libFuzzer target (tests/fuzz/fuzz_scene.cpp) and the fixed mutation
// corpus test (tests/test_fuzz_corpus.cpp). The rule it checks: every input either succeeds or throws
// eddy::InputError; anything else (another exception type, a crash, undefined behaviour, a hang) is a
// finding.
//
// One fuzz input carries several kinds of input as sections. The scene JSON text comes first; each further
// section starts with a line "@@<kind>" at the start of a line:
//
//   { "emitters": [ ... ] }
//   @@set
//   pbf.iterations=6
//   colliders.0.friction=0.3
//
// Kinds: "set" (one --set override per line). Unknown kinds are ignored, so that mesh or particle files can
// become new kinds later without invalidating existing corpus files.
#pragma once

#include <eddy/scene.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace eddy::fuzz {

struct FuzzInput {
  std::string scene;              // scene JSON text
  std::vector<std::string> sets;  // "--set" overrides, in order
};

// splits bytes into sections as described above
FuzzInput splitInput(std::string_view bytes);

// the inverse of splitInput (a line per override; overrides must not contain '\n')
std::string joinInput(const FuzzInput& input);

// what a scene may cost before the harness builds a Simulation from it and runs a substep
struct SimulationLimits {
  bool simulate = true;
  std::int64_t maxParticles = 2000;  // estimated from the emitters' bounding boxes and nozzle budgets
  int maxGridResolution = 24;        // MPM
};

enum class Outcome {
  Rejected,   // parseScene (or the Simulation) threw InputError
  Parsed,     // the scene is valid; too large to simulate within the limits, or simulation was off
  Simulated,  // the scene is valid, a CPU Simulation was built and ran one substep
  BlewUp,     // the scene is valid, and the run stopped with SimulationBlowUp (a loud stop, not a finding)
};

struct Result {
  Outcome outcome = Outcome::Rejected;
  std::string message;  // the InputError message when rejected
  std::string finding;  // non-empty: the rule was broken (an exception other than InputError)
};

// true when a valid scene is small enough to build and step within limits: an upper estimate of its
// particles (emitter bounding boxes, nozzle budgets) and its MPM grid resolution
bool withinLimits(const SceneDesc& scene, const SimulationLimits& limits);

// parses, validates and (within limits) simulates one input; never throws
Result checkInput(const FuzzInput& input, const SimulationLimits& limits);

}  // namespace eddy::fuzz
