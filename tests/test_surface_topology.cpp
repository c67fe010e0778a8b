// Surfaces that must be closed and edge-manifold whatever the field, with normals that agree with their
// triangles: the marching-cubes table over all 256 cases, random sign fields on a grid, Zhu–Bridson on
// particles a few spacings apart and on a spray (no piece without a particle in it), and a short dam break
// surfaced by every method. Closedness is mesh-info's (inspectMesh).
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <eddy/surface.h>
#include <eddy/vdb.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "backend/primitives.h"
#include "surface/marching_cubes.h"
#include "surface/marching_cubes_table.h"
#include "surface/surface_grid.h"
#include "surface/zhu_bridson_field.h"
#include "surface_checks.h"

namespace eddy {
namespace {

// whether the given cube edges all lie on one face of the cube (their corners share a coordinate)
bool onOneFace(std::initializer_list<int> edges) {
  for (int axis = 0; axis < 3; ++axis)
    for (int side = 0; side < 2; ++side) {
      bool all = true;
      for (int e : edges)
        for (int c : kCubeEdgeCorners[e]) all = all && ((c >> axis) & 1) == side;
      if (all) return true;
    }
  return false;
}

// Within one cell, an edge between two vertices on one cube face is drawn by the cell across the face too
// when it is a diagonal; only the loop's own segments may lie in a face, each in one triangle (the cell
// across draws its own). Every other edge of the fan is a diagonal in two triangles. Fans started at
// an arbitrary vertex break this in 18 cases, with a triangle flat in a face.
TEST(MarchingCubesTable, NoTriangleOrDiagonalLiesInACubeFace) {
  MarchingCubesTable table = buildMarchingCubesTable();
  EXPECT_EQ(table.triangles[0], 0);
  EXPECT_EQ(table.triangles[255], 0);
  EXPECT_EQ(table.triangles[1], 1);     // one corner in: one triangle
  EXPECT_EQ(table.triangles[3], 2);     // an edge in: a quad
  EXPECT_EQ(table.triangles[0x69], 4);  // the checkerboard: four corners cut off apart
  int flat = 0, diagonalsInFaces = 0, wrongUses = 0;
  for (int cs = 0; cs < 256; ++cs) {
    std::set<int> crossed, used;
    for (int e = 0; e < 12; ++e)
      if (((cs >> kCubeEdgeCorners[e][0]) & 1) != ((cs >> kCubeEdgeCorners[e][1]) & 1)) crossed.insert(e);
    std::map<std::pair<int, int>, int> uses;
    for (int t = 0; t < table.triangles[cs]; ++t) {
      int v[3];
      for (int c = 0; c < 3; ++c) used.insert(v[c] = table.edges[cs][3 * t + c]);
      flat += onOneFace({v[0], v[1], v[2]});
      for (int c = 0; c < 3; ++c) ++uses[std::minmax(v[c], v[(c + 1) % 3])];
    }
    EXPECT_EQ(used, crossed) << "case " << cs << ": a vertex on every crossed edge, and only there";
    for (auto [edge, n] : uses) {
      bool inFace = onOneFace({edge.first, edge.second});
      diagonalsInFaces += inFace && n != 1;
      wrongUses += n != (inFace ? 1 : 2);
    }
  }
  EXPECT_EQ(flat, 0) << "triangles flat in a cube face";
  EXPECT_EQ(diagonalsInFaces, 0) << "fan diagonals in a cube face";
  EXPECT_EQ(wrongUses, 0) << "edges not in one triangle (face segments) or two (diagonals)";
}

// A grid of random signs (no zeros, so no vertex on a node) inside nodes that read outside: the zero set
// is closed, so the mesh must be closed, edge-manifold and consistently oriented, and every vertex normal
// (the random field's gradient, or its fallback) must face the same way as its triangles' weighted normal.
// Such fields fold the surface everywhere (as placed on the edges, 21,438 of the 907,952 normals face away
// from a triangle of theirs); unfolding leaves fewer than one in ten thousand so.
TEST(MarchingCubes, RandomSignFieldsGiveClosedManifoldMeshes) {
  cpu::Primitives prims;
  cpu::SurfaceGrid grid;
  cpu::MarchingCubes marching;
  // particles on the corners of a 4-cell box with a reach of 4 cells: every block of the lattice stored
  std::vector<Vec3> corners;
  for (int c = 0; c < 8; ++c)
    corners.push_back(Vec3{Real(c & 1), Real((c >> 1) & 1), Real((c >> 2) & 1)} * 4);
  Buffer<Vec3> x(cpu::kDevice, corners.size());
  x.upload(corners.data(), corners.size());
  grid.layout(x.data(), cpu::Index(corners.size()), 1, 4, 1, prims);
  SurfaceGridView g = grid.view();
  ASSERT_EQ(std::size_t(g.storedBlocks), std::size_t(g.bx) * g.by * g.bz);
  std::size_t triangles = 0, boundary = 0, nonManifold = 0, flipped = 0, againstWeighted = 0, againstFace = 0,
              vertices = 0;
  const int fields = 200;
  for (int seed = 0; seed < fields; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> magnitude(0.05f, 1.0f), coin(0, 1);
    float inside = 0.2f + 0.15f * float(seed % 5);  // 20 % to 80 % of the nodes inside
    for (cpu::Index n = 0; n < g.storedNodes(); ++n) {
      int i, j, k;
      g.nodeOf(n, i, j, k);
      // the lattice's low faces outside, so no inside node lacks the cells below it
      bool in = i > 0 && j > 0 && k > 0 && coin(rng) < inside;
      grid.values()[n] = (in ? -1 : 1) * magnitude(rng);
    }
    marching.extract(grid.view(), prims);
    TriangleMesh mesh;
    marching.download(mesh);
    Topology t = inspect(mesh);
    NormalAgreement a = normalAgreement(mesh);
    triangles += t.faces, vertices += t.vertices;
    boundary += t.report.boundaryEdges, nonManifold += t.report.nonManifoldEdges;
    flipped += t.directedRepeats;
    againstWeighted += a.againstWeighted, againstFace += a.againstSomeFace;
  }
  std::printf(
      "  %d fields: %zu triangles, %zu boundary and %zu non-manifold edges, %zu directed edges used "
      "twice; of %zu normals %zu against their triangles' weighted normal, %zu against one of "
      "their triangles\n",
      fields, triangles, boundary, nonManifold, flipped, vertices, againstWeighted, againstFace);
  EXPECT_GT(triangles, std::size_t(fields) * 1000);
  EXPECT_EQ(boundary, 0u);
  EXPECT_EQ(nonManifold, 0u);
  EXPECT_EQ(flipped, 0u);
  EXPECT_EQ(againstWeighted, 0u);
  EXPECT_LT(againstFace, vertices / 10000);
}

constexpr Real kSpacing = 0.02f;

// what a Zhu–Bridson mesh of some particles is held to: closed, oriented, every vertex near a particle, each
// normal with every triangle around it; and, for the report, the pieces enclosing no particle (winding number
// under one half) and the small ones centred away from every particle
struct AroundParticles {
  Topology topology;
  int emptyPieces = 0;  // pieces that enclose no particle
  int smallPieces = 0;  // pieces less than 2 spacings across (a lone particle's: 1.97 at most)
  int strayPieces = 0;  // small pieces centred farther than 0.6 spacing from every particle
  double farthest = 0;  // the largest distance from a vertex to its nearest particle, in spacings
  NormalAgreement normals;
};

AroundParticles checkAround(const TriangleMesh& mesh, const std::vector<Vec3>& particles, Real spacing) {
  AroundParticles r;
  r.topology = inspect(mesh);
  r.normals = normalAgreement(mesh);
  int pieces = 0;
  std::vector<int> piece = trianglePieces(mesh, &pieces);
  // a piece's box, to test only the particles in it
  std::vector<Vec3> lo(std::size_t(pieces), Vec3{1e30f, 1e30f, 1e30f}),
      hi(std::size_t(pieces), Vec3{-1e30f, -1e30f, -1e30f});
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (std::uint32_t v : mesh.triangles[t]) {
      lo[std::size_t(piece[t])] = cwiseMin(lo[std::size_t(piece[t])], mesh.vertices[v]);
      hi[std::size_t(piece[t])] = cwiseMax(hi[std::size_t(piece[t])], mesh.vertices[v]);
    }
  for (int p = 0; p < pieces; ++p) {
    bool holds = false;
    for (Vec3 x : particles) {
      Vec3 a = lo[std::size_t(p)], b = hi[std::size_t(p)];
      if (x.x < a.x || x.y < a.y || x.z < a.z || x.x > b.x || x.y > b.y || x.z > b.z) continue;
      if (windingNumber(mesh, piece, p, x) > 0.5) {
        holds = true;
        break;
      }
    }
    r.emptyPieces += !holds;
  }
  // the small pieces' centres (the mean of their vertices)
  std::vector<Vec3> sum(std::size_t(pieces), Vec3{0, 0, 0});
  std::vector<int> count(std::size_t(pieces), 0);
  std::vector<bool> seen(mesh.vertices.size(), false);
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (std::uint32_t v : mesh.triangles[t])
      if (!seen[v]) {
        seen[v] = true;
        sum[std::size_t(piece[t])] += mesh.vertices[v];
        ++count[std::size_t(piece[t])];
      }
  for (int p = 0; p < pieces; ++p) {
    if (length(hi[std::size_t(p)] - lo[std::size_t(p)]) >= 2 * spacing) continue;
    ++r.smallPieces;
    Vec3 centre = sum[std::size_t(p)] / Real(count[std::size_t(p)]);
    double nearest = 1e30;
    for (Vec3 x : particles) nearest = std::min(nearest, double(length(centre - x)));
    r.strayPieces += nearest > 0.6 * spacing;
  }
  for (Vec3 v : mesh.vertices) {
    double nearest = 1e30;
    for (Vec3 x : particles) nearest = std::min(nearest, double(length(v - x)));
    r.farthest = std::max(r.farthest, nearest / spacing);
  }
  return r;
}

void expectAround(const AroundParticles& r, const SurfaceSettings& s, Real spacing) {
  EXPECT_TRUE(r.topology.report.closed()) << r.topology.report.boundaryEdges << " boundary, "
                                          << r.topology.report.nonManifoldEdges << " non-manifold edges";
  EXPECT_EQ(r.topology.directedRepeats, 0u);
  // a droplet of the field's own (a lone particle's piece is centred on the nodes within r of it)
  EXPECT_EQ(r.strayPieces, 0) << "small pieces centred away from every particle";
  // no surface farther than r from every particle, but for a cell of tolerance (the bound allows 0.7 spacing
  // from one particle, a spacing from two; a vertex lies on an edge from a node inside)
  EXPECT_LT(r.farthest, (s.particleRadius + s.cell) / spacing);
  EXPECT_EQ(r.normals.againstWeighted, 0u);
  EXPECT_EQ(r.normals.againstSomeFace, 0u) << "worst cosine " << r.normals.worstCos;
}

// Midway between two particles 2 to 4 spacings apart the weighted centre is the point itself: the
// unbounded field is -r there, a droplet of its own between the two.
TEST(ZhuBridson, PairsAFewSpacingsApartGiveNoPieceBetween) {
  SurfaceSettings s = SurfaceSettings::fromSpacing(kSpacing);
  const Vec3 a{0.0131f, -0.0072f, 0.0043f}, direction = Vec3{1, 0.37f, 0.21f} / length(Vec3{1, 0.37f, 0.21f});
  for (double gap : {2.0, 2.3, 2.6, 3.0, 3.5, 4.0}) {
    std::vector<Vec3> pair = {a, a + direction * Real(gap * kSpacing)};
    TriangleMesh mesh = reconstructSurface(pair, s, Backend::Cpu);
    AroundParticles r = checkAround(mesh, pair, kSpacing);
    std::printf(
        "  %.1f spacings apart: %d piece(s), %d small away from the particles, vertices up to %.2f "
        "spacings from a particle\n",
        gap, r.topology.components, r.strayPieces, r.farthest);
    SCOPED_TRACE("gap " + std::to_string(gap));
    expectAround(r, s, kSpacing);
    // one piece each: outside the bound, nothing is drawn farther than 0.7 r_reach from one particle unless
    // within r_reach of both (under 2 r_reach apart), so the grid can join them only across a cell
    if (gap > 2 * double(cpu::ZhuBridsonField::kNearReach * s.particleReach + s.cell) / kSpacing)
      EXPECT_EQ(r.topology.components, 2);
    else
      EXPECT_LE(r.topology.components, 2);
  }
}

// A spray: random particles about three spacings apart, close pairs and lone drops among them
TEST(ZhuBridson, SprayGivesNoPieceWithoutAParticle) {
  SurfaceSettings s = SurfaceSettings::fromSpacing(kSpacing);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(0, 20 * kSpacing);
  std::vector<Vec3> spray(300);
  for (Vec3& x : spray) x = Vec3{u(rng), u(rng), u(rng)};
  TriangleMesh mesh = reconstructSurface(spray, s, Backend::Cpu);
  AroundParticles r = checkAround(mesh, spray, kSpacing);
  std::printf(
      "  %zu particles: %d pieces; %d small, %d of them away from the particles; %d enclosing no "
      "particle (a lone particle's piece on the grid may miss it); vertices up to %.2f spacings from a "
      "particle; normals against a triangle of theirs %zu of %zu (worst cos %.3f)\n",
      spray.size(), r.topology.components, r.smallPieces, r.strayPieces, r.emptyPieces, r.farthest,
      r.normals.againstSomeFace, r.topology.vertices, r.normals.worstCos);
  expectAround(r, s, kSpacing);
  EXPECT_LE(r.topology.components, int(spray.size()));
}

// A short dam break (2,250 particles at 4 cm, one second: the wave has hit the far wall and thrown drops)
// surfaced by every method: every mesh closed, manifold and oriented, every normal with a positive cosine
// against each of its triangles (before unfolding, 5, 2, 0 and 15 vertices had one against them);
// Zhu–Bridson's surface near its particles. (Fans in the cube faces gave 4 non-manifold edges here.)
TEST(SurfaceOfADamBreak, EveryMethodGivesAClosedManifoldMesh) {
  const Real spacing = 0.04f;
  SceneDesc scene = loadScene("", {"fluid.spacing=0.04"});
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 60; ++f) sim->advanceFrame();
  HostParticles particles;
  sim->copyParticles(particles);
  // every method, and Zhu–Bridson with 10 Taubin iterations (normals from the smoothed triangles)
  const std::pair<SurfaceMethod, int> runs[] = {{SurfaceMethod::ZhuBridson, 0},
                                                {SurfaceMethod::YuTurk, 0},
                                                {SurfaceMethod::SphDensity, 0},
                                                {SurfaceMethod::ZhuBridson, 10}};
  for (auto [method, smoothing] : runs) {
    SurfaceSettings s = SurfaceSettings::fromSpacing(spacing);
    s.method = method;
    s.smoothingIterations = smoothing;
    TriangleMesh mesh = reconstructSurface(particles.position, s, Backend::Cpu);
    Topology t = inspect(mesh);
    NormalAgreement a = normalAgreement(mesh);
    std::printf(
        "  %s, %d smoothing: %zu triangles, %d pieces, %zu boundary and %zu non-manifold edges; normals "
        "against their triangles' weighted normal %zu, against one of their triangles %zu of %zu\n",
        surfaceMethodName(method), smoothing, t.faces, t.components, t.report.boundaryEdges,
        t.report.nonManifoldEdges, a.againstWeighted, a.againstSomeFace, t.vertices);
    SCOPED_TRACE(std::string(surfaceMethodName(method)) + ", smoothing " + std::to_string(smoothing));
    EXPECT_GT(t.faces, 1000u);
    EXPECT_TRUE(t.report.closed());
    EXPECT_EQ(t.directedRepeats, 0u);
    EXPECT_EQ(a.againstWeighted, 0u);
    EXPECT_EQ(a.againstSomeFace, 0u) << "worst cosine " << a.worstCos;
    if (method == SurfaceMethod::ZhuBridson && smoothing == 0) {
      AroundParticles r = checkAround(mesh, particles.position, spacing);
      std::printf(
          "  zhu-bridson: %d small pieces, %d of them away from the particles; %d enclosing no "
          "particle; vertices up to %.2f spacings from a particle\n",
          r.smallPieces, r.strayPieces, r.emptyPieces, r.farthest);
      expectAround(r, s, spacing);
    }
  }
  if (openVdbAvailable()) {
    // as the surface benchmark runs it: spheres of sqrt(3) / 2 spacings, rasterised larger
    SurfaceSettings s = SurfaceSettings::fromSpacing(spacing);
    OpenVdbSurface vdb =
        openVdbReferenceSurface(particles.position, std::max(Real(1.05) * spacing, Real(1.55) * s.cell),
                                s.cell, Real(0.8660254) * spacing);
    Topology t = inspect(vdb.mesh);
    std::printf("  openvdb: %zu triangles, %d pieces, %zu boundary and %zu non-manifold edges\n", t.faces,
                t.components, t.report.boundaryEdges, t.report.nonManifoldEdges);
    EXPECT_TRUE(t.report.closed());
  }
}

}  // namespace
}  // namespace eddy
