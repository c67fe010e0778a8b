// `eddy bench --render`: the renderer's time for a simulation's pictures, split into what the picture needs
// from the simulation (built on its device and copied into the GL) and the GL's own time.
#include <eddy/render.h>

#include <algorithm>
#include <chrono>

#include "render/camera.h"
#include "render/ellipsoid_buffer.h"
#include "render/gl_context.h"
#include "render/interop_buffer.h"
#include "render/mesh_buffer.h"
#include "render/offscreen_target.h"
#include "render/particle_buffer.h"
#include "render/particle_renderer.h"
#include "render/screen_space_fluid_renderer.h"
#include "render/surface_renderer.h"

namespace eddy {

struct RenderTimer::Drawing {
  render::HeadlessGl gl;  // first: every GL object needs the context
  bool ssfr = false, surface = false, ellipsoids = false;
  std::unique_ptr<render::ParticleRenderer> spheres;
  std::unique_ptr<render::ScreenSpaceFluidRenderer> fluid;
  std::unique_ptr<render::SurfaceRenderer> water;
  render::ParticleBuffer particles;
  render::EllipsoidBuffer shapes;
  render::MeshBuffer mesh;
};

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}
}  // namespace

RenderTimer::RenderTimer(const std::string& mode, bool ellipsoids, int width, int height)
    : drawing_(std::make_unique<Drawing>()) {
  Drawing& d = *drawing_;
  d.ssfr = mode == "ssfr";
  d.surface = mode == "surface";
  d.ellipsoids = d.ssfr && ellipsoids;
  try {
    if (d.ssfr)
      d.fluid = std::make_unique<render::ScreenSpaceFluidRenderer>(width, height);
    else if (d.surface)
      d.water = std::make_unique<render::SurfaceRenderer>(width, height);
    else
      d.spheres = std::make_unique<render::ParticleRenderer>(width, height);
  } catch (const render::PictureSizeRefused& e) {
    throw InputError(std::string("bench: --render-size ") + e.what());
  }
}

RenderTimer::~RenderTimer() = default;

std::string RenderTimer::device() const {
  return drawing_->gl.renderer() + " (EGL " + drawing_->gl.platform() + ")";
}

RenderTimes RenderTimer::measure(Simulation& sim, int repeats) {
  Drawing& d = *drawing_;
  const FrameStats stats = sim.stats();
  const float radius = 0.5f * sim.scene().fluid.spacing;
  std::vector<Vec3> corners;
  for (int c = 0; c < 8; ++c)
    corners.push_back({c & 1 ? stats.boundsMax.x : stats.boundsMin.x,
                       c & 2 ? stats.boundsMax.y : stats.boundsMin.y,
                       c & 4 ? stats.boundsMax.z : stats.boundsMin.z});
  const render::Camera camera = render::Camera::framing(corners, radius);
  render::ParticleStyle style;
  style.radius = radius;
  style.valueTop = float(std::max(stats.maxSpeed, 1e-6));
  render::FluidStyle fluidStyle;
  fluidStyle.radius = radius;
  auto prepare = [&] {
    if (d.ellipsoids)
      d.shapes.fill(sim);
    else if (d.surface)
      d.mesh.fill(sim);
    else
      d.particles.fill(sim, d.ssfr ? "" : "speed");
  };
  auto draw = [&] {
    if (d.ellipsoids) {
      d.fluid->draw(d.shapes, camera, fluidStyle);
      return d.fluid->target().waitMilliseconds();
    }
    if (d.ssfr) {
      d.fluid->draw(d.particles, camera, fluidStyle);
      return d.fluid->target().waitMilliseconds();
    }
    if (d.surface) {
      d.water->draw(d.mesh, camera);
      return d.water->target().waitMilliseconds();
    }
    d.spheres->draw(d.particles, camera, style);
    return d.spheres->target().waitMilliseconds();
  };
  prepare();  // warm-up
  draw();
  std::vector<double> prepared, drawn, wall;
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
  };
  for (int k = 0; k < repeats; ++k) {
    const auto t0 = Clock::now();
    prepare();
    render::finishDeviceWork(sim.backend());
    prepared.push_back(since(t0));
    drawn.push_back(draw());  // waits for the GL's timer: the drawing is done
    wall.push_back(since(t0));
  }
  return {median(prepared), median(drawn), median(wall)};
}

}  // namespace eddy
