#include "run_render.h"

#include <eddy/error.h>
#include <eddy/output.h>

#include <cstdio>
#include <filesystem>

#include "render_command.h"

#ifdef EDDY_WITH_RENDER
#include <eddy/picture.h>
#include <eddy/render.h>
#endif

namespace eddy::app {

#ifdef EDDY_WITH_RENDER

struct InRunRenderer::Impl {
  std::string dir, mode;
  std::unique_ptr<PictureMaker> picture;
};

InRunRenderer::InRunRenderer(const SceneDesc& scene, const std::string& outDir, const std::string& size) {
  int width = 0, height = 0;
  parseSize(size, "run: --render-size", width, height);
  impl_ = std::make_unique<Impl>();
  impl_->dir = (std::filesystem::path(outDir) / "render").string();
  impl_->mode = scene.render.mode;
  impl_->picture = std::make_unique<PictureMaker>(scene, width, height, "", "run");
}

InRunRenderer::~InRunRenderer() = default;

void InRunRenderer::draw(Simulation& sim, int frame, const FrameStats& stats) {
  const Picture picture = impl_->picture->draw(sim, stats);
  // made here, not when the renderer starts: a run refused before its first frame writes nothing
  std::filesystem::create_directories(impl_->dir);
  char name[32];
  std::snprintf(name, sizeof name, "frame_%06d.png", frame);
  writePng((std::filesystem::path(impl_->dir) / name).string(), picture);
}

std::string InRunRenderer::description() const {
  return impl_->picture->device() + ", " + impl_->mode +
         (impl_->picture->throughInterop() ? ", from device memory through CUDA-OpenGL interop" : "");
}

#else

struct InRunRenderer::Impl {};

InRunRenderer::InRunRenderer(const SceneDesc&, const std::string&, const std::string&) {
  throw InputError(
      "run: --render: this build of eddy has no renderer (bash scripts/setup.sh installs EGL, OpenGL and "
      "libpng)");
}
InRunRenderer::~InRunRenderer() = default;
void InRunRenderer::draw(Simulation&, int, const FrameStats&) {}
std::string InRunRenderer::description() const { return ""; }

#endif

}  // namespace eddy::app
