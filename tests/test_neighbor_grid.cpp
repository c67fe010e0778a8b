// NeighborGrid against brute force: after sortParticles, every particle's neighbour set (mapped back to
// original indices through a persistent "id" attribute) must equal the set of all j != i with
// |x_i - x_j|^2 < h^2, exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "neighbors/neighbor_grid.h"

using namespace eddy;
using namespace eddy::cpu;

namespace {

constexpr double kPi = 3.14159265358979323846;
// the original index as a Real (the engine's own UInt32 attr::kId is not added here)
constexpr const char* kId = "original_index";
constexpr const char* kScratch = "scratch_marker";

// the engine's own distance test, evaluated the same way (float difference, float dot)
bool isNeighbor(Vec3 a, Vec3 b, Real h2) {
  Vec3 d = a - b;
  return dot(d, d) < h2;
}

std::vector<std::vector<std::uint32_t>> bruteForce(const std::vector<Vec3>& x, Real h) {
  Real h2 = h * h;
  std::vector<std::vector<std::uint32_t>> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = i + 1; j < x.size(); ++j)
      if (isNeighbor(x[i], x[j], h2)) {
        out[i].push_back(std::uint32_t(j));
        out[j].push_back(std::uint32_t(i));
      }
  for (auto& s : out) std::sort(s.begin(), s.end());
  return out;
}

double meanCount(const std::vector<std::vector<std::uint32_t>>& sets) {
  double total = 0;
  for (const auto& s : sets) total += double(s.size());
  return sets.empty() ? 0 : total / double(sets.size());
}

// support that gives about `target` neighbours at number density n / volume
Real supportFor(double target, std::size_t n, double volume) {
  return Real(std::cbrt(target * volume / (4.0 / 3.0 * kPi * double(n))));
}

std::vector<Vec3> uniformBox(std::size_t n, Vec3 lo, Vec3 hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(0, 1);
  std::vector<Vec3> x(n);
  for (Vec3& p : x)
    p = {lo.x + (hi.x - lo.x) * u(rng), lo.y + (hi.y - lo.y) * u(rng), lo.z + (hi.z - lo.z) * u(rng)};
  return x;
}

std::vector<Vec3> gaussianBlobs(std::size_t perBlob, const std::vector<Vec3>& centers, Real sigma,
                                unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<Real> g(0, sigma);
  std::vector<Vec3> x;
  for (Vec3 c : centers)
    for (std::size_t i = 0; i < perBlob; ++i) x.push_back(c + Vec3{g(rng), g(rng), g(rng)});
  return x;
}

// a velocity that names its particle, so that a mixed-up reorder shows
Vec3 velocityTag(std::size_t i) { return {Real(i), -Real(i), Real(i) * 0.5f + 0.25f}; }

// a particle set with position, velocity, a persistent id and a scratch attribute
struct Fixture {
  ParticleSet particles;
  std::vector<Vec3> position;  // by original id
  std::vector<Vec3> velocity;

  explicit Fixture(const std::vector<Vec3>& x) {
    particles.addAttribute(attr::kPosition, 3);
    particles.addAttribute(attr::kVelocity, 3);
    particles.addAttribute(kId, 1);
    particles.addAttribute(kScratch, 1, false);
    add(x);
  }
  void add(const std::vector<Vec3>& x) {
    std::size_t first = position.size();
    std::vector<Vec3> v(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) v[i] = velocityTag(first + i);
    position.insert(position.end(), x.begin(), x.end());
    velocity.insert(velocity.end(), v.begin(), v.end());
    particles.append(x, v);
    Real* id = particles.real(kId).data;
    for (std::size_t i = first; i < position.size(); ++i) id[i] = Real(i);
  }
  // original id of the particle now in slot i
  std::uint32_t idAt(Index i) const { return std::uint32_t(particles.real(kId).data[i]); }
};

