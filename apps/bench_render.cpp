#include "bench_render.h"

#include <eddy/error.h>
#include <eddy/simulation.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "render_command.h"

#ifdef EDDY_WITH_RENDER
#include "render/camera.h"
#include "render/ellipsoid_buffer.h"
#include "render/gl_context.h"
#include "render/mesh_buffer.h"
#include "render/particle_buffer.h"
#include "render/particle_renderer.h"
#include "render/screen_space_fluid_renderer.h"
#include "render/surface_renderer.h"
#endif

namespace eddy::app {

#ifdef EDDY_WITH_RENDER

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int benchRender(const BenchOptions& o, const SceneDesc& base, double volume, Backend backend) {
  int width = 0, height = 0;
  parseSize(o.renderSize, "bench: --render-size", width, height);
  render::HeadlessGl gl;
  const bool ssfr = o.renderMode == "ssfr", surface = o.renderMode == "surface";
  std::unique_ptr<render::ParticleRenderer> spheres;
  std::unique_ptr<render::ScreenSpaceFluidRenderer> fluid;
  std::unique_ptr<render::SurfaceRenderer> water;
  if (ssfr)
    fluid = std::make_unique<render::ScreenSpaceFluidRenderer>(width, height);
  else if (surface)
    water = std::make_unique<render::SurfaceRenderer>(width, height);
  else
    spheres = std::make_unique<render::ParticleRenderer>(width, height);
  const bool ellipsoids = ssfr && base.render.ellipsoids;
  std::printf(
      "eddy bench --render: %s at %dx%d, %s (EGL %s); the dam break after %d frames on %s; median of %d\n",
      ellipsoids ? "screen-space fluid (Yu-Turk ellipsoids, 4 passes)"
      : ssfr     ? "screen-space fluid (spheres, 4 passes)"
      : surface  ? "the surface mesh (Zhu-Bridson), water shading"
                 : "particles (spheres coloured by speed)",
      width, height, gl.renderer().c_str(), gl.platform().c_str(), o.settleFrames, backendName(backend),
      o.surfaceRepeats);
  std::printf(
      "  prepare: what a picture needs from the simulation, built on its device and copied into the GL "
      "(the positions and speeds; the ellipsoids; the surface's reconstruction); draw: the GL's time\n");
  std::printf("%12s %12s %12s %12s\n", "particles", "prepare ms", "draw ms", "wall ms");
  bool skipped = false;
  render::ParticleBuffer particles;
  render::EllipsoidBuffer shapes;
  render::MeshBuffer mesh;
  for (long long n : o.particles) {
    SceneDesc scene = base;
    scene.fluid.spacing = Real(std::cbrt(volume / double(n)));
    std::unique_ptr<Simulation> sim;
    try {
      sim = createSimulation(scene, backend);
      for (int f = 0; f < o.settleFrames; ++f) sim->advanceFrame();
    } catch (const RuntimeFailure& e) {
      std::printf("%12lld skipped: %s\n", n, e.what());
      skipped = true;
      continue;
    }
    const float radius = 0.5f * scene.fluid.spacing;
    const FrameStats stats = sim->stats();
    std::vector<Vec3> corners;
    for (int c = 0; c < 8; ++c)
      corners.push_back({c & 1 ? stats.boundsMax.x : stats.boundsMin.x,
                         c & 2 ? stats.boundsMax.y : stats.boundsMin.y,
                         c & 4 ? stats.boundsMax.z : stats.boundsMin.z});
    const render::Camera camera = render::Camera::framing(corners, radius);
    const render::ParticleStyle style{radius, float(std::max(stats.maxSpeed, 1e-6))};
    render::FluidStyle fluidStyle;
    fluidStyle.radius = radius;
    auto prepare = [&] {
      if (ellipsoids)
        shapes.fill(*sim);
      else if (surface)
        mesh.fill(*sim);
      else
        particles.fill(*sim, ssfr ? "" : "speed");
    };
    auto draw = [&] {
      if (ellipsoids) {
        fluid->draw(shapes, camera, fluidStyle);
        return fluid->target().waitMilliseconds();
      }
      if (ssfr) {
        fluid->draw(particles, camera, fluidStyle);
        return fluid->target().waitMilliseconds();
      }
      if (surface) {
        water->draw(mesh, camera);
        return water->target().waitMilliseconds();
      }
      spheres->draw(particles, camera, style);
      return spheres->target().waitMilliseconds();
    };
    prepare();  // warm-up
    draw();
    std::vector<double> prepared, drawn, wall;
    using Clock = std::chrono::steady_clock;
    auto since = [](Clock::time_point t) {
      return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
    };
    for (int k = 0; k < o.surfaceRepeats; ++k) {
      const auto t0 = Clock::now();
      prepare();
      render::finishDeviceWork(sim->backend());
      prepared.push_back(since(t0));
      drawn.push_back(draw());  // waits for the GL's timer: the drawing is done
      wall.push_back(since(t0));
    }
    std::printf("%12lld %12.3f %12.3f %12.3f\n", (long long)sim->particleCount(), median(prepared),
                median(drawn), median(wall));
    std::fflush(stdout);
  }
  return skipped ? 1 : 0;
}

#else

int benchRender(const BenchOptions&, const SceneDesc&, double, Backend) {
  throw InputError("bench: --render: this build of eddy has no renderer (bash scripts/setup.sh installs it)");
}

#endif

}  // namespace eddy::app
