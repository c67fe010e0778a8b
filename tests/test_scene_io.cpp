// Scene files: shipped scenes, defaults, round trip, --set overrides and the messages for bad input.
#include <eddy/error.h>
#include <eddy/scene_io.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace eddy {
namespace {

const std::string kRoot = EDDY_SOURCE_DIR;

std::string scenePath(const std::string& name) { return kRoot + "/scenes/" + name; }

const std::vector<std::string> kShippedScenes = {
    "dam_break.json",      "double_dam_break.json",        "sphere_obstacle.json", "jet_tank.json",
    "half_box_surge.json", "validation/martin_moyce.json", "mpm_dam_break.json",   "keyframed_paddle.json",
};

void expectSameVec(Vec3 a, Vec3 b, const std::string& what) {
  EXPECT_EQ(a.x, b.x) << what;
  EXPECT_EQ(a.y, b.y) << what;
  EXPECT_EQ(a.z, b.z) << what;
}

void expectSameShape(const ShapeDesc& a, const ShapeDesc& b, const std::string& what) {
  EXPECT_EQ(a.type, b.type) << what;
  expectSameVec(a.center, b.center, what + ".center");
  expectSameVec(a.halfExtents, b.halfExtents, what + ".half_extents");
  EXPECT_EQ(a.radius, b.radius) << what;
  EXPECT_EQ(a.halfHeight, b.halfHeight) << what;
  expectSameVec(a.normal, b.normal, what + ".normal");
  expectSameVec(a.rotation, b.rotation, what + ".rotation");
}

// every member except sourcePath
void expectSameScene(const SceneDesc& a, const SceneDesc& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.solver, b.solver);
  EXPECT_EQ(a.pbf.iterations, b.pbf.iterations);
  EXPECT_EQ(a.pbf.relaxation, b.pbf.relaxation);
  EXPECT_EQ(a.pbf.clampDensity, b.pbf.clampDensity);
  EXPECT_EQ(a.pbf.scorrK, b.pbf.scorrK);
  EXPECT_EQ(a.pbf.scorrN, b.pbf.scorrN);
  EXPECT_EQ(a.pbf.scorrDq, b.pbf.scorrDq);
  EXPECT_EQ(a.pbf.overRelaxation, b.pbf.overRelaxation);
  EXPECT_EQ(a.pbf.constraintAveraging, b.pbf.constraintAveraging);
  EXPECT_EQ(a.pbf.vorticity, b.pbf.vorticity);
  EXPECT_EQ(a.pbf.xsph, b.pbf.xsph);
  EXPECT_EQ(a.pbf.maxVelocityChange, b.pbf.maxVelocityChange);
  EXPECT_EQ(a.pbf.maxNeighbors, b.pbf.maxNeighbors);
  EXPECT_EQ(a.wcsph.equationOfState, b.wcsph.equationOfState);
  EXPECT_EQ(a.wcsph.speedOfSound, b.wcsph.speedOfSound);
  EXPECT_EQ(a.wcsph.gamma, b.wcsph.gamma);
  EXPECT_EQ(a.wcsph.stiffness, b.wcsph.stiffness);
  EXPECT_EQ(a.wcsph.viscosity, b.wcsph.viscosity);
  EXPECT_EQ(a.wcsph.cfl, b.wcsph.cfl);
  EXPECT_EQ(a.wcsph.density, b.wcsph.density);
  EXPECT_EQ(a.wcsph.densityDiffusion, b.wcsph.densityDiffusion);
  EXPECT_EQ(a.mpm.gridResolution, b.mpm.gridResolution);
  EXPECT_EQ(a.mpm.transfer, b.mpm.transfer);
  EXPECT_EQ(a.mpm.flipRatio, b.mpm.flipRatio);
  EXPECT_EQ(a.mpm.boundary, b.mpm.boundary);
  EXPECT_EQ(a.mpm.equationOfState, b.mpm.equationOfState);
  EXPECT_EQ(a.mpm.bulkModulus, b.mpm.bulkModulus);
  EXPECT_EQ(a.mpm.gamma, b.mpm.gamma);
  EXPECT_EQ(a.mpm.viscosity, b.mpm.viscosity);
  EXPECT_EQ(a.mpm.cfl, b.mpm.cfl);
  EXPECT_EQ(a.fluid.restDensity, b.fluid.restDensity);
  EXPECT_EQ(a.fluid.spacing, b.fluid.spacing);
  EXPECT_EQ(a.fluid.supportRatio, b.fluid.supportRatio);
  expectSameVec(a.domain.min, b.domain.min, "domain.min");
  expectSameVec(a.domain.max, b.domain.max, "domain.max");
  EXPECT_EQ(a.time.fps, b.time.fps);
  EXPECT_EQ(a.time.frames, b.time.frames);
  EXPECT_EQ(a.time.substeps, b.time.substeps);
  EXPECT_EQ(a.time.adaptive, b.time.adaptive);
  EXPECT_EQ(a.time.cfl, b.time.cfl);
  EXPECT_EQ(a.time.maxSubsteps, b.time.maxSubsteps);
  expectSameVec(a.forces.gravity, b.forces.gravity, "forces.gravity");
  expectSameVec(a.forces.windVelocity, b.forces.windVelocity, "forces.wind_velocity");
  EXPECT_EQ(a.forces.drag, b.forces.drag);
  ASSERT_EQ(a.colliders.size(), b.colliders.size());
  for (std::size_t i = 0; i < a.colliders.size(); ++i) {
    const ColliderDesc &x = a.colliders[i], &y = b.colliders[i];
    std::string what = "colliders." + std::to_string(i);
    EXPECT_EQ(x.name, y.name) << what;
    expectSameShape(x.shape, y.shape, what + ".shape");
    EXPECT_EQ(x.container, y.container) << what;
    expectSameVec(x.linearVelocity, y.linearVelocity, what + ".linear_velocity");
    expectSameVec(x.angularVelocity, y.angularVelocity, what + ".angular_velocity");
    EXPECT_EQ(x.restitution, y.restitution) << what;
    EXPECT_EQ(x.friction, y.friction) << what;
    EXPECT_EQ(x.staticFriction, y.staticFriction) << what;
    ASSERT_EQ(x.keyframes.size(), y.keyframes.size()) << what;
    for (std::size_t k = 0; k < x.keyframes.size(); ++k) {
      std::string at = what + ".keyframes." + std::to_string(k);
      EXPECT_EQ(x.keyframes[k].time, y.keyframes[k].time) << at;
      expectSameVec(x.keyframes[k].translation, y.keyframes[k].translation, at + ".translation");
      expectSameVec(x.keyframes[k].rotation, y.keyframes[k].rotation, at + ".rotation");
    }
  }
  ASSERT_EQ(a.emitters.size(), b.emitters.size());
  for (std::size_t i = 0; i < a.emitters.size(); ++i) {
    const EmitterDesc &x = a.emitters[i], &y = b.emitters[i];
    std::string what = "emitters." + std::to_string(i);
    EXPECT_EQ(x.type, y.type) << what;
    expectSameShape(x.shape, y.shape, what + ".shape");
    EXPECT_EQ(x.collider, y.collider) << what;
    EXPECT_EQ(x.lattice, y.lattice) << what;
    EXPECT_EQ(x.jitter, y.jitter) << what;
    EXPECT_EQ(x.seed, y.seed) << what;
    expectSameVec(x.velocity, y.velocity, what + ".velocity");
    expectSameVec(x.angularVelocity, y.angularVelocity, what + ".angular_velocity");
    expectSameVec(x.position, y.position, what + ".position");
    expectSameVec(x.direction, y.direction, what + ".direction");
    EXPECT_EQ(x.radius, y.radius) << what;
    EXPECT_EQ(x.speed, y.speed) << what;
    EXPECT_EQ(x.rate, y.rate) << what;
    EXPECT_EQ(x.maxParticles, y.maxParticles) << what;
    EXPECT_EQ(x.start, y.start) << what;
    EXPECT_EQ(x.stop, y.stop) << what;
    EXPECT_EQ(x.material.type, y.material.type) << what;
    EXPECT_EQ(x.material.density, y.material.density) << what;
    EXPECT_EQ(x.material.youngsModulus, y.material.youngsModulus) << what;
    EXPECT_EQ(x.material.poissonRatio, y.material.poissonRatio) << what;
    EXPECT_EQ(x.material.frictionAngle, y.material.frictionAngle) << what;
    EXPECT_EQ(x.material.cohesion, y.material.cohesion) << what;
    EXPECT_EQ(x.material.criticalCompression, y.material.criticalCompression) << what;
    EXPECT_EQ(x.material.criticalStretch, y.material.criticalStretch) << what;
    EXPECT_EQ(x.material.hardening, y.material.hardening) << what;
  }
  EXPECT_EQ(a.output.format, b.output.format);
  EXPECT_EQ(a.output.every, b.output.every);
  EXPECT_EQ(a.output.particles, b.output.particles);
  ASSERT_EQ(a.probes.size(), b.probes.size());
  for (std::size_t i = 0; i < a.probes.size(); ++i) {
    std::string what = "probes." + std::to_string(i);
    EXPECT_EQ(a.probes[i].name, b.probes[i].name) << what;
    EXPECT_EQ(a.probes[i].type, b.probes[i].type) << what;
    expectSameVec(a.probes[i].position, b.probes[i].position, what + ".position");
    EXPECT_EQ(a.probes[i].every, b.probes[i].every) << what;
    expectSameVec(a.probes[i].face, b.probes[i].face, what + ".face");
  }
  const RenderDesc &r = a.render, &q = b.render;
  EXPECT_EQ(r.mode, q.mode);
  EXPECT_EQ(r.frame, q.frame);
  expectSameVec(r.camera, q.camera, "render.camera");
  expectSameVec(r.target, q.target, "render.target");
  EXPECT_EQ(r.fov, q.fov);
  expectSameVec(r.sun, q.sun, "render.sun");
  EXPECT_EQ(r.environment, q.environment);
  expectSameVec(r.absorption, q.absorption, "render.absorption");
  expectSameVec(r.colorLow, q.colorLow, "render.color_low");
  expectSameVec(r.colorHigh, q.colorHigh, "render.color_high");
  EXPECT_EQ(r.scenery, q.scenery);
  EXPECT_EQ(r.colorBy, q.colorBy);
  EXPECT_EQ(r.ellipsoids, q.ellipsoids);
}

