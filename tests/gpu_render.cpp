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
#include "render_checks.h"
#endif

namespace {

#ifdef EDDY_WITH_RENDER

using namespace eddy::render;
using namespace eddy::render::checks;

TEST(GpuRender, ParticlesThroughTheEglDevice) {
  if (eddy::cudaDeviceName().empty()) GTEST_SKIP() << "no GPU here";
  std::unique_ptr<HeadlessGl> gl;
  try {
    gl = std::make_unique<HeadlessGl>();
  } catch (const eddy::InputError& e) {
    FAIL() << "a GPU but no OpenGL through EGL (are the GL loader libraries installed?): " << e.what();
  }
  std::printf("  OpenGL: %s (EGL %s)\n", gl->renderer().c_str(), gl->platform().c_str());
  EXPECT_EQ(gl->platform(), "device");
  EXPECT_EQ(gl->renderer().find("llvmpipe"), std::string::npos);

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

#else

TEST(GpuRender, NotBuilt) { GTEST_SKIP() << "this build has no renderer"; }

#endif

}  // namespace
