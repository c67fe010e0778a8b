// The CFL limit reads the particles' speeds one substep late (the GPU never waits for the host), but the
// speeds the scene prescribes are known beforehand and count at once: a keyframed collider that starts
// moving, or a nozzle that switches on, limits the very substep in which it does.
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace eddy {
namespace {

// DFSPH without gravity: water at rest has no speed limit, so a frame of 0.1 s is one substep unless
// something prescribed moves. `extra` adds the collider or the nozzle.
std::string stillWater(const std::string& extra) {
  return R"({
  "solver": "dfsph",
  "fluid": {"rest_density": 1000, "spacing": 0.02},
  "domain": {"min": [0, 0, 0], "max": [1, 0.5, 0.3]},
  "time": {"fps": 10, "substeps": 1},
  "forces": {"gravity": [0, 0, 0]},
  "emitters": [{"type": "volume", "shape": {"type": "box", "center": [0.1, 0.06, 0.15],
                "half_extents": [0.06, 0.06, 0.06]}})" +
         extra + "]}";
}

// the substeps of each of the first `frames` frames
std::vector<std::int64_t> substepsPerFrame(const std::string& text, int frames) {
  SceneDesc scene = parseScene(text, "still.json", {});
  auto sim = createSimulation(scene, Backend::Cpu);
  std::vector<std::int64_t> out;
  for (int f = 0; f < frames; ++f) {
    std::int64_t before = sim->substeps();
    sim->advanceFrame();
    out.push_back(sim->substeps() - before);
  }
  return out;
}

// The fewest substeps a frame of 0.1 s needs for something moving at `speed` to cover at most dfsph.cfl
// (0.4) spacings in each
std::int64_t fewestFor(double speed) { return std::int64_t(std::ceil(0.1 * speed / (0.4 * 0.02) - 1e-6)); }

// A box far from the water, held still until t = 0.1 s (the end of frame 1), then moving at 4 m/s: frame 2
// must be split so that no substep moves it more than 0.4 spacings (50 substeps). Before the prescribed
// speeds counted, frame 2's first substep took its limit from frame 1's end, where nothing moved: one
// substep of 0.1 s, the box jumping 20 spacings.
TEST(PrescribedSpeeds, AKeyframedColliderStartingLimitsItsFirstSubstep) {
  std::vector<std::int64_t> n = substepsPerFrame(stillWater(R"(],
  "colliders": [{"shape": {"type": "box", "half_extents": [0.05, 0.05, 0.05]},
                 "keyframes": [{"time": 0, "translation": [0.8, 0.2, 0.15]},
                               {"time": 0.1, "translation": [0.8, 0.2, 0.15]},
                               {"time": 0.2, "translation": [0.4, 0.2, 0.15]}]})"),
                                                 3);
  EXPECT_EQ(n[0], 1);
  EXPECT_GE(n[1], fewestFor(4.0)) << "frame 2: the box moves at 4 m/s";
  EXPECT_EQ(n[2], 1) << "frame 3: the box holds still again";
}

// A nozzle switching on at t = 0.1 s with a jet of 3 m/s limits frame 2's substeps the same way (the jet
// reaches the floor in frame 3)
TEST(PrescribedSpeeds, ANozzleSwitchingOnLimitsItsFirstSubstep) {
  std::vector<std::int64_t> n = substepsPerFrame(stillWater(R"(,
  {"type": "nozzle", "position": [0.8, 0.3, 0.15], "direction": [0, -1, 0], "radius": 0.03, "speed": 3,
   "start": 0.1, "max_particles": 2000})"),
                                                 2);
  EXPECT_EQ(n[0], 1);
  EXPECT_GE(n[1], fewestFor(3.0)) << "frame 2: the jet leaves the nozzle at 3 m/s";
}

}  // namespace
}  // namespace eddy
