// A block of fluid settling in a box: the density error at rest, containment and energy decay.
#include <gtest/gtest.h>

#include <cstdio>

#include "test_support.h"

namespace eddy {
namespace {

const char* kRestScene = R"({
  "name": "rest in a box",
  "solver": "pbf",
  "fluid": {"rest_density": 1000, "spacing": 0.02, "support_ratio": 2.0},
  "domain": {"min": [0, 0, 0], "max": [0.3, 0.5, 0.3]},
  "time": {"fps": 60, "frames": 60, "substeps": 4},
  "emitters": [{"type": "volume", "shape": {"type": "box", "center": [0.15, 0.12, 0.15],
                "half_extents": [0.15, 0.12, 0.15]}}]
})";

struct RestResult {
  FrameStats last;
  double energyEarly = 0;
  int escaped = 0;
};

RestResult settle(const std::vector<std::string>& overrides, int frames) {
  SceneDesc scene = parseScene(kRestScene, "rest.json", overrides);
  auto sim = createSimulation(scene, Backend::Cpu);
  RestResult r;
  for (int f = 0; f < frames; ++f) {
    sim->advanceFrame();
    if (f == frames / 3) r.energyEarly = sim->stats().kineticEnergy;
  }
  r.last = sim->stats();
  HostParticles p;
  sim->copyParticles(p);
  for (const Vec3& x : p.position) {
    bool inside = x.x >= 0 && x.x <= 0.3f && x.y >= 0 && x.y <= 0.5f && x.z >= 0 && x.z <= 0.3f;
    r.escaped += inside ? 0 : 1;
  }
  std::printf("  %-6s particles %lld  mean density error %.4f%%  max %.3f%%  KE %.3e J (at 1/3: %.3e)\n",
              scene.solver.c_str(), (long long)r.last.particles, 100 * r.last.meanDensityError,
              100 * r.last.maxDensityError, r.last.kineticEnergy, r.energyEarly);
  return r;
}

TEST(FluidRest, PbfDensityErrorBelowHalfPercent) {
  RestResult r = settle({"solver=pbf", "pbf.iterations=4"}, 90);
  EXPECT_LE(r.last.meanDensityError, 0.005);
  EXPECT_EQ(r.escaped, 0);
  EXPECT_LT(r.last.kineticEnergy, r.energyEarly);
}

TEST(FluidRest, WcsphDensityErrorBelowTwoPercent) {
  RestResult r = settle({"solver=wcsph"}, 90);
  EXPECT_LE(r.last.meanDensityError, 0.02);
  EXPECT_EQ(r.escaped, 0);
  EXPECT_LT(r.last.kineticEnergy, r.energyEarly);
}

}  // namespace
}  // namespace eddy
