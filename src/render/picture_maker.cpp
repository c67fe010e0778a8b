#include <eddy/error.h>
#include <eddy/picture.h>

#include "render/gl_context.h"
#include "render/live_picture.h"

namespace eddy {

struct PictureMaker::Drawing {
  render::HeadlessGl gl;  // first: every GL object needs the context
  std::unique_ptr<render::LivePicture> picture;
};

namespace {
SceneDesc withMode(SceneDesc scene, const std::string& mode, int width, int height) {
  if (!mode.empty()) {
    if (mode != "particles" && mode != "ssfr" && mode != "surface")
      throw InputError("picture mode '" + mode + "': allowed are 'particles', 'ssfr' and 'surface'");
    scene.render.mode = mode;
  }
  if (width < 16 || height < 16 || width > 16384 || height > 16384)
    throw InputError("picture size " + std::to_string(width) + "x" + std::to_string(height) +
                     ": width and height from 16 to 16384 pixels");
  return scene;
}
}  // namespace

PictureMaker::PictureMaker(const SceneDesc& scene, int width, int height, const std::string& mode) {
  SceneDesc look = withMode(scene, mode, width, height);
  drawing_ = std::make_unique<Drawing>();
  drawing_->picture = std::make_unique<render::LivePicture>(look, width, height, "picture");
}

PictureMaker::~PictureMaker() = default;

Picture PictureMaker::draw(Simulation& sim) {
  drawing_->picture->draw(sim, sim.stats());
  render::Image image = drawing_->picture->read();
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

}  // namespace eddy
