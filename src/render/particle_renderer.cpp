#include "render/particle_renderer.h"

#include <eddy/error.h>

#include <string>

#include "render/gl.h"
#include "render/gl_program.h"

namespace eddy::render {

namespace {

// one quad per instance, corners from gl_VertexID; positions and values from storage buffers
const char* kVertex = R"(#version 430 core
layout(std430, binding = 0) readonly buffer Positions { float position[]; };
layout(std430, binding = 1) readonly buffer Values { float value[]; };
uniform mat4 view;
uniform mat4 projection;
uniform float radius;
uniform float valueTop;
uniform int hasValues;
out vec3 rayOnQuad;   // view-space point on the quad
flat out vec3 centre; // view-space sphere centre
flat out float t;     // the colour map's parameter
void main() {
  int i = gl_InstanceID;
  vec3 x = vec3(position[3 * i], position[3 * i + 1], position[3 * i + 2]);
  centre = (view * vec4(x, 1)).xyz;
  t = hasValues != 0 ? clamp(value[i] / valueTop, 0.0, 1.0) : 0.0;
  vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;
  // the quad faces the camera in front of the sphere, wide enough for its perspective silhouette
  vec3 toEye = normalize(-centre);
  vec3 right = normalize(cross(vec3(0, 1, 0), toEye));
  if (dot(right, right) < 0.5) right = vec3(1, 0, 0);
  vec3 up = cross(toEye, right);
  float d = length(centre);
  float grow = d > radius * 1.01 ? d / sqrt(d * d - radius * radius) : 4.0;
  rayOnQuad = centre + toEye * radius + (right * corner.x + up * corner.y) * radius * grow;
  gl_Position = projection * vec4(rayOnQuad, 1);
}
)";

const char* kFragment = R"(#version 430 core
uniform mat4 projection;
uniform float radius;
uniform vec3 colorLow;
uniform vec3 colorHigh;
in vec3 rayOnQuad;
flat in vec3 centre;
flat in float t;
out vec4 color;
// every hit lies behind the quad (it stands at the sphere's front), so the depth only grows: the GPU may
// still reject hidden fragments before running this shader
layout(depth_greater) out float gl_FragDepth;
void main() {
  // the eye is the view-space origin: intersect the ray through this pixel with the sphere
  vec3 dir = normalize(rayOnQuad);
  float b = dot(dir, centre);
  float disc = b * b - dot(centre, centre) + radius * radius;
  if (disc < 0.0) discard;
  vec3 hit = dir * (b - sqrt(disc));
  vec3 n = (hit - centre) / radius;
  vec4 clip = projection * vec4(hit, 1);
  gl_FragDepth = clip.z / clip.w * 0.5 + 0.5;
  // a headlight: full colour where the surface faces the camera
  float shade = 0.35 + 0.65 * max(dot(n, -dir), 0.0);
  color = vec4(mix(colorLow, colorHigh, t) * shade, 1);
}
)";

}  // namespace

struct ParticleRenderer::Gl {
  GlProgram program{"particles", kVertex, kFragment};
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
  target_.begin(kBackground);
  if (!positions.empty()) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, gl_->buffers[0]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, gl_->buffers[1]);
    const GlProgram& p = gl_->program;
    glUseProgram(p.id());
    const Mat4 view = camera.view(),
               projection = camera.projection(float(target_.width()) / float(target_.height()));
    glUniformMatrix4fv(p.uniform("view"), 1, GL_FALSE, view.data());
    glUniformMatrix4fv(p.uniform("projection"), 1, GL_FALSE, projection.data());
    glUniform1f(p.uniform("radius"), style.radius);
    glUniform1f(p.uniform("valueTop"), style.valueTop > 0 ? style.valueTop : 1);
    glUniform1i(p.uniform("hasValues"), values.empty() ? 0 : 1);
    glUniform3f(p.uniform("colorLow"), kColorLow.r, kColorLow.g, kColorLow.b);
    glUniform3f(p.uniform("colorHigh"), kColorHigh.r, kColorHigh.g, kColorHigh.b);
    glBindVertexArray(gl_->vertexArray);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(positions.size()));
  }
  return target_.finish("particles");
}

}  // namespace eddy::render
