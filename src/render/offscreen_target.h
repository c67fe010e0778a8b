// Where every renderer draws: an offscreen framebuffer (8-bit colour, 24-bit depth) of a fixed size, a GL
// timer around each picture, and either the read-back into an Image with rows from the top or a copy into
// another framebuffer (a window's, in `eddy view`).
#pragma once

#include <eddy/error.h>

#include "render/image.h"

namespace eddy::render {

struct Rgb {
  float r, g, b;
};

// what every picture is drawn over
inline constexpr Rgb kBackground{0.93f, 0.93f, 0.91f};

// a picture size the GL cannot draw: the message is "WxH: each side must be ..."; the command that asked for
// the size puts its name and flag in front
struct PictureSizeRefused : InputError {
  using InputError::InputError;
};

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
  // stops the timer; `what` names the drawing in a GL error's message. The picture stays in the target.
  void end(const char* what);
  // the picture drawn since begin, read back (waits for the GPU)
  Image read();
  // end, then read
  Image finish(const char* what);
  // copies the picture into the framebuffer given (0: the window's), scaled to width x height
  void copyTo(unsigned framebuffer, int width, int height) const;
  unsigned framebuffer() const { return framebuffer_; }
  // the colour (RGBA8) and depth (24-bit) textures the framebuffer draws into
  unsigned colourTexture() const { return colour_; }
  unsigned depthTexture() const { return depth_; }
  // the GPU's time between begin and end (a GL timer query), without uploads and the read-back; after end
  // without read, the time of the picture before (so that drawing never waits for the query)
  double drawMilliseconds() const { return drawMs_; }
  // waits for the GPU to finish the last picture and returns its time (benchmarks)
  double waitMilliseconds() {
    collectTimer();
    return drawMs_;
  }

 private:
  int width_, height_;
  unsigned framebuffer_ = 0, colour_ = 0, depth_ = 0, timer_ = 0;
  double drawMs_ = 0;
  bool timing_ = false;  // a query ended whose result is not yet in drawMs_
  void collectTimer();
};

// the picture in a framebuffer (0: a window's back buffer), rows from the top; waits for the GPU
Image readFramebuffer(unsigned framebuffer, int width, int height);

}  // namespace eddy::render
