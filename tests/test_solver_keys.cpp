// Scene keys that reach more than one solver do what they say in each of them, or the scene is refused:
// divisors checked at set-up, keys read by only some solvers, the contact options (restitution, static
// friction) in every solver that has contacts, and a PBF-only neighbour cap that leaves WCSPH alone.
#include <eddy/error.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "colliders/collider.h"
#include "test_support.h"

namespace eddy {
namespace {

using test::expectInputError;

void expectRefused(const std::vector<std::string>& overrides, std::initializer_list<std::string> parts) {
  expectInputError(
      [&] {
        SceneDesc s = loadScene("", overrides);
        createSimulation(s, Backend::Cpu);
      },
      parts);
}

TEST(SolverKeys, SupportRatioOfOneIsRefused) {
  // at h = spacing no lattice neighbour lies inside h: s_corr's scale was 0 and the run gave NaN
  expectRefused({"fluid.support_ratio=1"}, {"/fluid/support_ratio", "(1, 4]"});
  expectRefused({"fluid.support_ratio=0.5"}, {"/fluid/support_ratio", "(1, 4]"});
}

// just above 1 the kernel holds only the nearest lattice neighbours and PBF turns unstable: the run must
// then stop loudly (it used to go on with NaN); a ratio of 1.5 runs
TEST(SolverKeys, SmallSupportRatiosRunOrStopLoudly) {
  for (const char* solver : {"pbf", "wcsph"}) {
    for (const char* ratio : {"1.05", "1.5"}) {
      auto sim = createSimulation(loadScene("", {std::string("solver=") + solver, "fluid.spacing=0.04",
                                                 std::string("fluid.support_ratio=") + ratio}),
                                  Backend::Cpu);
      bool stopped = false;
      try {
        for (int f = 0; f < 3; ++f) sim->advanceFrame();
      } catch (const SimulationBlowUp& e) {
        stopped = true;
        std::printf("  %s at support_ratio %s: %.80s...\n", solver, ratio, e.what());
      }
      FrameStats s = sim->stats();
      if (!stopped) EXPECT_TRUE(std::isfinite(s.kineticEnergy) && std::isfinite(s.maxDensityError)) << solver;
      if (std::string(ratio) == "1.5") EXPECT_FALSE(stopped) << solver;
    }
  }
}

TEST(SolverKeys, TheOldSorKeyNamesItsReplacements) {
  expectRefused({"pbf.sor=0.1"}, {"/pbf/sor", "over_relaxation", "constraint_averaging"});
  expectRefused({"pbf.over_relaxation=2"}, {"/pbf/over_relaxation", "[1, 2)"});
}

// time.adaptive and time.cfl were read by PBF alone; every solver now also limits its substep so that no
// particle moves more than time.cfl spacings
TEST(SolverKeys, AdaptiveSubstepsWorkInEverySolver) {
  // Courant numbers small enough to bind where the solver's own limit does not (WCSPH's acoustic one is
  // short already)
  for (auto [solver, cfl] : {std::pair{"pbf", "0.1"}, {"wcsph", "0.005"}, {"mpm", "0.01"}}) {
    auto substeps = [&](const std::vector<std::string>& extra) {
      std::vector<std::string> o{std::string("solver=") + solver, "fluid.spacing=0.04",
                                 "mpm.grid_resolution=20"};
      o.insert(o.end(), extra.begin(), extra.end());
      auto sim = createSimulation(loadScene("", o), Backend::Cpu);
      for (int f = 0; f < 4; ++f) sim->advanceFrame();
      return long(sim->substeps());
    };
    long fixed = substeps({}), adaptive = substeps({"time.adaptive=true", std::string("time.cfl=") + cfl});
    std::printf("  %s: %ld substeps in 4 frames, %ld with time.adaptive at cfl %s\n", solver, fixed, adaptive,
                cfl);
    EXPECT_GT(adaptive, fixed + fixed / 5) << solver;
  }
}

TEST(SolverKeys, SupportRatioAndMaterialDensityWhereTheyAreNotRead) {
  expectRefused({"solver=mpm", "fluid.support_ratio=3"}, {"/fluid/support_ratio", "mpm.grid_resolution"});
  expectRefused({"solver=wcsph", "emitters.0.material.density=1200"}, {"/emitters/0/material/density"});
  EXPECT_NO_THROW(loadScene("", {"solver=mpm", "emitters.0.material.density=1200"}));
}

TEST(SolverKeys, MpmContactOptionsNeedABoundaryThatUsesThem) {
  std::string plane =
      R"(colliders=[{"shape": {"type": "plane", "center": [0, 0.1, 0]}, "restitution": 0.5}])";
  expectRefused({"solver=mpm", "mpm.boundary=slip", plane}, {"/colliders/0/restitution", "separate"});
  std::string rough = R"(colliders=[{"shape": {"type": "plane", "center": [0, 0.1, 0]}, "friction": 0.5}])";
  expectRefused({"solver=mpm", "mpm.boundary=sticky", rough}, {"/colliders/0/friction", "sticky"});
  EXPECT_NO_THROW(loadScene("", {"solver=mpm", "mpm.boundary=slip", rough}));
}

// pbf.max_neighbors is PBF's: it used to cap WCSPH's lists as well
TEST(SolverKeys, PbfNeighbourCapLeavesWcsphAlone) {
  auto run = [](const std::vector<std::string>& extra) {
    std::vector<std::string> o{"solver=wcsph", "fluid.spacing=0.04"};
    o.insert(o.end(), extra.begin(), extra.end());
    auto sim = createSimulation(loadScene("", o), Backend::Cpu);
    for (int f = 0; f < 4; ++f) sim->advanceFrame();
    return sim->stats();
  };
  FrameStats plain = run({}), capped = run({"pbf.max_neighbors=6"});
  EXPECT_EQ(plain.kineticEnergy, capped.kineticEnergy);
  EXPECT_EQ(plain.maxDensityError, capped.maxDensityError);
}

// static friction at velocity level (WCSPH and MPM particles, MPM grid nodes): a slide the normal
// velocity change can cancel stops; a faster one keeps what dynamic friction leaves
TEST(SolverKeys, StaticFrictionAtVelocityLevel) {
  ColliderDesc d;
  d.shape.type = "plane";
  d.staticFriction = 0.6f;
  d.friction = 0.2f;
  ColliderData floor = makeColliderData(d);
  Vec3 x{0, 0.05f, 0}, v{0.5f, -1, 0};  // |v_t| = 0.5 <= 0.6 * 1
  collideVelocity(floor, x, v, 0.1f, 0);
  EXPECT_NEAR(v.x, 0, 1e-6f);
  EXPECT_NEAR(v.y, 0, 1e-6f);
  x = {0, 0.05f, 0};
  v = {1, -1, 0};  // 1 > 0.6: slides, losing 0.2 * 1
  collideVelocity(floor, x, v, 0.1f, 0);
  EXPECT_NEAR(v.x, 0.8f, 1e-6f);
  // the shared contact rule with restitution
  Vec3 out = contactVelocity({0.5f, -2, 0}, {0, 1, 0}, 0.5f, 0, 0.1f);  // dvn = 3, 0.5 > 0.3: slides
  EXPECT_NEAR(out.x, 0.5f, 1e-6f);
  EXPECT_NEAR(out.y, 1.0f, 1e-6f);
}

// mean vertical velocity of every particle
double meanVy(Simulation& sim) {
  HostParticles p;
  sim.copyParticles(p);
  double sum = 0;
  for (const Vec3& v : p.velocity) sum += v.y;
  return sum / double(p.size());
}

// a block of sand dropped on a floor plane (granular: it keeps no elastic rebound of its own): the
// fastest mean rise after impact, with the plane's restitution
double mpmRebound(Real restitution) {
  std::vector<std::string> o{
      "solver=mpm",
      "mpm.grid_resolution=32",
      "fluid.spacing=0.03",
      "domain.min=[0, 0, 0]",
      "domain.max=[1, 1, 1]",
      R"(colliders=[{"shape": {"type": "plane", "center": [0, 0.2, 0]}, "restitution": )" +
          std::to_string(restitution) + "}]",
      R"(emitters=[{"type": "volume", "shape": {"type": "box", "center": [0.5, 0.45, 0.5],
          "half_extents": [0.1, 0.1, 0.1]}, "velocity": [0, -2, 0],
          "material": {"type": "sand", "youngs_modulus": 2e5}}])"};
  auto sim = createSimulation(loadScene("", o), Backend::Cpu);
  double rise = -1e9;
  for (int f = 0; f < 30; ++f) {
    sim->advanceFrame();
    rise = std::max(rise, meanVy(*sim));
  }
  return rise;
}

TEST(SolverKeys, MpmAppliesColliderRestitution) {
  double dead = mpmRebound(0), bouncy = mpmRebound(0.9f);
  std::printf("  fastest mean rise after impact: e = 0 %.3f m/s, e = 0.9 %.3f m/s\n", dead, bouncy);
  // measured 0.033 and 0.097 m/s; before the grid nodes took restitution, 0.033 and 0.035
  EXPECT_GT(bouncy, 2 * dead);
  EXPECT_GT(bouncy - dead, 0.04);
}

}  // namespace
}  // namespace eddy
