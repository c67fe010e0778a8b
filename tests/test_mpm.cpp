// The MLS-MPM solver (Hu et al. 2018): conservation of the transfers, water at rest, an elastic body in
// free fall, nozzles, and the scene plumbing. The dam break against Martin & Moyce is in
// test_martin_moyce.cpp, determinism in test_determinism.cpp, bad input through the CLI in test_cli.cpp.
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "emitters/volume_emitter.h"
#include "mpm_harness.h"
#include "solvers/mpm/moving_least_squares_mpm.h"
#include "solvers/mpm/particle_to_grid.h"
#include "test_support.h"

namespace eddy {
namespace {

using cpu::Index;
using cpu::MovingLeastSquaresMpm;
using cpu::StepContext;
using test::MpmHarness;

struct Sums {
  double mass = 0;
  double p[3] = {0, 0, 0};
};

Sums particleSums(MpmHarness& h) {
  Sums s;
  for (Index i = 0; i < h.size(); ++i) {
    double m = h.mass(i);
    s.mass += m;
    s.p[0] += m * h.v()[i].x;
    s.p[1] += m * h.v()[i].y;
    s.p[2] += m * h.v()[i].z;
  }
  return s;
}

Sums gridSums(MpmHarness& h) {
  Sums s;
  View<Vec4> nodes = h.solver.grid().nodes();
  for (std::size_t i = 0; i < nodes.size; ++i) {
    double m = nodes[i].w;
    s.mass += m;
    s.p[0] += m * nodes[i].x;
    s.p[1] += m * nodes[i].y;
    s.p[2] += m * nodes[i].z;
  }
  return s;
}

double momentumDifference(const Sums& a, const Sums& b) {
  double d =
      std::sqrt(std::pow(a.p[0] - b.p[0], 2) + std::pow(a.p[1] - b.p[1], 2) + std::pow(a.p[2] - b.p[2], 2));
  double n = std::sqrt(a.p[0] * a.p[0] + a.p[1] * a.p[1] + a.p[2] * a.p[2]);
  return d / n;
}

// a jittered block of water in the middle of a unit box, no gravity: no particle comes near a wall
const char* kTransferScene = R"({
  "solver": "mpm",
  "mpm": {"grid_resolution": 16},
  "fluid": {"spacing": 0.03125},
  "domain": {"min": [0, 0, 0], "max": [1, 1, 1]},
  "forces": {"gravity": [0, 0, 0]},
  "emitters": [{"type": "volume", "shape": {"type": "box", "center": [0.5, 0.5, 0.5],
                "half_extents": [0.2, 0.15, 0.18]}, "jitter": 0.4, "seed": 7}]
})";

// P2G and G2P with random velocities, affine matrices and volume ratios (so the stress term is not zero)
void expectConservingTransfer(const std::string& transfer) {
  SceneDesc scene = parseScene(kTransferScene, "transfer.json", {"mpm.transfer=" + transfer});
  MpmHarness h(scene);
  ASSERT_GT(h.size(), 1000);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1, 1);
  for (Index i = 0; i < h.size(); ++i) {
    h.v()[i] = Vec3{1.0f, -0.5f, 0.25f} + Vec3{u(rng), u(rng), u(rng)} * 0.5f;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) h.affine()[i].m[r][c] = 2 * u(rng);
    h.j()[i] = 1 + 0.05f * u(rng);
  }
  const Real dt = 1e-4f;
  StepContext ctx = h.context();
  h.solver.bin(ctx);  // sorts: particle sums after it
  Sums before = particleSums(h);
  h.solver.pack(ctx, dt);
  h.solver.particleToGrid(ctx, dt);
  Sums grid = gridSums(h);
  h.solver.gridToParticle(ctx, dt);
  Sums after = particleSums(h);
  double massError = std::abs(grid.mass - before.mass) / before.mass;
  double p2g = momentumDifference(before, grid), g2p = momentumDifference(before, after);
  std::printf("  %-4s %d particles: grid mass error %.2e, momentum error P2G %.2e, P2G->G2P %.2e\n",
              transfer.c_str(), int(h.size()), massError, p2g, g2p);
  EXPECT_LE(massError, 1e-5);
  EXPECT_LE(p2g, 1e-4);
  EXPECT_LE(g2p, 1e-4);
  // no particle touched a wall
  EXPECT_EQ(h.solver.heldInCount(), 0);
}

