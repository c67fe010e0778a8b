// PBF's optional terms do what they are for: vorticity confinement puts energy back into the flow,
// XSPH viscosity takes it out, over-relaxation and the neighbour cap change the solve.
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

TEST(PbfFeatures, OverRelaxationAndNeighbourCapChangeTheSolve) {
  double base = energyAfter({});
  double sor = energyAfter({"pbf.sor=0.1"});
  double capped = energyAfter({"pbf.max_neighbors=8"});
  std::printf("  kinetic energy: default %.4f J, sor 0.1 %.4f J, 8 neighbours %.4f J\n", base, sor, capped);
  EXPECT_NE(sor, base);
  EXPECT_NE(capped, base);
}

}  // namespace
}  // namespace eddy
