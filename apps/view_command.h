// `eddy view`: a scene simulating live in a window, steered with the mouse and a panel (src/viewer); or the
// same frames drawn offscreen, timed, where there is no display.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace eddy::app {

struct ViewOptions {
  std::string scene;  // empty: the embedded dam break
  std::string backend = "auto";
  std::vector<std::string> sets;  // --set KEY=VALUE
  std::string mode;               // --mode: over the scene's render.mode
  std::string size = "1280x720";  // --size WxH
  int frames = 0;                 // --frames: stop after this many drawn frames (0: when the window closes)
  std::string screenshot;         // --screenshot FILE.png: the last frame, panel included
  bool offscreen = false;         // --offscreen: no window; EGL, timed
  bool noVsync = false;           // --no-vsync: draw as fast as the GPU goes
  double speed = 1;               // --speed: simulated frames per drawn frame
};

CLI::App* addViewCommand(CLI::App& app, ViewOptions& opts);

// "GLFW window or EGL offscreen, Dear ImGui panel" or why it is missing, for `eddy --version`
std::string viewerDescription();

// returns 0; throws InputError for bad input or no display / GL (before any file is written)
int viewCommand(const ViewOptions& opts);

}  // namespace eddy::app
