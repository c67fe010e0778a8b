// A mesh's distance field past 2^31 nodes on the GPU: its passes run over 64-bit node indices, in launches
// of 2^30, and every node holds the box's distance, on both sides of node 2^31. (A 32-bit node count wrapped
// negative there: the passes over the nodes ran nothing, and the field kept the coarse fill or garbage.)
#include <eddy/backend.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "colliders/mesh_field.h"
#include "core/memory.h"
#include "mesh_fixtures.h"

using namespace eddy;

namespace {

// the signed distance to the box [-h, h]
double boxDistance(Vec3 p, Vec3 h) {
  double q[3] = {std::fabs(double(p.x)) - h.x, std::fabs(double(p.y)) - h.y, std::fabs(double(p.z)) - h.z};
  double out = 0, in = std::max({q[0], q[1], q[2]});
  for (double c : q) out += c > 0 ? c * c : 0;
  return out > 0 ? std::sqrt(out) : in;
}

TEST(GpuMeshField, PlatePast2To31NodesIsTheBox) {
  if (!cudaAvailable()) GTEST_SKIP() << "no CUDA GPU on this machine";
  // a plate 1 x 1 x 0.3 m at 2048 nodes along its side, with the band of h = 1 cm: 2118 x 2118 x 684 nodes
  const Vec3 half{0.5f, 0.5f, 0.15f};
  TriangleMesh plate = test::boxMesh(half);
  MeshSdfSettings settings;
  settings.resolution = 2048;
  settings.band = 0.015f;
  MeshFieldLayout layout = meshFieldLayout(plate, settings);
  ASSERT_GT(layout.nodes(), std::int64_t(1) << 31);
  double free = double(freeDeviceBytes(Device::Cuda));
  if (layout.buildBytes(true) > free)
    GTEST_SKIP() << "the build needs " << layout.buildBytes(true) / 1e9 << " GB, " << free / 1e9
                 << " GB free";
  std::vector<Real> values;
  MeshSdfStats stats = buildMeshField(plate, settings, Backend::Cuda, values);
  std::printf("  %d x %d x %d nodes (%lld), %d propagation passes, build %.0f ms, %d thin cells\n", stats.nx,
              stats.ny, stats.nz, (long long)layout.nodes(), stats.propagationPasses, stats.milliseconds,
              stats.thinCells);
  ASSERT_EQ(std::int64_t(values.size()), layout.nodes());

  // Nodes on a stride through the whole field (prime, so every row and plane is hit at many places), and
  // every node of the 4 rows on each side of node 2^31 and of the last 4 rows. Within the band the nodes
  // are exact distances (to a hundredth of a cell: closest-feature propagation may take a neighbour's
  // triangle); beyond it they are lower bounds no smaller than the band; the sign is the box's.
  const std::int64_t nx = layout.nx, nodes = layout.nodes();
  std::vector<std::int64_t> picked;
  for (std::int64_t idx = 0; idx < nodes; idx += 9973) picked.push_back(idx);
  for (std::int64_t idx = (std::int64_t(1) << 31) - 4 * nx; idx < (std::int64_t(1) << 31) + 4 * nx; ++idx)
    picked.push_back(idx);
  for (std::int64_t idx = nodes - 4 * nx; idx < nodes; ++idx) picked.push_back(idx);
  const double cell = layout.cell, band = layout.band;
  std::int64_t exact = 0, bounded = 0, wrong = 0, past = 0;
  double worst = 0;
  for (std::int64_t idx : picked) {
    std::int64_t row = idx / nx;
    int i = int(idx - row * nx), j = int(row % layout.ny), k = int(row / layout.ny);
    Vec3 p = layout.origin + Vec3{Real(i), Real(j), Real(k)} * layout.cell;
    double d = boxDistance(p, half), v = values[std::size_t(idx)];
    past += idx >= (std::int64_t(1) << 31);
    bool ok = std::isfinite(v);
    if (std::fabs(d) <= band) {
      worst = std::max(worst, std::fabs(v - d) / cell);
      ok = ok && std::fabs(v - d) <= 0.01 * cell;
      ++exact;
    } else {
      ok = ok && std::fabs(v) >= band - 1e-6 && std::fabs(v) <= std::fabs(d) + 1e-6 && (v < 0) == (d < 0);
      ++bounded;
    }
    if (!ok && wrong++ < 10)
      ADD_FAILURE() << "node " << idx << " (" << i << ", " << j << ", " << k << "): " << v << ", the box "
                    << d;
  }
  std::printf(
      "  %zu nodes checked (%lld past 2^31): %lld within the band, worst %.4f cells off; %lld beyond\n",
      picked.size(), (long long)past, (long long)exact, worst, (long long)bounded);
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(past, 10000);
  EXPECT_GT(exact, 10000);
}

}  // namespace
