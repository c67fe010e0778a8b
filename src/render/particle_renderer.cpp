#include "render/particle_renderer.h"

#include <eddy/error.h>

#include <string>

#include "render/gl.h"
#include "render/gl_program.h"
#include "render/sphere_sprites.h"

namespace eddy::render {

namespace {

const std::string kFragment = std::string(R"(#version 430 core
uniform mat4 projection;
uniform vec2 viewport;
uniform float radius;
uniform vec3 colorLow;
uniform vec3 colorHigh;
flat in vec3 centre;
flat in float t;
out vec4 color;
// every hit lies behind the sphere's nearest point, the point's own depth: the depth only grows, so the GPU
// may still reject hidden fragments before running this shader
layout(depth_greater) out float gl_FragDepth;
)") + kSphereRayCast + R"(
void main() {
  vec3 hit, dir;
  float chord;
  if (!castOntoSphere(centre, hit, dir, chord)) discard;
  vec3 n = (hit - centre) / radius;
  gl_FragDepth = windowDepth(hit);
  // a headlight: full colour where the surface faces the camera
  float shade = 0.35 + 0.65 * max(dot(n, -dir), 0.0);
  color = vec4(mix(colorLow, colorHigh, t) * shade, 1);
}
)";

}  // namespace

struct ParticleRenderer::Gl {
  GlProgram program{"particles", kSphereSpriteVertex, kFragment};
  GLuint vertexArray = 0, buffers[2] = {0, 0};
  Gl() {
    glGenVertexArrays(1, &vertexArray);
    glGenBuffers(2, buffers);
  }
  ~Gl() {
    glDeleteBuffers(2, buffers);
    glDeleteVertexArrays(1, &vertexArray);
  }
};

ParticleRenderer::ParticleRenderer(int width, int height)
    : target_(width, height), gl_(std::make_unique<Gl>()) {}

ParticleRenderer::~ParticleRenderer() = default;

Image ParticleRenderer::render(const std::vector<Vec3>& positions, const std::vector<float>& values,
                               const Camera& camera, const ParticleStyle& style) {
  static_assert(sizeof(Vec3) == 3 * sizeof(float), "positions go to the GL as packed floats");
  if (!values.empty() && values.size() != positions.size())
    throw RuntimeFailure("render: " + std::to_string(values.size()) + " values for " +
                         std::to_string(positions.size()) + " particles");
  // the storage buffers first, so the timer sees only the drawing
  if (!positions.empty()) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, gl_->buffers[0]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(positions.size() * sizeof(Vec3)), positions.data(),
                 GL_STREAM_DRAW);
    const float none = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, gl_->buffers[1]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(values.empty() ? sizeof none : values.size() * 4),
                 values.empty() ? &none : values.data(), GL_STREAM_DRAW);
  }
  drawBuffer(gl_->buffers[0], positions.size(), !values.empty(), camera, style);
  return target_.read();
}

Image ParticleRenderer::render(const ParticleBuffer& particles, const Camera& camera,
                               const ParticleStyle& style) {
  draw(particles, camera, style);
  return target_.read();
}

void ParticleRenderer::draw(const ParticleBuffer& particles, const Camera& camera,
                            const ParticleStyle& style) {
  const float none = 0;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, gl_->buffers[1]);
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof none, &none, GL_STREAM_DRAW);
  drawBuffer(particles.id(), particles.count(), false, camera, style);
}

void ParticleRenderer::drawBuffer(unsigned positions, std::size_t count, bool hasValues, const Camera& camera,
                                  const ParticleStyle& style) {
  target_.begin(kBackground);
  if (count > 0) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, gl_->buffers[1]);
    const GlProgram& p = gl_->program;
    glUseProgram(p.id());
    const Mat4 view = camera.view(),
               projection = camera.projection(float(target_.width()) / float(target_.height()));
    glUniformMatrix4fv(p.uniform("view"), 1, GL_FALSE, view.data());
    glUniformMatrix4fv(p.uniform("projection"), 1, GL_FALSE, projection.data());
    glUniform1f(p.uniform("radius"), style.radius);
    glUniform1f(p.uniform("valueTop"), style.valueTop > 0 ? style.valueTop : 1);
    glUniform1i(p.uniform("hasValues"), hasValues ? 1 : 0);
    glUniform3f(p.uniform("colorLow"), style.low.r, style.low.g, style.low.b);
    glUniform3f(p.uniform("colorHigh"), style.high.r, style.high.g, style.high.b);
    glUniform2f(p.uniform("viewport"), float(target_.width()), float(target_.height()));
    glEnable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(gl_->vertexArray);
    glDrawArrays(GL_POINTS, 0, GLsizei(count));
  }
  target_.end("particles");
}

}  // namespace eddy::render
