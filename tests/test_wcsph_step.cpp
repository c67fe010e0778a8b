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

// The density rate beside a wall is exact for a linear velocity field that the wall lets through (no flow
// across it), whatever the field does along the wall. A lattice of water, gravity off, is given one of two
// such fields towards the wall at x = W for one substep:
//   - the divergence-free stagnation flow v = k (W - x, y, 0): no particle's continuity density changes;
//   - the compression v = k (W - x, 0, 0): every particle's density rises at rho0 k.
// Measured before the walls' term was renormalised (walls' rate 2 rho0 A . v): the layer beside the wall
// gained 0.15 rho0 k a second too much in the first, since it had lost the stretching along the wall that
// its neighbours beyond it carried; the layer next to the Buchner scene's wall read 0.11-0.16 rho g H above
// the next one while the water ran up the wall.
struct LayerErrors {
  double worst[3] = {0, 0, 0};  // largest |d rho - expected| beside the wall, in the next layer, inside
  int counted[3] = {0, 0, 0};
};

LayerErrors densityChangeByLayer(double stretching, double* expected) {
  constexpr double kRate = 5, kSpacing = 0.02, kWall = 0.4;
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
  double dt = 1.0 / scene.time.fps;
  *expected = 1000 * kRate * (1 - stretching) * dt;  // -rho0 div v dt
  auto sim = createSimulation(scene, Backend::Cpu);
  HostParticles start;
  sim->copyParticles(start);
  for (std::size_t i = 0; i < start.size(); ++i) {
    Vec3 x = start.position[i];
    sim->overwriteParticle(std::int64_t(i), x,
                           Vec3{Real(kRate * (kWall - x.x)), Real(stretching * kRate * x.y), 0});
  }
  sim->advanceFrame();
  EXPECT_EQ(sim->substeps(), 1);
  HostParticles after;
  sim->copyParticles(after);
  // the particles two supports from every other wall and the surface, by their distance from the wall
  // at W (they moved by at most 2 mm in the substep)
  double margin = 2 * scene.fluid.supportRatio * kSpacing;
  LayerErrors e;
  for (std::size_t i = 0; i < after.size(); ++i) {
    Vec3 x = after.position[i];
    if (x.x < margin || x.y < margin || x.y > 0.4 - margin || x.z < margin || x.z > kWall - margin) continue;
    int layer = std::min(int((kWall - x.x) / kSpacing), 2);
    e.worst[layer] = std::max(e.worst[layer], std::fabs(double(after.density[i]) - 1000 - *expected));
    ++e.counted[layer];
  }
  return e;
}

TEST(WcsphStep, WallsRateIsExactForLinearFlowsAlongThem) {
  const char* names[2] = {"stagnation flow", "compression"};
  for (int flow = 0; flow < 2; ++flow) {
    double expected = 0;
    LayerErrors e = densityChangeByLayer(flow == 0 ? 1 : 0, &expected);
    double scale = 1000 * 5 * 1e-4;  // rho0 k dt
    std::printf(
        "  %s: largest |d rho - %.3f| beside the wall %.2e, next layer %.2e, interior %.2e (rho0 k dt "
        "%.2f)\n",
        names[flow], expected, e.worst[0], e.worst[1], e.worst[2], scale);
    for (int layer = 0; layer < 3; ++layer) {
      EXPECT_GT(e.counted[layer], 50) << names[flow] << ", layer " << layer;
      EXPECT_LT(e.worst[layer], 0.02 * scale) << names[flow] << ", layer " << layer << " (2: the interior)";
    }
  }
}

}  // namespace
}  // namespace eddy