TEST(MpmTransfer, ApicConservesMassAndMomentum) { expectConservingTransfer("apic"); }
TEST(MpmTransfer, PicConservesMassAndMomentum) { expectConservingTransfer("pic"); }
TEST(MpmTransfer, FlipConservesMassAndMomentum) { expectConservingTransfer("flip"); }

// The transfer by node (small grids) and by tile (large ones) sum the same terms in different orders: every
// node's mass and velocity agree to round-off. About 30 particles a cell, so that a slab of a tile holds more
// particles than its shared scratch and is taken in parts.
TEST(MpmTransfer, GatherByTileMatchesGatherByNode) {
  SceneDesc scene = parseScene(kTransferScene, "transfer.json", {"fluid.spacing=0.02"});
  MpmHarness h(scene);
  ASSERT_GT(h.size(), 5000);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1, 1);
  for (Index i = 0; i < h.size(); ++i) {
    h.v()[i] = Vec3{u(rng), u(rng), u(rng)};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) h.affine()[i].m[r][c] = 2 * u(rng);
    h.j()[i] = 1 + 0.05f * u(rng);
  }
  const Real dt = 1e-4f;
  StepContext ctx = h.context();
  h.solver.bin(ctx);
  h.solver.pack(ctx, dt);
  const cpu::MpmGrid& grid = h.solver.grid();
  const auto* in = h.particles.array<cpu::MpmPacked>(cpu::attr_mpm::kPacked).data;
  std::vector<Vec4> byNode(std::size_t(grid.nodeCount())), byTile(byNode.size());
  cpu::GridUpdate update;
  update.forces = scene.forces;
  update.colliders = h.colliders.data();
  update.colliderCount = int(h.colliders.size());
  update.dt = dt;
  update.tolerance = 1e-3f * grid.view().dx;
  update.nodes = byNode.data();
  cpu::gatherByNode(grid, in, update);
  update.nodes = byTile.data();
  cpu::gatherByTile(grid, in, update);
  double mass = 0, largestMass = 0, largestVelocity = 0;
  int reached = 0;
  for (std::size_t k = 0; k < byNode.size(); ++k) {
    mass += byNode[k].w;
    reached += byNode[k].w > 0;
    largestMass = std::max(largestMass, double(std::abs(byTile[k].w - byNode[k].w)) / byNode[k].w);
    if (byNode[k].w == 0) {
      EXPECT_EQ(byTile[k].w, 0) << "node " << k;
      continue;
    }
    Vec3 d = xyz(byTile[k]) - xyz(byNode[k]);
    largestVelocity =
        std::max(largestVelocity, double(length(d)) / std::max(1.0, double(length(xyz(byNode[k])))));
  }
  std::printf("  %d nodes reached: largest difference mass %.2e, velocity %.2e\n", reached, largestMass,
              largestVelocity);
  EXPECT_GT(reached, 500);
  EXPECT_NEAR(mass, double(h.size()) * h.mass(0), 1e-4 * mass);
  EXPECT_LE(largestMass, 1e-5);
  EXPECT_LE(largestVelocity, 1e-5);
}