using test::expectInputError;

// a small valid scene to break in one place at a time
const char* kMinimal = R"({
  "domain": {"min": [0, 0, 0], "max": [1, 1, 1]},
  "colliders": [{"name": "tank", "shape": {"type": "box", "center": [0.5, 0.5, 0.5]}, "container": true}],
  "emitters": [{"type": "volume", "shape": {"type": "box", "center": [0.2, 0.2, 0.2],
                                             "half_extents": [0.1, 0.1, 0.1]}}]
})";

// kMinimal with one JSON-pointer location replaced (or added) by value
std::string minimalWith(const std::string& pointer, const nlohmann::json& value) {
  nlohmann::json doc = nlohmann::json::parse(kMinimal);
  doc[nlohmann::json::json_pointer(pointer)] = value;
  return doc.dump(2);
}

std::string writeTemp(const std::string& name, const std::string& text) {
  auto dir = std::filesystem::temp_directory_path() / ("eddy_scene_io_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// particles a box volume emitter places: lattice points at spacing/2 offsets inside the box
long long boxLatticeCount(const EmitterDesc& e, Real spacing) {
  long long n = 1;
  for (Real half : {e.shape.halfExtents.x, e.shape.halfExtents.y, e.shape.halfExtents.z}) {
    n *= static_cast<long long>(std::floor(2 * half / spacing + 1e-3));
  }
  return n;
}

// ---------------------------------------------------------------- shipped scenes

TEST(SceneIo, EveryShippedSceneParsesForBothSolvers) {
  for (const std::string& name : kShippedScenes) {
    SCOPED_TRACE(name);
    SceneDesc pbf = loadScene(scenePath(name), {"solver=pbf"});
    EXPECT_EQ(pbf.sourcePath, scenePath(name));
    EXPECT_EQ(pbf.solver, "pbf");
    EXPECT_EQ(loadScene(scenePath(name)).solver, name.starts_with("mpm_") ? "mpm" : "pbf");
    EXPECT_EQ(loadScene(scenePath(name), {"solver=mpm"}).solver, "mpm");
    EXPECT_FALSE(pbf.emitters.empty());
    SceneDesc wcsph = loadScene(scenePath(name), {"solver=wcsph"});
    EXPECT_EQ(wcsph.solver, "wcsph");
  }
}

TEST(SceneIo, EveryShippedSceneHasADescription) {
  for (const std::string& name : kShippedScenes) {
    std::ifstream in(scenePath(name));
    nlohmann::json doc = nlohmann::json::parse(in);
    ASSERT_TRUE(doc.contains("description")) << name;
    EXPECT_GT(doc["description"].get<std::string>().size(), 20u) << name;
  }
}

TEST(SceneIo, ShippedScenesKeepParticleCountsModest) {
  for (const std::string& name : kShippedScenes) {
    SCOPED_TRACE(name);
    SceneDesc s = loadScene(scenePath(name));
    long long total = 0;
    for (const EmitterDesc& e : s.emitters) {
      if (e.type == "nozzle") {
        total += e.maxParticles;
      } else {
        ASSERT_EQ(e.shape.type, "box");
        total += boxLatticeCount(e, s.fluid.spacing);
      }
    }
    EXPECT_GE(total, 3000);
    EXPECT_LE(total, 40000);
  }
  SceneDesc dam = loadScene(scenePath("dam_break.json"));
  EXPECT_LE(boxLatticeCount(dam.emitters[0], dam.fluid.spacing), 30000);
}

TEST(SceneIo, DamBreakMatchesTheBrief) {
  SceneDesc s = loadScene(scenePath("dam_break.json"));
  EXPECT_FLOAT_EQ(s.domain.max.x - s.domain.min.x, 1.6f);
  EXPECT_FLOAT_EQ(s.domain.max.y - s.domain.min.y, 0.8f);
  EXPECT_FLOAT_EQ(s.domain.max.z - s.domain.min.z, 0.6f);
  ASSERT_EQ(s.emitters.size(), 1u);
  const ShapeDesc& box = s.emitters[0].shape;
  EXPECT_FLOAT_EQ(box.center.x - box.halfExtents.x, s.domain.min.x);  // against the -x wall
  EXPECT_FLOAT_EQ(2 * box.halfExtents.x, 0.4f);
  EXPECT_FLOAT_EQ(2 * box.halfExtents.y, 0.6f);
  EXPECT_FLOAT_EQ(2 * box.halfExtents.z, 0.6f);
  EXPECT_EQ(s.time.fps, 60.0f);
  EXPECT_EQ(s.time.frames, 120);
}

TEST(SceneIo, MartinMoyceGeometry) {
  SceneDesc s = loadScene(scenePath("validation/martin_moyce.json"));
  const double a = 0.05715;
  EXPECT_NEAR(s.fluid.spacing, a / 20, 1e-9);
  EXPECT_EQ(s.domain.min.x, 0.0f);
  EXPECT_EQ(s.domain.min.y, 0.0f);
  EXPECT_EQ(s.domain.min.z, 0.0f);
  EXPECT_GE(s.domain.max.x, 8 * a);
  EXPECT_NEAR(s.domain.max.z, 4 * s.fluid.spacing, 1e-7);
  ASSERT_EQ(s.emitters.size(), 1u);
  const ShapeDesc& box = s.emitters[0].shape;
  EXPECT_NEAR(box.center.x - box.halfExtents.x, 0.0, 1e-7);
  EXPECT_NEAR(box.center.x + box.halfExtents.x, a, 1e-7);
  EXPECT_NEAR(box.center.y - box.halfExtents.y, 0.0, 1e-7);
  EXPECT_NEAR(box.center.y + box.halfExtents.y, 2 * a, 1e-7);
  EXPECT_NEAR(box.center.z - box.halfExtents.z, 0.0, 1e-7);
  EXPECT_NEAR(box.center.z + box.halfExtents.z, s.domain.max.z, 1e-7);
  EXPECT_EQ(s.time.fps, 200.0f);
  EXPECT_EQ(s.time.frames, 80);  // to T = 7.4: every measured point inside the tank
  EXPECT_EQ(s.time.substeps, 4);
  EXPECT_TRUE(s.time.adaptive);
  EXPECT_TRUE(s.colliders.empty());
}

TEST(SceneIo, DefaultSceneIsTheDamBreak) {
  SceneDesc def = loadScene("");
  SceneDesc file = loadScene(scenePath("dam_break.json"));
  expectSameScene(def, file);
  EXPECT_EQ(def.sourcePath, "<default>");
  expectSameScene(parseScene(defaultSceneJson(), "x"), file);
}

TEST(SceneIo, DefaultSceneTakesOverrides) {
  SceneDesc s = loadScene("", {"pbf.iterations=7"});
  EXPECT_EQ(s.pbf.iterations, 7);
  expectInputError([] { loadScene("", {"pbf.iterations=0"}); }, {"<default scene>", "/pbf/iterations"});
}

TEST(SceneIo, MissingKeysTakeTheStructDefaults) {
  SceneDesc s = parseScene(kMinimal, "minimal.json");
  SceneDesc d;
  EXPECT_EQ(s.pbf.iterations, d.pbf.iterations);
  EXPECT_EQ(s.fluid.spacing, d.fluid.spacing);
  EXPECT_EQ(s.time.frames, d.time.frames);
  EXPECT_EQ(s.output.format, d.output.format);
  EXPECT_EQ(s.emitters[0].lattice, "cubic");
  EXPECT_EQ(s.colliders[0].shape.halfExtents.x, 1.0f);
  EXPECT_EQ(s.sourcePath, "minimal.json");
}

// ---------------------------------------------------------------- round trip

TEST(SceneIo, RoundTripOfANonDefaultScene) {
  SceneDesc s;
  s.name = "round \"trip\"";
  s.solver = "mpm";
  s.pbf = {7, 3e-5f, false, 0.05f, 3.0f, 0.3f, 1.5f, 0.2f, 0.01f, 0.02f, 4.5f, 64};
  s.wcsph = {"linear", 25.5f, 6.0f, 1234.5f, 0.001f, 0.3f, "continuity", 0.05f};
  // MPM applies restitution with the "separate" boundary only, and reads no support_ratio
  s.mpm = {96, "flip", 0.9f, "separate", "tait", 2.5e5f, 5.0f, 0.001f, 0.35f};
  s.fluid = {998.2f, 0.0125f, 2.0f};
  s.domain = {{-0.3f, 0.1f, -0.7f}, {0.9f, 1.7f, 0.35f}};
  s.time = {48.0f, 33, 3, true, 0.25f, 77};
  s.forces = {{0.1f, -9.80665f, 0.0f}, {1.0f, 0.0f, -0.5f}, 0.2f};
  ColliderDesc c;
  c.name = "paddle";
  c.shape = {"capsule", {0.1f, 0.2f, 0.3f}, {0.4f, 0.5f, 0.6f}, 0.07f, 0.11f, {0, 0, 1}, {10, 20, 30}};
  c.container = false;
  c.linearVelocity = {0.5f, 0, 0};
  c.angularVelocity = {0, 1.25f, 0};
  c.restitution = 0.3f;
  c.friction = 0.4f;
  c.staticFriction = 0.6f;
  s.colliders = {c};
  c.name = "";
  c.shape.type = "plane";
  s.colliders.push_back(c);
  // a keyframed mesh: placed and moved by its keyframes alone
  ColliderDesc k;
  k.name = "dragon";
  k.shape.type = "mesh";
  k.shape.file = "/meshes/dragon.obj";
  k.shape.scale = 0.25f;
  k.keyframes = {{0.0f, {0.1f, 0.2f, 0.3f}, {0, 0, 0}},
                 {0.35f, {0.4f, 0.25f, -0.1f}, {12.5f, -90, 33}},
                 {1.0f, {0.4f, 0.25f, -0.1f}, {0, 180, 0}}};
  s.colliders.push_back(k);
  EmitterDesc e;
  e.type = "nozzle";
  e.shape = {"sphere", {0.3f, 0.4f, 0.1f}, {0.1f, 0.2f, 0.3f}, 0.15f, 0.2f, {1, 0, 0}, {0, 45, 0}};
  e.collider = "paddle";
  e.lattice = "bcc";
  e.jitter = 0.25f;
  e.seed = 4000000000u;
  e.velocity = {0, -1, 0};
  e.angularVelocity = {0, 0, 3};
  e.position = {0.2f, 1.0f, 0.0f};
  e.direction = {0, -1, 0.5f};
  e.radius = 0.033f;
  e.speed = 2.5f;
  e.rate = 5000;
  e.maxParticles = 123456789012LL;
  e.start = 0.5f;
  e.stop = 2.75f;
  s.emitters = {e, EmitterDesc{}};
  s.emitters[1].material = {"sand", 1600.0f, 3.5e5f, 0.3f, 35.0f, 10.0f, 0.03f, 0.005f, 8.0f};
  s.emitters[1].shape.center = {0.3f, 0.9f, 0.0f};
  s.output = {"vtk", 3, false};

  std::string text = sceneToJson(s);
  SceneDesc back = parseScene(text, "roundtrip");
  expectSameScene(s, back);
  EXPECT_EQ(sceneToJson(back), text);
}

TEST(SceneIo, RoundTripOfEveryShippedScene) {
  for (const std::string& name : kShippedScenes) {
    SCOPED_TRACE(name);
    SceneDesc s = loadScene(scenePath(name));
    expectSameScene(s, parseScene(sceneToJson(s), name));
  }
}

TEST(SceneIo, WriterWritesEveryKeyWithShortNumbers) {
  SceneDesc s = loadScene("");
  nlohmann::json doc = nlohmann::json::parse(sceneToJson(s));
  for (const char* key : {"name", "solver", "pbf", "wcsph", "dfsph", "mpm", "fluid", "domain", "time",
                          "forces", "colliders", "emitters", "output", "surface", "probes", "render"}) {
    EXPECT_TRUE(doc.contains(key)) << key;
  }
  EXPECT_EQ(doc.size(), 16u);
  EXPECT_EQ(doc["dfsph"].size(), 8u);
  EXPECT_EQ(doc["render"].size(), 13u);
  EXPECT_EQ(doc["probes"], nlohmann::json::array());
  EXPECT_EQ(doc["surface"].size(), 7u);
  EXPECT_EQ(doc["surface"]["enabled"], false);
  EXPECT_EQ(doc["pbf"].size(), 12u);
  EXPECT_EQ(doc["wcsph"].size(), 8u);
  EXPECT_EQ(doc["mpm"].size(), 9u);
  EXPECT_EQ(doc["time"].size(), 6u);
  EXPECT_EQ(doc["emitters"][0].size(), 18u);
  EXPECT_EQ(doc["emitters"][0]["material"].size(), 9u);
  EXPECT_EQ(doc["emitters"][0]["shape"].size(), 13u);  // fit_into only where it is set
  // a collider without keyframes has an empty list
  nlohmann::json obstacle = nlohmann::json::parse(sceneToJson(loadScene(scenePath("sphere_obstacle.json"))));
  EXPECT_EQ(obstacle["colliders"][0].size(), 13u);
  EXPECT_EQ(obstacle["colliders"][0]["keyframes"], nlohmann::json::array());
  // floats are written as their shortest decimal, not as widened doubles
  EXPECT_NE(sceneToJson(s).find("\"spacing\": 0.02,"), std::string::npos);
}

// every key the writer emits is documented in docs/scene-format.md
// the "render" section: a camera placed by hand turns the framing off; values out of range are refused by key
TEST(SceneIo, RenderSection) {
  SceneDesc s =
      loadScene("", {"render.camera=[1,2,3]", "render.mode=ssfr", "render.fov=30",
                     "render.environment=sky.png", "render.color_by=density", "render.ellipsoids=false"});
  EXPECT_FALSE(s.render.frame);
  EXPECT_EQ(s.render.colorBy, "density");
  EXPECT_FALSE(s.render.ellipsoids);
  EXPECT_EQ(s.render.mode, "ssfr");
  EXPECT_EQ(s.render.fov, 30.0f);
  expectSameVec(s.render.camera, {1, 2, 3}, "camera");
  // the image is found beside the scene file (the working directory for the default scene)
  EXPECT_TRUE(std::filesystem::path(s.render.environment).is_absolute()) << s.render.environment;
  EXPECT_TRUE(loadScene("", {"render.camera=[1,2,3]", "render.frame=true"}).render.frame);
  EXPECT_TRUE(loadScene("").render.frame);
  SceneDesc back = parseScene(sceneToJson(s), "roundtrip");
  expectSameScene(s, back);
  expectInputError([] { loadScene("", {"render.mode=raytraced"}); }, {"/render/mode", "ssfr"});
  expectInputError([] { loadScene("", {"render.fov=180"}); }, {"/render/fov"});
  expectInputError([] { loadScene("", {"render.color_low=[0,0,2]"}); }, {"/render/color_low/2"});
  expectInputError([] { loadScene("", {"render.absorption=[-1,0,0]"}); }, {"/render/absorption/0"});
  expectInputError([] { loadScene("", {"render.sun=[0,0,0]"}); }, {"/render/sun", "zero"});
  expectInputError([] { loadScene("", {"render.zoom=2"}); }, {"/render/zoom"});
  expectInputError([] { loadScene("", {"render.color_by=pressure"}); }, {"/render/color_by", "material"});
  expectInputError([] { loadScene("", {"render.ellipsoids=3"}); }, {"/render/ellipsoids"});
  expectInputError(
      [] {
        loadScene("", {"render.camera=[1,1,1]", "render.target=[1,1,1]"});
      },
      {"/render/camera", "/render/target"});
}

// ---------------------------------------------------------------- overrides

TEST(SceneIo, OverrideNumberStringBoolAndVector) {
  SceneDesc s = loadScene(scenePath("dam_break.json"),
                          {"pbf.iterations=6", "solver=wcsph", "fluid.spacing=0.025", "time.adaptive=true",
                           "forces.gravity=[0,-1.62,0]", "name=\"42\"", "output.format = vtk"});
  EXPECT_EQ(s.pbf.iterations, 6);
  EXPECT_EQ(s.solver, "wcsph");
  EXPECT_EQ(s.fluid.spacing, 0.025f);
  EXPECT_TRUE(s.time.adaptive);
  expectSameVec(s.forces.gravity, {0, -1.62f, 0}, "gravity");
  EXPECT_EQ(s.name, "42");
  EXPECT_EQ(s.output.format, "vtk");
}

TEST(SceneIo, OverrideArrayElementsAndWholeObjects) {
  SceneDesc s = loadScene(scenePath("sphere_obstacle.json"),
                          {"colliders.1.friction=0.2", "colliders.0.shape.half_extents=[0.4,0.6,0.4]",
                           "emitters.0.velocity=[0,-1,0]", "domain.max.1=1.5", "wcsph={\"cfl\":0.2}"});
  EXPECT_EQ(s.colliders[1].friction, 0.2f);
  EXPECT_EQ(s.colliders[0].shape.halfExtents.y, 0.6f);
  EXPECT_EQ(s.emitters[0].velocity.y, -1.0f);
  EXPECT_EQ(s.domain.max.y, 1.5f);
  EXPECT_EQ(s.wcsph.cfl, 0.2f);
  EXPECT_EQ(s.wcsph.speedOfSound, WcsphSettings{}.speedOfSound);  // the whole section was replaced
}

TEST(SceneIo, OverrideCreatesMissingSections) {
  SceneDesc s = parseScene(kMinimal, "minimal.json", {"time.frames=10", "colliders.0.shape.radius=0.3"});
  EXPECT_EQ(s.time.frames, 10);
  EXPECT_EQ(s.colliders[0].shape.radius, 0.3f);
}

TEST(SceneIo, OverrideOfAnUnknownKeyIsRejectedWithItsPath) {
  expectInputError([] { loadScene(scenePath("dam_break.json"), {"pbf.iterationz=6"}); },
                   {"dam_break.json: unknown key '/pbf/iterationz'; allowed keys: iterations",
                    "did you mean 'iterations'", "iterations,", "--set 'pbf.iterationz=6'"});
  expectInputError([] { loadScene(scenePath("dam_break.json"), {"solvr=wcsph"}); }, {"'/solvr'", "--set"});
}

TEST(SceneIo, OverrideValuesAreValidatedLikeTheFile) {
  expectInputError(
      [] { loadScene(scenePath("dam_break.json"), {"pbf.iterations=many"}); },
      {"dam_break.json: /pbf/iterations: expected an integer, got string", "--set 'pbf.iterations=many'"});
  expectInputError(
      [] { loadScene(scenePath("dam_break.json"), {"solver=flip"}); },
      {"/solver: unknown value 'flip'; allowed values: pbf, wcsph, dfsph, mpm", "--set 'solver=flip'"});
}

// DFSPH's keys: each range, and the iteration bounds against each other
TEST(SceneIo, DfsphKeysAreValidated) {
  const std::string dam = scenePath("dam_break.json");
  expectInputError([&] { loadScene(dam, {"dfsph.cfl=0"}); }, {"dam_break.json: /dfsph/cfl", "0"});
  expectInputError([&] { loadScene(dam, {"dfsph.max_density_error=-1"}); },
                   {"/dfsph/max_density_error", "> 0"});
  expectInputError([&] { loadScene(dam, {"dfsph.xsph=2"}); }, {"/dfsph/xsph"});
  expectInputError([&] { loadScene(dam, {"dfsph.min_iterations=0"}); }, {"/dfsph/min_iterations"});
  expectInputError(
      [&] {
        loadScene(dam, {"dfsph.min_iterations=20", "dfsph.max_iterations=10"});
      },
      {"/dfsph/max_iterations: must be at least dfsph.min_iterations (20)"});
  expectInputError([&] { loadScene(dam, {"dfsph.divergence_solve=maybe"}); }, {"/dfsph/divergence_solve"});
  expectInputError(
      [&] { loadScene(dam, {"dfsph.pressure_solver=sor"}); },
      {"/dfsph/pressure_solver: unknown value 'sor'; allowed values: conjugate_gradient, jacobi"});
  SceneDesc s = loadScene(dam, {"solver=dfsph", "dfsph.max_iterations=50", "dfsph.divergence_solve=false"});
  EXPECT_EQ(s.dfsph.maxIterations, 50);
  EXPECT_FALSE(s.dfsph.divergenceSolve);
  EXPECT_EQ(s.dfsph.pressureSolver, "conjugate_gradient");
  EXPECT_EQ(s.dfsph.maxDensityError, 0.00001f);
  // Jacobi iterations get their own default tolerance, unless one is given
  EXPECT_EQ(loadScene(dam, {"dfsph.pressure_solver=jacobi"}).dfsph.maxDensityError,
            DfsphSettings::kJacobiDensityError);
  EXPECT_EQ(
      loadScene(dam, {"dfsph.pressure_solver=jacobi", "dfsph.max_density_error=0.001"}).dfsph.maxDensityError,
      0.001f);
}

TEST(SceneIo, MalformedOverridesNameSetAndTheText) {
  const std::string dam = scenePath("dam_break.json");
  expectInputError([&] { loadScene(dam, {"pbf.iterations"}); },
                   {"dam_break.json", "--set 'pbf.iterations'", "key.path=value"});
  expectInputError([&] { loadScene(dam, {"=6"}); }, {"--set '=6'", "empty"});
  expectInputError([&] { loadScene(dam, {"pbf..iterations=6"}); },
                   {"--set 'pbf..iterations=6'", "empty part"});
  expectInputError(
      [&] { loadScene(dam, {"emitters.3.jitter=0.1"}); },
      {"dam_break.json", "--set 'emitters.3.jitter=0.1'", "out of range", "/emitters has 1 element"});
  expectInputError([&] { loadScene(dam, {"emitters.first.jitter=0.1"}); },
                   {"--set", "/emitters is an array"});
  expectInputError([&] { loadScene(dam, {"name.first=x"}); }, {"--set", "/name is a string"});
}

// ---------------------------------------------------------------- bad input

TEST(SceneIo, MissingFile) {
  expectInputError([] { loadScene("/nonexistent/dir/scene.json"); },
                   {"scene file '/nonexistent/dir/scene.json' not found"});
  expectInputError([] { loadScene(kRoot + "/scenes"); }, {"is a directory"});
}

TEST(SceneIo, MalformedJsonNamesFileLineAndColumn) {
  std::string path = writeTemp("broken.json", "{\n  \"name\": \"x\",\n  \"solver\" \"pbf\"\n}\n");
  expectInputError([&] { loadScene(path); }, {path, "line 3, column 16", "invalid JSON", "expected ':'"});
  expectInputError([] { parseScene("{\"name\": \"x\",}", "trailing.json"); },
                   {"trailing.json: line 1, column 14: invalid JSON"});
  expectInputError([] { parseScene("", "empty.json"); }, {"empty.json", "line 1", "invalid JSON"});
  expectInputError([] { parseScene("[1, 2]", "array.json"); }, {"array.json", "JSON object"});
  expectInputError([] { parseScene("{\"fluid\": {\"spacing\": 1e400}}", "huge.json"); },
                   {"huge.json", "invalid JSON", "number overflow"});
}

TEST(SceneIo, DuplicateKey) {
  expectInputError([] { parseScene(R"({"pbf": {"iterations": 3, "iterations": 5}})", "dup.json"); },
                   {"dup.json: /pbf/iterations: duplicate key"});
  expectInputError(
      [] { parseScene(R"({"emitters": [{}, {"type": "volume", "type": "nozzle"}]})", "dup.json"); },
      {"dup.json: /emitters/1/type: duplicate key"});
}

TEST(SceneIo, UnknownKeyListsTheAllowedKeys) {
  expectInputError(
      [] { parseScene(minimalWith("/pbf/iterationz", 4), "bad.json"); },
      {"bad.json: unknown key '/pbf/iterationz'", "allowed keys: iterations, relaxation, clamp_density"});
  expectInputError(
      [] {
        parseScene(minimalWith("/emitters/0/shape/centre", {0, 0, 0}), "bad.json");
      },
      {"bad.json: unknown key '/emitters/0/shape/centre'", "did you mean 'center'", "half_extents"});
  expectInputError(
      [] {
        parseScene(minimalWith("/gravity", {0, -9.81, 0}), "bad.json");
      },
      {"bad.json: unknown key '/gravity'", "allowed keys: name, solver, description, pbf"});
  expectInputError([] { parseScene(minimalWith("/colliders/0/mass", 3), "bad.json"); },
                   {"'/colliders/0/mass'", "allowed keys: name, shape, container"});
}

TEST(SceneIo, WrongType) {
  expectInputError([] { parseScene(minimalWith("/pbf/iterations", "4"), "bad.json"); },
                   {"bad.json: /pbf/iterations: expected an integer, got string"});
  expectInputError([] { parseScene(minimalWith("/pbf/iterations", 4.5), "bad.json"); },
                   {"bad.json: /pbf/iterations: expected an integer, got 4.5"});
  expectInputError([] { parseScene(minimalWith("/fluid/spacing", true), "bad.json"); },
                   {"bad.json: /fluid/spacing: expected a number, got boolean"});
  expectInputError([] { parseScene(minimalWith("/time/adaptive", 1), "bad.json"); },
                   {"bad.json: /time/adaptive: expected true or false, got 1"});
  expectInputError(
      [] {
        parseScene(minimalWith("/forces/gravity", {0, -9.81}), "bad.json");
      },
      {"bad.json: /forces/gravity: expected an array of 3 numbers", "got an array of 2 elements"});
  expectInputError(
      [] {
        parseScene(minimalWith("/forces/gravity", {0, "down", 0}), "bad.json");
      },
      {"bad.json: /forces/gravity/1: expected a number, got string"});
  expectInputError([] { parseScene(minimalWith("/pbf", 4), "bad.json"); },
                   {"bad.json: /pbf: expected an object, got 4"});
  expectInputError([] { parseScene(minimalWith("/emitters", nlohmann::json::object()), "bad.json"); },
                   {"bad.json: /emitters: expected an array of emitter objects, got object"});
  expectInputError([] { parseScene(minimalWith("/name", 3), "bad.json"); },
                   {"bad.json: /name: expected a string, got 3"});
  expectInputError([] { parseScene(minimalWith("/description", 3), "bad.json"); },
                   {"bad.json: /description"});
  // integral values written as floats are accepted
  EXPECT_EQ(parseScene(minimalWith("/time/frames", 30.0), "ok.json").time.frames, 30);
}

TEST(SceneIo, OutOfRange) {
  expectInputError([] { parseScene(minimalWith("/fluid/spacing", -0.1), "bad.json"); },
                   {"bad.json: /fluid/spacing: must be > 0, got -0.1"});
  expectInputError([] { parseScene(minimalWith("/pbf/iterations", 0), "bad.json"); },
                   {"bad.json: /pbf/iterations: must be an integer in [1, 100], got 0"});
  expectInputError([] { parseScene(minimalWith("/wcsph/cfl", 0), "bad.json"); },
                   {"bad.json: /wcsph/cfl: must be in (0, 1], got 0"});
  expectInputError([] { parseScene(minimalWith("/pbf/scorr_dq", 1), "bad.json"); },
                   {"bad.json: /pbf/scorr_dq: must be in [0, 1), got 1"});
  expectInputError([] { parseScene(minimalWith("/emitters/0/seed", -1), "bad.json"); },
                   {"bad.json: /emitters/0/seed: must be an integer in [0, 4294967295], got -1"});
  expectInputError([] { parseScene(minimalWith("/time/frames", 3e9), "bad.json"); },
                   {"/time/frames: must be"});
  expectInputError([] { parseScene(minimalWith("/fluid/rest_density", 1e300), "bad.json"); },
                   {"/fluid/rest_density: must be a finite single-precision number"});
  expectInputError(
      [] {
        parseScene(minimalWith("/colliders/0/shape/half_extents", {1, 0, 1}), "bad.json");
      },
      {"bad.json: /colliders/0/shape/half_extents: every component must be > 0"});
  expectInputError(
      [] {
        parseScene(minimalWith("/emitters/0/direction", {0, 0, 0}), "bad.json");
      },
      {"bad.json: /emitters/0/direction: must not be the zero vector"});
}

TEST(SceneIo, BadEnumListsTheAllowedValues) {
  expectInputError([] { parseScene(minimalWith("/solver", "flip"), "bad.json"); },
                   {"bad.json: /solver: unknown value 'flip'; allowed values: pbf, wcsph"});
  expectInputError(
      [] { parseScene(minimalWith("/colliders/0/shape/type", "torus"), "bad.json"); },
      {"bad.json: /colliders/0/shape/type: unknown value 'torus'", "plane, box, sphere, capsule, cylinder"});
  expectInputError([] { parseScene(minimalWith("/emitters/0/type", "hose"), "bad.json"); },
                   {"/emitters/0/type", "volume, nozzle"});
  expectInputError([] { parseScene(minimalWith("/emitters/0/lattice", "fcc"), "bad.json"); },
                   {"/emitters/0/lattice", "cubic, bcc"});
  expectInputError([] { parseScene(minimalWith("/wcsph/equation_of_state", "cole"), "bad.json"); },
                   {"/wcsph/equation_of_state", "tait, linear"});
  expectInputError([] { parseScene(minimalWith("/output/format", "obj"), "bad.json"); },
                   {"bad.json: /output/format", "ply, vtk"});
}

TEST(SceneIo, MpmKeysAreValidated) {
  expectInputError([] { parseScene(minimalWith("/mpm/grid_resolution", 2), "bad.json"); },
                   {"bad.json: /mpm/grid_resolution: must be an integer in [4, 2147483647], got 2"});
  expectInputError([] { parseScene(minimalWith("/mpm/flip_ratio", 1.5), "bad.json"); },
                   {"bad.json: /mpm/flip_ratio: must be in [0, 1], got 1.5"});
  expectInputError([] { parseScene(minimalWith("/mpm/bulk_modulus", 0), "bad.json"); },
                   {"bad.json: /mpm/bulk_modulus: must be > 0, got 0"});
  expectInputError([] { parseScene(minimalWith("/mpm/transfer", "mls"), "bad.json"); },
                   {"bad.json: /mpm/transfer: unknown value 'mls'; allowed values: apic, pic, flip"});
  expectInputError([] { parseScene(minimalWith("/mpm/boundary", "wall"), "bad.json"); },
                   {"/mpm/boundary", "separate, slip, sticky"});
  expectInputError([] { parseScene(minimalWith("/mpm/equation_of_state", "cole"), "bad.json"); },
                   {"/mpm/equation_of_state", "linear, tait"});
  expectInputError([] { parseScene(minimalWith("/mpm/grid", 64), "bad.json"); },
                   {"bad.json: unknown key '/mpm/grid'", "allowed keys: grid_resolution, transfer"});
}

TEST(SceneIo, MaterialKeysAreValidated) {
  expectInputError(
      [] { parseScene(minimalWith("/emitters/0/material/type", "jelly"), "bad.json"); },
      {"bad.json: /emitters/0/material/type: unknown value 'jelly'; allowed values: water, elastic, "
       "snow, sand"});
  expectInputError([] { parseScene(minimalWith("/emitters/0/material/youngs_modulus", -5), "bad.json"); },
                   {"bad.json: /emitters/0/material/youngs_modulus: must be > 0, got -5"});
  expectInputError([] { parseScene(minimalWith("/emitters/0/material/poisson_ratio", 0.5), "bad.json"); },
                   {"bad.json: /emitters/0/material/poisson_ratio: must be in (-1, 0.5), got 0.5"});
  expectInputError([] { parseScene(minimalWith("/emitters/0/material/poisson_ratio", -1), "bad.json"); },
                   {"/emitters/0/material/poisson_ratio: must be in (-1, 0.5), got -1"});
  expectInputError([] { parseScene(minimalWith("/emitters/0/material/friction_angle", 90), "bad.json"); },
                   {"/emitters/0/material/friction_angle: must be in [0, 90), got 90"});
  expectInputError(
      [] { parseScene(minimalWith("/emitters/0/material/critical_compression", 1), "bad.json"); },
      {"/emitters/0/material/critical_compression: must be in (0, 1), got 1"});
  expectInputError([] { parseScene(minimalWith("/emitters/0/material/density", -1), "bad.json"); },
                   {"/emitters/0/material/density: must be >= 0, got -1"});
  expectInputError([] { parseScene(minimalWith("/emitters/0/material/young", 1e5), "bad.json"); },
                   {"bad.json: unknown key '/emitters/0/material/young'", "allowed keys: type, density"});
  expectInputError([] { parseScene(minimalWith("/emitters/0/material", "sand"), "bad.json"); },
                   {"bad.json: /emitters/0/material: expected an object, got string"});
  // the particle solvers take water only
  expectInputError([] { parseScene(minimalWith("/emitters/0/material/type", "sand"), "bad.json"); },
                   {"bad.json: /emitters/0/material/type: material 'sand' needs solver \"mpm\"",
                    "pbf solver simulates water only"});
  SceneDesc sand = parseScene(minimalWith("/emitters/0/material", {{"type", "sand"}, {"friction_angle", 35}}),
                              "ok.json", {"solver=mpm"});
  EXPECT_EQ(sand.emitters[0].material.type, "sand");
  EXPECT_EQ(sand.emitters[0].material.frictionAngle, 35.0f);
  EXPECT_EQ(sand.emitters[0].material.poissonRatio, MaterialDesc{}.poissonRatio);
}

TEST(SceneIo, NoEmitters) {
  expectInputError([] { parseScene(minimalWith("/emitters", nlohmann::json::array()), "dry.json"); },
                   {"dry.json: /emitters: the scene has no fluid; add at least one emitter"});
  expectInputError([] { parseScene("{}", "empty.json"); }, {"empty.json: /emitters: the scene has no fluid"});
}

// found by fuzzing: a deeply nested member followed by another key overflowed the stack (nlohmann copies
// the member recursively when the ordered object grows)
TEST(SceneIo, DeepNestingIsRefused) {
  const std::string deep = std::string(50000, '[') + "1" + std::string(50000, ']');
  expectInputError([&] { parseScene("{\"name\": " + deep + ", \"solver\": \"pbf\"}", "deep.json"); },
                   {"deep.json: line 1, column 73: invalid JSON: nested deeper than 64 levels"});
  expectInputError(
      [&] {
        parseScene(minimalWith("/name", "x"), "ok.json", {"description=" + deep, "name=y"});
      },
      {"--set 'description=[[[", "the value is nested deeper than 64 levels"});
  // brackets inside strings are text, and the scene's own nesting is far from the limit
  EXPECT_EQ(parseScene(minimalWith("/name", std::string(100, '[')), "ok.json").name, std::string(100, '['));
}

// found by fuzzing: 1e-50 passed "> 0" in double and became 0 in the engine's single precision, so the
// scene written back (scene.json) was rejected
TEST(SceneIo, RangesAreCheckedInSinglePrecision) {
  expectInputError([] { parseScene(minimalWith("/fluid/spacing", 1e-50), "tiny.json"); },
                   {"tiny.json: /fluid/spacing: must be > 0, got 1e-50 (0 in single precision)"});
  expectInputError(
      [] { parseScene(minimalWith("/name", "x"), "ok.json", {"emitters.0.shape.radius=1e-46"}); },
      {"/emitters/0/shape/radius: must be > 0"});
  // the smallest positive single-precision number is still > 0
  EXPECT_GT(parseScene(minimalWith("/fluid/rest_density", 1.5e-45), "ok.json").fluid.restDensity, 0.0f);
  // a decimal that is out of range as written is quoted as written, without its single-precision digits
  // (-0.1 is -0.10000000149011612 in single precision, which says nothing about why it is refused)
  for (const auto& [value, text] : {std::pair{-0.1, "-0.1"}, std::pair{-2.7, "-2.7"}}) {
    try {
      parseScene(minimalWith("/fluid/spacing", value), "neg.json");
      ADD_FAILURE() << "no InputError for " << text;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("neg.json: /fluid/spacing: must be > 0, got ") + text);
    }
  }
}

TEST(SceneIo, UnknownColliderReference) {
  expectInputError([] { parseScene(minimalWith("/emitters/0/collider", "tnak"), "bad.json"); },
                   {"bad.json: /emitters/0/collider: no collider is named 'tnak'", "named colliders: tank"});
  EXPECT_EQ(parseScene(minimalWith("/emitters/0/collider", "tank"), "ok.json").emitters[0].collider, "tank");
}

TEST(SceneIo, CrossFieldRules) {
  expectInputError(
      [] {
        parseScene(minimalWith("/domain/max", {1, 0, 1}), "bad.json");
      },
      {"bad.json: /domain: min must be less than max in every component"});
  expectInputError([] { parseScene(minimalWith("/fluid/spacing", 2), "bad.json"); },
                   {"bad.json: /fluid/spacing: must not exceed the smallest domain extent"});
  expectInputError([] { parseScene(minimalWith("/time/max_substeps", 2), "bad.json"); },
                   {"bad.json: /time/max_substeps: must be >= substeps (4), got 2"});
  expectInputError(
      [] {
        nlohmann::json doc = nlohmann::json::parse(minimalWith("/emitters/0/start", 2.0));
        doc["emitters"][0]["stop"] = 1.0;
        parseScene(doc.dump(), "bad.json");
      },
      {"bad.json: /emitters/0/stop: must be >= start (2), got 1"});
  expectInputError(
      [] {
        parseScene(minimalWith("/colliders/1", {{"name", "tank"}}), "bad.json");
      },
      {"bad.json: /colliders/1/name: duplicate collider name 'tank'"});
  expectInputError(
      [] {
        parseScene(minimalWith("/colliders/0/shape", {{"type", "plane"}, {"normal", {0, 1, 0}}}), "bad.json");
      },
      {"bad.json: /colliders/0/container: a plane cannot be a container"});
  expectInputError(
      [] {
        nlohmann::json doc = nlohmann::json::parse(minimalWith("/emitters/0/type", "nozzle"));
        doc["emitters"][0]["position"] = {2, 0.5, 0.5};
        parseScene(doc.dump(), "bad.json");
      },
      {"bad.json: /emitters/0/position: the nozzle must lie inside the domain"});
  expectInputError([] { parseScene(minimalWith("/emitters/0/shape/type", "plane"), "bad.json"); },
                   {"bad.json: /emitters/0/shape/type: a volume emitter cannot fill a plane"});
  expectInputError(
      [] {
        nlohmann::json doc = nlohmann::json::parse(minimalWith("/emitters/0/collider", "floor"));
        doc["colliders"].push_back({{"name", "floor"}, {"shape", {{"type", "plane"}}}});
        parseScene(doc.dump(), "bad.json");
      },
      {"bad.json: /emitters/0/collider: collider 'floor' is a plane"});
}

// ---------------------------------------------------------------- keyframed colliders

// kMinimal with a keyframed box collider "paddle" at /colliders/1, then value at pointer (if given)
std::string keyframedWith(const std::string& pointer = "", const nlohmann::json& value = {}) {
  nlohmann::json doc = nlohmann::json::parse(kMinimal);
  doc["colliders"].push_back(nlohmann::json::parse(R"({
    "name": "paddle", "shape": {"type": "box", "half_extents": [0.1, 0.2, 0.05]},
    "keyframes": [{"time": 0, "translation": [0.5, 0.5, 0.5]},
                  {"time": 0.5, "translation": [0.6, 0.5, 0.5], "rotation": [0, 90, 0]},
                  {"time": 1.5, "translation": [0.6, 0.4, 0.5], "rotation": [0, 90, 45]}]})"));
  if (!pointer.empty()) doc[nlohmann::json::json_pointer(pointer)] = value;
  return doc.dump(2);
}

TEST(SceneIo, KeyframesAreRead) {
  SceneDesc s = parseScene(keyframedWith(), "k.json");
  const std::vector<KeyframeDesc>& k = s.colliders[1].keyframes;
  ASSERT_EQ(k.size(), 3u);
  EXPECT_EQ(k[1].time, 0.5f);
  expectSameVec(k[1].translation, {0.6f, 0.5f, 0.5f}, "translation");
  expectSameVec(k[0].rotation, {0, 0, 0}, "a rotation left out is none");
  expectSameVec(k[2].rotation, {0, 90, 45}, "rotation");
  // an empty list is no keyframes (the writer writes one for every collider)
  EXPECT_TRUE(parseScene(keyframedWith("/colliders/0/keyframes", nlohmann::json::array()), "k.json")
                  .colliders[0]
                  .keyframes.empty());
  // and the round trip
  expectSameScene(s, parseScene(sceneToJson(s), "k.json"));
  EXPECT_EQ(sceneToJson(parseScene(sceneToJson(s), "k.json")), sceneToJson(s));
}

TEST(SceneIo, KeyframesAreChecked) {
  auto bad = [](const std::string& pointer, const nlohmann::json& value,
                std::initializer_list<std::string> parts) {
    SCOPED_TRACE(pointer);
    expectInputError([&] { parseScene(keyframedWith(pointer, value), "k.json"); }, parts);
  };
  bad("/colliders/1/keyframes", 3, {"k.json: /colliders/1/keyframes: expected an array of keyframe objects"});
  bad("/colliders/1/keyframes", nlohmann::json::array({{{"time", 0}, {"translation", {0, 0, 0}}}}),
      {"k.json: /colliders/1/keyframes: a keyframed collider needs at least 2 keyframes", "got 1"});
  bad("/colliders/1/keyframes/1", 0.5, {"k.json: /colliders/1/keyframes/1: expected an object, got 0.5"});
  bad("/colliders/1/keyframes/1/time", 0,
      {"k.json: /colliders/1/keyframes/1/time: keyframe times must increase strictly: must be > 0 (the time "
       "of keyframe 0), got 0"});
  bad("/colliders/1/keyframes/2/time", 0.25, {"/colliders/1/keyframes/2/time: keyframe times must increase"});
  bad("/colliders/1/keyframes/0/time", -1, {"k.json: /colliders/1/keyframes/0/time: must be >= 0, got -1"});
  bad("/colliders/1/keyframes/1/time", 1e-40,
      {"/colliders/1/keyframes/1/time: is too close to the time of "
       "keyframe 0 (0): the motion between them is too fast"});
  bad("/colliders/1/keyframes/1/translation", {1e39, 0, 0},
      {"k.json: /colliders/1/keyframes/1/translation/0: must be a finite single-precision number"});
  bad("/colliders/1/keyframes/1/rotation", {0, "90", 0},
      {"k.json: /colliders/1/keyframes/1/rotation/1: expected a number"});
  bad("/colliders/1/keyframes/2/rotaton", {0, 0, 0},
      {"unknown key '/colliders/1/keyframes/2/rotaton'", "allowed keys: time, translation, rotation",
       "did you mean 'rotation'?"});
  // time and translation are required
  expectInputError(
      [] {
        nlohmann::json doc = nlohmann::json::parse(keyframedWith());
        doc["colliders"][1]["keyframes"][1].erase("time");
        parseScene(doc.dump(), "k.json");
      },
      {"k.json: /colliders/1/keyframes/1/time: every keyframe needs \"time\""});
  expectInputError(
      [] {
        nlohmann::json doc = nlohmann::json::parse(keyframedWith());
        doc["colliders"][1]["keyframes"][0].erase("translation");
        parseScene(doc.dump(), "k.json");
      },
      {"k.json: /colliders/1/keyframes/0/translation: every keyframe needs \"translation\""});
  // the keyframes give the pose and the motion: no velocities, no placement of the shape
  bad("/colliders/1/linear_velocity", {1, 0, 0},
      {"k.json: /colliders/1/linear_velocity: a collider with \"keyframes\" moves and is placed by its "
       "keyframes alone"});
  bad("/colliders/1/angular_velocity", {0, 1, 0},
      {"k.json: /colliders/1/angular_velocity: a collider with \"keyframes\"", "leave out angular_velocity"});
  bad("/colliders/1/shape/center", {0.5, 0.5, 0.5},
      {"k.json: /colliders/1/shape/center: a collider with \"keyframes\"", "translation"});
  bad("/colliders/1/shape/rotation", {0, 10, 0},
      {"k.json: /colliders/1/shape/rotation: a collider with \"keyframes\"", "each keyframe's rotation"});
  bad("/colliders/1/shape", {{"type", "mesh"}, {"file", "x.obj"}, {"translation", {0, 1, 0}}},
      {"k.json: /colliders/1/shape/translation: a collider with \"keyframes\"", "mesh's translation"});
  // a keyframed mesh is fine
  EXPECT_EQ(parseScene(keyframedWith("/colliders/1/shape", {{"type", "mesh"}, {"file", "x.obj"}}), "k.json")
                .colliders[1]
                .keyframes.size(),
            3u);
  // --set reaches into the list and is named in the message
  expectInputError([] { parseScene(keyframedWith(), "k.json", {"colliders.1.keyframes.2.time=0.5"}); },
                   {"/colliders/1/keyframes/2/time: keyframe times must increase",
                    "(from --set 'colliders.1.keyframes.2.time=0.5')"});
}

// ---------------------------------------------------------------- probes and the WCSPH density keys

// kMinimal with a point probe on the domain wall x = 1 and a gauge, then value at pointer (if given)
std::string probesWith(const std::string& pointer = "", const nlohmann::json& value = {}) {
  nlohmann::json doc = nlohmann::json::parse(kMinimal);
  doc["probes"] = nlohmann::json::parse(R"([
    {"name": "wall_p1", "position": [1, 0.05, 0.5], "every": 0.001},
    {"name": "gauge-2", "type": "gauge", "position": [0.5, 0, 0.5]}])");
  if (!pointer.empty()) doc[nlohmann::json::json_pointer(pointer)] = value;
  return doc.dump(2);
}

