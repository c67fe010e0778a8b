// Between frames a simulation answers queries (statistics, particles, wall forces) about one state, whatever
// order they come in: the first of them brings the density up to the current positions (the summed density
// sorts the particles for it), and the others read that state. A query that read the substep's scratch
// values after such a sort read other particles' values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "test_support.h"

namespace eddy {
namespace {

// a symmetric tank of water at rest, 15 x 12 x 15 spacings
const char* kTank = R"({
  "name": "tank at rest",
  "wcsph": {"speed_of_sound": 30},
  "fluid": {"rest_density": 1000, "spacing": 0.02, "support_ratio": 2.0},
  "domain": {"min": [0, 0, 0], "max": [0.3, 0.5, 0.3]},
  "time": {"fps": 60, "substeps": 4},
  "emitters": [{"type": "volume", "shape": {"type": "box", "center": [0.15, 0.12, 0.15],
                "half_extents": [0.15, 0.12, 0.15]}}]
})";

// Each frame, one simulation is asked for the statistics first, as `eddy run` does, then for the wall
// forces; a second one, run alike, for the forces first: both give the same forces, on every frame, and
// asking again after the particles changes nothing. With the summed density the statistics sorted the
// particles under WCSPH's scratch values of the substep, and this tank's domain read fx = 28 N, 117 N and
// 54 N (fy -463, -134, -258 N) over the first three frames where the forces-first order read 0.01 N. While
// the tank keeps its symmetry its force points straight up: |fx| and |fz| within 1 % of |fy|. With the
// integrated density it keeps it on every frame (2e-5 of |fy|); with the summed density and with DFSPH it
// keeps it over the first four frames, and then loses it in either order alike: the summed density's lattice
// rearranges as the column rings (fx 13 N against fy 183 N in frame 9), and DFSPH's mirror pushes along the
// floor carry its solves' residual (1.5 % of |fy| in frames 5 to 12, before and after the fix).
void expectForcesWhateverTheOrder(const std::vector<std::string>& overrides, int symmetricFrames) {
  SceneDesc scene = parseScene(kTank, "tank.json", overrides);
  auto statsFirst = createSimulation(scene, Backend::Cpu);
  auto forcesFirst = createSimulation(scene, Backend::Cpu);
  constexpr int kFrames = 12;
  double worstOrder = 0, worstSideways = 0;
  HostParticles particles;
  for (int frame = 1; frame <= kFrames; ++frame) {
    statsFirst->advanceFrame();
    forcesFirst->advanceFrame();
    (void)statsFirst->stats();
    std::vector<double> a = statsFirst->colliderForces();
    std::vector<double> b = forcesFirst->colliderForces();
    (void)forcesFirst->stats();
    statsFirst->copyParticles(particles);
    std::vector<double> again = statsFirst->colliderForces();
    ASSERT_EQ(a.size(), 6u);  // the domain: fx fy fz tx ty tz
    double fy = std::abs(a[1]);
    for (int k = 0; k < 6; ++k) {
      double scale = k < 3 ? fy : fy * 0.3;  // torques against fy times the tank's width
      worstOrder = std::max({worstOrder, std::abs(b[k] - a[k]) / scale, std::abs(again[k] - a[k]) / scale});
      EXPECT_NEAR(b[k], a[k], 1e-5 * scale) << "frame " << frame << ", value " << k;
      EXPECT_NEAR(again[k], a[k], 1e-5 * scale) << "frame " << frame << ", value " << k;
    }
    if (frame > symmetricFrames) continue;
    double sideways = std::max(std::abs(a[0]), std::abs(a[2])) / fy;
    worstSideways = std::max(worstSideways, sideways);
    EXPECT_LE(sideways, 0.01) << "frame " << frame << ": fx " << a[0] << " fy " << a[1] << " fz " << a[2];
  }
  std::printf(
      "  forces in the two orders differ by %.2e of |fy| at most; frames 1-%d: max(|fx|, |fz|) / |fy| "
      "%.2e\n",
      worstOrder, symmetricFrames, worstSideways);
}

TEST(QueryOrder, WcsphContinuityForcesWhateverTheOrder) {
  expectForcesWhateverTheOrder({"solver=wcsph", "wcsph.density=continuity"}, 12);
}

TEST(QueryOrder, WcsphSummationForcesWhateverTheOrder) {
  expectForcesWhateverTheOrder({"solver=wcsph", "wcsph.density=summation"}, 4);
}

TEST(QueryOrder, DfsphForcesWhateverTheOrder) { expectForcesWhateverTheOrder({"solver=dfsph"}, 4); }

}  // namespace
}  // namespace eddy
