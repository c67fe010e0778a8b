// The Yu–Turk ellipsoids that screen-space fluid rendering splats (surface/particle_ellipsoids.h), as a
// simulation builds them from the neighbour lists of its last substep (no copy, no sort), checked against
// the path for particles read from files (its own sorted copy and grid) on a dam break in motion: the same
// ellipsoid for every particle, flattened at the surface and round in the bulk.
#include <eddy/mat3.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <eddy/surface.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <vector>

#include "surface/particle_ellipsoids.h"

namespace eddy {
namespace {

// the semi-axes of the ellipsoid |A (x - c)| <= 1, longest first
Vec3 semiAxes(const Mat3& A) {
  Mat3 U, V;
  Vec3 sigma;
  svd3(A, U, sigma, V);
  Real a = 1 / std::fabs(sigma.x), b = 1 / std::fabs(sigma.y), c = 1 / std::fabs(sigma.z);
  Real longest = std::max({a, b, c}), shortest = std::min({a, b, c});
  return {longest, a + b + c - longest - shortest, shortest};
}

TEST(ParticleEllipsoids, SimulationListsAgreeWithTheGeneralPath) {
  // the default dam break at 65k particles, 20 frames in: the column falling, a free surface, walls and a
  // floor
  SceneDesc scene = loadScene("", {"fluid.spacing=0.0133"});
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 20; ++f) sim->advanceFrame();
  EllipsoidView fromLists;
  sim->buildEllipsoidsOnDevice(fromLists);  // on the CPU backend the "device" arrays are host memory
  HostParticles host;
  sim->copyParticles(host);
  const std::size_t n = host.position.size();
  ASSERT_EQ(std::size_t(fromLists.count), n);

  const Real radius = Real(0.5) * scene.fluid.spacing;
  const HostEllipsoids general =
      particleEllipsoids(host.position, surfaceSettingsFor(scene), radius, Backend::Cpu);
  ASSERT_EQ(general.centres.size(), n);
  // the general path returns its own order: match by position, which it copies exactly
  std::map<std::tuple<Real, Real, Real>, std::size_t> at;
  for (std::size_t k = 0; k < n; ++k)
    at[{general.centres[k].x, general.centres[k].y, general.centres[k].z}] = k;
  ASSERT_EQ(at.size(), n) << "two particles at one position";

  std::size_t flat = 0, round = 0;
  std::vector<double> shapeDifference, boundDifference;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 c = fromLists.centres[i];
    auto it = at.find({c.x, c.y, c.z});
    ASSERT_NE(it, at.end()) << "particle " << i << " is not where the simulation has it";
    const Mat3& A = fromLists.shapes[i];
    const Mat3& B = general.shapes[it->second];
    shapeDifference.push_back(std::sqrt(double(frobeniusNormSquared(A - B) / frobeniusNormSquared(B))));
    boundDifference.push_back(std::fabs(double(fromLists.bounds[i] / general.bounds[it->second]) - 1));
    Vec3 axes = semiAxes(A);
    flat += axes.z < Real(0.7) * axes.x;
    round += axes.z > Real(0.9) * axes.x;
  }
  // the same kernels, up to the neighbours that crossed the neighbourhood's edge since the lists were built
  // (where the weight is small) and the order of the sums
  std::sort(shapeDifference.begin(), shapeDifference.end());
  std::sort(boundDifference.begin(), boundDifference.end());
  auto quantile = [n](const std::vector<double>& v, double q) { return v[std::size_t(q * double(n - 1))]; };
  std::printf(
      "  %zu particles: %zu flat (shortest axis < 0.7 longest), %zu round (> 0.9); from the lists "
      "against the general path, relative difference of A: median %.1e, 99th percentile %.1e, largest "
      "%.1e; of the bound: 99th percentile %.1e\n",
      n, flat, round, quantile(shapeDifference, 0.5), quantile(shapeDifference, 0.99), shapeDifference.back(),
      quantile(boundDifference, 0.99));
  EXPECT_LE(quantile(shapeDifference, 0.5), 1e-4);
  EXPECT_LE(quantile(shapeDifference, 0.99), 0.03);
  EXPECT_LE(shapeDifference.back(), 0.25);
  EXPECT_LE(quantile(boundDifference, 0.99), 0.03);
  // both kinds present: the surface flattened, the bulk round
  EXPECT_GT(flat, n / 10);
  EXPECT_GT(round, n / 10);
}

}  // namespace
}  // namespace eddy