TEST(SceneIo, ProbesAreRead) {
  SceneDesc s = parseScene(probesWith(), "p.json");
  ASSERT_EQ(s.probes.size(), 2u);
  EXPECT_EQ(s.probes[0].name, "wall_p1");
  EXPECT_EQ(s.probes[0].type, "point");  // the default
  expectSameVec(s.probes[0].position, {1, 0.05f, 0.5f}, "on the domain's face: inside");
  EXPECT_EQ(s.probes[0].every, 0.001f);
  EXPECT_EQ(s.probes[1].name, "gauge-2");
  EXPECT_EQ(s.probes[1].type, "gauge");
  expectSameVec(s.probes[1].position, {0.5f, 0, 0.5f}, "position");
  EXPECT_EQ(s.probes[1].every, 0.0f);  // once per frame
  expectSameVec(s.probes[0].face, {0, 0, 0}, "a point by default");
  expectSameVec(parseScene(probesWith("/probes/0/face", {0, 0.09, 0.02}), "p.json").probes[0].face,
                {0, 0.09f, 0.02f}, "face");
  EXPECT_TRUE(parseScene(kMinimal, "m.json").probes.empty());
  EXPECT_TRUE(parseScene(probesWith("/probes", nlohmann::json::array()), "p.json").probes.empty());
  EXPECT_EQ(parseScene(probesWith(), "p.json", {"solver=wcsph"}).probes.size(), 2u);
  // --set reaches into the list like into any other
  EXPECT_EQ(parseScene(probesWith(), "p.json", {"probes.1.every=0.5"}).probes[1].every, 0.5f);
}

