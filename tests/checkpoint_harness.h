// Resuming from a checkpoint against the uninterrupted run, on one backend: 2n frames straight, against n
// frames, a checkpoint file's bytes, a fresh simulation of the scene stored in them, and n more frames.
// Shared by the CPU tests (test_checkpoint.cpp) and the GPU tests (gpu_checkpoint.cpp).
#pragma once

#include <eddy/checkpoint.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace eddy::test {

// n frames with the statistics of each, as `eddy run` does (stats() sorts the SPH particles, so a run that
// skipped it would take another path)
inline void runFrames(Simulation& sim, int frames, std::vector<FrameStats>& stats) {
  for (int f = 0; f < frames; ++f) {
    sim.advanceFrame();
    stats.push_back(sim.stats());
  }
}

inline bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline void expectSameStats(const FrameStats& a, const FrameStats& b) {
  const std::string at = "frame " + std::to_string(a.frame);
  EXPECT_EQ(a.frame, b.frame) << at;
  EXPECT_TRUE(sameBits(a.time, b.time)) << at;
  EXPECT_EQ(a.particles, b.particles) << at;
  EXPECT_EQ(a.substeps, b.substeps) << at;
  EXPECT_EQ(a.heldIn, b.heldIn) << at;
  EXPECT_TRUE(sameBits(a.meanDensityError, b.meanDensityError)) << at;
  EXPECT_TRUE(sameBits(a.maxDensityError, b.maxDensityError)) << at;
  EXPECT_TRUE(sameBits(a.kineticEnergy, b.kineticEnergy)) << at;
  EXPECT_TRUE(sameBits(a.maxSpeed, b.maxSpeed)) << at;
  EXPECT_EQ(std::memcmp(&a.boundsMin, &b.boundsMin, sizeof(Vec3)), 0) << at;
  EXPECT_EQ(std::memcmp(&a.boundsMax, &b.boundsMax, sizeof(Vec3)), 0) << at;
}

// every persistent attribute (positions, velocities, ids, the solver's own), the solver's and the
// nozzles' state, time, frame and substeps, bit for bit
inline void expectSameState(const SimulationState& a, const SimulationState& b) {
  EXPECT_EQ(a.frame, b.frame);
  EXPECT_TRUE(sameBits(a.time, b.time));
  EXPECT_EQ(a.substeps, b.substeps);
  EXPECT_EQ(a.particles, b.particles);
  EXPECT_EQ(a.nextId, b.nextId);
  ASSERT_EQ(a.attributes.size(), b.attributes.size());
  for (std::size_t k = 0; k < a.attributes.size(); ++k) {
    const AttributeState &x = a.attributes[k], &y = b.attributes[k];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.components, y.components) << x.name;
    EXPECT_TRUE(x.type == y.type) << x.name;
    ASSERT_EQ(x.bytes.size(), y.bytes.size()) << x.name;
    std::size_t differ = 0;
    for (std::size_t i = 0; i < x.bytes.size(); i += 4)
      differ += std::memcmp(&x.bytes[i], &y.bytes[i], 4) != 0;
    EXPECT_EQ(differ, 0u) << "particle attribute '" << x.name << "': " << differ << " of "
                          << x.bytes.size() / 4 << " words differ";
  }
  EXPECT_TRUE(a.solver == b.solver) << "solver state differs (" << a.solver.size() << " bytes)";
  EXPECT_TRUE(a.bodies == b.bodies) << "rigid bodies' state differs (" << a.bodies.size() << " bytes)";
  ASSERT_EQ(a.nozzles.size(), b.nozzles.size());
  for (std::size_t k = 0; k < a.nozzles.size(); ++k) {
    EXPECT_TRUE(sameBits(a.nozzles[k].nextRelease, b.nozzles[k].nextRelease)) << "nozzle " << k;
    EXPECT_EQ(a.nozzles[k].started, b.nozzles[k].started) << "nozzle " << k;
    EXPECT_TRUE(sameBits(a.nozzles[k].rateCarry, b.nozzles[k].rateCarry)) << "nozzle " << k;
    EXPECT_EQ(a.nozzles[k].cursor, b.nozzles[k].cursor) << "nozzle " << k;
    EXPECT_EQ(a.nozzles[k].emitted, b.nozzles[k].emitted) << "nozzle " << k;
  }
}

inline bool hasAttribute(const SimulationState& s, const std::string& name) {
  for (const AttributeState& a : s.attributes)
    if (a.name == name) return true;
  return false;
}

// Returns the final state of the resumed run, for checks of its own.
inline SimulationState expectBitIdenticalResume(const SceneDesc& scene, Backend backend, int n) {
  auto straight = createSimulation(scene, backend);
  std::vector<FrameStats> expected;
  runFrames(*straight, 2 * n, expected);

  std::vector<FrameStats> got;
  std::string bytes;
  {
    auto first = createSimulation(scene, backend);
    runFrames(*first, n, got);
    bytes = encodeCheckpoint(makeCheckpoint(*first));
  }  // nothing of the first half survives but the checkpoint's bytes
  const Checkpoint c = decodeCheckpoint(bytes, "<test checkpoint>");
  EXPECT_EQ(c.state.frame, n);
  auto resumed = createSimulation(parseScene(c.sceneJson, "<test checkpoint>"), backend);
  resumed->restoreState(c.state);
  EXPECT_EQ(resumed->frame(), n);
  runFrames(*resumed, n, got);

  EXPECT_EQ(got.size(), expected.size());
  for (std::size_t f = 0; f < std::min(got.size(), expected.size()); ++f)
    expectSameStats(expected[f], got[f]);
  const SimulationState a = straight->saveState(), b = resumed->saveState();
  expectSameState(a, b);
  EXPECT_TRUE(hasAttribute(b, "position") && hasAttribute(b, "velocity") && hasAttribute(b, "id"));

  // and through the public copy, as the writers see it
  HostParticles pa, pb;
  straight->copyParticles(pa);
  resumed->copyParticles(pb);
  EXPECT_GT(pa.size(), 0u);
  EXPECT_EQ(pa.size(), pb.size());
  EXPECT_TRUE(pa.id == pb.id);
  EXPECT_EQ(std::memcmp(pa.position.data(), pb.position.data(), pa.size() * sizeof(Vec3)), 0);
  EXPECT_EQ(std::memcmp(pa.velocity.data(), pb.velocity.data(), pa.size() * sizeof(Vec3)), 0);
  // the second half did something
  EXPECT_GT(expected.back().kineticEnergy, 0);
  EXPECT_GT(expected.back().substeps, expected[n - 1].substeps);
  return b;
}

// scenes small enough for a test, one per code path that carries state
inline const std::vector<std::string>& volumeAndNozzleOverrides() {
  // a dam-break column (emitter 0) and a nozzle above the empty end of the tank (emitter 1)
  static const std::vector<std::string> overrides = {
      "fluid.spacing=0.05",
      R"(emitters=[{"type": "volume", "shape": {"type": "box", "center": [0.2, 0.3, 0.3],
          "half_extents": [0.2, 0.3, 0.3]}},
         {"type": "nozzle", "position": [1.2, 0.6, 0.3], "direction": [0, -1, 0], "radius": 0.1,
          "speed": 2, "rate": 300, "max_particles": 400}])"};
  return overrides;
}

}  // namespace eddy::test
