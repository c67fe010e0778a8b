// A headless OpenGL 4.3 core context through EGL, with no window and no display: NVIDIA's EGL device
// platform on a GPU server, Mesa's surfaceless platform (llvmpipe) on a machine without a GPU. One code path
// for every machine; the images come from framebuffers the renderer owns.
#pragma once

#include <string>

namespace eddy::render {

class HeadlessGl {
 public:
  // makes the context current on this thread; throws InputError naming what is missing where no EGL
  // platform gives an OpenGL 4.3 core context
  HeadlessGl();
  ~HeadlessGl();
  HeadlessGl(const HeadlessGl&) = delete;
  HeadlessGl& operator=(const HeadlessGl&) = delete;

  // "NVIDIA H100 80GB HBM3/PCIe/SSE2", "llvmpipe (LLVM 15.0.6, 256 bits)", ...
  const std::string& renderer() const { return renderer_; }
  // "device" or "surfaceless"
  const std::string& platform() const { return platform_; }

 private:
  void* display_ = nullptr;
  void* context_ = nullptr;
  std::string renderer_, platform_;
};

}  // namespace eddy::render