TEST(SceneIo, WcsphDensityKeysAreRead) {
  SceneDesc d = parseScene(kMinimal, "m.json");
  EXPECT_EQ(d.wcsph.density, "continuity");
  EXPECT_EQ(d.wcsph.densityDiffusion, 0.1f);
  SceneDesc off = parseScene(kMinimal, "m.json", {"solver=wcsph", "wcsph.density_diffusion=0"});
  EXPECT_EQ(off.wcsph.density, "continuity");
  EXPECT_EQ(off.wcsph.densityDiffusion, 0.0f);
  SceneDesc sum = parseScene(kMinimal, "m.json", {"solver=wcsph", "wcsph.density=summation"});
  EXPECT_EQ(sum.wcsph.density, "summation");
  EXPECT_EQ(sum.wcsph.densityDiffusion, 0.1f);  // the default stays in the struct, unused
  SceneDesc file =
      parseScene(minimalWith("/wcsph", {{"density", "continuity"}, {"density_diffusion", 1}}), "m.json");
  EXPECT_EQ(file.wcsph.densityDiffusion, 1.0f);
}

TEST(SceneIo, RoundTripOfProbesAndWcsphDensityKeys) {
  SceneDesc s = parseScene(probesWith(), "p.json", {"solver=wcsph", "wcsph.density_diffusion=0.25"});
  std::string text = sceneToJson(s);
  SceneDesc back = parseScene(text, "p.json");
  expectSameScene(s, back);
  EXPECT_EQ(sceneToJson(back), text);
  nlohmann::json doc = nlohmann::json::parse(text);
  EXPECT_EQ(doc["wcsph"]["density"], "continuity");
  EXPECT_EQ(doc["wcsph"]["density_diffusion"], 0.25);
  // every key of a probe, defaults filled in
  EXPECT_EQ(doc["probes"][1],
            nlohmann::json::parse(
                R"({"name": "gauge-2", "type": "gauge", "position": [0.5, 0, 0.5], "every": 0,
                    "face": [0, 0, 0]})"));
  // a summed density has no diffusion term: the key is left out, so the text reads back
  s.wcsph.density = "summation";
  text = sceneToJson(s);
  EXPECT_FALSE(nlohmann::json::parse(text)["wcsph"].contains("density_diffusion"));
  back = parseScene(text, "p.json");
  EXPECT_EQ(back.wcsph.density, "summation");
  EXPECT_EQ(back.wcsph.densityDiffusion, WcsphSettings{}.densityDiffusion);
  EXPECT_EQ(sceneToJson(back), text);
}

