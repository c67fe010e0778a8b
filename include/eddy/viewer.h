// `eddy view`: a scene simulating live in a window (or offscreen), drawn as its render section says and
// steered with the mouse, the keys and a panel (the controls: `eddy view --help`). Part of the viewer (the
// library eddy_viewer), which a build has where GLFW and Dear ImGui were found besides the renderer's
// packages; like <eddy/render.h> it is not installed.
#pragma once

#include <eddy/backend.h>
#include <eddy/scene.h>

#include <string>
#include <vector>

namespace eddy {

struct ViewSettings {
  int width = 1280, height = 720;  // the window's (or the offscreen picture's) size in pixels
  int frames = 0;                  // close after this many frames; 0: when the window is closed
  std::string screenshot;          // FILE.png: the last frame, panel included ("" for none)
  double speed = 1;                // simulated frames per drawn frame
  bool offscreen = false;          // no window: the same frames drawn offscreen through EGL
  bool vsync = true;               // a window draws at the display's rate
};

// what the viewer measured, milliseconds per frame, the first 3 frames (warm-up) left out
struct ViewReport {
  std::vector<double> frameMs, simulationMs, pictureMs;
  long long particles = 0;  // at the end
  std::string display;      // "llvmpipe (LLVM 15.0.6, 256 bits), EGL offscreen": where it drew
  std::string failure;      // how the simulation blew up, where it did ("" otherwise)
};

// Opens the window (or the offscreen target) and runs the scene in it until it is closed or the frames are
// done, then writes the screenshot. Throws InputError for a scene that cannot be built, no display (DISPLAY
// unset) or no OpenGL 4.3 context, and RuntimeFailure where the screenshot cannot be written.
ViewReport viewScene(const SceneDesc& scene, Backend backend, const ViewSettings& settings);

}  // namespace eddy
