// WCSPH's substep and viscosity follow Monaghan's published forms, written for the smoothing length (half
// the kernel support): the first frame of a dam break at rest takes the substeps cfl * ell / c allows.
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
}  // namespace eddy