// sorts, builds the lists and checks every attribute and every neighbour set; returns the mean count
double sortBuildAndCheck(Fixture& f, NeighborGrid& grid, Primitives& prims, int maxNeighbors,
                         const char* what) {
  Index n = f.particles.size();
  // (the scratch attribute's contents are not kept across a sort: ParticleSetArenas tests that)
  grid.sortParticles(f.particles, attr::kPosition, prims);
  auto x = f.particles.vec3(attr::kPosition);
  grid.buildNeighborLists(asConst(x), 0, prims);
  EXPECT_EQ(f.particles.size(), n) << what;

  // the ids are a permutation and every persistent attribute followed its particle
  std::vector<char> seen(n, 0);
  const Vec3* v = f.particles.vec3(attr::kVelocity).data;
  int attributeErrors = 0;
  for (Index i = 0; i < n; ++i) {
    Real raw = f.particles.real(kId).data[i];
    std::uint32_t id = f.idAt(i);
    if (raw != Real(id) || id >= std::uint32_t(n) || seen[id]) {
      ADD_FAILURE() << what << ": slot " << i << " holds id " << raw << ", not a permutation";
      return 0;
    }
    seen[id] = 1;
    bool ok = std::memcmp(&x.data[i], &f.position[id], sizeof(Vec3)) == 0 &&
              std::memcmp(&v[i], &f.velocity[id], sizeof(Vec3)) == 0;
    if (!ok && ++attributeErrors <= 5)
      ADD_FAILURE() << what << ": slot " << i << " (id " << id
                    << ") has position/velocity of another particle";
  }
  EXPECT_EQ(attributeErrors, 0) << what;

  // sorted by cell key, and each key is the particle's cell
  GridView g = grid.grid();
  EXPECT_EQ(g.count, n) << what;
  int keyErrors = 0;
  for (Index i = 0; i < n; ++i) {
    int cx, cy, cz;
    g.cellOf(x.data[i], cx, cy, cz);
    bool ok = g.sortedKeys[i] == g.key(cx, cy, cz) && (i == 0 || g.sortedKeys[i - 1] <= g.sortedKeys[i]);
    if (!ok) ++keyErrors;
  }
  EXPECT_EQ(keyErrors, 0) << what << ": keys not sorted or not the particles' cells";

  // neighbour sets against brute force over the original positions
  auto truth = bruteForce(f.position, grid.cellSize());
  NeighborView nv = grid.neighbors();
  int setErrors = 0;
  for (Index i = 0; i < n; ++i) {
    std::uint32_t id = f.idAt(i);
    const auto& expect = truth[id];
    std::vector<std::uint32_t> got;
    Index c = nv.count(i);
    for (Index k = 0; k < c; ++k) {
      Index j = nv.at(i, k);
      got.push_back(j >= 0 && j < n ? f.idAt(j) : std::uint32_t(-1));
    }
    std::sort(got.begin(), got.end());
    bool ok;
    if (maxNeighbors > 0) {
      // a cap keeps count <= cap, lists only true neighbours, each once, and drops only when full
      bool unique = std::adjacent_find(got.begin(), got.end()) == got.end();
      bool subset = std::includes(expect.begin(), expect.end(), got.begin(), got.end());
      ok = c <= maxNeighbors && unique && subset &&
           std::size_t(c) == std::min<std::size_t>(std::size_t(maxNeighbors), expect.size());
    } else {
      ok = got == expect;
    }
    if (!ok && ++setErrors <= 5) {
      ADD_FAILURE() << what << ": particle id " << id << " (slot " << i << ") has " << c
                    << " neighbours from the grid, brute force finds " << expect.size();
    }
  }
  EXPECT_EQ(setErrors, 0) << what << ": particles whose neighbour set is wrong";
  return meanCount(truth);
}

void expectDensityInRange(double mean, const char* what) {
  // the brief for these sets: the support gives 20..60 neighbours on average
  EXPECT_GE(mean, 20) << what;
  EXPECT_LE(mean, 60) << what;
}

}  // namespace

