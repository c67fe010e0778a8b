// The renderer's public door: renderCamera, the one place a picture's camera is decided (`eddy render`,
// `eddy run --render`, `eddy view`, PictureMaker), and ColliderShapes, the colliders' shapes and poses the
// scenery draws, which must pose them where the simulation has them.
#include <eddy/collider_shapes.h>
#include <eddy/error.h>
#include <eddy/render.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include "render/camera.h"
#include "render/scene_look.h"
#include "test_support.h"

using namespace eddy;
using eddy::test::expectInputError;
using eddy::test::sceneFile;

namespace {

void expectSame(Vec3 a, Vec3 b, double tolerance = 0) {
  EXPECT_NEAR(a.x, b.x, tolerance);
  EXPECT_NEAR(a.y, b.y, tolerance);
  EXPECT_NEAR(a.z, b.z, tolerance);
}

}  // namespace

TEST(RenderCamera, PlacedCameraClipsNothingItAimsAt) {
  RenderDesc look;
  look.frame = false;
  look.camera = {1, 2, 3};
  look.target = {0, 0.5f, 0};
  look.fov = 30;
  const Vec3 lo{0, 0, 0}, hi{2, 1, 1};
  const CameraView view = renderCamera(look, lo, hi, 0.01f, 16.0f / 9, "run");
  expectSame(view.position, look.camera);
  expectSame(view.target, look.target);
  EXPECT_EQ(view.fovDegrees, 30);
  EXPECT_FLOAT_EQ(view.near, 1e-3f * length(hi - lo));
  EXPECT_EQ(view.far, 1000);
}

TEST(RenderCamera, FramesTheBoxUnlessTheFlagsPlaceIt) {
  RenderDesc look;  // frame: true
  const Vec3 lo{-0.5f, 0, -0.25f}, hi{0.5f, 0.6f, 0.25f};
  std::vector<Vec3> corners;
  for (int c = 0; c < 8; ++c)
    corners.push_back({c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z});
  const render::Camera framed = render::Camera::framing(corners, 0.02f, float(look.fov), 2);
  const CameraView view = renderCamera(look, lo, hi, 0.02f, 2, "render");
  expectSame(view.position, framed.position);
  expectSame(view.target, framed.target);
  EXPECT_EQ(view.near, framed.near);
  EXPECT_EQ(view.far, framed.far);
  // a target given keeps the framed position and stops the clipping at the framed sphere
  const CameraView aimed = renderCamera(look, lo, hi, 0.02f, 2, "render", {}, Vec3{0, 0, 0});
  expectSame(aimed.position, framed.position);
  expectSame(aimed.target, Vec3{0, 0, 0});
  EXPECT_EQ(aimed.far, 1000);
  const CameraView placed = renderCamera(look, lo, hi, 0.02f, 2, "render", Vec3{0, 3, 0}, {});
  expectSame(placed.position, Vec3{0, 3, 0});
  expectSame(placed.target, framed.target);
  expectInputError(
      [&] {
        renderCamera(look, lo, hi, 0.02f, 2, "render", Vec3{1, 1, 1}, Vec3{1, 1, 1});
      },
      {"render: the camera stands on its target"});
}

TEST(RenderCamera, SceneLookTakesTheResolversCamera) {
  // `eddy run --render`, `eddy view` and PictureMaker draw with sceneLook's camera
  for (const char* sets : {"render.fov=25", "render.camera=[1.2,0.9,1.5]"}) {
    const SceneDesc scene = sceneFile("scenes/dam_break.json", {sets});
    const CameraView view = renderCamera(scene.render, scene.domain.min, scene.domain.max,
                                         0.5f * float(scene.fluid.spacing), 1.25f, "run");
    const render::Camera c = render::sceneLook(scene, "run", 1.25f).camera;
    expectSame(c.position, view.position);
    expectSame(c.target, view.target);
    EXPECT_EQ(c.fovY, view.fovDegrees);
    EXPECT_EQ(c.near, view.near);
    EXPECT_EQ(c.far, view.far);
  }
}

TEST(ColliderShapes, PoseTheCollidersWhereTheSimulationHasThem) {
  const SceneDesc scene = sceneFile("scenes/keyframed_paddle.json", {"fluid.spacing=0.05"});
  const ColliderShapes shapes(scene);
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_EQ(shapes.shape(0).kind, ColliderShape::Kind::Box);
  expectSame(shapes.shape(0).halfExtents, Vec3{0.02f, 0.12f, 0.19f}, 1e-7);
  std::unique_ptr<Simulation> sim = createSimulation(scene, Backend::Cpu);
  // through the push, the turn (0.5 to 1 s) and the lift
  for (int f = 0; f <= 84; ++f) {
    if (f % 12 == 0) {
      const ColliderPose want = sim->colliderPose(0), got = shapes.pose(0, sim->time());
      expectSame(got.center, want.center, 1e-5);
      EXPECT_NEAR(got.orientation.w, want.orientation.w, 1e-5);
      EXPECT_NEAR(got.orientation.y, want.orientation.y, 1e-5);
    }
    sim->advanceFrame();
  }
  EXPECT_NEAR(shapes.pose(0, 1.0).orientation.w, std::sqrt(0.5), 1e-5);  // a quarter turn about y
  EXPECT_THROW(shapes.shape(1), std::out_of_range);
}

TEST(ColliderShapes, MeshesArePlacedAndBadFilesNamed) {
  const SceneDesc knot = sceneFile("scenes/knot_pour.json");
  const ColliderShapes shapes(knot);
  ASSERT_GE(shapes.size(), 1u);
  std::size_t meshes = 0;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    if (shapes.shape(i).kind == ColliderShape::Kind::Mesh) {
      ++meshes;
      EXPECT_EQ(shapes.shape(i).mesh.triangles.size(), 4608u);
    }
  EXPECT_EQ(meshes, 1u);
  SceneDesc missing = knot;
  for (ColliderDesc& c : missing.colliders)
    if (c.shape.type == "mesh") c.shape.file = "meshes/no_such_mesh.obj", c.shape.mesh = nullptr;
  loadSceneMeshes(missing);  // the scene changed in code reads its meshes again
  expectInputError([&] { ColliderShapes bad(missing); }, {"/colliders/", "/shape", "no_such_mesh.obj"});
}
