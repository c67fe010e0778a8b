// Where the viewer's frames go: a desktop window (GLFW, with the mouse and keys) or an offscreen
// framebuffer of the same size (EGL, no display: the viewer measured, or run on a server). Either sets up
// an OpenGL 4.3 core context and Dear ImGui with its OpenGL backend; the viewer draws the same way into both.
#pragma once

#include <memory>
#include <string>

#include "render/image.h"
#include "viewer/viewer.h"

namespace eddy::viewer {

class Display {
 public:
  virtual ~Display() = default;
  // false once the user has closed the window
  virtual bool open() const = 0;
  // the events since the last frame; starts ImGui's frame (the backends' NewFrame)
  virtual ViewerInput poll() = 0;
  virtual unsigned framebuffer() const = 0;
  virtual int width() const = 0;
  virtual int height() const = 0;
  // this frame's picture with the panel over it, before it is shown
  virtual render::Image screenshot() = 0;
  // shows the frame (a window's buffer swap; offscreen, waits for the GPU to finish it)
  virtual void present() = 0;
  // "llvmpipe (LLVM 15.0.6, 256 bits), GLX window" or "NVIDIA H100 ..., EGL device, offscreen"
  virtual std::string description() const = 0;
};

// throws InputError naming what is missing: a build without GLFW, no display (DISPLAY unset), or no
// OpenGL 4.3 core context from it
std::unique_ptr<Display> openWindow(int width, int height, const std::string& title, bool vsync);
// throws InputError where EGL gives no OpenGL 4.3 core context (render/gl_context.h), or for a size beyond
// the GL's limit
std::unique_ptr<Display> openOffscreen(int width, int height);

}  // namespace eddy::viewer
