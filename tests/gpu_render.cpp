// The renderer on the GPU machine, through NVIDIA's EGL device platform (no display): the context must come
// from the GPU, not from a software rasteriser, and the picture must show what it shows on llvmpipe.
#include <eddy/backend.h>
#include <eddy/error.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#ifdef EDDY_WITH_RENDER
#include "render/gl_context.h"
#include "render/screen_space_fluid_renderer.h"
#include "render_checks.h"
#endif

namespace {

#ifdef EDDY_WITH_RENDER

using namespace eddy::render;
using namespace eddy::render::checks;

// an OpenGL context from the GPU through NVIDIA's EGL device platform, or the test skips (no GPU) or fails
class GpuRender : public ::testing::Test {
 protected:
  void SetUp() override {
    if (eddy::cudaDeviceName().empty()) GTEST_SKIP() << "no GPU here";
    try {
      gl_ = std::make_unique<HeadlessGl>();
    } catch (const eddy::InputError& e) {
      FAIL() << "a GPU but no OpenGL through EGL (are the GL loader libraries installed?): " << e.what();
    }
    std::printf("  OpenGL: %s (EGL %s)\n", gl_->renderer().c_str(), gl_->platform().c_str());
    EXPECT_EQ(gl_->platform(), "device");
    EXPECT_EQ(gl_->renderer().find("llvmpipe"), std::string::npos);
  }
  std::unique_ptr<HeadlessGl> gl_;
};

TEST_F(GpuRender, ParticlesThroughTheEglDevice) {
  const std::vector<eddy::Vec3> points = column();
  const float radius = kSpacing / 2;
  const Camera camera = Camera::framing(points, radius);
  ParticleRenderer renderer(kWidth, kHeight);
  const Image image = renderer.render(points, std::vector<float>(points.size(), 0.0f), camera, {radius, 1});
  std::size_t drawn = 0;
  const double iou = silhouetteIoU(image, analyticMask(points, camera, radius), &drawn);
  std::printf("  %zu particles: %zu pixels drawn, IoU %.4f against the analytic projection\n", points.size(),
              drawn, iou);
  EXPECT_GE(iou, 0.9);
  EXPECT_TRUE(isBackground(image, 0, 0));
}

// the screen-space fluid's four passes on the GPU: the outline is the particles' silhouette, the inside is
// tinted by the water it looks through and smoothed (measured on the H100: IoU 0.9952, middle pixel
// 109 190 201, roughness 2.3 against 28.6 as shaded spheres; llvmpipe: 0.9952, 108 189 200, 3.3)
TEST_F(GpuRender, ScreenSpaceFluidThroughTheEglDevice) {
  const std::vector<eddy::Vec3> points = column();
  const float radius = kSpacing / 2;
  const Camera camera = Camera::framing(points, radius);
  ScreenSpaceFluidRenderer fluid(kWidth, kHeight);
  FluidStyle style;
  style.radius = radius;
  const Image image = fluid.render(points, camera, style);
  const std::vector<char> expected = analyticMask(points, camera, radius);
  const double iou = silhouetteIoU(image, expected);
  float px, py, depth;
  camera.project(eddy::Vec3{0.1f, 0.15f, 0.08f}, kWidth, kHeight, px, py, depth);
  const std::uint8_t* middle = image.at(int(px), int(py));
  ParticleRenderer spheres(kWidth, kHeight);
  const double smooth = roughnessInside(image, expected),
               beads = roughnessInside(spheres.render(points, {}, camera, {radius, 1}), expected);
  std::printf("  IoU %.4f; middle %d %d %d; roughness inside %.2f, as spheres %.2f\n", iou, middle[0],
              middle[1], middle[2], smooth, beads);
  EXPECT_GE(iou, 0.9);
  EXPECT_TRUE(isBackground(image, 0, 0));
  EXPECT_GT(middle[2], middle[0] + 50);
  EXPECT_LT(smooth, 0.25 * beads);
}

#else

TEST(GpuRender, NotBuilt) { GTEST_SKIP() << "this build has no renderer"; }

#endif

}  // namespace