// the weights of one particle sum to one and reproduce linear functions
TEST(MpmTransfer, BsplineWeightsPartitionUnityAndReproduceLinear) {
  for (Real fx = 0.5f; fx < 1.5f; fx += 0.0625f) {
    double sum = 0, first = 0, second = 0;
    for (int a = 0; a < 3; ++a) {
      double w = bsplineWeight(fx, a);
      EXPECT_GE(w, 0);
      sum += w;
      first += w * (a - fx);
      second += w * (a - fx) * (a - fx);
    }
    EXPECT_NEAR(sum, 1, 1e-6) << fx;
    EXPECT_NEAR(first, 0, 1e-6) << fx;
    EXPECT_NEAR(second, 0.25, 1e-6) << fx;  // D = dx^2 / 4: the 4 / dx^2 of the transfers
  }
}

// ---------------------------------------------------------------- water at rest

const char* kRestScene = R"({
  "name": "mpm rest in a box",
  "solver": "mpm",
  "mpm": {"grid_resolution": 12},
  "fluid": {"rest_density": 1000, "spacing": 0.02},
  "domain": {"min": [0, 0, 0], "max": [0.32, 0.48, 0.32]},
  "time": {"fps": 60, "substeps": 1},
  "emitters": [{"type": "volume", "shape": {"type": "box", "center": [0.16, 0.12, 0.16],
                "half_extents": [0.16, 0.12, 0.16]}}]
})";

TEST(MpmWater, RestInABoxKeepsVolume) {
  SceneDesc scene = parseScene(kRestScene, "rest.json");
  auto sim = createSimulation(scene, Backend::Cpu);
  const int frames = 60;
  double energyEarly = 0;
  std::int64_t held = 0;
  for (int f = 0; f < frames; ++f) {
    sim->advanceFrame();
    FrameStats s = sim->stats();
    held += s.heldIn;
    if (f == frames / 3) energyEarly = s.kineticEnergy;
  }
  FrameStats last = sim->stats();
  HostParticles p;
  sim->copyParticles(p);
  double sumJ = 0, sumCompression = 0;
  int outside = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    sumJ += std::abs(scene.fluid.restDensity / p.density[i] - 1);
    sumCompression += p.density[i] / scene.fluid.restDensity - 1;
    const Vec3& x = p.position[i];
    bool inside = x.x >= 0 && x.x <= 0.32f && x.y >= 0 && x.y <= 0.48f && x.z >= 0 && x.z <= 0.32f;
    outside += inside ? 0 : 1;
  }
  double meanJ = sumJ / double(p.size());
  std::printf(
      "  mpm water at rest: %zu particles, %lld substeps: mean |J - 1| %.3f%%, max density error %.3f%%, KE "
      "%.3e J (at 1/3: %.3e), held in %lld times\n",
      p.size(), (long long)last.substeps, 100 * meanJ, 100 * last.maxDensityError, last.kineticEnergy,
      energyEarly, (long long)held);
  // compressed by its own weight: rho/rho0 - 1 = rho0 g d / K at depth d, g H / 2 on average over the
  // column (the signed mean: the particles' noise about it averages out)
  double predicted = scene.fluid.restDensity * 9.81 * 0.24 / (2 * scene.mpm.bulkModulus);
  double compression = sumCompression / double(p.size());
  std::printf("  mean rho/rho0 - 1: %.4f%%, hydrostatic %.4f%%\n", 100 * compression, 100 * predicted);
  EXPECT_NEAR(compression, predicted, 0.3 * predicted);
  EXPECT_LE(meanJ, 2 * predicted);
  EXPECT_EQ(outside, 0);
  EXPECT_LT(last.kineticEnergy, energyEarly);
  // the column stays a column: its top is where the water started
  EXPECT_NEAR(last.boundsMax.y, 0.24, 0.02);
}

// a viscous dam break loses its kinetic energy to viscosity (the inviscid one only to the transfers)
TEST(MpmWater, ViscosityDampsTheFlow) {
  auto energyAfter = [](const std::string& viscosity) {
    SceneDesc scene =
        test::sceneFile("scenes/mpm_dam_break.json",
                        {"fluid.spacing=0.04", "mpm.grid_resolution=20", "mpm.viscosity=" + viscosity});
    auto sim = createSimulation(scene, Backend::Cpu);
    for (int f = 0; f < 15; ++f) sim->advanceFrame();
    return sim->stats().kineticEnergy;
  };
  double inviscid = energyAfter("0"), viscous = energyAfter("50");
  std::printf("  dam break after 0.25 s: kinetic energy %.2f J inviscid, %.2f J at 50 Pa s\n", inviscid,
              viscous);
  EXPECT_GT(inviscid, 0);
  EXPECT_LT(viscous, 0.8 * inviscid);
}

