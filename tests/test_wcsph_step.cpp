// WCSPH's substep and viscosity follow Monaghan's published forms, written for the smoothing length (half
// the kernel support): the first frame of a dam break at rest takes the substeps cfl * ell / c allows.
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace eddy {
namespace {

TEST(WcsphStep, CflUsesTheSmoothingLength) {
  SceneDesc scene = loadScene("", {"solver=wcsph", "fluid.spacing=0.04"});
  auto sim = createSimulation(scene, Backend::Cpu);
  sim->advanceFrame();
  // at rest: dt = cfl ell / c, ell = support / 2; the viscous and gravity limits are longer here
  double ell = 0.5 * scene.fluid.supportRatio * scene.fluid.spacing;
  double c = scene.wcsph.speedOfSound;
  double nu = scene.wcsph.viscosity * ell * c / 10;
  double dt = scene.wcsph.cfl * ell / c;
  ASSERT_LT(dt, 0.125 * ell * ell / nu);
  ASSERT_LT(dt, 0.25 * std::sqrt(ell / 9.81));
  // the frame is split into equal substeps no longer than dt; the particles start at rest, so the first
  // substep's dt is exact and later ones shrink only by the speed gained in one frame (about 0.16 m/s)
  double frame = 1.0 / scene.time.fps;
  long expected = long(std::ceil(frame / dt - 1e-4));
  EXPECT_GE(sim->substeps(), expected);
  EXPECT_LE(sim->substeps(), long(std::ceil(frame / (scene.wcsph.cfl * ell / (c + 0.2)))));
}

// Water turning at a wall keeps its density: a lattice of water given the divergence-free stagnation flow
// v = k (W - x, y, 0) towards the wall at x = W, gravity off, changes no particle's continuity density in
// its first substep, the layer beside the wall included. The walls' mirror particles reflect the fluid's
// linear velocity field there (wallVelocityVariationRate); when they reflected the particle's own velocity
// alone, the layer beside the wall lost the stretching along it that its neighbours beyond it carried: its
// density changed at 0.15 rho0 k a second (0.076 kg/m^3 in this substep, measured; 0 in the interior and
// the next layer), and the layer next to the Buchner scene's wall read 0.11-0.16 rho g H above the next one
// while the water ran up the wall.
TEST(WcsphStep, WaterTurningAtAWallKeepsItsDensity) {
  constexpr double kRate = 5, kDt = 1e-4, kSpacing = 0.02, kWall = 0.4;
  SceneDesc scene = parseScene(R"({
    "solver": "wcsph",
    "wcsph": {"speed_of_sound": 30, "viscosity": 0},
    "fluid": {"rest_density": 1000, "spacing": 0.02, "support_ratio": 2.0},
    "domain": {"min": [0, 0, 0], "max": [0.4, 0.8, 0.4]},
    "forces": {"gravity": [0, 0, 0]},
    "time": {"fps": 10000, "frames": 1, "substeps": 1},
    "emitters": [{"type": "volume", "shape": {"type": "box", "center": [0.2, 0.2, 0.2],
                  "half_extents": [0.2, 0.2, 0.2]}}]
  })",
                               "turning.json", {});
  ASSERT_DOUBLE_EQ(1.0 / scene.time.fps, kDt);  // one substep of one frame
  auto sim = createSimulation(scene, Backend::Cpu);
  HostParticles start;
  sim->copyParticles(start);
  for (std::size_t i = 0; i < start.size(); ++i) {
    Vec3 x = start.position[i];
    sim->overwriteParticle(std::int64_t(i), x, Vec3{Real(kRate * (kWall - x.x)), Real(kRate * x.y), 0});
  }
  sim->advanceFrame();
  ASSERT_EQ(sim->substeps(), 1);
  HostParticles after;
  sim->copyParticles(after);
  // the particles two supports from every other wall and the surface, by their distance from the wall
  // at W (they moved by at most 2 mm in the substep)
  double margin = 2 * scene.fluid.supportRatio * kSpacing, worst[3] = {0, 0, 0};
  int counted[3] = {0, 0, 0};
  for (std::size_t i = 0; i < after.size(); ++i) {
    Vec3 x = after.position[i];
    if (x.x < margin || x.y < margin || x.y > 0.4 - margin || x.z < margin || x.z > kWall - margin) continue;
    int layer = int((kWall - x.x) / kSpacing);
    if (layer > 2) layer = 2;  // the interior
    worst[layer] = std::max(worst[layer], std::fabs(double(after.density[i]) - 1000));
    ++counted[layer];
  }
  // the density change at 1 rho0 k a second, for scale: 0.5 kg/m^3 in the substep
  double scale = 1000 * kRate * kDt;
  std::printf(
      "  largest |rho - rho0| in the substep: beside the wall %.2e, next layer %.2e, interior %.2e "
      "(rho0 k dt = %.2f)\n",
      worst[0], worst[1], worst[2], scale);
  for (int layer = 0; layer < 3; ++layer) {
    EXPECT_GT(counted[layer], 50) << "layer " << layer;
    EXPECT_LT(worst[layer], 0.02 * scale) << "layer " << layer << " (2: the interior)";
  }
}

}  // namespace
}  // namespace eddy
