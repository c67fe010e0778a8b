// Simulation::particleArrays: the attributes handed out where the engine keeps them stay at their addresses
// through steps and queries, show the current particles, and take writes; colliderPose reports where
// colliders are.
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "test_support.h"

namespace eddy::test {
namespace {

std::map<std::string, ParticleArray> byName(Simulation& sim) {
  std::map<std::string, ParticleArray> out;
  for (const ParticleArray& a : sim.particleArrays()) out[a.name] = a;
  return out;
}

class ParticleArrays : public ::testing::TestWithParam<std::string> {};

TEST_P(ParticleArrays, StayAtTheirAddressesAndShowTheCurrentParticles) {
  // an odd number of substeps a frame: each substep sorts the particles into the other buffer, so a frame
  // ends in the other one every second frame unless the simulation puts them back
  SceneDesc scene = loadScene(
      "", {"solver=" + GetParam(), "fluid.spacing=0.05", "time.substeps=3", "wcsph.density=summation"});
  std::unique_ptr<Simulation> sim = createSimulation(scene, Backend::Cpu);
  sim->advanceFrame();
  std::map<std::string, ParticleArray> first = byName(*sim);
  ASSERT_TRUE(first.count("position") && first.count("velocity") && first.count("density") &&
              first.count("id"));
  EXPECT_EQ(first["id"].type, AttributeType::UInt32);
  EXPECT_EQ(first["position"].components, 3);
  EXPECT_EQ(first["position"].count, sim->particleCount());
  EXPECT_EQ(first["position"].device, Device::Host);
  for (int frame = 0; frame < 4; ++frame) {
    sim->advanceFrame();
    // the SPH solvers sort the particles once more for fresh densities: with and without, a frame ends
    // after an odd number of sorts in one of the two
    if (frame % 2 == 1) (void)sim->stats();
    // the memory handed out before holds the positions as they are now, row for row: copyPositions reads
    // them where they are without sorting anything (copyParticles would sort for its densities)
    std::vector<Vec3> current(std::size_t(sim->particleCount()));
    sim->copyPositions(current.data());
    const auto* position = static_cast<const Vec3*>(first["position"].data);
    EXPECT_EQ(0, std::memcmp(position, current.data(), current.size() * sizeof(Vec3))) << "frame " << frame;
    HostParticles host;
    sim->copyParticles(host);
    const auto* id = static_cast<const std::uint32_t*>(first["id"].data);
    ASSERT_EQ(host.size(), current.size());
    EXPECT_EQ(0, std::memcmp(position, host.position.data(), current.size() * sizeof(Vec3)))
        << "frame " << frame;
    EXPECT_TRUE(std::equal(host.id.begin(), host.id.end(), id)) << "frame " << frame;
    std::map<std::string, ParticleArray> now = byName(*sim);
    for (const auto& [name, a] : first)
      EXPECT_EQ(now[name].data, a.data) << name << " moved, frame " << frame;
  }
}

TEST_P(ParticleArrays, WritesAreWhatTheNextSubstepStartsFrom) {
  SceneDesc scene = loadScene("", {"solver=" + GetParam(), "fluid.spacing=0.05"});
  std::unique_ptr<Simulation> sim = createSimulation(scene, Backend::Cpu);
  sim->advanceFrame();
  std::map<std::string, ParticleArray> a = byName(*sim);
  auto* velocity = static_cast<Vec3*>(a["velocity"].data);
  auto* id = static_cast<const std::uint32_t*>(a["id"].data);
  std::int64_t n = a["velocity"].count;
  for (std::int64_t i = 0; i < n; ++i) velocity[i] = {0, 0, 0};
  auto row = std::find(id, id + n, 7u) - id;
  ASSERT_LT(row, n);
  velocity[row] = {0, 4, 0};
  // heights by id, from the simulation's own copy for output
  auto heights = [&] {
    HostParticles h;
    sim->copyParticles(h);
    std::vector<Real> y(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) y[h.id[i]] = h.position[i].y;
    return std::pair{h, y};
  };
  auto [before, y0] = heights();
  auto row7 = std::size_t(std::find(before.id.begin(), before.id.end(), 7u) - before.id.begin());
  EXPECT_EQ(before.velocity[row7].y, 4.0f);
  sim->advanceFrame();
  auto [after, y1] = heights();
  std::vector<Real> rise(y0.size());
  for (std::size_t k = 0; k < y0.size(); ++k) rise[k] = std::abs(y1[k] - y0[k]);
  Real particle7 = y1[7] - y0[7];
  std::nth_element(rise.begin(), rise.begin() + rise.size() / 2, rise.end());
  // particle 7 rose (4 m/s for 1/60 s, held back by its neighbours); the rest, set at rest, barely moved
  EXPECT_GT(particle7, 0.01f);
  EXPECT_GT(particle7, 10 * rise[rise.size() / 2]);
}

INSTANTIATE_TEST_SUITE_P(EverySolver, ParticleArrays, ::testing::Values("pbf", "wcsph", "dfsph", "mpm"));

TEST_P(ParticleArrays, AddedParticlesJoinTheRunAndACheckpoint) {
  SceneDesc scene = loadScene("", {"solver=" + GetParam(), "fluid.spacing=0.05"});
  std::unique_ptr<Simulation> sim = createSimulation(scene, Backend::Cpu);
  sim->advanceFrame();
  const std::int64_t n = sim->particleCount();
  ASSERT_EQ(sim->particleCapacity(), n);  // no nozzles: no room to spare, so adding grows the storage
  std::vector<Vec3> x, v;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) x.push_back({1.0f + 0.05f * Real(i), 0.3f, 0.2f + 0.05f * Real(k)});
  v.assign(x.size(), Vec3{0, -1, 0});
  // bad input changes nothing
  std::vector<Vec3> outside = x;
  outside[4].x = 7;
  EXPECT_THROW(sim->addParticles(outside, v), InputError);
  EXPECT_THROW(sim->addParticles(x, {}), InputError);
  EXPECT_THROW(sim->addParticles(x, v, 5), InputError);
  EXPECT_EQ(sim->particleCount(), n);

