// The sinking cube of Wu et al. (2014), Computers & Fluids 100, 347-355: a 20 mm cube of 2120 kg/m^3 released
// half-immersed in water 0.131 m deep, the height of its centre against time as measured
// (docs/data/wu2014_sinking_cube.csv, scenes/validation/sinking_cube.json, docs/validation.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace eddy {
namespace {

constexpr double kUntil = 0.34;  // s: the cube lands at about 0.36 s; the comparison stops before

struct Point {
  double t, y;
};

// the measured points after the release and up to kUntil
std::vector<Point> measured() {
  const std::string path = test::sourceDir() + "/docs/data/wu2014_sinking_cube.csv";
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::vector<Point> points;
  std::string line;
  bool header = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (!header) {
      EXPECT_EQ(line, "time_s,centre_height_m") << path;
      header = true;
      continue;
    }
    std::istringstream row(line);
    Point p;
    char comma = 0;
    EXPECT_TRUE(row >> p.t >> comma >> p.y && comma == ',') << path << ": " << line;
    if (p.t > 0 && p.t <= kUntil) points.push_back(p);
  }
  return points;
}

// the largest difference between the heights `at` gives and the measured ones (and their RMS), printed
// point by point
double largestDifference(const std::vector<Point>& points, double (*at)(const std::vector<Point>&, double),
                         const std::vector<Point>& track, const char* label, double* rms) {
  double worst = 0, squares = 0;
  std::printf("  %s\n  time s   measured m   simulated m   difference mm\n", label);
  for (const Point& p : points) {
    const double y = at(track, p.t);
    std::printf("  %6.3f   %10.4f   %11.4f   %+13.1f\n", p.t, p.y, y, 1e3 * (y - p.y));
    worst = std::max(worst, std::abs(y - p.y));
    squares += (y - p.y) * (y - p.y);
  }
  *rms = std::sqrt(squares / double(points.size()));
  std::printf("  RMS %.1f mm, largest %.1f mm (%.1f %% of the 0.117 m fall)\n", 1e3 * *rms, 1e3 * worst,
              100 * worst / 0.117);
  return worst;
}

// linear interpolation in a track sorted by time
double interpolate(const std::vector<Point>& track, double t) {
  auto after =
      std::lower_bound(track.begin(), track.end(), t, [](const Point& p, double x) { return p.t < x; });
  if (after == track.begin()) return after->y;
  if (after == track.end()) return track.back().y;
  const Point& a = *(after - 1);
  const Point& b = *after;
  return a.y + (b.y - a.y) * (t - a.t) / (b.t - a.t);
}

// the cube without water: it falls freely from 0.131 m until its bottom face reaches the floor
double freeFall(const std::vector<Point>&, double t) { return std::max(0.131 - 0.5 * 9.81 * t * t, 0.01); }

std::vector<Point> sinkingCube(const std::vector<std::string>& overrides) {
  SceneDesc scene = test::sceneFile("scenes/validation/sinking_cube.json", overrides);
  auto sim = createSimulation(scene, Backend::Cpu);
  std::vector<Point> track = {{0, double(scene.colliders[0].shape.center.y)}};
  while (sim->time() < kUntil + 0.005) {
    sim->advanceFrame();
    const ColliderPose pose = sim->colliderPose(0);
    EXPECT_TRUE(std::isfinite(pose.center.y));
    track.push_back({sim->time(), double(pose.center.y)});
  }
  return track;
}

// the cube at 0.006 m spacing (12,600 particles, the cube 3.3 spacings across), its centre at each frame
// until `until`. The lattice fills the scene's 0.131 m block with 21 layers, 0.126 m of water, which leaves
// the cube half as deep in it as released; 22 layers, 0.132 m, are the nearest whole number.
std::vector<Point> sinkingCube(double density, double until) {
  SceneDesc scene = test::sceneFile("scenes/validation/sinking_cube.json", {"fluid.spacing=0.006"});
  scene.emitters[0].shape.center.y = 0.066f;
  scene.emitters[0].shape.halfExtents.y = 0.066f;
  scene.colliders[0].density = Real(density);
  auto sim = createSimulation(scene, Backend::Cpu);
  std::vector<Point> track = {{0, double(scene.colliders[0].shape.center.y)}};
  while (sim->time() < until) {
    sim->advanceFrame();
    const ColliderPose pose = sim->colliderPose(0);
    EXPECT_TRUE(std::isfinite(pose.center.y));
    track.push_back({sim->time(), double(pose.center.y)});
  }
  return track;
}

// The water slows the cube from a free fall, which reaches the floor at 0.16 s, to the measured landing at
// 0.36 s. At 0.006 m the simulated cube runs up to 11 mm ahead of the measured one until 0.16 s and falls
// behind from 0.22 s, 31 mm at 0.32 s (RMS 13.5 mm): there the water pushes the cube twice as hard as its
// buoyancy and drag would, and at 0.005 m it misses by 20 mm (docs/validation.md). The bars,
// 36 mm largest and 20 mm RMS, are met with 5 and 6 mm to spare. They fail by far where the water does not
// push the cube: a free fall misses by 91 mm (RMS 53 mm), and so does the same run with the fluid's force
// left out of the body's motion, 81 mm (RMS 51 mm); a cube twice as heavy (4240 kg/m^3, the same run) misses
// by 45 mm (RMS 31 mm).
TEST(SinkingCube, FollowsTheMeasuredFallOfWu2014) {
  const std::vector<Point> points = measured();
  ASSERT_EQ(points.size(), 8u);
  double rms = 0;
  const double freeFallMiss = largestDifference(points, freeFall, {}, "free fall, no water", &rms);
  EXPECT_GT(freeFallMiss, 0.08);
  const std::vector<Point> track = sinkingCube(2120, points.back().t);
  const double miss = largestDifference(points, interpolate, track, "eddy, WCSPH at 0.006 m", &rms);
  EXPECT_LT(miss, 0.036);
  EXPECT_LT(rms, 0.020);
}

}  // namespace
}  // namespace eddy
