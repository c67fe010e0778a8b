// `eddy view` and what it steers: the orbit camera's math, the simulation's moving collider and paused
// nozzles, and the viewer itself in a window under Xvfb (Mesa's llvmpipe through GLX), checked on its
// screenshot.
#include <eddy/error.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "test_support.h"

#ifdef EDDY_WITH_VIEWER
#include "render/image.h"
#include "render/offscreen_target.h"
#include "viewer/orbit_camera.h"
#endif

namespace {

using namespace eddy;
namespace fs = std::filesystem;

// a nozzle shooting up and sideways: a layer every 1/60 s (spacing 0.05 m at 3 m/s), one per frame
SceneDesc nozzleScene() {
  SceneDesc s = loadScene("", {"fluid.spacing=0.05"});
  EmitterDesc e;
  e.type = "nozzle";
  e.position = {-0.3f, 0.3f, 0};
  e.direction = {1, 1, 0};
  e.radius = 0.1f;
  e.speed = 3;
  s.emitters = {e};
  return s;
}

}  // namespace

TEST(SteeredSimulation, PausedNozzleSkipsItsLayers) {
  std::unique_ptr<Simulation> sim = createSimulation(nozzleScene(), Backend::Cpu);
  for (int f = 0; f < 10; ++f) sim->advanceFrame();
  const std::int64_t running = sim->particleCount();
  ASSERT_GT(running, 0);
  sim->setNozzleActive(0, false);
  for (int f = 0; f < 10; ++f) sim->advanceFrame();
  EXPECT_EQ(sim->particleCount(), running) << "a paused nozzle released particles";
  sim->setNozzleActive(0, true);
  for (int f = 0; f < 10; ++f) sim->advanceFrame();
  // ten frames after resuming release what ten frames released at the start, within one layer: the
  // layers due while paused are not owed
  const std::int64_t resumed = sim->particleCount() - running;
  const std::int64_t layer = running / 10;
  EXPECT_NEAR(double(resumed), double(running), double(layer) + 0.5);
  EXPECT_THROW(sim->setNozzleActive(1, false), RuntimeFailure);
}

TEST(SteeredSimulation, MovedColliderPushesTheWater) {
  // weightless water at rest; a sphere arrives in it and moves on through it along +x
  SceneDesc s = loadScene("", {"fluid.spacing=0.03", "forces.gravity=[0,0,0]"});
  s.domain.min = {-0.5f, 0, -0.5f};
  s.domain.max = {0.5f, 1, 0.5f};
  EmitterDesc water;
  water.shape.type = "box";
  water.shape.center = {0, 0.5f, 0};
  water.shape.halfExtents = {0.2f, 0.2f, 0.2f};
  s.emitters = {water};
  ColliderDesc ball;
  ball.shape.type = "sphere";
  ball.shape.radius = 0.08f;
  ball.shape.center = {0, -3, 0};  // parked below the domain
  s.colliders = {ball};
  std::unique_ptr<Simulation> sim = createSimulation(s, Backend::Cpu);
  sim->advanceFrame();
  const double t0 = sim->time();
  const Vec3 start{-0.12f, 0.5f, 0}, velocity{1.2f, 0, 0};
  sim->moveCollider(0, start, velocity);
  for (int f = 0; f < 8; ++f) sim->advanceFrame();
  HostParticles p;
  sim->copyParticles(p);
  const Vec3 centre = start + velocity * Real(sim->time() - t0);
  double momentumX = 0, nearest = 1e30;
  for (std::size_t i = 0; i < p.size(); ++i) {
    momentumX += p.velocity[i].x;
    nearest = std::min(nearest, double(length(p.position[i] - centre)));
  }
  EXPECT_GT(momentumX / double(p.size()), 0.02) << "the water did not move with the sphere";
  EXPECT_GT(nearest, 0.9 * 0.08) << "a particle is inside the moved sphere";
  // the domain (the last collider inside) and keyframed colliders are not moved this way
  EXPECT_THROW(sim->moveCollider(1, start, velocity), RuntimeFailure);
}

#ifdef EDDY_WITH_VIEWER

TEST(OrbitCamera, KeepsTheViewAndTurnsAboutTheTarget) {
  render::Camera c;
  c.position = {2, 1.5f, 3};
  c.target = {0.5f, 0.2f, -0.1f};
  viewer::OrbitCamera orbit(c);
  const render::Camera same = orbit.camera();
  EXPECT_NEAR(double(length(same.position - c.position)), 0, 1e-5);
  // the centre pixel's ray goes through the target
  const viewer::Ray centre = orbit.ray(399.5, 299.5, 800, 600);
  const Vec3 toTarget = c.target - centre.origin;
  EXPECT_NEAR(double(length(cross(centre.direction, toTarget))), 0, 1e-4);
  // a drag of half the viewport's height turns the camera a quarter turn about the target, at its distance
  const float distance = orbit.distance();
  orbit.orbit(300, 0, 600);
  const render::Camera turned = orbit.camera();
  EXPECT_NEAR(double(length(turned.position - c.target)), double(distance), 1e-4);
  const Vec3 before = c.position - c.target, after = turned.position - c.target;
  EXPECT_NEAR(double(before.x * after.x + before.z * after.z), 0, 1e-3) << "not a quarter turn";
  EXPECT_NEAR(double(after.y), double(before.y), 1e-4);
  orbit.zoom(2);
  EXPECT_NEAR(double(orbit.distance()), double(distance) * 0.81, 1e-4);
  // panning moves the target across the view, not along it
  const Vec3 target = orbit.target();
  orbit.pan(50, 0, 600);
  const Vec3 moved = orbit.target() - target;
  EXPECT_GT(double(length(moved)), 0);
  EXPECT_NEAR(double(dot(moved, orbit.camera().target - orbit.camera().position)), 0, 1e-5);
  // the pusher's plane: upright through the point, facing the ray
  const viewer::Ray ray{{0, 1, 5}, normalizeOr(Vec3{0.1f, -0.2f, -1}, Vec3{0, 0, -1})};
  const Vec3 hit = viewer::hitFacingPlane(ray, {0, 0, 1});
  EXPECT_NEAR(double(length(cross(hit - ray.origin, ray.direction))), 0, 1e-5);
  const Vec3 n = normalizeOr(Vec3{0.1f, 0, -1}, Vec3{0, 0, -1});
  EXPECT_NEAR(double(dot(hit - Vec3{0, 0, 1}, n)), 0, 1e-5);
}

