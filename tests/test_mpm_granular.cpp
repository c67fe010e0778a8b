// Collapse of a quasi-two-dimensional sand column under MLS-MPM (Drucker-Prager sand, Klar et al. 2016),
// against the run-out law of
//   G. Lube, H. E. Huppert, R. S. J. Sparks, A. Freundt, "Collapses of two-dimensional granular columns",
//   Phys. Rev. E 72, 041301 (2005):
//     (L_inf - L0) / L0 = 1.2 a          for a < 1.8,
//     (L_inf - L0) / L0 = 1.9 a^(2/3)    for a > 2.8 (their Eq. 4),
//   a = H0 / L0, with a transition between the two fits for 1.8 < a < 2.8; measured in a channel with quartz
//   sand (angle of repose 29.5 degrees), coarse sand, rice and sugar, independent of the floor's roughness.
// The same experiment with glass beads by
//   E. Lajeunesse, J. B. Monnier, G. M. Homsy, "Granular slumping on a horizontal surface",
//   Phys. Fluids 17, 103302 (2005)
// gives 1.8 a for a < 3 (and 2.3 a^(2/3) above): the prefactor of the linear law differs by 50 % between the
// two laboratories. We could not read the original papers; the coefficients and the range limits above are
// as summarised by P.-Y. Lagree, L. Staron, S. Popinet, "The granular column collapse as a continuum:
// validity of a two-dimensional Navier-Stokes model with a mu(I)-rheology", J. Fluid Mech. 686, 378 (2011),
// section 3, and quoted alike by two independent validation suites of granular solvers.
//
// Set-up: a column of width L0 = 0.2 m and height a L0 stands against the frictionless wall x = 0 (the domain
// face; by symmetry a column released on both sides) on a floor with Coulomb friction tan(phi), in a slab one
// grid cell thick with frictionless side walls, so the flow is two-dimensional. Sand: 1600 kg/m^3,
// E = 3.5e5 Pa, nu = 0.3, phi = 30 degrees. The run goes on until the kinetic energy has fallen below 1e-3
// of its peak (the heap is at rest; it takes about 0.5 s).
//
// The front is the end of the deposit that is at least one particle layer deep: the first cell-wide bin along
// x, counted from the wall, that holds fewer particles than one full layer (2 x 2 per cell). A few grains
// that rolled ahead of the deposit do not count; the farthest particle and the 99.5th percentile are printed
// beside it.
//
// The sand starts jittered by 0.3 spacing, the default for sand (a = 1: 1.13, a = 2: 2.55; from the exact
// lattice 1.10 and 2.45); the dependences below were measured from the lattice.
//
// Tolerance: 25 % on the run-out, half the spread between the two laboratories' linear laws. The result
// depends on the resolution (a = 1, phi = 30: 1.05, 1.08, 1.10, 1.20 at 20, 24, 30, 40 cells per L0) and on
// the friction angle (0.85 at phi = 33 against 1.05 at phi = 30, both at 20 cells per L0): the Drucker-Prager
// cone fitted to triaxial compression (Klar's alpha) is stronger in plane-strain simple shear than tan(phi):
// |dev tau| = 3 alpha p gives tau / p = 3 alpha / sqrt(2) = 0.69 at phi = 30 degrees against tan(phi) = 0.58.
// Checked to fail: with phi = 5 degrees the sand runs to the end of the tank (3.8 L0 at a = 1, 5.6 L0 at a =
// 2). With phi = 60 degrees only a = 2 fails (still moving after 2 s); at a = 1 and 30 cells grains spall
// from the vertical face and creep out for 1.4 s to 0.93 L0, inside the band (at 20 cells the same column
// stops at 0.10 L0); the column that does not yield keeps vibrating elastically (nothing damps it), which
// appears to ratchet the loose grains at its foot.
//
// a = 2 lies in Lube's transition (1.8 < a < 2.8): there the run-out is compared with the band between the
// two fits, 1.2 a = 2.40 and 1.9 a^(2/3) = 3.02, and the error is the distance to the nearer end.
//
// The deposit's surface slope (fitted between 20 % and 80 % of its height) must stay below phi + 5 degrees:
// a collapse deposit lies flatter than the angle of repose (Lube et al. 2005; Lajeunesse et al. 2005), while
// a column that does not yield stands at 90 degrees.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "test_support.h"