// ---------------------------------------------------------------- colliders

// a block falling on a sphere inside a box tank (both scene colliders): the grid nodes in the ball take
// its velocity and the particles that end up inside are pushed out
TEST(MpmColliders, WaterFlowsAroundASphereInATank) {
  SceneDesc scene = test::sceneFile("scenes/sphere_obstacle.json",
                                    {"solver=mpm", "fluid.spacing=0.04", "mpm.grid_resolution=14"});
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 30; ++f) sim->advanceFrame();
  HostParticles p;
  sim->copyParticles(p);
  ColliderData tank = makeColliderData(scene.colliders[0]), ball = makeColliderData(scene.colliders[1]);
  double deepest = 0, outside = 0;
  for (const Vec3& x : p.position) {
    deepest = std::min<double>(deepest, signedDistance(ball, x, Real(sim->time()), nullptr));
    outside = std::min<double>(outside, signedDistance(tank, x, Real(sim->time()), nullptr));
  }
  FrameStats s = sim->stats();
  std::printf(
      "  sphere obstacle: %lld particles after %.2f s, deepest inside the ball %.2e m, beyond the tank "
      "%.2e m, lowest particle y = %.3f\n",
      (long long)s.particles, sim->time(), -deepest, -outside, s.boundsMin.y);
  EXPECT_GE(deepest, -1e-5);
  EXPECT_GE(outside, -1e-5);
  // the water has fallen past the ball to the tank floor
  EXPECT_LT(s.boundsMin.y, 0.05);
}

// ---------------------------------------------------------------- an elastic body

const char* kFallingCubeScene = R"({
  "solver": "mpm",
  "mpm": {"grid_resolution": 25},
  "fluid": {"spacing": 0.02},
  "domain": {"min": [0, 0, 0], "max": [0.6, 1.0, 0.6]},
  "emitters": [{"type": "volume", "shape": {"type": "box", "center": [0.3, 0.75, 0.3],
                "half_extents": [0.1, 0.1, 0.1]}, "angular_velocity": [0, 0, 3],
                "material": {"type": "elastic", "youngs_modulus": 2e5, "poisson_ratio": 0.3}}]
})";

// A spinning elastic cube in free fall stays a rigid body: F stays a rotation (F = R S with S = I), the
// centre of mass follows the parabola and the spin is kept.
TEST(MpmElastic, SpinningCubeInFreeFallKeepsItsShape) {
  SceneDesc scene = parseScene(kFallingCubeScene, "cube.json");
  MpmHarness h(scene);
  const double g = 9.81, fallTime = 0.3;
  double y0 = 0;
  for (Index i = 0; i < h.size(); ++i) y0 += h.x()[i].y;
  y0 /= h.size();
  double worst = 0, sumLast = 0;
  int steps = 0;
  while (h.time < fallTime) {
    Real dt = std::min<Real>(h.stableDt(), Real(fallTime - h.time) + 1e-7f);
    h.step(dt);
    ++steps;
    double sum = 0;
    for (Index i = 0; i < h.size(); ++i) {
      const Mat3& f = h.deformation()[i];
      double r = std::sqrt(double(frobeniusNormSquared(f - polarRotation(f))) / frobeniusNormSquared(f));
      worst = std::max(worst, r);
      sum += r;
    }
    sumLast = sum / h.size();
  }
  // centre of mass and angular velocity about it (the z spin from the emitter)
  Vec3 c{};
  for (Index i = 0; i < h.size(); ++i) c += h.x()[i];
  c = c / Real(h.size());
  double lz = 0, iz = 0;
  for (Index i = 0; i < h.size(); ++i) {
    Vec3 r = h.x()[i] - c;
    lz += r.x * h.v()[i].y - r.y * h.v()[i].x;
    iz += r.x * r.x + r.y * r.y;
  }
  double fallen = y0 - c.y, expected = 0.5 * g * h.time * h.time;
  double spin = lz / iz;
  std::printf(
      "  elastic cube, %d particles, %d substeps over %.2f s: max |F - R|/|F| %.3f%% (mean at the end "
      "%.4f%%), fall %.4f m (free fall %.4f m), spin %.3f rad/s (started at 3)\n",
      int(h.size()), steps, h.time, 100 * worst, 100 * sumLast, fallen, expected, spin);
  EXPECT_LE(worst, 0.01);
  EXPECT_NEAR(fallen, expected, 0.01 * expected);
  EXPECT_NEAR(spin, 3.0, 0.1);
}

