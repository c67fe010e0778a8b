// A block of fluid settling in a box: the density error at rest against the hydrostatic prediction,
// containment and energy decay, from an exact and from a jittered lattice; a wall counted once where two
// colliders share it; and the rest density at the tank's walls, edges and corners.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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
  double energyQuarterSecond = 0;  // after 15 frames
  int escaped = 0;
};

RestResult settle(const std::vector<std::string>& overrides, int frames) {
  SceneDesc scene = parseScene(kRestScene, "rest.json", overrides);
  auto sim = createSimulation(scene, Backend::Cpu);
  RestResult r;
  for (int f = 0; f < frames; ++f) {
    sim->advanceFrame();
    if (f == frames / 3) r.energyEarly = sim->stats().kineticEnergy;
    if (f + 1 == 15) r.energyQuarterSecond = sim->stats().kineticEnergy;
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

// A weakly compressible column at rest is compressed by its own weight: rho/rho0 - 1 = p / (rho0 c^2) =
// g d / c^2 at depth d (Tait and linear alike for small compression), so the mean over a block of height H
// is g H / (2 c^2). (MPM water: tests/test_mpm.cpp.)
constexpr double kG = 9.81, kHeight = 0.24;

void expectHydrostatic(const RestResult& r, double predicted) {
  std::printf("  hydrostatic prediction %.4f%%, measured %.4f%% (ratio %.2f)\n", 100 * predicted,
              100 * r.last.meanDensityError, r.last.meanDensityError / predicted);
  EXPECT_NEAR(r.last.meanDensityError, predicted, 0.3 * predicted);
  EXPECT_EQ(r.escaped, 0);
  EXPECT_LT(r.last.kineticEnergy, r.energyEarly);
}

TEST(FluidRest, WcsphDensityErrorIsHydrostatic) {
  double c = 30;
  expectHydrostatic(settle({"solver=wcsph", "wcsph.speed_of_sound=30"}, 90), kG * kHeight / (2 * c * c));
}

TEST(FluidRest, WcsphFromAJitteredLatticeSettlesToHydrostatic) {
  double c = 30;
  expectHydrostatic(settle({"solver=wcsph", "wcsph.speed_of_sound=30", "emitters.0.jitter=0.2"}, 120),
                    kG * kHeight / (2 * c * c));
}

// DFSPH holds the rest density by its solves: the mean compression of a tank at rest after 2.5 s is
// below the 0.1 % bar (measured 0.019 % with conjugate gradients, 0.056 % with Jacobi
// iterations), and the tank calms (it turned over while the walls gave the layers beside them no support
// along the wall: 0.68 J after 1 s). Its kinetic energy falls from 25 mJ a quarter second in to a floor of
// 2.4 .. 3.7 mJ from 1.75 s on, a speed of about 1.7 cm/s over its 21.6 kg, as WCSPH's tank after 1 s; on
// that floor it varies from frame to frame by as much as it differs between builds that differ in round-off,
// so the test holds it below 4 mJ and below a fifth of the energy a quarter second in (measured 0.12 .. 0.13)
TEST(FluidRest, DfsphDensityErrorAtRestBelowATenthOfAPercent) {
  RestResult r = settle({"solver=dfsph"}, 150);
  EXPECT_LE(r.last.meanDensityError, 0.001);
  EXPECT_EQ(r.escaped, 0);
  EXPECT_LT(r.last.kineticEnergy, 0.2 * r.energyQuarterSecond);
  EXPECT_LT(r.last.kineticEnergy, 0.004);
}

TEST(FluidRest, PbfFromAJitteredLatticeSettles) {
  RestResult r = settle({"solver=pbf", "pbf.iterations=4", "emitters.0.jitter=0.2"}, 120);
  EXPECT_LE(r.last.meanDensityError, 0.005);
  EXPECT_EQ(r.escaped, 0);
  EXPECT_LT(r.last.kineticEnergy, r.energyEarly);
}

// A floor plane laid on the domain floor is the same wall: the block must see it once (it was counted twice,
// the bottom layers over-dense and the block pushed up)
TEST(FluidRest, AWallSharedByTwoCollidersCountsOnce) {
  std::string floor = R"(colliders=[{"shape": {"type": "plane", "center": [0.15, 0, 0.15]}}])";
  for (const char* solver : {"pbf", "wcsph"}) {
    std::string sv = std::string("solver=") + solver;
    // the density of the block as placed, before anything moves: the same wall, the same density
    auto atStart = [&](const std::vector<std::string>& o) {
      return createSimulation(parseScene(kRestScene, "rest.json", o), Backend::Cpu)->stats();
    };
    FrameStats a0 = atStart({sv}), b0 = atStart({sv, floor});
    std::printf("  %s at rest, placed: mean density error %.5f%% alone, %.5f%% with the floor plane\n",
                solver, 100 * a0.meanDensityError, 100 * b0.meanDensityError);
    EXPECT_NEAR(b0.meanDensityError, a0.meanDensityError, 1e-4 * a0.maxDensityError + 1e-7) << solver;
    EXPECT_NEAR(b0.maxDensityError, a0.maxDensityError, 1e-4 * a0.maxDensityError + 1e-7) << solver;
    // and after settling for half a second (the runs part by round-off, not by a wall counted twice)
    RestResult alone = settle({sv}, 30), doubled = settle({sv, floor}, 30);
    EXPECT_NEAR(doubled.last.meanDensityError, alone.last.meanDensityError, 0.1 * alone.last.meanDensityError)
        << solver;
    EXPECT_NEAR(doubled.last.boundsMin.y, alone.last.boundsMin.y, 1e-3) << solver;
  }
}

// The walls stand for the fluid's lattice continued beyond them, so a lattice block filling the bottom of
// the tank has the rest density everywhere below its free surface: beside one wall, where two meet (the
// edges: 0.6 % under-dense while the mass beyond two walls was taken as the product of each wall's) and
// where three meet (the corners: 1.45 % under)
TEST(FluidRest, TheTanksWallsEdgesAndCornersHoldTheRestDensity) {
  for (const char* solver : {"pbf", "wcsph", "dfsph"}) {
    // (WCSPH sums its density here: its default integrates the continuity equation from rho0)
    std::vector<std::string> set = {std::string("solver=") + solver, "forces.gravity=[0,0,0]"};
    if (std::string(solver) == "wcsph") set.push_back("wcsph.density=summation");
    SceneDesc scene = parseScene(kRestScene, "rest.json", set);
    auto sim = createSimulation(scene, Backend::Cpu);
    sim->stats();  // densities at the placed positions
    HostParticles p;
    sim->copyParticles(p);
    const Real h = scene.fluid.supportRatio * scene.fluid.spacing, top = 0.24f;
    double worst[4] = {0, 0, 0, 0};  // by the number of walls within h: none, one, two, three
    int count[4] = {0, 0, 0, 0};
    for (std::size_t i = 0; i < p.position.size(); ++i) {
      Vec3 x = p.position[i];
      if (x.y > top - h) continue;  // the free surface has no neighbours above
      int walls = (x.x < h) + (x.x > 0.3f - h) + (x.z < h) + (x.z > 0.3f - h) + (x.y < h);
      worst[walls] = std::max(worst[walls], std::fabs(double(p.density[i]) / 1000 - 1));
      ++count[walls];
    }
    const char* names[4] = {"inside", "at a wall", "at an edge", "at a corner"};
    for (int w = 0; w < 4; ++w) {
      std::printf("  %-6s %-12s %4d particles, largest |rho/rho0 - 1| %.2e\n", solver, names[w], count[w],
                  worst[w]);
      EXPECT_GT(count[w], 0) << solver << " " << names[w];
      EXPECT_LT(worst[w], 1e-5) << solver << " " << names[w];
    }
  }
}

}  // namespace
}  // namespace eddy
