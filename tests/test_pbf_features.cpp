// PBF's optional terms do what they are for: vorticity confinement puts energy back into the flow,
// XSPH viscosity takes it out, over-relaxation speeds up the solve and constraint averaging slows it.
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace eddy {
namespace {

double energyAfter(const std::vector<std::string>& extra, int frames = 12) {
  std::vector<std::string> overrides = {"fluid.spacing=0.04", "solver=pbf"};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  auto sim = createSimulation(loadScene("", overrides), Backend::Cpu);
  for (int f = 0; f < frames; ++f) sim->advanceFrame();
  FrameStats s = sim->stats();
  EXPECT_GT(s.particles, 0);
  return s.kineticEnergy;
}

TEST(PbfFeatures, VorticityConfinementAddsEnergy) {
  double plain = energyAfter({"pbf.vorticity=0"});
  double confined = energyAfter({"pbf.vorticity=0.5"});
  std::printf("  kinetic energy: without confinement %.4f J, with %.4f J\n", plain, confined);
  EXPECT_GT(confined, plain);
}

TEST(PbfFeatures, XsphViscosityRemovesEnergy) {
  double none = energyAfter({"pbf.xsph=0"});
  double strong = energyAfter({"pbf.xsph=0.3"});
  std::printf("  kinetic energy: XSPH c=0 %.4f J, c=0.3 %.4f J\n", none, strong);
  EXPECT_LT(strong, none);
}

// the density error averaged over frames 1..frames, at a fixed iteration count
double meanDensityError(const std::vector<std::string>& extra, int frames = 20) {
  std::vector<std::string> overrides = {"fluid.spacing=0.04", "solver=pbf", "pbf.iterations=2"};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  auto sim = createSimulation(loadScene("", overrides), Backend::Cpu);
  double sum = 0;
  for (int f = 0; f < frames; ++f) {
    sim->advanceFrame();
    sum += sim->stats().meanDensityError;
  }
  return sum / frames;
}

// omega > 1 takes longer Jacobi steps, so two iterations get closer to the rest density; constraint
// averaging (the old "sor") divides the step by the neighbour count and falls further behind
TEST(PbfFeatures, OverRelaxationConvergesFasterAndAveragingSlower) {
  double plain = meanDensityError({});
  double over = meanDensityError({"pbf.over_relaxation=1.3"});
  double averaged = meanDensityError({"pbf.constraint_averaging=0.1"});
  std::printf("  mean density error, 2 iterations: omega 1 %.5f, omega 1.3 %.5f, averaging 0.1 %.5f\n", plain,
              over, averaged);
  EXPECT_LT(over, 0.8 * plain);
  EXPECT_GT(averaged, 1.2 * plain);
}

// A block in free space (no gravity, far from every wall) is mirror-symmetric, so its total momentum stays
// zero. With support_ratio 2 an inside particle has 26 neighbours in three shells (1, sqrt 2, sqrt 3
// spacings); a cap of 18 keeps exactly the first two shells, symmetrically. Kept in visit order (-z cells
// first), the lists were one-sided: measured |P| / sum m|v| = 0.2 before the fix.
TEST(PbfFeatures, NeighbourCapKeepsTheNearestAndMomentumStaysZero) {
  std::vector<std::string> o = {"solver=pbf",
                                "fluid.spacing=0.05",
                                "forces.gravity=[0, 0, 0]",
                                "domain.min=[-2, -2, -2]",
                                "domain.max=[2, 2, 2]",
                                "pbf.max_neighbors=18",
                                R"(emitters=[{"type": "volume", "shape": {"type": "box", "center": [0, 0, 0],
                                     "half_extents": [0.25, 0.25, 0.25]}}])"};
  auto sim = createSimulation(loadScene("", o), Backend::Cpu);
  for (int f = 0; f < 10; ++f) sim->advanceFrame();
  HostParticles p;
  sim->copyParticles(p);
  Vec3 momentum{};
  double speeds = 0;
  for (const Vec3& v : p.velocity) {
    momentum += v;
    speeds += length(v);
  }
  double relative = length(momentum) / speeds;
  std::printf("  %zu particles, |sum v| / sum |v| = %.2e, warnings: %zu\n", p.size(), relative,
              sim->warnings().size());
  EXPECT_GT(speeds, 0);  // s_corr pulls the surface in: the block moves
  EXPECT_LT(relative, 1e-6);
  ASSERT_EQ(sim->warnings().size(), 1u);
  EXPECT_NE(sim->warnings()[0].find("18 nearest"), std::string::npos) << sim->warnings()[0];
}

// A substep that moves particles several spacings is named in the run's warnings: the dam break at 2 cm
// with 2 substeps at 10 frames a second (50 ms) moves its fastest particles well over 3 spacings within
// the first frames; with the scene's 4 substeps at 60 frames a second it stays near 1 (no warning).
TEST(PbfFeatures, SubstepsThatOutrunTheSpacingWarn) {
  auto coarse =
      createSimulation(loadScene("", {"fluid.spacing=0.04", "time.fps=10", "time.substeps=2"}), Backend::Cpu);
  for (int f = 0; f < 4; ++f) {
    coarse->advanceFrame();
    coarse->stats();
  }
  std::vector<std::string> w = coarse->warnings();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("spacings in one substep"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("time.substeps"), std::string::npos) << w[0];
  std::printf("  %s\n", w[0].c_str());

  auto fine = createSimulation(loadScene("", {"fluid.spacing=0.04"}), Backend::Cpu);
  for (int f = 0; f < 24; ++f) {
    fine->advanceFrame();
    fine->stats();
  }
  EXPECT_TRUE(fine->warnings().empty()) << fine->warnings()[0];
}

}  // namespace
}  // namespace eddy
