// What the Python object eddy.Simulation holds: the engine's simulation, whether it has blown up, and the
// lock that lets one call at a time reach it.
#pragma once

#include <eddy/error.h>
#include <eddy/simulation.h>

#include <memory>
#include <mutex>
#include <string>

namespace eddy::python {

struct SimulationHandle {
  std::unique_ptr<Simulation> sim;
  // the message of the blow-up that stopped the simulation; empty while it runs
  std::string blowUp;
  std::mutex busy;

  // The simulation for the length of one call. The engine runs without the interpreter lock, so another
  // Python thread could call in while a step runs: such a call is refused, not run beside the step.
  class Use {
   public:
    explicit Use(SimulationHandle& h) : lock_(h.busy, std::try_to_lock), sim_(h.sim.get()) {
      if (!lock_.owns_lock())
        throw RuntimeFailure(
            "the simulation is busy with a call from another thread (a step, say); "
            "eddy.Simulation takes one call at a time");
    }
    Simulation& operator*() const { return *sim_; }
    Simulation* operator->() const { return sim_; }

   private:
    std::unique_lock<std::mutex> lock_;
    Simulation* sim_;
  };

  // for calls that step or change the state: SimulationBlowUp again once the simulation has blown up, as
  // its state is no longer worth going on from
  Use live() {
    Use use(*this);  // first: a step on another thread may be writing blowUp
    if (!blowUp.empty()) throw SimulationBlowUp("the simulation stopped earlier and cannot go on: " + blowUp);
    return use;
  }
  // for calls that read the state, also the state that blew up
  Use any() { return Use(*this); }
};

}  // namespace eddy::python
