// Two CPU runs of the same scene give bit-identical particles and statistics (no order-dependent float
// reductions or races on the CPU backend).
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cstring>
#include <string>
#include <vector>

using namespace eddy;

namespace {

struct RunResult {
  HostParticles particles;
  std::vector<FrameStats> stats;  // after every frame
};

RunResult runDamBreak(const std::vector<std::string>& overrides, int frames) {
  SceneDesc scene = loadScene("", overrides);
  auto sim = createSimulation(scene, Backend::Cpu);
  RunResult r;
  for (int f = 0; f < frames; ++f) {
    sim->advanceFrame();
    r.stats.push_back(sim->stats());
  }
  sim->copyParticles(r.particles);
  return r;
}

template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// first index where two arrays differ bitwise, for the failure message
template <class T>
std::size_t firstDifference(const std::vector<T>& a, const std::vector<T>& b) {
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return i;
  return std::min(a.size(), b.size());
}

void expectSameStats(const FrameStats& a, const FrameStats& b, int frame) {
  // exact equality on purpose: the runs must agree bit for bit
  EXPECT_EQ(a.frame, b.frame) << "frame " << frame;
  EXPECT_EQ(a.time, b.time) << "frame " << frame;
  EXPECT_EQ(a.particles, b.particles) << "frame " << frame;
  EXPECT_EQ(a.substeps, b.substeps) << "frame " << frame;
  EXPECT_EQ(a.meanDensityError, b.meanDensityError) << "frame " << frame;
  EXPECT_EQ(a.maxDensityError, b.maxDensityError) << "frame " << frame;
  EXPECT_EQ(a.kineticEnergy, b.kineticEnergy) << "frame " << frame;
  EXPECT_EQ(a.maxSpeed, b.maxSpeed) << "frame " << frame;
  EXPECT_EQ(std::memcmp(&a.boundsMin, &b.boundsMin, sizeof(Vec3)), 0) << "frame " << frame;
  EXPECT_EQ(std::memcmp(&a.boundsMax, &b.boundsMax, sizeof(Vec3)), 0) << "frame " << frame;
  EXPECT_EQ(a.heldIn, b.heldIn) << "frame " << frame;
}

void expectIdenticalRuns(const RunResult& a, const RunResult& b, int frames) {
  ASSERT_GT(a.particles.size(), 0u);
  ASSERT_EQ(a.particles.size(), b.particles.size());
  EXPECT_TRUE(sameBits(a.particles.position, b.particles.position))
      << "positions differ first at " << firstDifference(a.particles.position, b.particles.position);
  EXPECT_TRUE(sameBits(a.particles.velocity, b.particles.velocity))
      << "velocities differ first at " << firstDifference(a.particles.velocity, b.particles.velocity);
  EXPECT_TRUE(sameBits(a.particles.density, b.particles.density))
      << "densities differ first at " << firstDifference(a.particles.density, b.particles.density);
  ASSERT_EQ(a.stats.size(), b.stats.size());
  for (std::size_t f = 0; f < a.stats.size(); ++f) expectSameStats(a.stats[f], b.stats[f], int(f));
  // the runs did something: the column has started to fall
  EXPECT_GT(a.stats.back().kineticEnergy, 0);
  EXPECT_EQ(a.stats.back().frame, frames);
}

void expectIdenticalRuns(const std::vector<std::string>& overrides) {
  const int frames = 3;
  RunResult a = runDamBreak(overrides, frames);
  RunResult b = runDamBreak(overrides, frames);
  expectIdenticalRuns(a, b, frames);
}

}  // namespace

TEST(Determinism, DamBreakPbfRunsAreBitIdentical) { expectIdenticalRuns({"fluid.spacing=0.04"}); }

TEST(Determinism, DamBreakWcsphRunsAreBitIdentical) {
  expectIdenticalRuns({"fluid.spacing=0.04", "solver=wcsph"});
}

TEST(Determinism, DamBreakDfsphRunsAreBitIdentical) {
  expectIdenticalRuns({"fluid.spacing=0.04", "solver=dfsph"});
}

// MLS-MPM: the particle-to-grid transfer gathers per node in sorted particle order (no float atomics)
TEST(Determinism, DamBreakMpmRunsAreBitIdentical) {
  expectIdenticalRuns({"fluid.spacing=0.04", "solver=mpm", "mpm.grid_resolution=20"});
}

TEST(Determinism, MpmIndependentOfThreadCount) {
  const int frames = 3;
  std::vector<std::string> overrides = {"fluid.spacing=0.04", "solver=mpm", "mpm.grid_resolution=20"};
  RunResult many = runDamBreak(overrides, frames);
  RunResult one;
  {
    tbb::global_control single(tbb::global_control::max_allowed_parallelism, 1);
    one = runDamBreak(overrides, frames);
  }
  expectIdenticalRuns(many, one, frames);
}

TEST(Determinism, IndependentOfThreadCount) {
  // the reductions and sorts must not depend on how the work was split between threads
  const int frames = 3;
  std::vector<std::string> overrides = {"fluid.spacing=0.04"};
  RunResult many = runDamBreak(overrides, frames);
  RunResult one;
  {
    tbb::global_control single(tbb::global_control::max_allowed_parallelism, 1);
    one = runDamBreak(overrides, frames);
  }
  expectIdenticalRuns(many, one, frames);
}
