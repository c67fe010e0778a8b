// Rigid bodies in water: flat boxes lighter than water float near the draft Archimedes gives, carried by the
// fluid's lift, under WCSPH, PBF and MPM; a PBF tank's floor carries the water's weight; a body starting
// immersed and a body ten times lighter than water stay stable; a run with bodies repeats and resumes to the
// bit; and the scene keys that cannot make a body are refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "floating_shapes.h"
#include "test_support.h"

namespace eddy {
namespace {

using test::expectInputError;

constexpr double kHalfHeight = 0.04;  // the boxes of scenes/floating_boxes.json: 0.08 m high

struct Drafts {
  double surface = 0;  // the gauges' mean elevation
  std::vector<double> draft;
  std::vector<double> speed;  // the largest over the averaged frames
  std::vector<double> lift;   // the fluid's upward force on the body (Simulation::fluidLoad), averaged
};

// the drafts of the scene's bodies (every collider), averaged over the last `average` of `frames` frames
Drafts settle(const SceneDesc& scene, int frames, int average) {
  auto sim = createSimulation(scene, Backend::Cpu);
  const std::size_t bodies = scene.colliders.size();
  Drafts d;
  d.draft.assign(bodies, 0);
  d.speed.assign(bodies, 0);
  d.lift.assign(bodies, 0);
  int samples = 0;
  std::vector<std::vector<double>> rows;
  for (int f = 0; f < frames; ++f) {
    sim->advanceFrame();
    sim->takeProbeRows(rows);
    if (f < frames - average) continue;
    for (const auto& row : rows) {
      double sum = 0;
      for (std::size_t k = 1; k < row.size(); ++k) sum += row[k];
      d.surface += sum / double(row.size() - 1);
      ++samples;
    }
    for (std::size_t b = 0; b < bodies; ++b) {
      ColliderPose pose = sim->colliderPose(b);
      EXPECT_TRUE(std::isfinite(pose.center.y));
      d.draft[b] += pose.center.y - kHalfHeight;  // the bottom, summed; the draft below
      d.speed[b] = std::max(d.speed[b], double(length(pose.linearVelocity)));
      d.lift[b] += sim->fluidLoad(b).force.y / average;
    }
  }
  d.surface /= samples;
  for (double& x : d.draft) x = d.surface - x / average;
  return d;
}

// Archimedes: a body of density rho_b floats with rho_b / rho_f of its height under water. At 0.02 m (the
// boxes 4 spacings high) the three settle 3.6-3.9 mm above it (the gauge, which the drafts are taken from,
// reads 1.6 mm low of them); a body the water did not push would lie on the floor (drafts of 0.12 m), and
// one it pushed twice as hard would float at half the drafts
TEST(RigidBodies, FlatBoxesFloatNearTheDraftArchimedesGives) {
  SceneDesc scene = test::sceneFile("scenes/floating_boxes.json", {"fluid.spacing=0.02"});
  Drafts d = settle(scene, 125, 25);
  std::printf("  surface %.4f m\n", d.surface);
  for (std::size_t b = 0; b < 3; ++b) {
    double expected = 2 * kHalfHeight * scene.colliders[b].density / 1000;
    std::printf("  density %.0f: draft %.4f m, Archimedes %.4f m (%+.1f %% of the height), speed %.3f m/s\n",
                double(scene.colliders[b].density), d.draft[b], expected,
                100 * (d.draft[b] - expected) / (2 * kHalfHeight), d.speed[b]);
    EXPECT_NEAR(d.draft[b], expected - 0.0037, 0.001) << "density " << scene.colliders[b].density;
    EXPECT_LT(d.speed[b], 0.03) << "density " << scene.colliders[b].density << " has not settled";
    // at rest the fluid carries the body's weight: what bodies.csv reports as its push
    const double weight = scene.colliders[b].density * 0.14 * 0.08 * 0.14 * 9.81;
    std::printf("  density %.0f: fluid's lift %.3f N, weight %.3f N\n", double(scene.colliders[b].density),
                d.lift[b], weight);
    EXPECT_NEAR(d.lift[b], weight, 0.01 * weight) << "density " << scene.colliders[b].density;
  }
  EXPECT_LT(d.draft[0], d.draft[1]);
  EXPECT_LT(d.draft[1], d.draft[2]);
}

// PBF pushes a body with the reaction of what the body does to the particles' positions: its share of
// their density corrections and the contacts that move them out of it. Counting the corrections alone,
// the light box floated at twice its draft (0.039 m); not pushed at all, the boxes would lie on the floor
TEST(RigidBodies, PbfFloatsBoxesNearTheDraftArchimedesGives) {
  SceneDesc scene = test::sceneFile("scenes/floating_boxes.json", {"fluid.spacing=0.02", "solver=pbf"});
  Drafts d = settle(scene, 125, 25);
  std::printf("  surface %.4f m\n", d.surface);
  for (std::size_t b = 0; b < 3; ++b) {
    double expected = 2 * kHalfHeight * scene.colliders[b].density / 1000;
    std::printf("  density %.0f: draft %.4f m, Archimedes %.4f m (%+.1f %% of the height)\n",
                double(scene.colliders[b].density), d.draft[b], expected,
                100 * (d.draft[b] - expected) / (2 * kHalfHeight));
    EXPECT_NEAR(d.draft[b], expected, 0.009) << "density " << scene.colliders[b].density;
  }
  EXPECT_LT(d.draft[0], d.draft[1]);
  EXPECT_LT(d.draft[1], d.draft[2]);
}

// a cube sinking straight down the middle of a tank is pushed sideways by nothing but round-off: under PBF a
// push that alternated every substep grew to 0.16 N RMS (the cube weighs 0.17 N) until the body moved with
// the mean of two substeps' sums (0.0065 N)
TEST(RigidBodies, PbfPushesASinkingCubeWithoutASidewaysRattle) {
  SceneDesc scene = test::sceneFile("scenes/validation/sinking_cube.json",
                                    {"solver=pbf", "time.fps=400", "time.substeps=1"});
  auto sim = createSimulation(scene, Backend::Cpu);
  const double weight = 2120 * 0.02 * 0.02 * 0.02 * 9.81;
  double sideways = 0, up = 0;
  int samples = 0;
  for (int f = 0; f < 80; ++f) {
    sim->advanceFrame();  // one substep a frame
    if (f < 40) continue;
    Vec3 force = sim->fluidLoad(0).force;
    sideways += double(force.x) * force.x + double(force.z) * force.z;
    up += force.y;
    ++samples;
  }
  sideways = std::sqrt(sideways / samples);
  up /= samples;
  std::printf("  sideways %.4f N RMS, upward %.4f N, weight %.4f N\n", sideways, up, weight);
  EXPECT_LT(sideways, 0.1 * weight);
  EXPECT_GT(up, 0.9 * weight);  // the water still carries it: it sinks at about its terminal speed
}

// the floor of a PBF tank at rest carries the water's weight (forces.csv): PBF had no wall forces before
TEST(RigidBodies, APbfTankFloorCarriesTheWatersWeight) {
  SceneDesc scene = test::sceneFile("scenes/validation/tank_at_rest.json", {"solver=pbf"});
  scene.probes.clear();
  auto sim = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 40; ++f) sim->advanceFrame();
  std::vector<std::string> columns = sim->forceColumns();
  std::vector<double> forces = sim->colliderForces();
  ASSERT_EQ(columns.size(), 6u);
  ASSERT_EQ(columns[1], "domain.fy");
  const double weight = 0.3 * 0.24 * 0.3 * 1000 * 9.81;
  std::printf("  floor %.2f N, water's weight %.2f N\n", -forces[1], weight);
  EXPECT_NEAR(-forces[1], weight, 0.03 * weight);
  EXPECT_LT(std::abs(forces[0]), 0.01 * weight);
  EXPECT_LT(std::abs(forces[2]), 0.01 * weight);
}

// MPM pushes a body with the reaction of the momentum its boundary condition gives the grid nodes: a box
// of half the water's density, on a grid of 0.02 m cells (8 particles a cell), floats half immersed,
// measured from the surface the particles away from it have; not pushed, it would lie on the floor
TEST(RigidBodies, MpmFloatsABoxAtTheDraftArchimedesGives) {
  SceneDesc scene = test::sceneFile("scenes/floating_boxes.json", {"fluid.spacing=0.01"});
  scene.solver = "mpm";
  scene.mpm.gridResolution = 20;  // dx = 0.02 m over the 0.4 m height
  scene.mpm.bulkModulus = 2e5f;   // a sound speed of 14 m/s, ten times the fastest flow
  scene.domain.max = {0.3f, 0.4f, 0.3f};
  scene.emitters[0].shape.center = {0.15f, 0.08f, 0.15f};
  scene.emitters[0].shape.halfExtents = {0.15f, 0.08f, 0.15f};
  scene.colliders.resize(2);
  scene.colliders.erase(scene.colliders.begin());  // the box of density 500
  scene.colliders[0].shape.center = {0.15f, 0.21f, 0.15f};
  scene.probes.clear();
  scene.time.substeps = 1;
  auto sim = createSimulation(scene, Backend::Cpu);
  double bottom = 0, lift = 0;
  const int frames = 50, average = 10;
  for (int f = 0; f < frames; ++f) {
    sim->advanceFrame();
    if (f < frames - average) continue;
    ColliderPose pose = sim->colliderPose(0);
    ASSERT_TRUE(std::isfinite(pose.center.y));
    bottom += (pose.center.y - kHalfHeight) / average;
    lift += sim->fluidLoad(0).force.y / average;
  }
  // the surface: the median of the highest particles of the 0.01 m columns at least 3 cm clear of the box,
  // half a spacing above its centre (MPM's surface at one cell a spacing is rough: 0.145-0.176 m)
  HostParticles p;
  sim->copyParticles(p);
  std::map<std::pair<int, int>, double> tops;
  for (std::size_t i = 0; i < p.position.size(); ++i) {
    Vec3 x = p.position[i];
    if (std::abs(x.x - 0.15) < 0.1 && std::abs(x.z - 0.15) < 0.1) continue;
    auto key = std::make_pair(int(std::floor(x.x / 0.01)), int(std::floor(x.z / 0.01)));
    tops[key] = std::max(tops[key], double(x.y));
  }
  ASSERT_FALSE(tops.empty());
  std::vector<double> heights;
  for (const auto& [key, top] : tops) heights.push_back(top);
  std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
  const double surface = heights[heights.size() / 2] + 0.005;
  const double draft = surface - bottom, weight = 500 * 0.14 * 0.08 * 0.14 * 9.81;
  std::printf("  surface %.4f m, draft %.4f m (Archimedes 0.0400 m), lift %.3f N, weight %.3f N\n", surface,
              draft, lift, weight);
  // a box the grid did not push lies on the floor (a draft of 0.17 m); pushed twice as hard it would float
  // at 0.02 m
  EXPECT_NEAR(draft, 0.04, 0.015);
  EXPECT_NEAR(lift, weight, 0.03 * weight);
}

// a box ten times lighter than water, dropped from 5 cm above it, neither blows up nor leaves the water: it
// settles on it
TEST(RigidBodies, ABodyTenTimesLighterThanWaterStaysStable) {
  SceneDesc scene = test::sceneFile("scenes/floating_boxes.json", {"fluid.spacing=0.02"});
  scene.domain.max = {0.3f, 0.4f, 0.3f};
  scene.emitters[0].shape.center = {0.15f, 0.08f, 0.15f};
  scene.emitters[0].shape.halfExtents = {0.15f, 0.08f, 0.15f};
  scene.colliders.resize(1);
  scene.colliders[0].density = 100;
  scene.colliders[0].shape.center = {0.15f, 0.25f, 0.15f};
  scene.probes.resize(1);
  scene.probes[0].position = {0.02f, 0, 0.02f};
  Drafts d = settle(scene, 75, 25);
  std::printf("  draft %.4f m (Archimedes %.4f m), largest speed over the last 0.5 s %.3f m/s\n", d.draft[0],
              0.008, d.speed[0]);
  EXPECT_GT(d.draft[0], -0.25 * 0.02);  // in the water, not above it
  EXPECT_LT(d.draft[0], 0.008);
  EXPECT_LT(d.speed[0], 0.01);
}

// a sphere of the water's density starting mid-depth: the water it would overlap is left out, so no
// particle starts inside it, and it neither sinks nor flies off (the water starts at zero pressure here
// and settles from its start lattice; tests/test_neutral_buoyancy.cpp starts it at its hydrostatic one)
TEST(RigidBodies, ABodyStartingImmersedStaysStable) {
  SceneDesc scene = test::sceneFile("scenes/floating_boxes.json", {"fluid.spacing=0.02"});
  scene.domain.max = {0.3f, 0.4f, 0.3f};
  scene.emitters[0].shape.center = {0.15f, 0.12f, 0.15f};
  scene.emitters[0].shape.halfExtents = {0.15f, 0.12f, 0.15f};
  scene.colliders.resize(1);
  scene.colliders[0].density = 1000;
  scene.colliders[0].shape.type = "sphere";
  scene.colliders[0].shape.radius = 0.06f;
  scene.colliders[0].shape.center = {0.15f, 0.12f, 0.15f};
  scene.probes.clear();
  auto sim = createSimulation(scene, Backend::Cpu);
  // 15 x 12 x 15 lattice points, less the 110 inside the sphere
  EXPECT_EQ(sim->particleCount(), 2700 - 110);
  double fastest = 0, farthest = 0, lowest = 1;
  for (int f = 0; f < 50; ++f) {
    sim->advanceFrame();
    ColliderPose pose = sim->colliderPose(0);
    ASSERT_TRUE(std::isfinite(pose.center.y));
    fastest = std::max(fastest, double(length(pose.linearVelocity)));
    farthest = std::max(farthest, double(length(pose.center - scene.colliders[0].shape.center)));
    lowest = std::min(lowest, double(pose.center.y));
  }
  std::printf("  largest speed %.3f m/s, farthest from the start %.4f m, lowest %.4f m\n", fastest, farthest,
              lowest);
  EXPECT_LT(fastest, 0.12);
  EXPECT_LT(farthest, 0.05);
  EXPECT_GT(lowest, 0.12 - 0.005);  // never sinks (the floor is 0.06 below)
}

// a run with bodies resumed from a saved state goes on exactly as the run it was saved from
TEST(RigidBodies, AResumedRunMatchesTheUninterruptedOneToTheBit) {
  SceneDesc scene = test::sceneFile("scenes/floating_boxes.json", {"fluid.spacing=0.03"});
  auto a = createSimulation(scene, Backend::Cpu);
  for (int f = 0; f < 6; ++f) a->advanceFrame();
  SimulationState saved = a->saveState();
  EXPECT_FALSE(saved.bodies.empty());
  for (int f = 0; f < 6; ++f) a->advanceFrame();
  auto b = createSimulation(scene, Backend::Cpu);
  b->restoreState(saved);
  for (int f = 0; f < 6; ++f) b->advanceFrame();
  for (std::size_t i = 0; i < 3; ++i) {
    ColliderPose pa = a->colliderPose(i), pb = b->colliderPose(i);
    EXPECT_EQ(pa.center.y, pb.center.y) << i;
    EXPECT_EQ(pa.orientation.w, pb.orientation.w) << i;
    EXPECT_EQ(pa.linearVelocity.y, pb.linearVelocity.y) << i;
    EXPECT_NE(pa.center.y, scene.colliders[i].shape.center.y) << "body " << i << " did not move";
  }
  HostParticles pa, pb;
  a->copyParticles(pa);
  b->copyParticles(pb);
  ASSERT_EQ(pa.size(), pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) ASSERT_EQ(pa.position[i].y, pb.position[i].y) << i;
  // a state whose bodies do not fit the scene is refused before anything changes
  saved.bodies.pop_back();
  expectInputError([&] { b->restoreState(saved); }, {"rigid bodies"});
}

TEST(RigidBodies, KeysThatCannotMakeABodyAreRefusedByName) {
  auto parse = [](const std::string& collider) {
    return parseScene(R"({"solver": "wcsph", "colliders": [)" + collider +
                          R"(], "emitters": [{"shape": {"half_extents": [0.1, 0.1, 0.1]}}]})",
                      "bodies.json");
  };
  expectInputError([&] { parse(R"({"density": 500, "shape": {"type": "plane"}})"); },
                   {"bodies.json", "/colliders/0/density", "not a plane"});
  expectInputError(
      [&] { parse(R"({"density": 500, "shape": {"type": "mesh", "file": "x.obj", "thickness": 0.01}})"); },
      {"/colliders/0/shape/thickness", "thin shell"});
  expectInputError([&] { parse(R"({"density": 500, "container": true, "shape": {"type": "sphere"}})"); },
                   {"/colliders/0/density", "container"});
  expectInputError([&] { parse(R"({"density": -1, "shape": {"type": "box"}})"); }, {"/colliders/0/density"});
  EXPECT_EQ(parse(R"({"density": 500, "shape": {"type": "sphere", "radius": 0.05}})").colliders[0].density,
            500);
}

// a scene made in code, which no reader checked, is refused by the simulation with the same key
TEST(RigidBodies, ASceneMadeInCodeIsCheckedToo) {
  SceneDesc scene = test::sceneFile("scenes/floating_boxes.json", {"fluid.spacing=0.04"});
  scene.colliders[1].shape.type = "plane";
  expectInputError([&] { createSimulation(scene, Backend::Cpu); }, {"/colliders/1/density", "not a plane"});
}

// A cylinder and a capsule lying along z and a box made of twelve triangles, each of half the water's
// density and 0.08 m high, float with their centres near the surface, as Archimedes gives for these
// symmetric shapes. At 0.02 m (four spacings across them) they float 7.1 to 7.7 mm high, where the analytic
// box of the same size in the same tank floats 3.5 mm high: WCSPH's walls correct the pressure's gradient
// along a flat face and the density's rate beside it on planes and boxes only (solvers/wall_kernel.h), and
// a mesh goes without them, as the curved shapes do, even where it is flat. A buoyancy or a mass 10 % off
// would move the drafts by 4 mm; a mesh volume counted with the wrong sign would sink it
TEST(RigidBodies, CylindersCapsulesAndMeshesFloatAtTheDraftArchimedesGives) {
  SceneDesc scene = test::floatingShapes();
  Drafts d = settle(scene, 125, 25);
  std::printf("  surface %.4f m\n", d.surface);
  const char* names[3] = {"cylinder", "capsule", "mesh box"};
  for (std::size_t b = 0; b < 3; ++b) {
    std::printf("  %s: draft %.4f m, Archimedes 0.0400 m (%+.1f mm), speed %.3f m/s, lift %.3f N\n", names[b],
                d.draft[b], 1000 * (d.draft[b] - 0.04), d.speed[b], d.lift[b]);
    EXPECT_NEAR(d.draft[b], 0.04 - 0.0074, 0.002) << names[b];
    EXPECT_LT(d.speed[b], 0.03) << names[b] << " has not settled";
  }
}

}  // namespace
}  // namespace eddy