TEST(NeighborGrid, UniformBoxMatchesBruteForce) {
  const std::size_t n = 12000;
  Vec3 lo{-0.3f, -0.55f, 0.1f}, hi{0.7f, 0.45f, 1.1f};
  Real h = supportFor(40, n, 1.0);
  Fixture f(uniformBox(n, lo, hi, 1));
  NeighborGrid grid;
  grid.setup(h, Index(n), 0);
  Primitives prims;
  double mean = sortBuildAndCheck(f, grid, prims, 0, "uniform box");
  expectDensityInRange(mean, "uniform box");
}

TEST(NeighborGrid, ClusteredBlobsMatchBruteForce) {
  // dense blobs: far more neighbours in the cores than the default list width, so the lists must grow
  const std::size_t perBlob = 3000;
  std::vector<Vec3> centers = {
      {0.1f, 0.2f, 0.3f}, {0.35f, 0.2f, 0.3f}, {-0.6f, 1.4f, -0.2f}, {2.0f, -1.0f, 0.5f}};
  Real sigma = 0.05f;
  // mean density seen by a particle of a Gaussian blob: N / ((4 pi)^1.5 sigma^3)
  double seen = double(perBlob) / (std::pow(4 * kPi, 1.5) * sigma * sigma * sigma);
  Real h = Real(std::cbrt(40 / (4.0 / 3.0 * kPi * seen)));
  Fixture f(gaussianBlobs(perBlob, centers, sigma, 2));
  NeighborGrid grid;
  grid.setup(h, Index(f.position.size()), 0);
  Primitives prims;
  double mean = sortBuildAndCheck(f, grid, prims, 0, "gaussian blobs");
  expectDensityInRange(mean, "gaussian blobs");
  EXPECT_GT(grid.neighbors().stride, NeighborGrid::kInitialSlots)
      << "the blob cores should have needed wider lists";
}

TEST(NeighborGrid, FarAndNegativeCoordinatesWithAliasedKeys) {
  // boxes around +-1e3 m, and pairs of boxes a whole number of periodic tiles apart, so that different
  // places share cell keys and only the distance test tells them apart
  const std::size_t perBox = 2500;
  Real h = supportFor(40, perBox, 0.5 * 0.5 * 0.5);
  NeighborGrid grid;
  grid.setup(h, Index(6 * perBox), 0);
  Real tile = Real(grid.grid().axisMask + 1) * h;
  Vec3 far{1000.25f, -1000.5f, 999.75f};
  Vec3 neg{-1000.1f, -999.9f, -1000.3f};
  std::vector<Vec3> corners = {far, far + Vec3{tile, 0, 0},          far + Vec3{0, -tile, 2 * tile},
                               neg, neg + Vec3{-tile, -tile, -tile}, {-0.2f, -0.3f, -0.1f}};
  std::vector<Vec3> x;
  unsigned seed = 3;
  for (Vec3 c : corners) {
    auto b = uniformBox(perBox, c, c + Vec3{0.5f, 0.5f, 0.5f}, seed++);
    x.insert(x.end(), b.begin(), b.end());
  }
  Fixture f(x);
  Primitives prims;
  double mean = sortBuildAndCheck(f, grid, prims, 0, "far boxes");
  expectDensityInRange(mean, "far boxes");

  // the aliasing really happens: some cell keys are shared by particles more than a tile apart
  GridView g = grid.grid();
  auto xs = f.particles.vec3(attr::kPosition);
  int aliased = 0;
  for (Index i = 1; i < f.particles.size(); ++i)
    if (g.sortedKeys[i] == g.sortedKeys[i - 1] && length(xs.data[i] - xs.data[i - 1]) > tile * 0.5f)
      ++aliased;
  EXPECT_GT(aliased, 0);
}