namespace {

struct ViewerRun {
  int code = -1;
  std::string err;
};

class ViewerCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("eddy_view_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  ViewerRun run(const std::string& prefix, const std::string& args) {
    const std::string cmd = "cd '" + dir_.string() + "' && " + prefix + " '" + EDDY_CLI_PATH + "' view " +
                            args + " >out.txt 2>err.txt </dev/null";
    const int status = std::system(cmd.c_str());
    ViewerRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(dir_ / "err.txt");
    r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return r;
  }
  fs::path dir_;
};

bool isWater(const std::uint8_t* p) { return p[2] > 120 && p[2] > p[0] + 60; }

}  // namespace

TEST_F(ViewerCli, WindowUnderXvfbSimulatesAndDrawsThePanel) {
  if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "xvfb-run is not installed (Debian: xvfb, xauth; bash scripts/setup.sh installs them)";
  const std::string xvfb = "xvfb-run -a -s '-screen 0 1024x768x24'";
  const std::string common = "--backend cpu --set fluid.spacing=0.05 --size 800x600 --no-vsync ";
  ViewerRun first = run(xvfb, common + "--frames 1 --screenshot first.png");
  ASSERT_EQ(first.code, 0) << first.err;
  ViewerRun later = run(xvfb, common + "--frames 30 --screenshot later.png");
  ASSERT_EQ(later.code, 0) << later.err;
  const render::Image a = render::readPng((dir_ / "first.png").string());
  const render::Image b = render::readPng((dir_ / "later.png").string());
  ASSERT_EQ(b.width, 800);
  ASSERT_EQ(b.height, 600);
  // the panel: ImGui's dark window in the top-left corner, with light text in it
  long dark = 0, text = 0, panel = 0;
  for (int y = 40; y < 300; ++y)
    for (int x = 20; x < 340; ++x, ++panel) {
      const std::uint8_t* p = b.at(x, y);
      if (p[0] < 70 && p[1] < 80 && p[2] < 90) ++dark;
      if (p[0] > 200 && p[1] > 200 && p[2] > 200) ++text;
    }
  EXPECT_GT(double(dark) / double(panel), 0.5) << "no panel in the screenshot";
  EXPECT_GT(text, 500) << "no text in the panel";
  // the water: blue spheres right of the panel; the column of the first frame has spread out by frame 30
  auto rightmostWater = [](const render::Image& im, long& count) {
    int right = -1;
    count = 0;
    for (int y = 0; y < im.height; ++y)
      for (int x = 380; x < im.width; ++x)
        if (isWater(im.at(x, y))) right = std::max(right, x), ++count;
    return right;
  };
  long waterA = 0, waterB = 0;
  const int rightA = rightmostWater(a, waterA), rightB = rightmostWater(b, waterB);
  EXPECT_GT(waterB, 5000) << "no water in the screenshot";
  EXPECT_GT(rightB, rightA + 100)
      << "the dam did not break: the water did not spread between frames 1 and 30";
  // the background above the horizon, the floor below the water (grey: no blue cast)
  const std::uint8_t* sky = b.at(790, 10);
  EXPECT_NEAR(sky[0], std::lround(render::kBackground.r * 255), 1);
  const std::uint8_t* floor = b.at(790, 590);
  EXPECT_LT(std::abs(int(floor[0]) - int(floor[2])), 20);
  EXPECT_LT(floor[0], std::lround(render::kBackground.r * 255) - 10) << "no floor drawn";
}

TEST_F(ViewerCli, BadInputAndNoDisplayAreRefused) {
  ViewerRun r = run("env -u DISPLAY -u WAYLAND_DISPLAY", "--backend cpu --frames 2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no display"), std::string::npos) << r.err;
  r = run("", "--offscreen --backend cpu");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--offscreen needs --frames"), std::string::npos) << r.err;
  r = run("", "--offscreen --backend cpu --frames 2 --screenshot missing/shot.png");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no folder 'missing'"), std::string::npos) << r.err;
  r = run("", "--offscreen --backend cpu --frames 2 --mode sprites");
  EXPECT_EQ(r.code, 2);
  r = run("", "--offscreen --backend cpu --frames 2 --size 0x10");
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "imgui.ini"));
}

#endif