TEST(SceneIo, ProbesAreChecked) {
  auto bad = [](const std::string& pointer, const nlohmann::json& value,
                std::initializer_list<std::string> parts) {
    SCOPED_TRACE(pointer);
    expectInputError([&] { parseScene(probesWith(pointer, value), "p.json"); }, parts);
  };
  bad("/probes", {{"name", "p"}}, {"p.json: /probes: expected an array of probe objects", "got object"});
  bad("/probes/1", 3, {"p.json: /probes/1: expected an object, got 3"});
  bad("/probes/0/positon", {0.5, 0.5, 0.5},
      {"p.json: unknown key '/probes/0/positon'", "allowed keys: name, type, position, every",
       "did you mean 'position'?"});
  bad("/probes/1/name", 7, {"p.json: /probes/1/name: expected a string, got 7"});
  bad("/probes/1/name", "", {"p.json: /probes/1/name: must not be empty", "letters, digits, '_' and '-'"});
  bad("/probes/1/name", "gauge 2",
      {"p.json: /probes/1/name: a probe name may hold only letters, digits, '_' and '-'",
       "got 'gauge 2' (' ' at position 5)"});
  bad("/probes/1/name", "a,b", {"/probes/1/name: a probe name may hold only", "(',' at position 1)"});
  bad("/probes/1/name", "g\n", {"/probes/1/name: a probe name may hold only", "the byte 0x0a at position 1"});
  bad("/probes/1/name", "wall_p1",
      {"p.json: /probes/1/name: duplicate probe name 'wall_p1' (also /probes/0/name); names must be unique"});
  bad("/probes/0/type", "line",
      {"p.json: /probes/0/type: unknown value 'line'; allowed values: point, gauge"});
  bad("/probes/0/position", {1.01, 0.05, 0.5},
      {"p.json: /probes/0/position: the probe must lie inside the domain [0, 0, 0] .. [1, 1, 1], got [1.01, "
       "0.05, 0.5]"});
  bad("/probes/1/position", {0.5, -0.001, 0.5}, {"p.json: /probes/1/position: the probe must lie inside"});
  bad("/probes/0/position", {0.5, 0.5}, {"p.json: /probes/0/position: expected an array of 3 numbers"});
  bad("/probes/0/every", -0.1, {"p.json: /probes/0/every: must be >= 0, got -0.1"});
  bad("/probes/0/every", 1e39, {"p.json: /probes/0/every: must be a finite single-precision number"});
  bad("/probes/0/every", "1", {"p.json: /probes/0/every: expected a number, got string"});
  bad("/probes/0/face", {0, -0.01, 0},
      {"p.json: /probes/0/face: a sensor face's extent along x, y and z must be >= 0 m (0 0 0: a point), got "
       "[0, -0.01, 0]"});
  bad("/probes/1/face", {0.1, 0, 0},
      {"p.json: /probes/1/face: only a point probe has a sensor face; a gauge reads the surface on its "
       "vertical line"});
  // name and position are required
  for (const char* key : {"name", "position"}) {
    SCOPED_TRACE(key);
    expectInputError(
        [&] {
          nlohmann::json doc = nlohmann::json::parse(probesWith());
          doc["probes"][1].erase(key);
          parseScene(doc.dump(), "p.json");
        },
        {"p.json: /probes/1/" + std::string(key) + ": every probe needs \"" + key + "\""});
  }
  // MPM has no SPH neighbour grid to read the particles through
  expectInputError([] { parseScene(probesWith(), "p.json", {"solver=mpm"}); },
                   {"p.json: /probes: is read only by solver pbf, wcsph or dfsph, not by the mpm solver",
                    "SPH neighbour grid"});
  // a value from --set is named
  expectInputError(
      [] { parseScene(probesWith(), "p.json", {"probes.0.name=a.b"}); },
      {"p.json: /probes/0/name: a probe name may hold only", "(from --set 'probes.0.name=a.b')"});
}

