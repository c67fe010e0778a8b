// Dam-break surge front against Martin & Moyce (1952), Phil. Trans. R. Soc. A 244, 312-324, for the
// a = 2.25 in column: front position Z = x/a against T = t sqrt(2g/a).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "test_support.h"

namespace eddy {
namespace {

struct Point {
  double T, Z;
};

// every point of the a = 2.25 in series (shared/data/validation) whose front lies inside the tank: the
// tank is 0.6 m = 10.5 a long, so the points up to Z = 9.986 (the next is 10.96)
const std::vector<Point> kMartinMoyce = {{0.832, 1.217}, {1.219, 1.474}, {1.997, 2.292}, {2.547, 2.995},
                                         {3.345, 4.134}, {4.034, 4.944}, {4.418, 5.881}, {5.091, 6.980},
                                         {5.685, 7.945}, {6.306, 8.966}, {6.822, 9.986}};

// the shared copy of the data must agree with the table above
TEST(MartinMoyce, SharedDataMatchesTable) {
  std::ifstream in(std::string(EDDY_SHARED_DIR) + "/data/validation/martin-moyce-1952-surge-front.csv");
  if (!in) GTEST_SKIP() << "shared/data/validation is not present beside the checkout";
  std::vector<Point> file;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("a=2.25in,", 0) != 0) continue;
    Point p;
    std::sscanf(line.c_str() + 9, "%lf,%lf", &p.T, &p.Z);
    file.push_back(p);
  }
  ASSERT_GE(file.size(), kMartinMoyce.size());
  for (std::size_t i = 0; i < kMartinMoyce.size(); ++i) {
    EXPECT_DOUBLE_EQ(file[i].T, kMartinMoyce[i].T);
    EXPECT_DOUBLE_EQ(file[i].Z, kMartinMoyce[i].Z);
  }
}

// leading edge: the furthest particle in the lowest layer of the flow
double frontPosition(const HostParticles& p, double a) {
  double front = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.position[i].y < 0.25 * a) front = std::max(front, double(p.position[i].x));
  return front;
}

double meanFrontError(const std::string& solver) {
  SceneDesc scene = test::sceneFile("scenes/validation/martin_moyce.json", {"solver=" + solver});
  const double a = 0.05715, g = std::abs(scene.forces.gravity.y);
  const double timeScale = std::sqrt(2 * g / a);
  auto sim = createSimulation(scene, Backend::Cpu);
  HostParticles p;
  std::vector<Point> curve;
  double lastT = kMartinMoyce.back().T + 0.2;
  while (true) {
    sim->copyParticles(p);
    curve.push_back({sim->time() * timeScale, frontPosition(p, a) / a});
    if (curve.back().T > lastT) break;
    sim->advanceFrame();
  }
  std::printf("  %s (%lld particles)\n     T    Z exp   Z sim   rel err\n", solver.c_str(),
              (long long)sim->particleCount());
  double sum = 0;
  for (const Point& e : kMartinMoyce) {
    auto hi = std::find_if(curve.begin(), curve.end(), [&](const Point& c) { return c.T >= e.T; });
    auto lo = hi - 1;
    double w = (e.T - lo->T) / (hi->T - lo->T);
    double z = lo->Z + w * (hi->Z - lo->Z);
    double err = std::abs(z - e.Z) / e.Z;
    sum += err;
    std::printf("  %5.3f  %6.3f  %6.3f  %6.1f%%\n", e.T, e.Z, z, 100 * err);
  }
  double mean = sum / kMartinMoyce.size();
  std::printf("  mean relative error %.1f%%\n", 100 * mean);
  return mean;
}

TEST(MartinMoyce, PbfFrontWithinFifteenPercent) { EXPECT_LE(meanFrontError("pbf"), 0.15); }

TEST(MartinMoyce, WcsphFrontWithinFifteenPercent) { EXPECT_LE(meanFrontError("wcsph"), 0.15); }

TEST(MartinMoyce, DfsphFrontWithinFifteenPercent) { EXPECT_LE(meanFrontError("dfsph"), 0.15); }

// MLS-MPM water on the scene's grid (dx = 2 spacing, 8 particles per cell)
TEST(MartinMoyce, MpmFrontWithinFifteenPercent) { EXPECT_LE(meanFrontError("mpm"), 0.15); }

}  // namespace
}  // namespace eddy
