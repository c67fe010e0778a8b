#include "render/live_picture.h"

#include "render/color_bar.h"

namespace eddy::render {

LivePicture::LivePicture(const SceneDesc& scene, int width, int height, const std::string& command)
    : scene_(scene), look_(sceneLook(scene, command, float(width) / float(height))) {
  const std::string& mode = scene.render.mode;
  if (mode == "ssfr") {
    fluid_ = std::make_unique<ScreenSpaceFluidRenderer>(width, height);
    fluid_->setEnvironment(look_.environment);
    target_ = &fluid_->target();
  } else if (mode == "surface") {
    surface_ = std::make_unique<SurfaceRenderer>(width, height);
    surface_->setEnvironment(look_.environment);
    target_ = &surface_->target();
  } else {
    spheres_ = std::make_unique<ParticleRenderer>(width, height);
    target_ = &spheres_->target();
  }
  if (scene.render.scenery) {
    scenery_ = std::make_unique<Scenery>(scene);
    if (fluid_) fluid_->setScenery(scenery_.get());
    if (surface_) surface_->setScenery(scenery_.get());
    if (spheres_) spheres_->setScenery(scenery_.get());
  }
}

void LivePicture::draw(Simulation& sim, const FrameStats& stats) {
  if (scenery_) scenery_->follow(sim);
  if (surface_) {
    mesh_.fill(sim);
    surface_->draw(mesh_, look_.camera, look_.water);
  } else if (fluid_ && scene_.render.ellipsoids) {
    ellipsoids_.fill(sim);
    fluid_->draw(ellipsoids_, look_.camera, look_.fluid);
  } else if (fluid_) {
    particles_.fill(sim);
    fluid_->draw(particles_, look_.camera, look_.fluid);
  } else {
    particles_.fill(sim, scene_.render.colorBy);
    widenColorRange(look_.spheres, scene_, stats);
    spheres_->draw(particles_, look_.camera, look_.spheres);
  }
}

Image LivePicture::read() {
  Image image = target_->read();
  if (spheres_ && scene_.render.colorBy != "material")
    drawColorBar(image, look_.spheres.low, look_.spheres.high, look_.spheres.valueLow, look_.spheres.valueTop,
                 colorUnit(scene_.render.colorBy));
  return image;
}

bool LivePicture::throughInterop() const {
  return particles_.throughInterop() || ellipsoids_.throughInterop() || mesh_.throughInterop();
}

}  // namespace eddy::render