TEST(SceneIo, WcsphDensityKeysAreChecked) {
  expectInputError([] { parseScene(minimalWith("/wcsph/density", "sum"), "bad.json"); },
                   {"bad.json: /wcsph/density: unknown value 'sum'; allowed values: continuity, summation"});
  expectInputError([] { parseScene(minimalWith("/wcsph/density_diffusion", 1.5), "bad.json"); },
                   {"bad.json: /wcsph/density_diffusion: must be in [0, 1], got 1.5"});
  expectInputError([] { parseScene(minimalWith("/wcsph/density_diffusion", -0.1), "bad.json"); },
                   {"bad.json: /wcsph/density_diffusion: must be in [0, 1], got -0.1"});
  // the diffusion term belongs to the continuity density: refused beside "summation" when it is given,
  // whatever its value
  expectInputError(
      [] {
        parseScene(minimalWith("/wcsph", {{"density", "summation"}, {"density_diffusion", 0.1}}), "bad.json");
      },
      {"bad.json: /wcsph/density_diffusion: applies to wcsph.density \"continuity\" only"});
  expectInputError(
      [] {
        parseScene(kMinimal, "m.json", {"wcsph.density=summation", "wcsph.density_diffusion=0"});
      },
      {"m.json: /wcsph/density_diffusion: applies to wcsph.density \"continuity\" only",
       "(from --set 'wcsph.density_diffusion=0')"});
  expectInputError([] { parseScene(kMinimal, "m.json", {"wcsph.density=sum"}); },
                   {"m.json: /wcsph/density: unknown value 'sum'", "(from --set 'wcsph.density=sum')"});
}

}  // namespace
}  // namespace eddy
