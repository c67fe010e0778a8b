#include "viewer/viewer.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>

#include "render/particle_renderer.h"
#include "render/screen_space_fluid_renderer.h"
#include "render/surface_renderer.h"

namespace eddy::viewer {

namespace {

constexpr const char* kPusherName = "viewer pusher";
constexpr float kPusherTopSpeed = 5;  // m/s: a flick of the mouse pushes hard, but never explodes the water

float largestExtent(const DomainDesc& d) {
  const Vec3 e = d.max - d.min;
  return std::max({float(e.x), float(e.y), float(e.z)});
}

}  // namespace

struct Viewer::Renderers {
  int width = 0, height = 0;
  std::unique_ptr<render::ParticleRenderer> spheres;
  std::unique_ptr<render::ScreenSpaceFluidRenderer> fluid;
  std::unique_ptr<render::SurfaceRenderer> surface;
};

Viewer::Viewer(const SceneDesc& scene, Backend backend, float aspect)
    : scene_(scene),
      backend_(backend),
      look_(render::sceneLook(scene, "view", aspect)),
      orbit_(look_.camera),
      renderers_(std::make_unique<Renderers>()),
      scenery_(std::make_unique<render::Scenery>(scene)),
      showScenery_(scene.render.scenery) {
  if (scene.render.mode == "ssfr") mode_ = ViewMode::ScreenSpaceFluid;
  if (scene.render.mode == "surface") mode_ = ViewMode::Surface;
  // the mouse pushes the water with a sphere collider of the scene's own, parked below the domain while
  // the mouse does not push: a collider away from every particle changes nothing
  const float radius = std::max(0.06f * largestExtent(scene.domain),
                                1.5f * float(scene.fluid.supportRatio * scene.fluid.spacing));
  parked_ = Vec3{0.5f * (scene.domain.min.x + scene.domain.max.x),
                 scene.domain.min.y - largestExtent(scene.domain) - 4 * radius,
                 0.5f * (scene.domain.min.z + scene.domain.max.z)};
  ColliderDesc pusher;
  pusher.name = kPusherName;
  pusher.shape.type = "sphere";
  pusher.shape.radius = radius;
  pusher.shape.center = parked_;
  pusher_ = scene_.colliders.size();
  scene_.colliders.push_back(pusher);
  for (const EmitterDesc& e : scene_.emitters)
    if (e.type == "nozzle") nozzleActive_.push_back(1);
  device_ = backend == Backend::Cuda ? cudaDeviceName() : std::string("CPU");
  rebuild(false);
}

Viewer::~Viewer() = default;

void Viewer::rebuild(bool keepState) {
  SimulationState state;
  if (keepState) state = sim_->saveState();
  std::unique_ptr<Simulation> next = createSimulation(scene_, backend_);
  if (keepState) next->restoreState(state);
  sim_ = std::move(next);
  for (std::size_t k = 0; k < nozzleActive_.size(); ++k) sim_->setNozzleActive(k, nozzleActive_[k] != 0);
  profileBefore_ = sim_->profile();
  stats_ = sim_->stats();
  pushing_ = false;
  particlesStale_ = ellipsoidsStale_ = meshStale_ = true;
}

void Viewer::movePusher(Vec3 center, Vec3 velocity) { sim_->moveCollider(pusher_, center, velocity); }

void Viewer::parkPusher() {
  movePusher(parked_, Vec3{0, 0, 0});
  pushing_ = false;
}

void Viewer::handleInput(const ViewerInput& in, int width, int height) {
  for (int key : in.keys) {
    if (in.uiHasKeyboard) break;
    if (key == ' ') paused_ = !paused_;
    if (key == 'N') paused_ = true, stepOnce_ = true;
    if (key == 'R') failure_.clear(), rebuild(false);
    if (key == 'M') mode_ = ViewMode((int(mode_) + 1) % 3);
    if (key >= '1' && key <= '9') {
      const std::size_t k = std::size_t(key - '1');
      if (k < nozzleActive_.size()) {
        nozzleActive_[k] = !nozzleActive_[k];
        sim_->setNozzleActive(k, nozzleActive_[k] != 0);
      }
    }
  }
  const bool any = in.left || in.right || in.middle;
  if (!any) {
    if (drag_ == Drag::Push) parkPusher();
    drag_ = Drag::None;
  } else if (drag_ == Drag::None && !in.uiHasMouse) {
    drag_ = in.left ? (in.shift ? Drag::Push : Drag::Orbit) : Drag::Pan;
    lastX_ = in.mouseX, lastY_ = in.mouseY;
  }
  const double dx = in.mouseX - lastX_, dy = in.mouseY - lastY_;
  lastX_ = in.mouseX, lastY_ = in.mouseY;
  if (drag_ == Drag::Orbit) orbit_.orbit(dx, dy, height);
  if (drag_ == Drag::Pan) orbit_.pan(dx, dy, height);
  if (!in.uiHasMouse && in.wheel != 0) orbit_.zoom(in.wheel);
  if (drag_ == Drag::Push) {
    // the sphere slides in the upright plane through the view's target that faces the camera, inside the
    // domain; it covers the distance to the mouse over the frame's simulated time
    const Vec3 lo = scene_.domain.min, hi = scene_.domain.max;
    const Vec3 to = cwiseMin(cwiseMax(hitFacingPlane(orbit_.ray(in.mouseX, in.mouseY, width, height),
                                                     pushing_ ? pusherAt_ : orbit_.target()),
                                      lo),
                             hi);
    const double seconds = paused_ ? 0 : speed_ / double(scene_.time.fps);
    if (!pushing_ || seconds <= 0) {
      movePusher(to, Vec3{0, 0, 0});
    } else {
      Vec3 v = (to - pusherAt_) / Real(seconds);
      const float speed = float(length(v));
      if (speed > kPusherTopSpeed) v = v * (kPusherTopSpeed / speed);
      movePusher(pusherAt_, v);
    }
    pusherAt_ = to;
    pushing_ = true;
  }
}

void Viewer::advance(double frames) {
  owedFrames_ += frames;
  const int whole = int(std::floor(owedFrames_));
  owedFrames_ -= whole;
  for (int f = 0; f < whole; ++f) sim_->advanceFrame();
  framesThisDraw_ = whole;
}

void Viewer::frame(const ViewerInput& in, unsigned framebuffer, int width, int height) {
  handleInput(in, width, height);
  framesThisDraw_ = 0;
  if (failure_.empty() && (!paused_ || stepOnce_)) {
    try {
      advance(stepOnce_ ? 1.0 : speed_);
    } catch (const SimulationBlowUp& e) {
      failure_ = e.what();  // shown in the panel; R starts again
      paused_ = true;
    }
    stepOnce_ = false;
  }
  if (framesThisDraw_ > 0) {
    stats_ = sim_->stats();
    const Profile& now = sim_->profile();
    timings_.simulation = (now.stepMs - profileBefore_.stepMs) / framesThisDraw_;
    for (int p = 0; p < int(Phase::Count); ++p)
      timings_.phases[p] = (now.totalMs[p] - profileBefore_.totalMs[p]) / framesThisDraw_;
    profileBefore_ = now;
    particlesStale_ = ellipsoidsStale_ = meshStale_ = true;
  }
  timings_.frame = in.frameSeconds * 1e3;
  drawPicture(framebuffer, width, height);
  drawPanel(in);
}

void Viewer::drawPicture(unsigned framebuffer, int width, int height) {
  Renderers& r = *renderers_;
  if (r.width != width || r.height != height)
    *renderers_ = Renderers{width, height, nullptr, nullptr, nullptr};
  const render::Camera camera = orbit_.camera();
  render::OffscreenTarget* target = nullptr;
  scenery_->follow(*sim_);
  const render::Scenery* scenery = showScenery_ ? scenery_.get() : nullptr;
  if (mode_ == ViewMode::Surface) {
    if (!r.surface) {
      r.surface = std::make_unique<render::SurfaceRenderer>(width, height);
      r.surface->setEnvironment(look_.environment);
    }
    if (meshStale_) surface_.fill(*sim_), meshStale_ = false;
    r.surface->setScenery(scenery);
    r.surface->draw(surface_, camera, look_.water);
    target = &r.surface->target();
  } else if (mode_ == ViewMode::ScreenSpaceFluid) {
    if (!r.fluid) {
      r.fluid = std::make_unique<render::ScreenSpaceFluidRenderer>(width, height);
      r.fluid->setEnvironment(look_.environment);
    }
    r.fluid->setScenery(scenery);
    if (sim_->scene().render.ellipsoids) {  // built on the simulation's device, copied into the GL
      if (ellipsoidsStale_) ellipsoids_.fill(*sim_), ellipsoidsStale_ = false;
      r.fluid->draw(ellipsoids_, camera, look_.fluid);
    } else {
      if (particlesStale_) particles_.fill(*sim_), particlesStale_ = false;
      r.fluid->draw(particles_, camera, look_.fluid);
    }
    target = &r.fluid->target();
  } else {
    // coloured by the scene's render.color_by, the map widened as the values grow
    if (particlesStale_ || !particles_.valuesId()) {
      particles_.fill(*sim_, sim_->scene().render.colorBy);
      particlesStale_ = false;
    }
    render::widenColorRange(look_.spheres, sim_->scene(), stats_);
    if (!r.spheres) r.spheres = std::make_unique<render::ParticleRenderer>(width, height);
    r.spheres->setScenery(scenery);
    r.spheres->draw(particles_, camera, look_.spheres);
    target = &r.spheres->target();
  }
  target->copyTo(framebuffer, width, height);
  timings_.picture = target->drawMilliseconds();
}

}  // namespace eddy::viewer
