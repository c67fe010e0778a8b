// Checkpoints: resuming continues bit for bit (every solver, solids, nozzles), and the file format refuses
// what it cannot resume: another format or eddy version, a truncated or corrupted file, another scene.
#include <eddy/checkpoint.h>
#include <eddy/error.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "checkpoint_harness.h"
#include "mpm_harness.h"
#include "test_support.h"

using namespace eddy;

namespace {

namespace fs = std::filesystem;

// the message of the InputError that f throws ("" when it throws none)
template <class F>
std::string inputError(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// a small checkpoint after two frames of the nozzle scene (every section of the format is used)
std::string sampleBytes() {
  auto sim = createSimulation(loadScene("", test::volumeAndNozzleOverrides()), Backend::Cpu);
  std::vector<FrameStats> stats;
  test::runFrames(*sim, 2, stats);
  return encodeCheckpoint(makeCheckpoint(*sim));
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(Checkpoint, ResumePbfIsBitIdentical) {
  test::expectBitIdenticalResume(loadScene("", {"fluid.spacing=0.05"}), Backend::Cpu, 5);
}

TEST(Checkpoint, ResumeWcsphIsBitIdentical) {
  test::expectBitIdenticalResume(loadScene("", {"fluid.spacing=0.05", "solver=wcsph"}), Backend::Cpu, 5);
}

// DFSPH's warm starts carry each solve's stiffness from one substep to the next
TEST(Checkpoint, ResumeDfsphIsBitIdentical) {
  test::expectBitIdenticalResume(loadScene("", {"fluid.spacing=0.05", "solver=dfsph"}), Backend::Cpu, 5);
}

TEST(Checkpoint, ResumeMpmWaterIsBitIdentical) {
  SimulationState s = test::expectBitIdenticalResume(
      loadScene("", {"fluid.spacing=0.05", "solver=mpm", "mpm.grid_resolution=16"}), Backend::Cpu, 5);
  // the grid the next CFL condition reads is part of the state
  EXPECT_GT(s.solver.size(), 8u);
}

// two materials on one grid, the elastic one with its deformation gradient
TEST(Checkpoint, ResumeMpmElasticBallInWaterIsBitIdentical) {
  SimulationState s =
      test::expectBitIdenticalResume(test::sceneFile("scenes/mpm_elastic_ball_water.json",
                                                     {"fluid.spacing=0.025", "mpm.grid_resolution=12"}),
                                     Backend::Cpu, 8);
  EXPECT_TRUE(test::hasAttribute(s, "mpm_deformation"));
  EXPECT_TRUE(test::hasAttribute(s, "mpm_plastic_j"));
}

// snow: plasticity (Jp) and hardening, so the sound speed in the CFL condition changes over the run
TEST(Checkpoint, ResumeMpmSnowIsBitIdentical) {
  test::expectBitIdenticalResume(loadScene("", {"fluid.spacing=0.05", "solver=mpm", "mpm.grid_resolution=16",
                                                "emitters.0.material={\"type\": \"snow\"}"}),
                                 Backend::Cpu, 5);
}

// a volume and a thinned nozzle (rate below a full disc: the accumulator and cursor carry over)
TEST(Checkpoint, ResumeWithNozzleIsBitIdentical) {
  SimulationState s =
      test::expectBitIdenticalResume(loadScene("", test::volumeAndNozzleOverrides()), Backend::Cpu, 6);
  ASSERT_EQ(s.nozzles.size(), 1u);
  EXPECT_GT(s.nozzles[0].emitted, 0);
  EXPECT_EQ(std::int64_t(s.nextId), s.particles);
}

TEST(Checkpoint, ResumeMpmNozzleIsBitIdentical) {
  test::expectBitIdenticalResume(
      test::sceneFile("scenes/mpm_nozzle_benchmark.json",
                      {"fluid.spacing=0.02", "mpm.grid_resolution=25", "emitters.0.rate=2000"}),
      Backend::Cpu, 6);
}

// a keyframed paddle: the checkpoint's scene carries the keyframes (the resumed half passes one at t = 1 s)
TEST(Checkpoint, ResumeKeyframedPaddleIsBitIdentical) {
  test::expectBitIdenticalResume(test::sceneFile("scenes/keyframed_paddle.json", {"fluid.spacing=0.04"}),
                                 Backend::Cpu, 32);
}

// the restored simulation is not merely the same at the end: frame, time and counts come back at once
TEST(Checkpoint, RestoreSetsFrameTimeAndParticles) {
  SceneDesc scene = loadScene("", test::volumeAndNozzleOverrides());
  auto a = createSimulation(scene, Backend::Cpu);
  std::vector<FrameStats> stats;
  test::runFrames(*a, 3, stats);
  auto b = createSimulation(scene, Backend::Cpu);
  EXPECT_NE(b->particleCount(), a->particleCount());
  b->restoreState(a->saveState());
  EXPECT_EQ(b->frame(), 3);
  EXPECT_EQ(b->time(), a->time());
  EXPECT_EQ(b->substeps(), a->substeps());
  EXPECT_EQ(b->particleCount(), a->particleCount());
}

// The MPM state: the held-in counter and the grid of the last update, which the next substep's CFL
// condition reads before the transfer rewrites it. (The substep count rounds the CFL step to whole
// substeps of the frame, so the resume tests above would rarely notice a grid left at zero.)
TEST(Checkpoint, MpmSolverStateCarriesHeldInCountAndGrid) {
  const SceneDesc scene = loadScene("", {"fluid.spacing=0.05", "solver=mpm", "mpm.grid_resolution=16"});
  test::MpmHarness a(scene), b(scene);
  for (int s = 0; s < 10; ++s) a.step(a.stableDt());
  cpu::StepContext ca = a.context(), cb = b.context();
  std::string bytes = a.solver.saveState(ca);
  // the layout starts with the held-in count; a count of its own shows that it is taken
  const unsigned long long held = 12345;
  ASSERT_GE(bytes.size(), sizeof held);
  std::memcpy(bytes.data(), &held, sizeof held);
  b.solver.restoreState(cb, bytes);
  EXPECT_EQ(b.solver.heldInCount(), 12345);
  View<Vec4> na = a.solver.grid().nodes(), nb = b.solver.grid().nodes();
  ASSERT_EQ(na.size, nb.size);
  EXPECT_EQ(std::memcmp(na.data, nb.data, na.size * sizeof(Vec4)), 0);
  double mass = 0;
  for (std::size_t k = 0; k < na.size; ++k) mass += na.data[k].w;
  EXPECT_GT(mass, 0);
  EXPECT_EQ(b.solver.saveState(cb), bytes);
}

TEST(Checkpoint, EncodeDecodeRoundTrips) {
  const std::string bytes = sampleBytes();
  const Checkpoint c = decodeCheckpoint(bytes, "x.eddy");
  EXPECT_EQ(c.eddyVersion, kVersion);
  EXPECT_EQ(c.state.frame, 2);
  EXPECT_EQ(encodeCheckpoint(c), bytes);
  EXPECT_EQ(c.sceneHash, checkpointSceneHash(parseScene(c.sceneJson, "x.eddy")));
}

TEST(Checkpoint, TruncatedFileIsRefused) {
  const std::string bytes = sampleBytes();
  for (std::size_t keep : {bytes.size() - 1, bytes.size() / 2, std::size_t(20), std::size_t(3)}) {
    const std::string msg = inputError([&] { decodeCheckpoint(bytes.substr(0, keep), "cut.eddy"); });
    EXPECT_TRUE(contains(msg, "cut.eddy: ")) << msg;
    EXPECT_TRUE(contains(msg, keep < 8 ? "not an eddy checkpoint" : "truncated")) << keep << ": " << msg;
  }
  const std::string longer = inputError([&] { decodeCheckpoint(bytes + "x", "long.eddy"); });
  EXPECT_TRUE(contains(longer, "long.eddy: corrupted checkpoint")) << longer;
}

TEST(Checkpoint, CorruptedByteIsRefused) {
  const std::string bytes = sampleBytes();
  // a byte in the scene, one in the particle data, and the last
  for (std::size_t at : {std::size_t(60), bytes.size() / 2, bytes.size() - 1}) {
    std::string bad = bytes;
    bad[at] = char(bad[at] ^ 0x10);
    const std::string msg = inputError([&] { decodeCheckpoint(bad, "bad.eddy"); });
    EXPECT_TRUE(contains(msg, "bad.eddy: corrupted checkpoint: the checksum")) << at << ": " << msg;
  }
}

TEST(Checkpoint, OtherFormatVersionIsRefused) {
  std::string bytes = sampleBytes();
  bytes[8] = char(kCheckpointFormatVersion + 1);
  const std::string msg = inputError([&] { decodeCheckpoint(bytes, "v.eddy"); });
  EXPECT_TRUE(
      contains(msg, "v.eddy: checkpoint format version " + std::to_string(kCheckpointFormatVersion + 1)))
      << msg;
}

TEST(Checkpoint, OtherEddyVersionIsRefused) {
  Checkpoint c = decodeCheckpoint(sampleBytes(), "x");
  c.eddyVersion = "0.0.1-other";
  const std::string msg = inputError([&] { decodeCheckpoint(encodeCheckpoint(c), "old.eddy"); });
  EXPECT_TRUE(contains(msg, "old.eddy: written by eddy 0.0.1-other; this is eddy " + std::string(kVersion)))
      << msg;
}

TEST(Checkpoint, StateOfAnotherSceneIsRefusedByRestore) {
  auto pbf = createSimulation(loadScene("", {"fluid.spacing=0.05"}), Backend::Cpu);
  auto mpm = createSimulation(loadScene("", {"fluid.spacing=0.05", "solver=mpm", "mpm.grid_resolution=16"}),
                              Backend::Cpu);
  const std::int64_t before = mpm->particleCount();
  const std::string msg = inputError([&] { mpm->restoreState(pbf->saveState()); });
  EXPECT_TRUE(contains(msg, "does not fit the scene")) << msg;
  EXPECT_EQ(mpm->particleCount(), before);
  EXPECT_EQ(mpm->frame(), 0);
  // a solver state of the wrong size
  SimulationState s = mpm->saveState();
  s.solver.resize(s.solver.size() - 16);
  EXPECT_TRUE(contains(inputError([&] { mpm->restoreState(s); }), "MPM solver state"));
}

TEST(Checkpoint, SceneHashIgnoresFramesOnly) {
  const SceneDesc a = loadScene("", {"fluid.spacing=0.05"});
  EXPECT_EQ(checkpointSceneHash(a),
            checkpointSceneHash(loadScene("", {"fluid.spacing=0.05", "time.frames=7"})));
  const SceneDesc b = loadScene("", {"fluid.spacing=0.04"});
  EXPECT_NE(checkpointSceneHash(a), checkpointSceneHash(b));
  EXPECT_EQ(sceneDifference(a, a), "");
  EXPECT_EQ(sceneDifference(a, b), "/fluid/spacing is 0.05 in the checkpoint, 0.04 here");
}

TEST(Checkpoint, WriteKeepsTheLastTwo) {
  const fs::path dir = fs::temp_directory_path() / ("eddy_checkpoints_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  Checkpoint c = decodeCheckpoint(sampleBytes(), "x");
  for (int frame : {3, 6, 9, 12}) {
    c.state.frame = frame;
    const std::string path = writeCheckpoint(dir.string(), c);
    EXPECT_EQ(path, (dir / checkpointFileName(frame)).string());
    EXPECT_EQ(readCheckpoint(path).state.frame, frame);
  }
  EXPECT_EQ(checkpointFrames(dir.string()), (std::vector<int>{9, 12}));
  // a temporary file of an interrupted write is never taken for a checkpoint
  std::FILE* f = std::fopen((dir / "checkpoint_000015.eddy.tmp.123").c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  EXPECT_EQ(checkpointFrames(dir.string()), (std::vector<int>{9, 12}));
  EXPECT_EQ(checkpointFileName(120), "checkpoint_000120.eddy");
  EXPECT_TRUE(checkpointFrames((dir / "missing").string()).empty());
  fs::remove_all(dir);
}
