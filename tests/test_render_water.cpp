// Water shaded as water: absorption in linear light at the documented figure per metre, over the thickness
// the view ray crosses (surface mode too), the sky behind the scenery that the water reflects, and a
// framing camera that fits the field of view and the picture's shape.
#include <eddy/error.h>
#include <eddy/scene_io.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

#include "render/camera.h"

#ifdef EDDY_WITH_RENDER
#include <eddy/mesh.h>

#include "render/gl_context.h"
#include "render/image.h"
#include "render/scene_look.h"
#include "render/scenery.h"
#include "render/screen_space_fluid_renderer.h"
#include "render/surface_renderer.h"
#include "render/water_shading.h"
#include "render_checks.h"
#endif

namespace {

using eddy::Vec3;
using eddy::render::Camera;

// the box's corners in the picture, as the largest |NDC| across and up
void reach(const std::vector<Vec3>& points, const Camera& c, int width, int height, double& across,
           double& up) {
  across = up = 0;
  for (const Vec3& p : points) {
    float px, py, depth;
    c.project(p, width, height, px, py, depth);
    across = std::max(across, std::abs(2.0 * px / width - 1));
    up = std::max(up, std::abs(1 - 2.0 * py / height));
  }
}

// the framing camera keeps every corner of the dam break's tank in the picture, and fills the tighter
// direction well, for narrow and wide fields of view and landscape and portrait pictures
TEST(RenderCamera, FramingFitsBothHalfAngles) {
  std::vector<Vec3> tank;
  for (int c = 0; c < 8; ++c) tank.push_back({c & 1 ? 1.6f : 0.0f, c & 2 ? 0.8f : 0.0f, c & 4 ? 0.6f : 0.0f});
  const int sizes[][2] = {{1280, 720}, {720, 1280}, {400, 1600}, {1600, 400}};
  std::printf("  fov  size        reach across  up\n");
  for (float fov : {15.0f, 40.0f, 100.0f})
    for (const auto& size : sizes) {
      const Camera c = Camera::framing(tank, 0.01f, fov, float(size[0]) / float(size[1]));
      EXPECT_EQ(c.fovY, fov);
      double across, up;
      reach(tank, c, size[0], size[1], across, up);
      std::printf("  %3.0f  %4dx%-4d   %.3f  %.3f\n", double(fov), size[0], size[1], across, up);
      EXPECT_LE(std::max(across, up), 1.0)
          << "the tank is cut at fov " << fov << ", " << size[0] << "x" << size[1];
      EXPECT_GE(std::max(across, up), 0.6)
          << "the tank is small at fov " << fov << ", " << size[0] << "x" << size[1];
    }
}

#ifdef EDDY_WITH_RENDER

using namespace eddy::render;
using namespace eddy::render::checks;

class RenderWater : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      gl_ = std::make_unique<HeadlessGl>();
    } catch (const eddy::InputError& e) {
      GTEST_SKIP() << "no OpenGL here: " << e.what();
    }
  }
  std::unique_ptr<HeadlessGl> gl_;
};

// a box of water, each face its own four corners so that its normals are the faces' own
eddy::TriangleMesh boxMesh(Vec3 centre, Vec3 half) {
  eddy::TriangleMesh m;
  for (int axis = 0; axis < 3; ++axis)
    for (int side = -1; side <= 1; side += 2) {
      Vec3 n{0, 0, 0}, u{0, 0, 0}, v{0, 0, 0};
      (&n.x)[axis] = float(side);
      (&u.x)[(axis + 1) % 3] = (&half.x)[(axis + 1) % 3];
      (&v.x)[(axis + 2) % 3] = (&half.x)[(axis + 2) % 3];
      const Vec3 c = centre + n * (&half.x)[axis];
      const auto first = std::uint32_t(m.vertices.size());
      for (const Vec3& corner : {c - u - v, c + u - v, c + u + v, c - u + v}) {
        m.vertices.push_back(corner);
        m.normals.push_back(n);
      }
      m.triangles.push_back({first, first + 1, first + 2});
      m.triangles.push_back({first, first + 2, first + 3});
    }
  return m;
}

double linear(std::uint8_t c) {
  const double s = c / 255.0;
  return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
}