// ---------------------------------------------------------------- nozzles, materials, output

// particles added in the step loop start at rest volume (J = 1, F = I)
TEST(MpmWater, NozzleParticlesStartAtRestVolume) {
  SceneDesc scene = parseScene(R"({
    "solver": "mpm",
    "mpm": {"grid_resolution": 16},
    "fluid": {"spacing": 0.025},
    "domain": {"min": [0, 0, 0], "max": [0.4, 0.4, 0.4]},
    "time": {"fps": 60},
    "emitters": [{"type": "nozzle", "position": [0.2, 0.3, 0.2], "direction": [0, -1, 0], "radius": 0.05,
                  "speed": 1, "max_particles": 400}]
  })",
                               "nozzle.json");
  auto sim = createSimulation(scene, Backend::Cpu);
  std::int64_t seen = 0;
  for (int f = 0; f < 10; ++f) {
    sim->advanceFrame();
    FrameStats s = sim->stats();
    EXPECT_GE(s.particles, seen);
    seen = s.particles;
    // fresh particles would be far off if their J started at 0 (density infinite) or stayed unset
    EXPECT_LT(s.maxDensityError, 0.05) << "frame " << f;
  }
  EXPECT_GT(seen, 50);
}

TEST(MpmEmitters, EmittersMapToTheirMaterials) {
  SceneDesc scene = parseScene(R"({
    "solver": "mpm",
    "mpm": {"bulk_modulus": 2e5, "equation_of_state": "tait", "gamma": 4, "viscosity": 0.5},
    "fluid": {"rest_density": 998},
    "emitters": [{"shape": {"type": "box", "center": [0, 0.5, 0], "half_extents": [0.1, 0.1, 0.1]}},
                 {"shape": {"type": "box", "center": [0.5, 0.5, 0], "half_extents": [0.1, 0.1, 0.1]},
                  "material": {"type": "sand", "density": 1600, "youngs_modulus": 3.5e5, "poisson_ratio": 0.3,
                               "friction_angle": 35}},
                 {"shape": {"type": "box", "center": [-0.5, 0.5, 0], "half_extents": [0.1, 0.1, 0.1]},
                  "material": {"type": "snow", "density": 400, "youngs_modulus": 1.4e5}}]
  })",
                               "materials.json");
  MpmMaterial water = cpu::mpmMaterialFor(scene, scene.emitters[0].material);
  EXPECT_EQ(water.type, MpmMaterialType::Water);
  EXPECT_EQ(water.density, 998.0f);
  EXPECT_EQ(water.bulkModulus, 2e5f);
  EXPECT_TRUE(water.tait);
  EXPECT_EQ(water.gamma, 4.0f);
  EXPECT_EQ(water.viscosity, 0.5f);
  MpmMaterial sand = cpu::mpmMaterialFor(scene, scene.emitters[1].material);
  EXPECT_EQ(sand.type, MpmMaterialType::Sand);
  EXPECT_EQ(sand.density, 1600.0f);
  EXPECT_NEAR(sand.mu, 3.5e5 / 2.6, 1);
  EXPECT_GT(sand.frictionAlpha, 0);
  MpmMaterial snow = cpu::mpmMaterialFor(scene, scene.emitters[2].material);
  EXPECT_EQ(snow.type, MpmMaterialType::Snow);
  EXPECT_EQ(snow.criticalCompression, 2.5e-2f);
  EXPECT_EQ(snow.criticalStretch, 7.5e-3f);
  EXPECT_EQ(snow.hardening, 10.0f);
  // three materials in one run: densities follow each material
  auto sim = createSimulation(scene, Backend::Cpu);
  sim->advanceFrame();
  HostParticles p;
  sim->stats();
  sim->copyParticles(p);
  double lo = 1e30, hi = 0;
  for (float d : p.density) lo = std::min<double>(lo, d), hi = std::max<double>(hi, d);
  EXPECT_NEAR(lo, 400, 40);
  EXPECT_NEAR(hi, 1600, 160);
}

