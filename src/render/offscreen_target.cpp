#include "render/offscreen_target.h"

#include <eddy/error.h>

#include <algorithm>
#include <string>
#include <vector>

#include "render/gl.h"

namespace eddy::render {

OffscreenTarget::OffscreenTarget(int width, int height) : width_(width), height_(height) {
  GLint largest = 0, texture = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &largest);
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &texture);
  largest = std::min(largest, texture);
  if (width <= 0 || height <= 0 || width > largest || height > largest)
    throw PictureSizeRefused(std::to_string(width) + "x" + std::to_string(height) +
                             ": each side must be 1 to " + std::to_string(largest) + " pixels on this GL");
  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  // textures, not renderbuffers: compute passes read the colour and depth drawn so far
  glGenTextures(1, &colour_);
  glBindTexture(GL_TEXTURE_2D, colour_);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour_, 0);
  glGenTextures(1, &depth_);
  glBindTexture(GL_TEXTURE_2D, depth_);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT24, width, height);
  for (GLuint t : {colour_, depth_}) {
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  }
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth_, 0);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw RuntimeFailure("render: the GL cannot make a " + std::to_string(width) + "x" +
                         std::to_string(height) + " framebuffer");
  glGenQueries(1, &timer_);
}

OffscreenTarget::~OffscreenTarget() {
  glDeleteQueries(1, &timer_);
  glDeleteTextures(1, &colour_);
  glDeleteTextures(1, &depth_);
  glDeleteFramebuffers(1, &framebuffer_);
}

void OffscreenTarget::bind() {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, width_, height_);
}

void OffscreenTarget::collectTimer() {
  if (!timing_) return;
  GLuint64 nanoseconds = 0;
  glGetQueryObjectui64v(timer_, GL_QUERY_RESULT, &nanoseconds);
  drawMs_ = double(nanoseconds) * 1e-6;
  timing_ = false;
}

void OffscreenTarget::begin(Rgb background) {
  collectTimer();  // the picture before, long finished on the GPU by now
  glBeginQuery(GL_TIME_ELAPSED, timer_);
  bind();
  glClearColor(background.r, background.g, background.b, 1);
  glClearDepth(1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
}

void OffscreenTarget::end(const char* what) {
  glEndQuery(GL_TIME_ELAPSED);
  timing_ = true;
  if (GLenum e = glGetError(); e != GL_NO_ERROR)
    throw RuntimeFailure("render: OpenGL error " + std::to_string(e) + " while drawing " + what);
}

Image OffscreenTarget::finish(const char* what) {
  end(what);
  return read();
}

void OffscreenTarget::copyTo(unsigned framebuffer, int width, int height) const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_LINEAR);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
}

Image OffscreenTarget::read() {
  Image image = readFramebuffer(framebuffer_, width_, height_);
  collectTimer();
  return image;
}

Image readFramebuffer(unsigned framebuffer, int width, int height) {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  std::vector<std::uint8_t> rgba(std::size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  if (GLenum e = glGetError(); e != GL_NO_ERROR)
    throw RuntimeFailure("render: OpenGL error " + std::to_string(e) + " while reading a picture back");
  // GL's rows start at the bottom
  Image image;
  image.width = width, image.height = height;
  image.rgb.resize(std::size_t(width) * height * 3);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 3; ++c)
        image.rgb[(std::size_t(y) * width + x) * 3 + c] =
            rgba[(std::size_t(height - 1 - y) * width + x) * 4 + c];
  return image;
}

}  // namespace eddy::render