// a scene of a 2 m cube of a domain about the origin, its floor and far walls the scenery
eddy::SceneDesc cubeScene() {
  eddy::SceneDesc scene = eddy::loadScene("", {"fluid.spacing=0.02"});
  scene.domain.min = {-1, -1, -1};
  scene.domain.max = {1, 1, 1};
  scene.colliders.clear();
  return scene;
}

// A slab of water 0.3 m thick seen straight on, over two backgrounds (the plain one, and the scenery's far
// wall): the difference between the two pictures is what crosses the water, as the reflection and the
// light scattered in are the same over both. Linear light: (1 - F0) exp(-(a + b) t) of the backgrounds'
// difference, a the absorption per metre, b the scattering. The pictures' 8 bits leave about 0.05 per
// metre of uncertainty on each figure.
TEST_F(RenderWater, AbsorptionIsThePerMetreFigureInLinearLight) {
  const eddy::SceneDesc scene = cubeScene();
  Scenery scenery(scene);
  Camera camera;
  camera.position = {0, 0, 3};
  camera.target = {0, 0, 0};
  const float t = 0.3f;
  const eddy::TriangleMesh slab = boxMesh({0, 0, 0}, {0.4f, 0.4f, t / 2});
  WaterStyle style;
  SurfaceRenderer renderer(kWidth, kHeight);
  const Image plain = renderer.render(eddy::TriangleMesh{}, camera, style);
  const Image plainWater = renderer.render(slab, camera, style);
  renderer.setScenery(&scenery);
  const Image wall = renderer.render(eddy::TriangleMesh{}, camera, style);
  const Image wallWater = renderer.render(slab, camera, style);
  const int x = kWidth / 2, y = kHeight / 2;
  const float want[3] = {style.absorption.r, style.absorption.g, style.absorption.b};
  for (int c = 0; c < 3; ++c) {
    const double behind = linear(plain.at(x, y)[c]) - linear(wall.at(x, y)[c]);
    const double through = linear(plainWater.at(x, y)[c]) - linear(wallWater.at(x, y)[c]);
    const double measured = -std::log(through / ((1 - style.fresnelF0) * behind)) / t - kWaterScattering;
    std::printf("  channel %d: backgrounds %.3f apart, %.4f through %.2f m: absorption %.3f /m (set %.2f)\n",
                c, behind, through, double(t), measured, double(want[c]));
    ASSERT_GT(behind, 0.3);
    EXPECT_NEAR(measured, want[c], 0.1 * want[c] + 0.05) << "channel " << c;
  }
}

// surface mode absorbs over the water the view ray crosses: a thin sheet shows the background nearly as
// it is, a thick block takes most of the red away
TEST_F(RenderWater, SurfaceAbsorbsOverTheWatersThickness) {
  Camera camera;
  camera.position = {0, 0, 3};
  camera.target = {0, 0, 0};
  eddy::TriangleMesh both = boxMesh({-0.5f, 0, 0}, {0.3f, 0.3f, 0.025f});
  const eddy::TriangleMesh thick = boxMesh({0.5f, 0, 0}, {0.3f, 0.3f, 0.4f});
  const auto offset = std::uint32_t(both.vertices.size());
  both.vertices.insert(both.vertices.end(), thick.vertices.begin(), thick.vertices.end());
  both.normals.insert(both.normals.end(), thick.normals.begin(), thick.normals.end());
  for (auto tri : thick.triangles)
    both.triangles.push_back({tri[0] + offset, tri[1] + offset, tri[2] + offset});
  SurfaceRenderer renderer(kWidth, kHeight);
  const Image image = renderer.render(both, camera);
  float px, py, depth;
  camera.project({-0.5f, 0, 0.025f}, kWidth, kHeight, px, py, depth);
  const std::uint8_t* thin = image.at(int(px), int(py));
  camera.project({0.5f, 0, 0.4f}, kWidth, kHeight, px, py, depth);
  const std::uint8_t* deep = image.at(int(px), int(py));
  std::printf("  0.05 m of water: %d %d %d; 0.8 m: %d %d %d\n", thin[0], thin[1], thin[2], deep[0], deep[1],
              deep[2]);
  EXPECT_GT(thin[0], deep[0] + 60);
  EXPECT_GT(deep[2], deep[0] + 30);                      // the deep water is blue
  EXPECT_LT(std::abs(int(thin[0]) - int(thin[2])), 40);  // the thin sheet nearly the background's grey
}

