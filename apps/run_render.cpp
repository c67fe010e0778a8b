#include "run_render.h"

#include <eddy/error.h>
#include <eddy/output.h>

#include <cstdio>
#include <filesystem>

#include "render_command.h"

#ifdef EDDY_WITH_RENDER
#include "render/camera.h"
#include "render/color_bar.h"
#include "render/ellipsoid_buffer.h"
#include "render/gl_context.h"
#include "render/image.h"
#include "render/particle_buffer.h"
#include "render/particle_renderer.h"
#include "render/scene_look.h"
#include "render/scenery.h"
#include "render/screen_space_fluid_renderer.h"
#include "render/surface_renderer.h"
#endif

namespace eddy::app {

#ifdef EDDY_WITH_RENDER

struct InRunRenderer::Impl {
  render::HeadlessGl gl;  // first: every GL object below needs the context
  std::string dir;
  RenderDesc look;
  render::Camera camera;
  render::ParticleBuffer particles;
  std::unique_ptr<render::ParticleRenderer> spheres;
  std::unique_ptr<render::ScreenSpaceFluidRenderer> fluid;
  std::unique_ptr<render::SurfaceRenderer> surface;
  render::ParticleStyle sphereStyle;
  render::FluidStyle fluidStyle;
  render::WaterStyle waterStyle;
  std::unique_ptr<render::Scenery> scenery;
  render::MeshBuffer surfaceBuffer;
  render::EllipsoidBuffer ellipsoids;
  SceneDesc scene;
};

InRunRenderer::InRunRenderer(const SceneDesc& scene, const std::string& outDir, const std::string& size) {
  int width = 0, height = 0;
  parseSize(size, "run: --render-size", width, height);
  impl_ = std::make_unique<Impl>();
  Impl& r = *impl_;
  r.dir = (std::filesystem::path(outDir) / "render").string();
  r.look = scene.render;
  r.scene = scene;
  render::SceneLook look = render::sceneLook(scene, "run");
  r.camera = look.camera;
  r.sphereStyle = look.spheres;
  r.fluidStyle = look.fluid;
  r.waterStyle = look.water;
  const render::Image& environment = look.environment;
  if (r.look.mode == "ssfr") {
    r.fluid = std::make_unique<render::ScreenSpaceFluidRenderer>(width, height);
    r.fluid->setEnvironment(environment);
  } else if (r.look.mode == "surface") {
    r.surface = std::make_unique<render::SurfaceRenderer>(width, height);
    r.surface->setEnvironment(environment);
  } else {
    r.spheres = std::make_unique<render::ParticleRenderer>(width, height);
  }
  if (r.look.scenery) {
    r.scenery = std::make_unique<render::Scenery>(scene);
    if (r.fluid) r.fluid->setScenery(r.scenery.get());
    if (r.surface) r.surface->setScenery(r.scenery.get());
    if (r.spheres) r.spheres->setScenery(r.scenery.get());
  }
}

InRunRenderer::~InRunRenderer() = default;

void InRunRenderer::draw(Simulation& sim, int frame, const FrameStats& stats) {
  Impl& r = *impl_;
  render::Image image;
  if (r.scenery) r.scenery->setTime(sim.time());
  if (r.surface) {  // the mesh is built on the device and copied from there into the GL
    r.surfaceBuffer.fill(sim);
    r.surface->draw(r.surfaceBuffer, r.camera, r.waterStyle);
    image = r.surface->target().read();
  } else if (r.fluid && r.look.ellipsoids) {  // built on the device and copied from there into the GL
    r.ellipsoids.fill(sim);
    image = r.fluid->render(r.ellipsoids, r.camera, r.fluidStyle);
  } else if (r.fluid) {
    r.particles.fill(sim);
    image = r.fluid->render(r.particles, r.camera, r.fluidStyle);
  } else {
    r.particles.fill(sim, r.look.colorBy);
    render::widenColorRange(r.sphereStyle, r.scene, stats);
    image = r.spheres->render(r.particles, r.camera, r.sphereStyle);
    if (r.look.colorBy != "material")
      render::drawColorBar(image, r.sphereStyle.low, r.sphereStyle.high, r.sphereStyle.valueLow,
                           r.sphereStyle.valueTop, render::colorUnit(r.look.colorBy));
  }
  // made here, not when the renderer starts: a run refused before its first frame writes nothing
  std::filesystem::create_directories(r.dir);
  char name[32];
  std::snprintf(name, sizeof name, "frame_%06d.png", frame);
  render::writePng((std::filesystem::path(r.dir) / name).string(), image);
}

std::string InRunRenderer::description() const {
  return impl_->gl.renderer() + " (EGL " + impl_->gl.platform() + "), " + impl_->look.mode +
         (impl_->particles.throughInterop() || impl_->surfaceBuffer.throughInterop() ||
                  impl_->ellipsoids.throughInterop()
              ? ", from device memory through CUDA-OpenGL interop"
              : "");
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