TEST(NeighborGrid, ParticlesThatMoveFarFromTheirStart) {
  // sort at the origin, then move everything to far negative coordinates, grow the set, and sort again:
  // the cell table left from the first sort must not leak into the second
  const std::size_t n = 8000;
  Real h = supportFor(40, n, 1.0);
  Fixture f(uniformBox(n, {0, 0, 0}, {1, 1, 1}, 11));
  NeighborGrid grid;
  grid.setup(h, Index(n), 0);
  Primitives prims;
  expectDensityInRange(sortBuildAndCheck(f, grid, prims, 0, "start"), "start");

  std::mt19937 rng(12);
  std::normal_distribution<Real> jiggle(0, 0.02f);
  Vec3 shift{-1234.5f, -987.25f, -1500.125f};
  Vec3* x = f.particles.vec3(attr::kPosition).data;
  for (Index i = 0; i < f.particles.size(); ++i) {
    x[i] = x[i] + shift + Vec3{jiggle(rng), jiggle(rng), jiggle(rng)};
    f.position[f.idAt(i)] = x[i];
  }
  sortBuildAndCheck(f, grid, prims, 0, "moved far");

  // more particles than the grid was set up for: the tables grow
  f.add(uniformBox(n, shift + Vec3{1, 0, 0}, shift + Vec3{2, 1, 1}, 13));
  sortBuildAndCheck(f, grid, prims, 0, "grown");
}

TEST(NeighborGrid, CappedListsHoldOnlyTrueNeighbors) {
  const std::size_t n = 10000;
  Real h = supportFor(40, n, 1.0);
  Fixture f(uniformBox(n, {0, 0, 0}, {1, 1, 1}, 21));
  NeighborGrid grid;
  grid.setup(h, Index(n), 8);
  Primitives prims;
  double mean = sortBuildAndCheck(f, grid, prims, 8, "cap 8");
  expectDensityInRange(mean, "cap 8");
  NeighborView nv = grid.neighbors();
  for (Index i = 0; i < f.particles.size(); ++i) ASSERT_LE(nv.count(i), 8) << i;

  // the cap also holds for dense blobs
  Fixture b(gaussianBlobs(2000, {{0, 0, 0}, {5, 5, 5}}, 0.05f, 22));
  NeighborGrid blobGrid;
  blobGrid.setup(h * 0.5f, Index(b.position.size()), 8);
  sortBuildAndCheck(b, blobGrid, prims, 8, "cap 8 blobs");
}

TEST(NeighborGrid, SortKeepsAttributesConsistentOverManySorts) {
  // repeated sorts with motion in between: velocity and id always travel with their particle
  const std::size_t n = 5000;
  Real h = supportFor(40, n, 1.0);
  Fixture f(uniformBox(n, {0, 0, 0}, {1, 1, 1}, 31));
  NeighborGrid grid;
  grid.setup(h, Index(n), 0);
  Primitives prims;
  std::mt19937 rng(32);
  std::normal_distribution<Real> step(0, 0.05f);
  for (int round = 0; round < 5; ++round) {
    sortBuildAndCheck(f, grid, prims, 0, ("round " + std::to_string(round)).c_str());
    Vec3* x = f.particles.vec3(attr::kPosition).data;
    Vec3* v = f.particles.vec3(attr::kVelocity).data;
    for (Index i = 0; i < f.particles.size(); ++i) {
      std::uint32_t id = f.idAt(i);
      x[i] = x[i] + Vec3{step(rng), step(rng), step(rng)};
      v[i] = v[i] + Vec3{1, 2, 3};
      f.position[id] = x[i];
      f.velocity[id] = v[i];
    }
  }
}

