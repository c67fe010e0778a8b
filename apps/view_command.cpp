#include "view_command.h"

#include <eddy/error.h>
#include <eddy/scene_io.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "render_command.h"
#include "run_command.h"

#ifdef EDDY_WITH_VIEWER
#include <eddy/viewer.h>
#endif

namespace eddy::app {

CLI::App* addViewCommand(CLI::App& app, ViewOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "view",
      "Simulate a scene live in a window: left drag orbits, right drag pans, the wheel zooms, shift + drag "
      "pushes the water; space pauses, N steps, R resets, M changes the render mode, 1-9 toggle nozzles, "
      "Esc quits. The panel shows the timings and the solver's main parameters.");
  sub->add_option("scene", o.scene, "Scene file (JSON). Default: the built-in dam break.")->type_name("FILE");
  sub->add_option("--backend", o.backend, "Where to simulate: auto (cuda when a GPU is present), cpu, cuda.")
      ->type_name("BACKEND")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  sub->add_option("--set", o.sets, "Override a scene key, e.g. --set pbf.iterations=6. Repeatable.")
      ->type_name("KEY.PATH=VALUE")
      ->allow_extra_args(false);
  sub->add_option("--mode", o.mode, "Render mode to start in. Default: the scene's render.mode.")
      ->type_name("particles|ssfr|surface")
      ->check(CLI::IsMember({"particles", "ssfr", "surface"}));
  sub->add_option("--size", o.size, "Window (or offscreen picture) size.")
      ->type_name("WxH")
      ->capture_default_str();
  sub->add_option("--frames", o.frames, "Close after N frames (default: when the window is closed).")
      ->type_name("N")
      ->check(CLI::Range(1, 100000000));
  sub->add_option("--screenshot", o.screenshot, "Write the last frame, panel included, to FILE.png.")
      ->type_name("FILE.png");
  sub->add_option("--speed", o.speed, "Simulated frames per drawn frame, 0.1 to 4 (the panel changes it).")
      ->check(finiteNumber())
      ->check(CLI::Range(0.1, 4.0))
      ->capture_default_str();
  sub->add_flag("--offscreen", o.offscreen,
                "No window: draw the same frames offscreen through EGL (a GPU server, or llvmpipe) and print "
                "their timings. Needs --frames.");
  sub->add_flag("--no-vsync", o.noVsync, "Draw as fast as the GPU goes, not at the display's rate.");
  return sub;
}

#ifdef EDDY_WITH_VIEWER

namespace {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5))];
}

}  // namespace

std::string viewerDescription() { return "GLFW window or EGL offscreen, Dear ImGui panel"; }

int viewCommand(const ViewOptions& o) {
  int width = 0, height = 0;
  parseSize(o.size, "view: --size", width, height);
  if (o.offscreen && o.frames == 0) throw InputError("view: --offscreen needs --frames N");
  if (!o.screenshot.empty()) {
    const std::filesystem::path shot(o.screenshot);
    if (shot.extension() != ".png")
      throw InputError("view: --screenshot '" + o.screenshot + "': the picture is a PNG; name it FILE.png");
    const std::filesystem::path folder = shot.parent_path().empty() ? "." : shot.parent_path();
    if (!std::filesystem::is_directory(folder))
      throw InputError("view: --screenshot '" + o.screenshot + "': no folder '" + folder.string() + "'");
  }
  SceneDesc scene = loadScene(o.scene, o.sets);
  if (!o.mode.empty()) scene.render.mode = o.mode;
  const Backend backend = chooseBackend(o.backend);

  ViewSettings settings;
  settings.width = width;
  settings.height = height;
  settings.frames = o.frames;
  settings.screenshot = o.screenshot;
  settings.speed = o.speed;
  settings.offscreen = o.offscreen;
  settings.vsync = !o.noVsync;
  const ViewReport view = viewScene(scene, backend, settings);
  const std::vector<double>&frameMs = view.frameMs, &simulationMs = view.simulationMs,
        &pictureMs = view.pictureMs;
  if (o.offscreen) {
    std::printf("eddy view --offscreen: %s, %lld particles, %s\n", scene.name.c_str(), view.particles,
                view.display.c_str());
    std::printf("%zu frames timed (after 3 of warm-up), %dx%d, mode %s\n", frameMs.size(), width, height,
                scene.render.mode.c_str());
    std::printf("%-12s %10s %10s\n", "ms", "median", "p95");
    std::printf("%-12s %10.2f %10.2f\n", "frame", percentile(frameMs, 0.5), percentile(frameMs, 0.95));
    std::printf("%-12s %10.2f %10.2f\n", "simulation", percentile(simulationMs, 0.5),
                percentile(simulationMs, 0.95));
    std::printf("%-12s %10.2f %10.2f\n", "picture", percentile(pictureMs, 0.5), percentile(pictureMs, 0.95));
    const double median = percentile(frameMs, 0.5);
    std::printf("frames per second (median frame): %.1f\n", median > 0 ? 1e3 / median : 0.0);
  }
  if (!view.failure.empty())
    std::fprintf(stderr, "eddy view: the simulation stopped: %s\n", view.failure.c_str());
  return 0;
}

#else

std::string viewerDescription() {
  return "not built (install libglfw3-dev and libimgui-dev, and the renderer's packages: bash "
         "scripts/setup.sh)";
}

int viewCommand(const ViewOptions&) {
  throw InputError("view: this build of eddy has no viewer (" + viewerDescription() + ")");
}

#endif

}  // namespace eddy::app
