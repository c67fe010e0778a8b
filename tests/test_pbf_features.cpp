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

}  // namespace
}  // namespace eddy