TEST(NeighborGrid, PairsJustInsideTheSupportAtFarCoordinates) {
  // partners placed a hair inside (and outside) the support in random directions, far from the origin
  // where a float coordinate has few bits below the cell size: rounding in the cell index or in the
  // cell-skipping test must not lose a true neighbour
  const std::size_t n = 6000;
  Real h = supportFor(40, n, 1.0);
  std::vector<Vec3> x = uniformBox(n, {-1000.6f, 999.3f, -1e3f}, {-999.6f, 1000.3f, -999.f}, 41);
  std::mt19937 rng(42);
  std::normal_distribution<Real> g(0, 1);
  std::uniform_real_distribution<Real> eps(-4e-4f, 4e-4f);
  for (std::size_t i = 0; i < 3000; ++i) {
    Vec3 dir{g(rng), g(rng), g(rng)};
    dir = dir / length(dir);
    x.push_back(x[i] + dir * (h * (1 + eps(rng))));
  }
  // also partners along the axes and the cell diagonals, where the skipped corner cells are
  const Vec3 axes[] = {
      {1, 0, 0}, {0, -1, 0}, {0, 0, 1}, {0.57735f, 0.57735f, 0.57735f}, {0.70711f, -0.70711f, 0}};
  for (std::size_t i = 0; i < 1000; ++i) {
    Vec3 dir = axes[i % 5];
    x.push_back(x[3000 + i] + dir * (h * (1 + eps(rng))));
  }
  Fixture f(x);
  NeighborGrid grid;
  grid.setup(h, Index(x.size()), 0);
  Primitives prims;
  double mean = sortBuildAndCheck(f, grid, prims, 0, "near-threshold pairs");
  expectDensityInRange(mean, "near-threshold pairs");
}

TEST(NeighborGrid, PairsAcrossCellEdgesAndCornersAtFarCoordinates) {
  // adversarial: j sits on the first float of a cell, i sits diagonally across the cell edge or corner at
  // a distance within 0.2% of h; only the exact distance test may decide, never a cell-level shortcut
  const Real h = 0.0779f;
  NeighborGrid grid;
  grid.setup(h, 8000, 0);
  GridView g = grid.grid();
  // smallest float whose cell index is c (the engine's own rounding)
  auto cellStartCoord = [&](int c) {
    Real v = Real(c) * h;
    while (int(std::floor(v * g.invCellSize)) >= c) v = std::nextafter(v, -1e30f);
    while (int(std::floor(v * g.invCellSize)) < c) v = std::nextafter(v, 1e30f);
    return v;
  };
  std::mt19937 rng(51);
  std::uniform_int_distribution<int> cell(-14000, 14000);  // about +-1e3 m
  std::uniform_real_distribution<Real> delta(-2e-3f, 2e-3f);
  std::vector<Vec3> x;
  for (int p = 0; p < 4000; ++p) {
    int axes = 2 + p % 2;  // edge cells (2 axes) and corner cells (3 axes)
    Real a = (1 + delta(rng)) / std::sqrt(Real(axes));
    Vec3 j{}, i{};
    for (int c = 0; c < 3; ++c) {
      Real start = cellStartCoord(cell(rng));
      (&j.x)[c] = start;
      (&i.x)[c] = c < axes ? start - a * h : start;
    }
    x.push_back(i);
    x.push_back(j);
  }
  Fixture f(x);
  Primitives prims;
  sortBuildAndCheck(f, grid, prims, 0, "edge and corner pairs");
  // the set is meaningful: about half the pairs are neighbours
  auto truth = bruteForce(f.position, h);
  int pairs = 0;
  for (std::size_t k = 0; k < x.size(); k += 2) pairs += !truth[k].empty();
  EXPECT_GT(pairs, 1000);
  EXPECT_LT(pairs, 3000);
}

