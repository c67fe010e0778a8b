#include "render/gl_program.h"

#include <eddy/error.h>

#include "render/gl.h"

namespace eddy::render {

namespace {

GLuint compile(const char* name, GLenum stage, const std::string& source) {
  GLuint shader = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw RuntimeFailure(std::string("render: shader '") + name + "' does not compile: " + log);
  }
  return shader;
}

}  // namespace

GlProgram::GlProgram(const char* name, const std::string& vertex, const std::string& fragment) {
  link(name, compile(name, GL_VERTEX_SHADER, vertex), compile(name, GL_FRAGMENT_SHADER, fragment));
}

GlProgram::GlProgram(const char* name, const std::string& compute) {
  link(name, compile(name, GL_COMPUTE_SHADER, compute), 0);
}

void GlProgram::link(const char* name, unsigned first, unsigned second) {
  id_ = glCreateProgram();
  for (GLuint shader : {first, second})
    if (shader) glAttachShader(id_, shader);
  glLinkProgram(id_);
  for (GLuint shader : {first, second})
    if (shader) glDeleteShader(shader);
  GLint ok = 0;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetProgramInfoLog(id_, sizeof log, nullptr, log);
    glDeleteProgram(id_);
    throw RuntimeFailure(std::string("render: shader '") + name + "' does not link: " + log);
  }
}

GlProgram::~GlProgram() { glDeleteProgram(id_); }

int GlProgram::uniform(const char* name) const { return glGetUniformLocation(id_, name); }

}  // namespace eddy::render
