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
  for (int frame = 0; frame < 3; ++frame) {
    sim->advanceFrame();
    (void)sim->stats();  // the SPH solvers sort the particles for fresh densities
    HostParticles host;
    sim->copyParticles(host);
    std::map<std::string, ParticleArray> now = byName(*sim);
    for (const auto& [name, a] : first)
      EXPECT_EQ(now[name].data, a.data) << name << " moved, frame " << frame;
    // the memory handed out holds what the simulation's own copy for output holds, row for row
    const auto* position = static_cast<const Vec3*>(first["position"].data);
    const auto* id = static_cast<const std::uint32_t*>(first["id"].data);
    ASSERT_EQ(host.size(), std::size_t(sim->particleCount()));
    EXPECT_EQ(0, std::memcmp(position, host.position.data(), host.size() * sizeof(Vec3)));
    EXPECT_TRUE(std::equal(host.id.begin(), host.id.end(), id));
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