// Sand and snow keep their start's lattice through their plastic flow (a sand column on the cubic lattice
// settles into radial rods of particles: MpmGranular.SandColumnHeapHasNoLatticeRods), so a volume emitter
// of either starts jittered by EmitterDesc::kGranularJitter unless the scene gives "jitter", 0 included. The
// reader fills the value in, so the written scene (scene.json) shows it and reads back the same.
TEST(MpmEmitters, GranularMaterialsStartJitteredUnlessTheSceneSetsJitter) {
  auto emitter = [](const std::string& extra) {
    return R"({"shape": {"type": "box", "center": [0.5, 0.5, 0.5], "half_extents": [0.1, 0.1, 0.1]})" +
           extra + "}";
  };
  SceneDesc scene =
      parseScene(R"({"solver": "mpm", "emitters": [)" + emitter(R"(, "material": {"type": "sand"})") + ", " +
                     emitter(R"(, "material": {"type": "snow"})") + ", " +
                     emitter(R"(, "material": {"type": "elastic"})") + ", " + emitter("") + ", " +
                     emitter(R"(, "jitter": 0, "material": {"type": "sand"})") + ", " +
                     emitter(R"(, "jitter": 0.1, "material": {"type": "snow"})") + ", " +
                     R"({"type": "nozzle", "position": [0.5, 0.5, 0.5], "material": {"type": "sand"}}]})",
                 "jitter.json");
  const std::vector<Real> expected = {
      EmitterDesc::kGranularJitter, EmitterDesc::kGranularJitter, 0, 0, 0, 0.1f, 0};
  ASSERT_EQ(scene.emitters.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(scene.emitters[i].jitter, expected[i]) << i;
  EXPECT_EQ(EmitterDesc::kGranularJitter, 0.3f);

  // written out with the value filled in, and read back the same
  const nlohmann::json written = nlohmann::json::parse(sceneToJson(scene));
  EXPECT_EQ(written["emitters"][0]["jitter"], 0.3);
  EXPECT_EQ(written["emitters"][4]["jitter"], 0);
  SceneDesc again = parseScene(sceneToJson(scene), "scene.json");
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(again.emitters[i].jitter, expected[i]) << i;

  // the shipped sand column gives no jitter; --set can ask for the lattice, or make the sand water
  EXPECT_EQ(test::sceneFile("scenes/mpm_sand_column.json").emitters[0].jitter, EmitterDesc::kGranularJitter);
  EXPECT_EQ(test::sceneFile("scenes/mpm_sand_column.json", {"emitters.0.jitter=0"}).emitters[0].jitter, 0);
  EXPECT_EQ(
      test::sceneFile("scenes/mpm_sand_column.json", {"emitters.0.material.type=water"}).emitters[0].jitter,
      0);
}

TEST(MpmScenes, DamBreakSceneRuns) {
  SceneDesc scene =
      test::sceneFile("scenes/mpm_dam_break.json", {"fluid.spacing=0.04", "mpm.grid_resolution=20"});
  EXPECT_EQ(scene.solver, "mpm");
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 10; ++f) sim->advanceFrame();
  FrameStats s = sim->stats();
  // the column has started to collapse along +x and nothing left the tank
  EXPECT_GT(s.boundsMax.x, 0.45);
  EXPECT_GT(s.kineticEnergy, 0);
  EXPECT_GE(s.boundsMin.x, 0);
  EXPECT_LE(s.boundsMax.x, 1.6f);
  EXPECT_GE(s.boundsMin.y, 0);
}

}  // namespace
}  // namespace eddy