namespace eddy {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct CollapseResult {
  double runOut = 0;      // (L_inf - L0) / L0 from the continuous deposit
  double farthest = 0;    // the same from the farthest particle
  double percentile = 0;  // the same from the 99.5th percentile of x
  double height = 0;      // H_inf / L0 at the wall
  double slopeDegrees = 0;
  double restTime = 0;  // s; 0 when the heap did not come to rest
  long long particles = 0;
};

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// the sand column of aspect ratio a, N cells per column width; domainRunOut is the run-out (in L0) the tank
// must hold beyond the column
CollapseResult collapse(double a, int cellsPerWidth, double frictionDegrees, double domainRunOut) {
  const double L0 = 0.2, H0 = a * L0;
  const double dx = L0 / cellsPerWidth, spacing = dx / 2;
  const int cellsX = int(std::ceil(L0 * (1 + domainRunOut) / dx));
  const double lx = cellsX * dx, ly = H0 * 1.1;
  const double floorFriction = std::tan(frictionDegrees * kPi / 180);
  std::string json = R"({
    "name": "sand column collapse", "solver": "mpm",
    "mpm": {"grid_resolution": )" +
                     std::to_string(cellsX) +
                     R"(, "transfer": "apic", "boundary": "separate"},
    "fluid": {"spacing": )" +
                     number(spacing) +
                     R"(},
    "domain": {"min": [0, 0, 0], "max": [)" +
                     number(lx) + ", " + number(ly) + ", " + number(dx) + R"(]},
    "time": {"fps": 50, "substeps": 1},
    "colliders": [{"name": "floor", "shape": {"type": "plane", "center": [0, 0, 0], "normal": [0, 1, 0]},
                   "friction": )" +
                     number(floorFriction) +
                     R"(}],
    "emitters": [{"type": "volume",
                  "shape": {"type": "box", "center": [)" +
                     number(L0 / 2) + ", " + number(H0 / 2) + ", " + number(dx / 2) +
                     R"(], "half_extents": [)" + number(L0 / 2) + ", " + number(H0 / 2) + ", " +
                     number(dx / 2) + R"(]},
                  "material": {"type": "sand", "density": 1600, "youngs_modulus": 3.5e5,
                               "poisson_ratio": 0.3, "friction_angle": )" +
                     number(frictionDegrees) + R"(}}]
  })";
  SceneDesc scene = parseScene(json, "sand_collapse.json");
  auto sim = createSimulation(scene, Backend::Cpu);

  CollapseResult r;
  r.particles = sim->particleCount();
  double peak = 0;
  const double maxTime = 2.0;
  while (sim->time() < maxTime) {
    sim->advanceFrame();
    double ke = sim->stats().kineticEnergy;
    peak = std::max(peak, ke);
    if (sim->time() > 0.2 && ke < 1e-3 * peak) {
      r.restTime = sim->time();
      break;
    }
  }

  HostParticles p;
  sim->copyParticles(p);
  const std::size_t n = p.size();
  // particles and top per cell-wide bin along x
  std::vector<int> count(cellsX + 1, 0);
  std::vector<double> top(cellsX + 1, 0.0);
  std::vector<double> xs(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = p.position[i].x;
    int b = std::clamp(int(xs[i] / dx), 0, cellsX);
    ++count[b];
    top[b] = std::max(top[b], double(p.position[i].y) + spacing / 2);
  }
  // one full layer of particles in a bin: (dx / spacing) along x times (dx / spacing) across the slab
  const int layer = 4;
  int end = 0;
  while (end <= cellsX && count[end] >= layer) ++end;
  double front = end * dx;
  std::sort(xs.begin(), xs.end());
  r.runOut = (front - L0) / L0;
  r.farthest = (xs.back() + spacing / 2 - L0) / L0;
  r.percentile = (xs[std::size_t(0.995 * double(n - 1))] + spacing / 2 - L0) / L0;
  double height = *std::max_element(top.begin(), top.begin() + std::max(end, 1));
  r.height = top[0] / L0;

  // least-squares slope of the surface where it lies between 20 % and 80 % of the deposit's height
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int m = 0;
  for (int b = 0; b < end; ++b) {
    if (top[b] < 0.2 * height || top[b] > 0.8 * height) continue;
    double x = (b + 0.5) * dx;
    sx += x, sy += top[b], sxx += x * x, sxy += x * top[b];
    ++m;
  }
  double slope = m >= 3 ? (m * sxy - sx * sy) / (m * sxx - sx * sx) : -1e30;
  r.slopeDegrees = std::atan(-slope) * 180 / kPi;
  return r;
}

// relative distance of value from the band [lo, hi] (0 inside)
double bandError(double value, double lo, double hi) {
  if (value < lo) return (lo - value) / lo;
  if (value > hi) return (value - hi) / hi;
  return 0;
}

void printRow(double a, int cells, const CollapseResult& r, double error) {
  std::printf(
      "  sand column collapse, phi = 30 deg, %lld particles, %d cells per L0\n"
      "      a   (L-L0)/L0 sim   [farthest  p99.5]   Lube 2005 1.2a  1.9a^(2/3)   error   H/L0   slope   at "
      "rest\n"
      "   %4.2f   %13.3f   [%8.3f  %5.3f]   %14.2f  %10.2f   %5.1f%%   %4.2f   %4.1f deg  %.2f s\n",
      r.particles, cells, a, r.runOut, r.farthest, r.percentile, 1.2 * a, 1.9 * std::pow(a, 2.0 / 3.0),
      100 * error, r.height, r.slopeDegrees, r.restTime);
}

// a = 1: the linear regime of Lube et al. 2005
TEST(MpmGranular, ColumnCollapseRunOutAspectRatio1) {
  const double a = 1.0;
  const int cells = 30;
  CollapseResult r = collapse(a, cells, 30, 2 + 1.5 * 1.2 * a);
  double law = 1.2 * a;
  double error = std::abs(r.runOut - law) / law;
  printRow(a, cells, r, error);
  EXPECT_GT(r.restTime, 0) << "the heap did not come to rest within 2 s";
  EXPECT_LE(error, 0.25);
  EXPECT_LT(r.slopeDegrees, 30 + 5);
  EXPECT_GT(r.slopeDegrees, 5);
}

// a = 2: Lube's transition between the two fits
TEST(MpmGranular, ColumnCollapseRunOutAspectRatio2) {
  const double a = 2.0;
  const int cells = 20;
  const double lo = 1.2 * a, hi = 1.9 * std::pow(a, 2.0 / 3.0);
  CollapseResult r = collapse(a, cells, 30, 2 + 1.5 * lo);
  double error = bandError(r.runOut, lo, hi);
  printRow(a, cells, r, error);
  EXPECT_GT(r.restTime, 0) << "the heap did not come to rest within 2 s";
  EXPECT_LE(error, 0.25);
  EXPECT_LT(r.slopeDegrees, 30 + 5);
  EXPECT_GT(r.slopeDegrees, 5);
}

// ---------------------------------------------------------------- the axisymmetric heap of the shipped scene

// scenes/mpm_sand_column.json as shipped (a column of radius r0 = 0.1 m and height 0.2 m, phi = 33 degrees,
// 6,320 particles at 8 per cell), run until the kinetic energy has fallen below 1e-3 of its peak (0.37 s).
//
// Started from the cubic lattice (the emitter's jitter 0), the heap is built of radial rods: the particles
// that stood above one another in the column's vertical lines of lattice points keep their common azimuth
// in the axisymmetric flow (plasticity moves every particle with the grid, and nothing in MPM pushes
// particles apart), and each line is squeezed to the heap's height while the hoop stretch opens gaps between
// neighbouring lines. In the heap at 1.5 s every close pair came from one vertical line (1,335 of the 1,335
// particles with a neighbour nearer than 0.25 spacing; their separation has no azimuthal component).
// Measured at rest (docs/validation.md has the table):
//   overlap: the share of particles with a neighbour nearer than 0.25 spacing. A random (Poisson)
//            arrangement of one particle per spacing^3 has 1 - exp(-4 pi / 3 0.25^3) = 6.3 % of its particles
//            that close; the lattice start gives 25.8 %, jitter 0.15 6.8 %, 0.3 3.4 % (seeds 2 and 3:
//            2.9 %), 0.5 3.0 % (the last lets neighbours start as close as 0);
//   rods:    the share of particles whose nearest neighbour lies in their own radial plane (azimuthal offset
//            under 0.05 spacing). Nearest neighbours about half a spacing away in random directions give
//            about 0.05 / 0.5 = 10 %; the lattice start gives 93.7 %, jitter 0.15 20.6 %, 0.3 12.6 %
//            (seeds 2 and 3: 11.3 %, 11.8 %), 0.5 9.5 %.
// Sand starts jittered by 0.3 spacing unless its scene gives "jitter" (EmitterDesc::kGranularJitter); the
// test fails on a lattice start on both counts.
//
// The heap's outline must not depend on the sampling: its run-out (r_inf - r0) / r0 (r_inf: the edge of
// the deposit at least one particle layer deep, in annuli one cell wide, so it moves in steps of 0.2) and
// its height H_inf / r0 on the axis (plus half a spacing) stay within 10 % of the lattice start's (1.20 and
// 0.93, which every jitter above and every seed reproduced), and its surface slope (21 degrees), fitted
// between 20 % and 80 % of its height, stays below phi + 5 degrees, as the two-dimensional collapses above
// are held to (a collapse deposit lies flatter than the angle of repose; Lube et al. 2005, Lajeunesse et al.
// 2005). The axisymmetric heap is not compared with an experiment (docs/validation.md says why).
struct HeapResult {
  double overlap = 0, rods = 0;
  double runOut = 0, height = 0, slopeDegrees = 0, restTime = 0;
  long long particles = 0;
};

HeapResult settleSandColumn(const std::vector<std::string>& overrides) {
  SceneDesc scene = test::sceneFile("scenes/mpm_sand_column.json", overrides);
  const ShapeDesc& column = scene.emitters.at(0).shape;
  const double cx = column.center.x, cz = column.center.z, r0 = column.radius;
  const double s = scene.fluid.spacing;
  const Vec3 extent = scene.domain.max - scene.domain.min;
  const double dx = std::max({extent.x, extent.y, extent.z}) / scene.mpm.gridResolution;
  auto sim = createSimulation(scene, Backend::Cpu);
  HeapResult r;
  r.particles = sim->particleCount();
  double peak = 0;
  while (sim->time() < 1.5) {
    sim->advanceFrame();
    double ke = sim->stats().kineticEnergy;
    peak = std::max(peak, ke);
    if (sim->time() > 0.2 && ke < 1e-3 * peak) {
      r.restTime = sim->time();
      break;
    }
  }
  HostParticles p;
  sim->copyParticles(p);
  const std::size_t n = p.size();

  // nearest neighbours by brute force (6,320 particles)
  int close = 0, inPlane = 0, withAzimuth = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double best = 1e30;
    std::size_t nearest = i;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      Vec3 d = p.position[j] - p.position[i];
      double d2 = double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z;
      if (d2 < best) best = d2, nearest = j;
    }
    if (std::sqrt(best) < 0.25 * s) ++close;
    const double rx = p.position[i].x - cx, rz = p.position[i].z - cz, radius = std::hypot(rx, rz);
    if (radius < s || nearest == i) continue;  // on the axis the azimuth is undefined
    ++withAzimuth;
    Vec3 d = p.position[nearest] - p.position[i];
    if (std::abs(double(d.z) * rx - double(d.x) * rz) / radius < 0.05 * s) ++inPlane;
  }
  r.overlap = double(close) / double(n);
  r.rods = double(inPlane) / double(std::max(withAzimuth, 1));

  // particles and top per annulus one cell wide around the axis
  const int bins = int(std::ceil(0.5 * std::max(extent.x, extent.z) / dx)) + 1;
  std::vector<int> count(bins, 0);
  std::vector<double> top(bins, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double radius = std::hypot(p.position[i].x - cx, p.position[i].z - cz);
    int b = std::min(int(radius / dx), bins - 1);
    ++count[b];
    top[b] = std::max(top[b], double(p.position[i].y) + s / 2);
  }
  // one full layer of particles over an annulus: its area over spacing^2
  int end = 0;
  while (end < bins && count[end] >= kPi * (2 * end + 1) * dx * dx / (s * s)) ++end;
  r.runOut = (end * dx - r0) / r0;
  r.height = top[0] / r0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int m = 0;
  for (int b = 0; b < end; ++b) {
    if (top[b] < 0.2 * top[0] || top[b] > 0.8 * top[0]) continue;
    double x = (b + 0.5) * dx;
    sx += x, sy += top[b], sxx += x * x, sxy += x * top[b];
    ++m;
  }
  double slope = m >= 3 ? (m * sxy - sx * sy) / (m * sxx - sx * sx) : -1e30;
  r.slopeDegrees = std::atan(-slope) * 180 / kPi;
  return r;
}

TEST(MpmGranular, SandColumnHeapHasNoLatticeRods) {
  HeapResult r = settleSandColumn({});
  std::printf(
      "  sand column heap (scenes/mpm_sand_column.json), %lld particles, at rest after %.2f s\n"
      "   overlap (nn < 0.25 spacing)   rods (nn in its radial plane)   (r-r0)/r0   H/r0    slope\n"
      "   %26.1f%%   %28.1f%%   %9.2f   %4.2f   %4.1f deg\n",
      r.particles, r.restTime, 100 * r.overlap, 100 * r.rods, r.runOut, r.height, r.slopeDegrees);
  EXPECT_GT(r.restTime, 0) << "the heap did not come to rest within 1.5 s";
  EXPECT_LT(r.overlap, 0.063) << "more close pairs than a random arrangement has";
  EXPECT_LT(r.rods, 0.2) << "nearest neighbours line up in radial planes";
  EXPECT_NEAR(r.runOut, 1.20, 0.12);
  EXPECT_NEAR(r.height, 0.93, 0.093);
  EXPECT_LT(r.slopeDegrees, 33 + 5);
  EXPECT_GT(r.slopeDegrees, 5);
}

}  // namespace
}  // namespace eddy
