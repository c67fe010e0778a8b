// <eddy/viewer.h>: the viewer's frames on a display, one after the other, with their timings.
#include <eddy/error.h>
#include <eddy/viewer.h>

#include "render/image.h"
#include "render/offscreen_target.h"
#include "viewer/display.h"
#include "viewer/viewer.h"

namespace eddy {

namespace {

ViewReport viewSceneAtSize(const SceneDesc& scene, Backend backend, const ViewSettings& s) {
  std::unique_ptr<viewer::Display> display =
      s.offscreen ? viewer::openOffscreen(s.width, s.height)
                  : viewer::openWindow(s.width, s.height, "eddy view: " + scene.name, s.vsync);
  viewer::Viewer view(scene, backend, float(s.width) / float(s.height));
  view.setSpeed(s.speed);
  ViewReport report;
  render::Image shot;
  for (int f = 0; display->open() && (s.frames == 0 || f < s.frames); ++f) {
    const viewer::ViewerInput input = display->poll();
    view.frame(input, display->framebuffer(), display->width(), display->height());
    if (!s.screenshot.empty() && (f + 1 == s.frames || !display->open())) shot = display->screenshot();
    display->present();
    // the first frames build the GL programs and warm the GPU up
    if (f >= 3) {
      report.frameMs.push_back(view.timings().frame);
      report.simulationMs.push_back(view.timings().simulation);
      report.pictureMs.push_back(view.timings().picture);
    }
  }
  if (!s.screenshot.empty()) {
    if (shot.rgb.empty()) shot = display->screenshot();
    render::writePng(s.screenshot, shot);
  }
  report.particles = static_cast<long long>(view.simulation().particleCount());
  report.display = display->description();
  report.failure = view.failure();
  return report;
}

}  // namespace

ViewReport viewScene(const SceneDesc& scene, Backend backend, const ViewSettings& s) {
  try {
    return viewSceneAtSize(scene, backend, s);
  } catch (const render::PictureSizeRefused& e) {
    throw InputError(std::string("view: --size ") + e.what());
  }
}

}  // namespace eddy