  sim->addParticles(x, v);
  EXPECT_EQ(sim->particleCount(), n + 9);
  for (int f = 0; f < 3; ++f) sim->advanceFrame();
  FrameStats s = sim->stats();
  EXPECT_EQ(s.particles, n + 9);
  HostParticles host;
  sim->copyParticles(host);
  int added = 0;
  for (std::size_t i = 0; i < host.size(); ++i) {
    if (host.id[i] < std::uint32_t(n)) continue;
    ++added;
    EXPECT_LT(host.id[i], std::uint32_t(n + 9));
    EXPECT_LT(host.position[i].y, 0.3f - 0.05f);  // thrown down at 1 m/s, and falling
  }
  EXPECT_EQ(added, 9);
  // a fresh simulation of the scene takes the grown state
  SimulationState state = sim->saveState();
  std::unique_ptr<Simulation> again = createSimulation(scene, Backend::Cpu);
  again->restoreState(state);
  sim->advanceFrame();
  again->advanceFrame();
  HostParticles a, b;
  sim->copyParticles(a);
  again->copyParticles(b);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(0, std::memcmp(a.position.data(), b.position.data(), a.size() * sizeof(Vec3)));
}

TEST(ColliderPose, FollowsVelocitiesKeyframesAndMoveCollider) {
  SceneDesc scene = sceneFile("scenes/keyframed_paddle.json", {"fluid.spacing=0.05"});
  std::unique_ptr<Simulation> sim = createSimulation(scene, Backend::Cpu);
  // the paddle's keyframes: (0.1, 0.12, 0.2) at 0 s, (0.35, 0.12, 0.2) at 0.5 s
  ColliderPose p = sim->colliderPose(0);
  EXPECT_NEAR(p.center.x, 0.1, 1e-6);
  EXPECT_NEAR(p.linearVelocity.x, 0.5, 1e-5);
  for (int f = 0; f < 15; ++f) sim->advanceFrame();  // 0.25 s
  p = sim->colliderPose(0);
  EXPECT_NEAR(p.center.x, 0.225, 1e-5);
  EXPECT_NEAR(p.center.y, 0.12, 1e-6);
  EXPECT_THROW(sim->colliderPose(1), RuntimeFailure);

  SceneDesc ball = sceneFile("scenes/sphere_obstacle.json", {"fluid.spacing=0.05"});
  std::unique_ptr<Simulation> moved = createSimulation(ball, Backend::Cpu);
  moved->advanceFrame();
  moved->moveCollider(1, {0.1f, 0.25f, 0}, {0.3f, 0, 0});
  EXPECT_NEAR(moved->colliderPose(1).center.x, 0.1, 1e-6);
  moved->advanceFrame();
  EXPECT_NEAR(moved->colliderPose(1).center.x, 0.1 + 0.3 / 60, 1e-5);
  EXPECT_NEAR(moved->colliderPose(1).linearVelocity.x, 0.3, 1e-6);
}

}  // namespace
}  // namespace eddy::test
