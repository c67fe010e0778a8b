// Surfaces on the GPU: the CUDA backend builds the same mesh as the CPU from the same particles: the same
// vertices and triangles, in the same order, positions within 1e-4 of the particles' extent (the field's
// sums are atomic, so their order, and the last bits, differ); closed and manifold, with every normal on the
// side of each of its triangles.
#include <eddy/backend.h>
#include <eddy/surface.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "surface_checks.h"

using namespace eddy;

namespace {

// a jittered block of water with a ball of drops above it: flat parts, curved parts and pieces
std::vector<Vec3> splash(Real spacing) {
  std::vector<Vec3> out;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> jitter(-0.1f, 0.1f);
  for (int k = 0; k < 30; ++k)
    for (int j = 0; j < 12; ++j)
      for (int i = 0; i < 40; ++i)
        out.push_back(Vec3{Real(i), Real(j), Real(k)} * spacing +
                      Vec3{jitter(rng), jitter(rng), jitter(rng)} * spacing);
  for (int k = -5; k <= 5; ++k)
    for (int j = -5; j <= 5; ++j)
      for (int i = -5; i <= 5; ++i)
        if (i * i + j * j + k * k <= 25)
          out.push_back(Vec3{Real(i) + 20, Real(j) + 25, Real(k) + 15} * spacing);
  return out;
}

// every method, and Taubin smoothing on top of one
class GpuSurface : public ::testing::TestWithParam<std::pair<SurfaceMethod, int>> {};

TEST_P(GpuSurface, MatchesTheCpuMesh) {
  if (!cudaAvailable()) GTEST_SKIP() << "no CUDA GPU on this machine";
  Real spacing = 0.02f;
  std::vector<Vec3> particles = splash(spacing);
  SurfaceSettings s = SurfaceSettings::fromSpacing(spacing);
  s.method = GetParam().first;
  s.smoothingIterations = GetParam().second;
  TriangleMesh cpu = reconstructSurface(particles, s, Backend::Cpu);
  TriangleMesh gpu = reconstructSurface(particles, s, Backend::Cuda);
  std::printf(
      "  %s, %d smoothing: %zu particles: CPU %zu vertices, %zu triangles; GPU %zu vertices, %zu "
      "triangles\n",
      surfaceMethodName(s.method), s.smoothingIterations, particles.size(), cpu.vertices.size(),
      cpu.triangles.size(), gpu.vertices.size(), gpu.triangles.size());
  ASSERT_EQ(cpu.vertices.size(), gpu.vertices.size());
  ASSERT_EQ(cpu.triangles.size(), gpu.triangles.size());
  EXPECT_TRUE(cpu.triangles == gpu.triangles);
  double worst = 0;
  for (std::size_t v = 0; v < cpu.vertices.size(); ++v)
    worst = std::max(worst, double(length(cpu.vertices[v] - gpu.vertices[v])));
  double extent = 40 * spacing;
  std::printf("  largest vertex distance %.2e m (%.2e of the extent)\n", worst, worst / extent);
  EXPECT_LT(worst / extent, 1e-4);
  Topology t = inspect(gpu);
  EXPECT_TRUE(t.report.closed()) << t.report.boundaryEdges << " boundary, " << t.report.nonManifoldEdges
                                 << " non-manifold edges";
  EXPECT_EQ(t.directedRepeats, 0u);
  NormalAgreement normals = normalAgreement(gpu);
  EXPECT_EQ(normals.againstWeighted, 0u);
  EXPECT_EQ(normals.againstSomeFace, 0u) << "worst cosine " << normals.worstCos;
}

INSTANTIATE_TEST_SUITE_P(Methods, GpuSurface,
                         ::testing::Values(std::make_pair(SurfaceMethod::ZhuBridson, 0),
                                           std::make_pair(SurfaceMethod::YuTurk, 0),
                                           std::make_pair(SurfaceMethod::SphDensity, 0),
                                           std::make_pair(SurfaceMethod::ZhuBridson, 10)));

}  // namespace