namespace eddy {
namespace {

// The blocks the grid marks after a sort hold every node a particle reaches (so the transfer's skip of
// the others changes nothing), and a few particles mark only the blocks around them.
TEST(MpmGridBlocks, MarkEveryReachedNodeAndLittleElse) {
  SceneDesc scene = loadScene("", {"solver=mpm", "mpm.grid_resolution=64"});
  cpu::MpmGrid grid;
  grid.setup(scene, 64, false);
  cpu::ParticleSet particles;
  particles.addAttribute(cpu::attr::kPosition, 3);
  particles.addAttribute(cpu::attr::kVelocity, 3);
  particles.reserve(64);
  // a small cluster near one corner, one stray particle, one on a block boundary
  std::vector<Vec3> x, v;
  for (int i = 0; i < 40; ++i)
    x.push_back(scene.domain.min +
                Vec3{0.05f + 0.01f * (i % 4), 0.05f + 0.01f * (i / 4 % 4), 0.05f + 0.01f * (i / 16)});
  x.push_back(scene.domain.min + (scene.domain.max - scene.domain.min) * 0.6f);
  const cpu::MpmGridView g = grid.view();
  x.push_back(g.nodePosition(16, 20, 8) + Vec3{0.5f, 0.5f, 0.5f} * g.dx);
  v.assign(x.size(), Vec3{});
  particles.append(x, v);
  cpu::Primitives prims;
  grid.bin(particles, prims, true);
  const cpu::MpmBlocks blocks = grid.blocks();
  // brute force: the nodes each particle's stencil covers
  std::vector<char> reached(std::size_t(g.count()), 0);
  for (Vec3 p : x) {
    int bx, by, bz;
    Vec3 fx;
    g.locate(p, bx, by, bz, fx);
    for (int c = 0; c < 3; ++c)
      for (int b = 0; b < 3; ++b)
        for (int a = 0; a < 3; ++a) reached[std::size_t(g.linear(bx + a, by + b, bz + c))] = 1;
  }
  std::size_t marked = 0, nodesReached = 0, markedBlocks = 0;
  for (int z = 0; z < g.nz; ++z)
    for (int y = 0; y < g.ny; ++y)
      for (int x0 = 0; x0 < g.nx; ++x0) {
        bool r = reached[std::size_t(g.linear(x0, y, z))] != 0;
        nodesReached += r;
        marked += blocks.reaches(x0, y, z);
        if (r) EXPECT_TRUE(blocks.reaches(x0, y, z)) << "node " << x0 << " " << y << " " << z;
      }
  const std::size_t blockCount = std::size_t(blocks.nx) * blocks.ny * ((g.nz + 3) / 4);
  for (std::size_t k = 0; k < blockCount; ++k) markedBlocks += blocks.reached[k] != 0;
  std::printf("  %zu particles reach %zu of %lld nodes; %zu of %zu blocks marked (%zu nodes)\n", x.size(),
              nodesReached, (long long)g.count(), markedBlocks, blockCount, marked);
  // each particle's 27 nodes span at most 2 blocks per axis: 8 blocks a particle at most
  EXPECT_GT(nodesReached, 27u);
  EXPECT_LE(markedBlocks, 8u * 3u);
}

}  // namespace
}  // namespace eddy
