// Pictures of a running simulation in memory: what `eddy run --render` draws (the scene's "render" section:
// mode, camera, styles, scenery), drawn headless with OpenGL through EGL and handed back as pixels, for
// programs that show or process them themselves (the Python module's Simulation.render). Part of the
// renderer, which a build has where EGL, OpenGL and libpng were found (`eddy --version` says so); the
// library eddy_render holds it.
#pragma once

#include <eddy/scene.h>
#include <eddy/simulation.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace eddy {

// 8-bit RGBA, row 0 at the top, alpha 255
struct Picture {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width * height * 4
};

class PictureMaker {
 public:
  // An OpenGL context of its own (EGL, no display), current on the calling thread, and the drawing set up
  // for `scene` at width x height pixels; `mode` ("particles", "ssfr" or "surface") replaces the scene's
  // render.mode where given. Throws InputError for another mode, a size outside 16..16384 or beyond the
  // GL's limit, or where no EGL platform gives an OpenGL 4.3 context.
  PictureMaker(const SceneDesc& scene, int width, int height, const std::string& mode = {});
  // The same for a command of the CLI: messages begin with `command` ("run"), and any positive size the GL
  // takes is allowed. Throws InputError for a size of 0 or beyond the GL's limit, an environment image that
  // cannot be read, a mesh collider's file that cannot be loaded, or no OpenGL 4.3 context.
  PictureMaker(const SceneDesc& scene, int width, int height, const std::string& mode,
               const std::string& command);
  ~PictureMaker();
  PictureMaker(const PictureMaker&) = delete;
  PictureMaker& operator=(const PictureMaker&) = delete;

  // Between frames, on the thread that made it: the simulation as it is now (from its own memory: a CUDA
  // simulation's data goes to OpenGL without a trip through the host), read back.
  Picture draw(Simulation& sim);
  // The same where the frame's statistics are at hand (they widen the colour map of `particles` mode)
  Picture draw(Simulation& sim, const FrameStats& stats);
  // The picture drawn and waited for, not read back: the GL's time for it in milliseconds (benchmarks)
  double drawAndWait(Simulation& sim, const FrameStats& stats);

  // "llvmpipe (LLVM 15.0.6, 256 bits) (EGL surfaceless)": what draws
  std::string device() const;
  // whether the last picture's data went from the simulation's device memory to OpenGL through CUDA-OpenGL
  // interop, without a trip through the host
  bool throughInterop() const;

 private:
  struct Drawing;
  std::unique_ptr<Drawing> drawing_;
};

}  // namespace eddy
