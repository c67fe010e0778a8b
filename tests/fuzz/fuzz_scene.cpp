// libFuzzer target: scene JSON text and --set overrides (see fuzz_input.h for the input layout). Built with
// -DEDDY_FUZZ=ON and clang (preset "fuzz"); docs/testing.md "Fuzzing bad input" says how to run it. A finding
// aborts, so libFuzzer keeps the input as a crash file.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // a small budget keeps the simulated inputs at a few milliseconds each under ASan
  static const eddy::fuzz::SimulationLimits limits{
      .simulate = true, .maxParticles = 1000, .maxGridResolution = 16};
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const eddy::fuzz::Result r = eddy::fuzz::checkInput(eddy::fuzz::splitInput(bytes), limits);
  if (!r.finding.empty()) {
    std::fprintf(stderr, "eddy fuzz finding: %s\n", r.finding.c_str());
    std::abort();
  }
  return 0;
}
