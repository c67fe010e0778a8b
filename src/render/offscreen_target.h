// Where every renderer draws: an offscreen framebuffer (8-bit colour, 24-bit depth) of a fixed size, a GL
// timer around each picture, and the read-back into an Image with rows from the top.
#pragma once

#include "render/image.h"

namespace eddy::render {

struct Rgb {
  float r, g, b;
};

// what every picture is drawn over
inline constexpr Rgb kBackground{0.93f, 0.93f, 0.91f};

class OffscreenTarget {
 public:
  // needs a current OpenGL 4.3 context (HeadlessGl); throws InputError for a size beyond the GL's limit
  OffscreenTarget(int width, int height);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  // binds the framebuffer, clears it to the background, turns the depth test on and starts the timer
  void begin(Rgb background);
  // binds the framebuffer and its viewport again (after drawing into other framebuffers since begin)
  void bind();
  // stops the timer and reads the picture back; `what` names the drawing in a GL error's message
  Image finish(const char* what);
  // the GPU's time between begin and finish (a GL timer query), without uploads and the read-back
  double drawMilliseconds() const { return drawMs_; }

 private:
  int width_, height_;
  unsigned framebuffer_ = 0, colour_ = 0, depth_ = 0, timer_ = 0;
  double drawMs_ = 0;
};

}  // namespace eddy::render
