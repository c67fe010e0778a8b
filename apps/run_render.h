// `eddy run --render`: the frames whose files are due drawn while the run goes on, to
// OUT/render/frame_NNNNNN.png, as the scene's "render" section says (mode, camera, light, colours). The
// particles go from the simulation's device memory straight into an OpenGL buffer (render/particle_buffer.h:
// CUDA-OpenGL interop on the GPU), so nothing is copied through the host but the finished picture.
#pragma once

#include <eddy/scene.h>
#include <eddy/simulation.h>

#include <memory>
#include <string>

namespace eddy::app {

class InRunRenderer {
 public:
  // size "WxH"; throws InputError for a bad size, a build without a renderer, no OpenGL, or an environment
  // image that cannot be read; writes nothing (OUT/render is made with the first picture)
  InRunRenderer(const SceneDesc& scene, const std::string& outDir, const std::string& size);
  ~InRunRenderer();
  InRunRenderer(const InRunRenderer&) = delete;
  InRunRenderer& operator=(const InRunRenderer&) = delete;

  // the frame's picture; stats widen the colour map's range of `particles` mode (render.color_by)
  void draw(Simulation& sim, int frame, const FrameStats& stats);
  // what drew: "NVIDIA H100 ... (EGL device), particles from device memory through CUDA-OpenGL interop"
  std::string description() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eddy::app
