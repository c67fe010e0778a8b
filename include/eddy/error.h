// User-facing errors: one clear message, caught by the CLI and turned into a non-zero exit.
#pragma once

#include <stdexcept>
#include <string>

namespace eddy {

// bad input: scene files, CLI values, meshes, sizes that do not fit
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// the machine could not do what was asked (device memory, CUDA failures, file system)
struct RuntimeFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// the simulation blew up (positions or velocities not finite, particles far outside the domain, a substep
// far shorter than the scene allows): one message naming the frame, substep, solver, first offending
// particle, likely cause and what to change; `eddy run` exits with status 3
struct SimulationBlowUp : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace eddy
