#include <eddy/error.h>
#include <eddy/picture.h>
#include <eddy/render.h>

#include "render/gl_context.h"
#include "render/image.h"
#include "render/live_picture.h"
#include "render/offscreen_target.h"

namespace eddy {

struct PictureMaker::Drawing {
  render::HeadlessGl gl;  // first: every GL object needs the context
  std::unique_ptr<render::LivePicture> picture;
};

namespace {
SceneDesc withMode(SceneDesc scene, const std::string& mode) {
  if (!mode.empty()) {
    if (mode != "particles" && mode != "ssfr" && mode != "surface")
      throw InputError("picture mode '" + mode + "': allowed are 'particles', 'ssfr' and 'surface'");
    scene.render.mode = mode;
  }
  return scene;
}

Picture rgba(const render::Image& image) {
  Picture out;
  out.width = image.width;
  out.height = image.height;
  out.rgba.resize(std::size_t(image.width) * image.height * 4);
  for (std::size_t i = 0, n = std::size_t(image.width) * image.height; i < n; ++i) {
    out.rgba[4 * i + 0] = image.rgb[3 * i + 0];
    out.rgba[4 * i + 1] = image.rgb[3 * i + 1];
    out.rgba[4 * i + 2] = image.rgb[3 * i + 2];
    out.rgba[4 * i + 3] = 255;
  }
  return out;
}
}  // namespace

PictureMaker::PictureMaker(const SceneDesc& scene, int width, int height, const std::string& mode) {
  const SceneDesc look = withMode(scene, mode);
  if (width < 16 || height < 16 || width > 16384 || height > 16384)
    throw InputError("picture size " + std::to_string(width) + "x" + std::to_string(height) +
                     ": width and height from 16 to 16384 pixels");
  drawing_ = std::make_unique<Drawing>();
  try {
    drawing_->picture = std::make_unique<render::LivePicture>(look, width, height, "picture");
  } catch (const render::PictureSizeRefused& e) {
    throw InputError(std::string("render: picture size ") + e.what());
  }
}

PictureMaker::PictureMaker(const SceneDesc& scene, int width, int height, const std::string& mode,
                           const std::string& command) {
  if (width <= 0 || height <= 0)
    throw InputError(command + ": picture size " + std::to_string(width) + "x" + std::to_string(height) +
                     ": width and height must be positive");
  const SceneDesc look = withMode(scene, mode);
  drawing_ = std::make_unique<Drawing>();
  try {
    drawing_->picture = std::make_unique<render::LivePicture>(look, width, height, command);
  } catch (const render::PictureSizeRefused& e) {
    throw InputError(command + ": --render-size " + e.what());
  }
}

PictureMaker::~PictureMaker() = default;

Picture PictureMaker::draw(Simulation& sim) { return draw(sim, sim.stats()); }

Picture PictureMaker::draw(Simulation& sim, const FrameStats& stats) {
  drawing_->picture->draw(sim, stats);
  return rgba(drawing_->picture->read());
}

double PictureMaker::drawAndWait(Simulation& sim, const FrameStats& stats) {
  drawing_->picture->draw(sim, stats);
  return drawing_->picture->target().waitMilliseconds();
}

std::string PictureMaker::device() const {
  return drawing_->gl.renderer() + " (EGL " + drawing_->gl.platform() + ")";
}

bool PictureMaker::throughInterop() const { return drawing_->picture->throughInterop(); }

void writePng(const std::string& path, const Picture& picture) {
  render::Image image;
  image.width = picture.width;
  image.height = picture.height;
  image.rgb.resize(std::size_t(picture.width) * picture.height * 3);
  for (std::size_t i = 0, n = std::size_t(picture.width) * picture.height; i < n; ++i)
    for (int c = 0; c < 3; ++c) image.rgb[3 * i + c] = picture.rgba[4 * i + c];
  render::writePng(path, image);
}

}  // namespace eddy
