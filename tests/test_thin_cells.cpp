// Parts of a mesh thinner than a distance-field cell: the triangle geometry behind the exact
// fallback (cube overlap, segment crossing through shared edges), which cells are found thin (a sliver,
// not a smooth sphere or a box), a swept path that the field alone lets through and the triangles stop,
// and a blob shot at 10 m/s onto a slab thinner than a cell in every solver.
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "colliders/collider.h"
#include "colliders/mesh_sdf.h"
#include "colliders/triangle_geometry.h"
#include "mesh_fixtures.h"
#include "test_support.h"

namespace eddy {
namespace {

using cpu::MeshSdf;

// ---------------------------------------------------------------------------------------------------
// triangle geometry

// any point of the triangle inside the cube (dense barycentric sampling) means the test must say overlap;
// the test's overlaps must mostly be seen by the sampling too (it is exact, the sampling nearly so)
TEST(TriangleGeometry, CubeOverlapAgreesWithSampling) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1, 1);
  int sampledInside = 0, saidOverlap = 0, missed = 0, unseen = 0;
  for (int n = 0; n < 4000; ++n) {
    Vec3 a{u(rng), u(rng), u(rng)}, b{u(rng), u(rng), u(rng)}, c{u(rng), u(rng), u(rng)};
    Vec3 center{u(rng) * 0.5f, u(rng) * 0.5f, u(rng) * 0.5f};
    Real half = 0.05f + 0.2f * (u(rng) + 1);
    bool overlap = triangleOverlapsCube(center, half, a, b, c);
    bool inside = false;
    const int k = 60;
    for (int i = 0; i <= k && !inside; ++i)
      for (int j = 0; i + j <= k && !inside; ++j) {
        Vec3 p = a + (b - a) * (Real(i) / k) + (c - a) * (Real(j) / k) - center;
        inside = std::fabs(p.x) < half && std::fabs(p.y) < half && std::fabs(p.z) < half;
      }
    sampledInside += inside;
    saidOverlap += overlap;
    missed += inside && !overlap;
    unseen += overlap && !inside;
  }
  std::printf("  4000 triangle-cube pairs: %d overlaps by sampling, %d by the test, missed %d, unseen %d\n",
              sampledInside, saidOverlap, missed, unseen);
  EXPECT_GT(sampledInside, 400);
  EXPECT_EQ(missed, 0);
  EXPECT_LT(unseen, saidOverlap / 50);
}

// a square of two triangles: paths through its inside, its diagonal (the shared edge) and its centre
// vertex cross at least one of them at the right place; paths beside it or stopping short cross none
TEST(TriangleGeometry, SegmentCrossesThroughSharedEdges) {
  Vec3 p[4] = {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}};
  auto crosses = [&](Vec3 a, Vec3 dir, Real len, Real* s) {
    Real s0, s1;
    bool h0 = segmentCrossesTriangle(a, dir, 0, len, p[0], p[1], p[2], s0);
    bool h1 = segmentCrossesTriangle(a, dir, 0, len, p[0], p[2], p[3], s1);
    *s = h0 ? s0 : s1;
    return h0 || h1;
  };
  int checked = 0;
  for (int i = 0; i <= 20; ++i) {
    Real t = Real(i) / 20;
    for (Vec3 q : {Vec3{t, 0, t}, Vec3{t, 0, 0.5f}, Vec3{0.5f, 0, t}}) {
      Vec3 dir = normalizeOr(Vec3{0.3f, -1, 0.2f}, Vec3{0, -1, 0});
      Vec3 a = q - dir * 0.5f;
      Real s = -1;
      EXPECT_TRUE(crosses(a, dir, 1, &s)) << q.x << " " << q.z;
      EXPECT_NEAR(s, 0.5f, 1e-5f);
      EXPECT_FALSE(crosses(a, dir, 0.49f, &s));  // stops short
      ++checked;
    }
  }
  Real s;
  EXPECT_FALSE(crosses({1.2f, 1, 0.5f}, {0, -1, 0}, 2, &s));  // beside it
  EXPECT_FALSE(crosses({0.5f, 1, 0.5f}, {1, 0, 0}, 2, &s));   // parallel, above it
  EXPECT_EQ(checked, 63);
}

// ---------------------------------------------------------------------------------------------------
// thin cells

constexpr Real kSlabHalf = 0.002f;  // a closed slab 4 mm thick, 0.6 m wide

TriangleMesh slab() { return test::boxMesh({0.3f, kSlabHalf, 0.3f}); }

struct BuiltField {
  MeshSdf sdf;
  MeshSdfStats stats;
  MeshFieldView view;
};

void buildField(const TriangleMesh& mesh, int resolution, BuiltField& out) {
  cpu::Primitives prims;
  MeshSdfSettings settings;
  settings.resolution = resolution;
  out.stats = out.sdf.build(mesh, settings, prims);
  out.view = out.sdf.view();
}

