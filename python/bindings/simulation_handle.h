// What the Python object eddy.Simulation holds: the engine's simulation, and whether it has blown up.
#pragma once

#include <eddy/error.h>
#include <eddy/simulation.h>

#include <memory>
#include <string>

namespace eddy::python {

struct SimulationHandle {
  std::unique_ptr<Simulation> sim;
  // the message of the blow-up that stopped the simulation; empty while it runs
  std::string blowUp;

  // the simulation, or SimulationBlowUp again once it has blown up: its state is no longer worth stepping
  Simulation& live() {
    if (!blowUp.empty()) throw SimulationBlowUp("the simulation stopped earlier and cannot go on: " + blowUp);
    return *sim;
  }
};

}  // namespace eddy::python