// with scenery, the water stands in front of the sky it reflects (the procedural sky, or the environment
// image), not a grey backdrop: blue above the horizon, the environment's own colour with one
TEST_F(RenderWater, TheSkyItReflectsIsBehindTheScenery) {
  const eddy::SceneDesc scene = cubeScene();
  Scenery scenery(scene);
  Camera camera;
  camera.position = {0, 1.5f, 4};
  camera.target = {0, 1.5f, 0};
  SurfaceRenderer surface(kWidth, kHeight);
  ScreenSpaceFluidRenderer fluid(kWidth, kHeight);
  surface.setScenery(&scenery);
  fluid.setScenery(&scenery);
  FluidStyle style;
  const Image a = surface.render(eddy::TriangleMesh{}, camera),
              b = fluid.render(std::vector<Vec3>{}, camera, style);
  for (const Image* image : {&a, &b}) {
    const std::uint8_t* top = image->at(kWidth / 2, 2);
    std::printf("  top of the picture: %d %d %d\n", top[0], top[1], top[2]);
    EXPECT_GT(top[2], top[0] + 40) << "no blue sky above";
    EXPECT_FALSE(isBackground(*image, kWidth / 2, 2));
  }
  Image red;
  red.width = 16, red.height = 8;
  for (int i = 0; i < red.width * red.height; ++i) red.rgb.insert(red.rgb.end(), {230, 20, 20});
  surface.setEnvironment(red);
  const std::uint8_t* top = surface.render(eddy::TriangleMesh{}, camera).at(kWidth / 2, 2);
  EXPECT_NEAR(top[0], 230, 3);
  EXPECT_NEAR(top[1], 20, 3);
}

// half a metre of water over the checkered floor, seen from above: the floor's contrast through it is a
// small part of its own (the light from it absorbed and scattered out, the water's colour scattered in),
// where shading on sRGB values over a fixed depth with no scattering kept a third to a half of it in green
// and blue, and the water read as glass
TEST_F(RenderWater, TheFloorFadesUnderHalfAMetreOfWater) {
  const eddy::SceneDesc scene = cubeScene();
  Scenery scenery(scene);
  Camera camera;
  camera.position = {0.1f, 2, 0.3f};
  camera.target = {0.1f, -1, 0};
  SurfaceRenderer renderer(kWidth, kHeight);
  renderer.setScenery(&scenery);
  const Image bare = renderer.render(eddy::TriangleMesh{}, camera);
  const Image wet = renderer.render(boxMesh({0, -0.75f, 0}, {0.6f, 0.25f, 0.6f}), camera);
  auto contrast = [](const Image& image, int c) {
    double lo = 1, hi = 0;
    for (int y = kHeight / 2 - 30; y < kHeight / 2 + 30; ++y)
      for (int x = kWidth / 2 - 30; x < kWidth / 2 + 30; ++x) {
        lo = std::min(lo, linear(image.at(x, y)[c]));
        hi = std::max(hi, linear(image.at(x, y)[c]));
      }
    return hi - lo;
  };
  for (int c = 0; c < 3; ++c) {
    const double kept = contrast(wet, c) / contrast(bare, c);
    std::printf("  channel %d: the floor's contrast %.3f bare, %.3f under 0.5 m of water (%.0f %%)\n", c,
                contrast(bare, c), contrast(wet, c), 100 * kept);
    ASSERT_GT(contrast(bare, c), 0.05) << "no checkerboard in the window";
    EXPECT_LT(kept, 0.2) << "channel " << c;
  }
}

// a frame whose fastest particle is infinitely fast (a blown-up step) leaves the live colour map as it was
TEST(RenderColourRange, IgnoresSpeedsThatAreNotFinite) {
  const eddy::SceneDesc scene = eddy::loadScene("", {});
  ParticleStyle style;
  style.valueTop = 2;
  eddy::FrameStats stats;
  stats.maxSpeed = std::numeric_limits<double>::infinity();
  widenColorRange(style, scene, stats);
  EXPECT_EQ(style.valueTop, 2.0f);
  stats.maxSpeed = 3;
  widenColorRange(style, scene, stats);
  EXPECT_EQ(style.valueTop, 3.0f);
}

#endif

}  // namespace