// the walk over cells within two cell sizes (a grid of half the reach, as the Yu–Turk kernels use): every
// particle within the reach is in the cells it visits, each cell once, in a uniform box and at far
// coordinates where keys alias
TEST(NeighborGrid, CellsWithinTwoHoldEveryNeighbourOfTwiceTheCell) {
  for (Vec3 offset : {Vec3{0, 0, 0}, Vec3{-731.3f, 912.7f, -55.1f}}) {
    std::vector<Vec3> x = uniformBox(6000, offset, offset + Vec3{1, 1, 1}, 7);
    const Real reach = supportFor(60, x.size(), 1.0);
    Fixture f(x);
    NeighborGrid grid;
    Primitives prims;
    grid.setup(reach / 2, Index(x.size()), 1);
    grid.sortParticles(f.particles, attr::kPosition, prims);
    const GridView g = grid.grid();
    const Vec3* sorted = f.particles.vec3(attr::kPosition).data;
    const auto truth = bruteForce(f.position, reach);
    std::size_t missing = 0, visitedTwice = 0, candidates = 0, found = 0;
    for (Index i = 0; i < Index(x.size()); ++i) {
      std::vector<std::uint32_t> near;
      std::vector<char> seen(x.size(), 0);
      g.forEachCellWithinTwo(sorted[i], [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t j = begin; j < end; ++j) {
          ++candidates;
          if (seen[j]++) ++visitedTwice;
          if (j != std::uint32_t(i) && isNeighbor(sorted[i], sorted[j], reach * reach))
            near.push_back(f.idAt(Index(j)));
        }
      });
      std::sort(near.begin(), near.end());
      found += near.size();
      missing += truth[f.idAt(i)].size() - near.size();
      EXPECT_EQ(near, truth[f.idAt(i)]) << "particle " << i;
      if (HasFailure()) return;
    }
    std::printf("  offset %.0f: %zu neighbours found, %.1f candidates per neighbour, %zu visited twice\n",
                double(offset.x), found, double(candidates) / double(found), visitedTwice);
    EXPECT_EQ(missing, 0u);
    EXPECT_EQ(visitedTwice, 0u);
  }
}

// 16-bit entries (a neighbour's cell offset and place in its cell) name the same neighbours, in the same
// order, as 32-bit indices, at aliased far coordinates too, where cell steps wrap around the periodic tile
TEST(NeighborGrid, NarrowEntriesNameTheNeighboursWideIndicesDo) {
  const std::size_t n = 9000;
  Real h = supportFor(40, n, 1.0);
  NeighborGrid probe;
  probe.setup(h, Index(n), 0);
  Real tile = Real(probe.grid().axisMask + 1) * h;
  std::vector<Vec3> x = uniformBox(n / 3, {-0.2f, -0.2f, -0.2f}, {0.8f, 0.8f, 0.8f}, 31);
  // a box across the periodic tile's seam and one a whole tile away from it, sharing its keys
  for (Vec3 at : {Vec3{-0.5f * tile, 0.5f * tile, -tile}, Vec3{0.5f * tile, 0.5f * tile, -tile}})
    for (Vec3 p : uniformBox(n / 3, at, at + Vec3{0.7f, 0.7f, 0.7f}, 32)) x.push_back(p);
  Fixture narrowSet(x), wideSet(x);
  NeighborGrid narrow, wide;
  narrow.setNarrowLists(true);
  narrow.setup(h, Index(n), 0);
  wide.setNarrowLists(false);
  wide.setup(h, Index(n), 0);
  Primitives prims;
  sortBuildAndCheck(narrowSet, narrow, prims, 0, "narrow entries");
  sortBuildAndCheck(wideSet, wide, prims, 0, "wide entries");
  ASSERT_TRUE(narrow.narrowLists());
  ASSERT_FALSE(wide.narrowLists());
  NeighborView a = narrow.neighbors(), b = wide.neighbors();
  int differ = 0;
  for (Index i = 0; i < Index(x.size()); ++i) {
    ASSERT_EQ(a.count(i), b.count(i)) << i;
    for (Index k = 0; k < a.count(i); ++k) differ += a.at(i, k) != b.at(i, k);
  }
  EXPECT_EQ(differ, 0);
  EXPECT_LT(narrow.bytes(), wide.bytes());
}

// a cell of more particles than a narrow entry can place turns the lists wide, and they stay exact
TEST(NeighborGrid, APileUpTurnsTheListsWide) {
  std::vector<Vec3> x = uniformBox(4000, {0, 0, 0}, {1, 1, 1}, 41);
  for (Vec3 p : gaussianBlobs(1500, {{0.55f, 0.55f, 0.55f}}, 0.004f, 42)) x.push_back(p);
  Fixture f(x);
  NeighborGrid grid;
  Real h = 0.1f;
  grid.setNarrowLists(true);
  grid.setup(h, Index(x.size()), 0);
  ASSERT_TRUE(grid.narrowLists());
  Primitives prims;
  sortBuildAndCheck(f, grid, prims, 0, "pile-up");
  EXPECT_FALSE(grid.narrowLists());
}
