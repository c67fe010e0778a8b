#include "render/environment_map.h"

#include <cmath>

#include "render/gl.h"
#include "render/water_shading.h"

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
  // sRGB: sampled (and filtered) in linear light, as the water is shaded
  glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8, image.width, image.height, 0, GL_RGB, GL_UNSIGNED_BYTE,
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

namespace {

// one triangle over the whole screen, at the far plane
const char* kSkyVertex = R"(#version 430 core
void main() {
  vec2 corner = vec2((gl_VertexID & 1) * 4 - 1, (gl_VertexID & 2) * 2 - 1);
  gl_Position = vec4(corner, 1, 1);
}
)";

const std::string kSkyFragment = std::string("#version 430 core\n") + kSrgb + kWaterShading + R"(
uniform mat3 viewToWorld;
uniform vec2 halfSize;  // tan of the half field of view, across and up
uniform vec2 viewport;
out vec4 colour;
void main() {
  vec2 ndc = gl_FragCoord.xy / viewport * 2.0 - 1.0;
  vec3 d = normalize(viewToWorld * vec3(ndc * halfSize, -1.0));
  colour = vec4(toSrgb(sky(d)), 1);
}
)";

}  // namespace

SkyBackground::SkyBackground() : program_(std::make_unique<GlProgram>("sky", kSkyVertex, kSkyFragment)) {
  glGenVertexArrays(1, &vertexArray_);
}

SkyBackground::~SkyBackground() { glDeleteVertexArrays(1, &vertexArray_); }

void SkyBackground::draw(const Camera& camera, float aspect, const EnvironmentMap& environment) const {
  const GlProgram& p = *program_;
  glUseProgram(p.id());
  const Mat4 view = camera.view();
  const float* m = view.data();  // the view's rotation, transposed: view to world
  const float viewToWorld[9] = {m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]};
  glUniformMatrix3fv(p.uniform("viewToWorld"), 1, GL_FALSE, viewToWorld);
  const float up = std::tan(camera.fovY * 3.14159265f / 360);
  glUniform2f(p.uniform("halfSize"), up * aspect, up);
  GLint box[4] = {0, 0, 1, 1};
  glGetIntegerv(GL_VIEWPORT, box);
  glUniform2f(p.uniform("viewport"), float(box[2]), float(box[3]));
  environment.bind(p, 2);
  glDisable(GL_DEPTH_TEST);
  glDepthMask(GL_FALSE);
  glBindVertexArray(vertexArray_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
  glEnable(GL_DEPTH_TEST);
}

}  // namespace eddy::render