TEST(ThinCells, FoundWhereTheFieldMissesTheSurfaceOnly) {
  BuiltField sphere, box, sliver;
  buildField(test::icosphere(0.1f, 4), 64, sphere);
  buildField(test::boxMesh({0.1f, 0.05f, 0.08f}), 64, box);
  buildField(slab(), 32, sliver);  // 1.9 cm cells over a 4 mm slab
  std::printf("  thin cells: icosphere %d, box %d, 4 mm slab in 1.9 cm cells %d (%d triangle entries)\n",
              sphere.stats.thinCells, box.stats.thinCells, sliver.stats.thinCells,
              sliver.stats.thinCellTriangles);
  EXPECT_EQ(sphere.stats.thinCells, 0);
  EXPECT_EQ(box.stats.thinCells, 0);
  // every cell the slab's mid-plane passes through is thin
  const MeshFieldView& f = sliver.view;
  int cellsChecked = 0, notThin = 0;
  for (Real x = -0.29f; x <= 0.29f; x += 0.01f)
    for (Real z = -0.29f; z <= 0.29f; z += 0.01f) {
      Vec3 u = (Vec3{x, 0, z} - f.origin) / f.cell;
      std::uint32_t begin, end;
      ++cellsChecked;
      notThin += !thinCellTriangles(f.thin, thinCellId(f, int(u.x), int(u.y), int(u.z)), &begin, &end);
    }
  EXPECT_GT(cellsChecked, 3000);
  EXPECT_EQ(notThin, 0);
  EXPECT_GE(sliver.stats.thinCells, 31 * 31);
}

// paths across the slab at every angle and offset, small particles: the field alone lets some through,
// the thin cells' triangles none
TEST(ThinCells, SweptPathsDoNotCrossASliver) {
  BuiltField built;
  buildField(slab(), 32, built);
  ColliderDesc desc;
  desc.shape.type = "mesh";
  ColliderData c = makeColliderData(desc);
  c.field = built.view;
  ColliderData fieldOnly = c;
  fieldOnly.field.thin = ThinCellsView{};
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1, 1);
  int paths = 0, crossedFieldOnly = 0, crossed = 0;
  Real worstSide = 1;
  for (int n = 0; n < 2000; ++n) {
    Real r = 0.002f * (u(rng) + 1);  // radius 0 to 4 mm
    Vec3 from{0.25f * u(rng), 0.004f + r + 0.01f * (u(rng) + 1), 0.25f * u(rng)};
    Vec3 to = from + Vec3{0.02f * u(rng), -0.05f - 0.03f * (u(rng) + 1), 0.02f * u(rng)};
    for (bool withCells : {false, true}) {
      Vec3 end = to;
      sweepToContact(withCells ? c : fieldOnly, from, end, r, 0, 0.001f);
      bool through = end.y < 0;
      (withCells ? crossed : crossedFieldOnly) += through;
      if (withCells) worstSide = std::min(worstSide, end.y - kSlabHalf);
    }
    ++paths;
  }
  std::printf(
      "  %d paths across a 4 mm slab in 1.9 cm cells: %d crossed with the field alone, %d with the "
      "thin cells (lowest end %.2e m above the slab's top)\n",
      paths, crossedFieldOnly, crossed, worstSide);
  EXPECT_GT(crossedFieldOnly, paths / 4);  // the fallback is needed here
  EXPECT_EQ(crossed, 0);
  EXPECT_GT(worstSide, -2 * kSlabHalf);  // stopped on the top face, not inside
}

// the blob of test_thin_obstacles.cpp, shot down at 10 m/s, onto the 4 mm slab with 2.6 cm field cells
SceneDesc slabScene(const std::string& solver, const std::string& spacing, Real slabY,
                    const std::vector<std::string>& extra, const std::string& file) {
  SceneDesc s = test::blobShotDownAt(solver, spacing, slabY, extra);
  ColliderDesc plate;
  plate.name = "slab";
  plate.shape.type = "mesh";
  plate.shape.file = file;
  plate.shape.translation = {0, slabY, 0};
  plate.shape.sdfResolution = 24;
  s.colliders = {plate};
  loadSceneMeshes(s);
  return s;
}

void expectBlobHeld(const SceneDesc& scene, const char* solver) {
  auto sim = createSimulation(scene, Backend::Cpu);
  Real slabY = scene.colliders[0].shape.translation.y;
  std::int64_t mostBelow = 0;
  Real lowest = 1e30f;
  HostParticles hp;
  for (int f = 0; f < 20; ++f) {
    sim->advanceFrame();
    sim->copyParticles(hp);
    std::int64_t below = 0;
    for (Vec3 x : hp.position) {
      below += x.y < slabY;
      lowest = std::min(lowest, x.y - slabY);
    }
    mostBelow = std::max(mostBelow, below);
  }
  std::printf(
      "  %s: %zu particles onto a 4 mm slab in 2.6 cm field cells: most below it in a frame %lld, "
      "lowest %.2e m above its mid-plane\n",
      solver, hp.size(), (long long)mostBelow, lowest);
  ASSERT_GT(hp.size(), 0u);
  EXPECT_EQ(mostBelow, 0) << solver;
  EXPECT_LT(lowest, 0.05f) << solver;  // the blob did reach the slab
}

TEST(ThinCells, FastBlobStaysAboveASliverInEverySolver) {
  std::string file = test::writeTempMesh("eddy_thin_slab.obj", slab());
  expectBlobHeld(slabScene("pbf", "0.02", 0, {}, file), "pbf");
  expectBlobHeld(slabScene("wcsph", "0.04", 0, {"wcsph.speed_of_sound=1", "wcsph.cfl=1"}, file), "wcsph");
  expectBlobHeld(slabScene("mpm", "0.04", 0.025f,
                           {"mpm.grid_resolution=16", "mpm.bulk_modulus=1000", "mpm.cfl=1"}, file),
                 "mpm");
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace eddy
