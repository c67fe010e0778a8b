// A sphere of the water's density mid-depth in still water (scenes/validation/neutral_sphere.json) is
// carried by the water's push from the first step: the lattice points inside it are left out and no
// more (sim/scene_model.cpp), and the water starts at its hydrostatic pressure (sim/hydrostatic_start.h),
// so neither a gap around the body nor the water settling under its own weight throws it about.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "test_support.h"

namespace eddy {
namespace {

using test::expectInputError;

struct Track {
  double worstPush = 0;  // the largest |push - weight| / weight over the frames after the first
  double farthest = 0;   // m, from the start
};

Track track(const SceneDesc& scene, int frames) {
  auto sim = createSimulation(scene, Backend::Cpu);
  const double r = scene.colliders[0].shape.radius;
  const double weight = scene.colliders[0].density * 4.0 / 3 * M_PI * r * r * r * 9.81;
  Track t;
  for (int f = 0; f < frames; ++f) {
    sim->advanceFrame();
    ColliderPose pose = sim->colliderPose(0);
    EXPECT_TRUE(std::isfinite(pose.center.y));
    t.farthest = std::max(t.farthest, double(length(pose.center - scene.colliders[0].shape.center)));
    const double push = sim->fluidLoad(0).force.y;
    if (f > 0) t.worstPush = std::max(t.worstPush, std::abs(push - weight) / weight);
  }
  return t;
}

// At 0.02 m (the sphere three spacings in radius) over the first 0.1 s, in frames of 5 ms. Leaving out
// the points within half a spacing of the sphere as well, the water fell into the gap and pushed the sphere
// with 0.4 to 2.3 times its weight; starting at zero pressure, the water column rang about its compressed
// state (a period of 4 depths / c = 32 ms) and pushed it with 0.2 to 1.8 times its weight. Both starts left
// it rising at 5 cm/s.
TEST(NeutralBuoyancy, ASphereOfTheWatersDensityIsCarriedByItsWeightFromTheStart) {
  SceneDesc scene =
      test::sceneFile("scenes/validation/neutral_sphere.json", {"fluid.spacing=0.02", "time.fps=200"});
  scene.probes.clear();
  {
    auto sim = createSimulation(scene, Backend::Cpu);
    // 15 x 12 x 15 lattice points less those inside the sphere: its volume over a spacing cubed is 113
    EXPECT_EQ(sim->particleCount(), 2700 - 110);
  }
  Track t = track(scene, 20);
  std::printf("  push off the weight by at most %.1f %%, farthest from the start %.2f mm\n",
              100 * t.worstPush, 1000 * t.farthest);
  EXPECT_LT(t.worstPush, 0.15);
  EXPECT_LT(t.farthest, 0.25 * 0.02);
}

// "pressure" takes "zero" or "hydrostatic", and names the key when it is neither
TEST(NeutralBuoyancy, TheStartingPressureIsCheckedByName) {
  auto parse = [](const std::string& value) {
    return parseScene(R"({"solver": "wcsph", "emitters": [{"pressure": ")" + value +
                          R"(", "shape": {"half_extents": [0.1, 0.1, 0.1]}}]})",
                      "start.json");
  };
  EXPECT_EQ(parse("hydrostatic").emitters[0].pressure, "hydrostatic");
  EXPECT_EQ(parse("zero").emitters[0].pressure, "zero");
  expectInputError([&] { parse("rest"); }, {"start.json", "/emitters/0/pressure", "hydrostatic"});
}

// the hydrostatic start gives a WCSPH tank at rest the density of rho0 g d from the start: its pressure
// at the floor (0.24 m deep) reads rho0 g d at once, where the zero start reads nothing
TEST(NeutralBuoyancy, AHydrostaticStartGivesTheWaterItsPressureAtOnce) {
  for (const char* start : {"zero", "hydrostatic"}) {
    SceneDesc scene = test::sceneFile("scenes/validation/tank_at_rest.json");
    scene.emitters[0].pressure = start;
    auto sim = createSimulation(scene, Backend::Cpu);
    HostParticles p;
    sim->copyParticles(p);
    double deepest = 0;
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p.position[i].y < 0.02) deepest = std::max(deepest, double(p.density[i]));
    // Tait with c = 30 m/s: rho0 (1 + rho0 g d / B)^(1/7), d = 0.24 - 0.01 m below the surface
    const double b = 1000.0 * 30 * 30 / 7, expected = 1000 * std::pow(1 + 1000 * 9.81 * 0.23 / b, 1.0 / 7);
    std::printf("  %s start: density at the floor %.3f kg/m^3\n", start, deepest);
    if (std::string(start) == "zero")
      EXPECT_NEAR(deepest, 1000, 1e-3);
    else
      EXPECT_NEAR(deepest, expected, 1e-3);
  }
}

}  // namespace
}  // namespace eddy
