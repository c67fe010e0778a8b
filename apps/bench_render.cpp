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
#include "render/gl_context.h"
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
  std::printf(
      "eddy bench --render: %s at %dx%d, %s (EGL %s); the dam break after %d frames on %s; median of %d\n",
      ssfr      ? "screen-space fluid (4 passes)"
      : surface ? "the surface mesh (Zhu-Bridson, built once), water shading"
                : "particles (spheres coloured by speed)",
      width, height, gl.renderer().c_str(), gl.platform().c_str(), o.settleFrames, backendName(backend),
      o.surfaceRepeats);
  std::printf("%12s %12s %12s\n", "particles", "draw ms", "wall ms");
  bool skipped = false;
  for (long long n : o.particles) {
    SceneDesc scene = base;
    scene.fluid.spacing = Real(std::cbrt(volume / double(n)));
    HostParticles host;
    TriangleMesh mesh;
    try {
      std::unique_ptr<Simulation> sim = createSimulation(scene, backend);
      for (int f = 0; f < o.settleFrames; ++f) sim->advanceFrame();
      sim->copyParticles(host);
      if (surface) sim->buildSurface(mesh);
    } catch (const RuntimeFailure& e) {
      std::printf("%12lld skipped: %s\n", n, e.what());
      skipped = true;
      continue;
    }
    std::vector<float> speeds(host.size());
    float fastest = 0;
    for (std::size_t i = 0; i < host.size(); ++i)
      fastest = std::max(fastest, speeds[i] = length(host.velocity[i]));
    const float radius = 0.5f * scene.fluid.spacing;
    const render::Camera camera = render::Camera::framing(host.position, radius);
    const render::ParticleStyle style{radius, std::max(fastest, 1e-6f)};
    render::FluidStyle fluidStyle;
    fluidStyle.radius = radius;
    auto draw1 = [&] {
      if (ssfr) {
        fluid->render(host.position, camera, fluidStyle);
        return fluid->drawMilliseconds();
      }
      if (surface) {
        water->render(mesh, camera);
        return water->drawMilliseconds();
      }
      spheres->render(host.position, speeds, camera, style);
      return spheres->drawMilliseconds();
    };
    draw1();  // warm-up
    std::vector<double> draw, wall;
    for (int k = 0; k < o.surfaceRepeats; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      draw.push_back(draw1());
      wall.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("%12zu %12.3f %12.3f\n", host.size(), median(draw), median(wall));
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
