#include "render/particle_renderer.h"

#include <eddy/error.h>

#include <string>
#include <vector>

#include "render/gl.h"
#include "render/gl_program.h"
#include "render/sphere_splatting.h"

namespace eddy::render {

namespace {

// per pixel: the nearest sphere's surface under the pixel, lit by a headlight, coloured by its value
const std::string kShade = std::string(R"(#version 430 core
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer Positions { float position[]; };
layout(std430, binding = 1) readonly buffer Values { float value[]; };
layout(rgba8, binding = 0) uniform writeonly image2D colour;
)") + kSplatBuffers + R"(
uniform mat4 view;
uniform mat4 projection;
uniform ivec2 viewport;
uniform float radius;
uniform float valueLow;
uniform float valueTop;
uniform int hasValues;
uniform vec3 colorLow;
uniform vec3 colorHigh;
uniform int categories;  // > 0: value k takes palette[k] (materials) instead of the map
uniform vec3 palette[16];
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= viewport.x || p.y >= viewport.y) return;
  uint k = uint(p.y * viewport.x + p.x);
  if (depthBits[k] == kNoSphere) {
    imageStore(colour, p, texelFetch(scene, p, 0));
    return;
  }
  uint i = nearestParticle[k];
  vec3 centre = (view * vec4(position[3 * i], position[3 * i + 1], position[3 * i + 2], 1)).xyz;
  vec2 ndc = (vec2(p) + 0.5) / vec2(viewport) * 2.0 - 1.0;
  vec3 dir = normalize(vec3(ndc.x / projection[0][0], ndc.y / projection[1][1], -1.0));
  float b = dot(dir, centre);
  vec3 hit = dir * (b - sqrt(max(b * b - dot(centre, centre) + radius * radius, 0.0)));
  vec3 n = (hit - centre) / radius;
  float t = hasValues != 0 ? clamp((value[i] - valueLow) / (valueTop - valueLow), 0.0, 1.0) : 0.0;
  vec3 c = mix(colorLow, colorHigh, t);
  if (categories > 0) c = palette[clamp(hasValues != 0 ? int(value[i] + 0.5) : 0, 0, categories - 1)];
  // a headlight: full colour where the surface faces the camera
  float shade = 0.35 + 0.65 * max(dot(n, -dir), 0.0);
  imageStore(colour, p, vec4(c * shade, 1));
}
)";

}  // namespace

struct ParticleRenderer::Gl {
  GlProgram shade{"particle shading", kShade};
  SphereSplatting spheres;
  GLuint buffers[2] = {0, 0};
  Gl(int width, int height) : spheres(width, height) { glGenBuffers(2, buffers); }
  ~Gl() { glDeleteBuffers(2, buffers); }
};

ParticleRenderer::ParticleRenderer(int width, int height)
    : target_(width, height), gl_(std::make_unique<Gl>(width, height)) {}

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
  drawBuffer(gl_->buffers[0], values.empty() ? 0 : gl_->buffers[1], positions.size(), camera, style);
  return target_.read();
}

Image ParticleRenderer::render(const ParticleBuffer& particles, const Camera& camera,
                               const ParticleStyle& style) {
  draw(particles, camera, style);
  return target_.read();
}

void ParticleRenderer::draw(const ParticleBuffer& particles, const Camera& camera,
                            const ParticleStyle& style) {
  drawBuffer(particles.id(), particles.valuesId(), particles.count(), camera, style);
}

void ParticleRenderer::drawBuffer(unsigned positions, unsigned values, std::size_t count,
                                  const Camera& camera, const ParticleStyle& style) {
  if (style.palette.size() > 16) throw RuntimeFailure("render: more than 16 colours in a particle palette");
  const bool hasValues = values != 0;
  if (!hasValues) {  // a buffer is bound all the same
    const float none = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, gl_->buffers[1]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof none, &none, GL_STREAM_DRAW);
    values = gl_->buffers[1];
  }
  target_.begin(kBackground);
  if (scenery_) scenery_->draw(camera, float(target_.width()) / float(target_.height()));
  const Mat4 view = camera.view(),
             projection = camera.projection(float(target_.width()) / float(target_.height()));
  SphereSplatting& spheres = gl_->spheres;
  spheres.nearest(positions, count, view, projection, style.radius, true, target_);
  const GlProgram& p = gl_->shade;
  glUseProgram(p.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, positions);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, values);
  spheres.bindForShading(target_);
  glUniformMatrix4fv(p.uniform("view"), 1, GL_FALSE, view.data());
  glUniformMatrix4fv(p.uniform("projection"), 1, GL_FALSE, projection.data());
  glUniform2i(p.uniform("viewport"), target_.width(), target_.height());
  glUniform1f(p.uniform("radius"), style.radius);
  glUniform1f(p.uniform("valueLow"), style.valueLow);
  glUniform1f(p.uniform("valueTop"), style.valueTop > style.valueLow ? style.valueTop : style.valueLow + 1);
  glUniform1i(p.uniform("categories"), int(style.palette.size()));
  if (!style.palette.empty()) {
    std::vector<float> rgb;
    for (const Rgb& c : style.palette) rgb.insert(rgb.end(), {c.r, c.g, c.b});
    glUniform3fv(p.uniform("palette"), GLsizei(style.palette.size()), rgb.data());
  }
  glUniform1i(p.uniform("hasValues"), hasValues ? 1 : 0);
  glUniform3f(p.uniform("colorLow"), style.low.r, style.low.g, style.low.b);
  glUniform3f(p.uniform("colorHigh"), style.high.r, style.high.g, style.high.b);
  spheres.dispatchPixels();
  spheres.copyColourInto(target_);
  target_.end("particles");
}

}  // namespace eddy::render
