#include "render/environment_map.h"

#include "render/gl.h"

namespace eddy::render {

EnvironmentMap::~EnvironmentMap() {
  if (texture_) glDeleteTextures(1, &texture_);
}

void EnvironmentMap::set(const Image& image) {
  if (texture_) glDeleteTextures(1, &texture_);
  texture_ = 0;
  if (image.width <= 0 || image.height <= 0) return;
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  // the image's top row first: texture coordinate 0 is the zenith
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, image.width, image.height, 0, GL_RGB, GL_UNSIGNED_BYTE,
               image.rgb.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

void EnvironmentMap::bind(const GlProgram& program, int unit) const {
  glActiveTexture(GL_TEXTURE0 + unit);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(program.uniform("environment"), unit);
  glUniform1i(program.uniform("hasEnvironment"), texture_ ? 1 : 0);
}

}  // namespace eddy::render
