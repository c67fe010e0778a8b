#include "render/particle_renderer.h"

#include <eddy/error.h>

#include <string>

#include "render/gl.h"
#include "render/gl_program.h"

namespace eddy::render {

namespace {

// One point per particle, sized and placed to cover the sphere's projected silhouette exactly: on each
// screen axis the two tangents from the eye to the sphere give the silhouette's extent. The point's depth
// is the sphere's nearest point, so the fragment shader's ray-cast depth only grows from it.
const char* kVertex = R"(#version 430 core
layout(std430, binding = 0) readonly buffer Positions { float position[]; };
layout(std430, binding = 1) readonly buffer Values { float value[]; };
uniform mat4 view;
uniform mat4 projection;
uniform vec2 viewport;
uniform float radius;
uniform float valueTop;
uniform int hasValues;
flat out vec3 centre; // view-space sphere centre
flat out float t;     // the colour map's parameter
// the tangent slopes (coordinate / depth) of a circle at (c, depth) seen from the origin
vec2 tangents(float c, float depth) {
  float d2 = depth * depth - radius * radius;
  float root = radius * sqrt(max(c * c + d2, 0.0));
  return vec2(c * depth - root, c * depth + root) / d2;
}
void main() {
  int i = gl_VertexID;
  vec3 x = vec3(position[3 * i], position[3 * i + 1], position[3 * i + 2]);
  centre = (view * vec4(x, 1)).xyz;
  t = hasValues != 0 ? clamp(value[i] / valueTop, 0.0, 1.0) : 0.0;
  float depth = -centre.z;
  if (depth <= radius * 1.001) {  // the eye inside or behind the sphere: not drawn
    gl_Position = vec4(2, 2, 2, 1);
    gl_PointSize = 0.0;
    return;
  }
  vec2 sx = tangents(centre.x, depth) * projection[0][0], sy = tangents(centre.y, depth) * projection[1][1];
  vec4 front = projection * vec4(centre * (1.0 - radius / length(centre)), 1);
  gl_Position = vec4(0.5 * (sx.x + sx.y), 0.5 * (sy.x + sy.y), front.z / front.w, 1);
  gl_PointSize = max((sx.y - sx.x) * viewport.x, (sy.y - sy.x) * viewport.y) * 0.5 + 2.0;
}
)";

const char* kFragment = R"(#version 430 core
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
void main() {
  // the ray from the eye (the view-space origin) through this pixel, intersected with the sphere
  vec2 ndc = gl_FragCoord.xy / viewport * 2.0 - 1.0;
  vec3 dir = normalize(vec3(ndc.x / projection[0][0], ndc.y / projection[1][1], -1.0));
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
    glUniform2f(p.uniform("viewport"), float(target_.width()), float(target_.height()));
    glEnable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(gl_->vertexArray);
    glDrawArrays(GL_POINTS, 0, GLsizei(positions.size()));
  }
  return target_.finish("particles");
}

}  // namespace eddy::render
