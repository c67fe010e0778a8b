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
#include <eddy/render.h>
#endif

namespace eddy::app {

#ifdef EDDY_WITH_RENDER

int benchRender(const BenchOptions& o, const SceneDesc& base, double volume, Backend backend) {
  int width = 0, height = 0;
  parseSize(o.renderSize, "bench: --render-size", width, height);
  const bool ssfr = o.renderMode == "ssfr", surface = o.renderMode == "surface";
  RenderTimer timer(o.renderMode, base.render.ellipsoids, width, height);
  const bool ellipsoids = ssfr && base.render.ellipsoids;
  std::printf("eddy bench --render: %s at %dx%d, %s; the dam break after %d frames on %s; median of %d\n",
              ellipsoids ? "screen-space fluid (Yu-Turk ellipsoids, 4 passes)"
              : ssfr     ? "screen-space fluid (spheres, 4 passes)"
              : surface  ? "the surface mesh (Zhu-Bridson), water shading"
                         : "particles (spheres coloured by speed)",
              width, height, timer.device().c_str(), o.settleFrames, backendName(backend), o.surfaceRepeats);
  std::printf(
      "  prepare: what a picture needs from the simulation, built on its device and copied into the GL "
      "(the positions and speeds; the ellipsoids; the surface's reconstruction); draw: the GL's time\n");
  std::printf("%12s %12s %12s %12s\n", "particles", "prepare ms", "draw ms", "wall ms");
  bool skipped = false;
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
    const RenderTimes times = timer.measure(*sim, o.surfaceRepeats);
    std::printf("%12lld %12.3f %12.3f %12.3f\n", (long long)sim->particleCount(), times.prepareMs,
                times.drawMs, times.wallMs);
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
