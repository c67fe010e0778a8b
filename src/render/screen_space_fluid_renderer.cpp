#include "render/screen_space_fluid_renderer.h"

#include <eddy/error.h>

#include <algorithm>
#include <string>

#include "render/gl.h"
#include "render/gl_program.h"
#include "render/sphere_sprites.h"
#include "render/water_shading.h"

namespace eddy::render {

namespace {

const std::string kSphereUniforms = R"(#version 430 core
uniform mat4 projection;
uniform vec2 viewport;
uniform float radius;
flat in vec3 centre;
flat in float t;
)";

// pass 1: the nearest sphere's view-space depth (0 where there is no water)
const std::string kDepthFragment = kSphereUniforms + R"(
layout(depth_greater) out float gl_FragDepth;
out float viewDepth;
)" + kSphereRayCast + R"(
void main() {
  vec3 hit, dir;
  float chord;
  if (!castOntoSphere(centre, hit, dir, chord)) discard;
  gl_FragDepth = windowDepth(hit);
  viewDepth = -hit.z;
}
)";

// pass 2: the length of the pixel's ray inside each sphere, added up by blending. Spheres of radius r fill
// pi / 6 of the cubes of side 2 r each particle stands for: the chords count 6 / pi times, so that the
// thickness is the water's
const std::string kThicknessFragment = kSphereUniforms + R"(
out float thickness;
)" + kSphereRayCast + R"(
void main() {
  vec3 hit, dir;
  float chord;
  if (!castOntoSphere(centre, hit, dir, chord)) discard;
  thickness = chord * 1.9098593;
}
)";

// passes 3 and 4 cover the screen with one triangle
const char* kScreenVertex = R"(#version 430 core
void main() {
  vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
  gl_Position = vec4(p * 2.0 - 1.0, 0, 1);
}
)";

// pass 3: one axis of a Gaussian filter whose sigma is smoothingWidth projected particle radii at the
// pixel's depth. Over the depth it is bilateral: neighbours without water are left out, and a range sigma
// of two particle radii keeps depths far apart from mixing. Over the thickness it is plain. Pixels without
// water stay empty.
const char* kSmoothFragment = R"(#version 430 core
uniform sampler2D values;
uniform sampler2D depth;  // the unsmoothed depth: where there is water, and how far
uniform int bilateral;
uniform ivec2 direction;
uniform float radiusPixelsAtUnitDepth;  // a particle's projected radius in pixels, times its depth
uniform float radius;
uniform float smoothingWidth;
out float smoothed;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  ivec2 last = textureSize(values, 0) - 1;
  float d = texelFetch(depth, p, 0).r;
  if (d <= 0.0) {
    smoothed = 0.0;
    return;
  }
  float v = texelFetch(values, p, 0).r;
  float sigma = clamp(smoothingWidth * radiusPixelsAtUnitDepth / d, 0.5, 16.0);
  int reach = int(ceil(2.0 * sigma));
  float rangeSigma = 2.0 * radius;
  float sum = 0.0, weights = 0.0;
  for (int k = -reach; k <= reach; ++k) {
    float s = texelFetch(values, clamp(p + k * direction, ivec2(0), last), 0).r;
    float w = exp(-0.5 * float(k * k) / (sigma * sigma));
    if (bilateral != 0) {
      if (s <= 0.0) continue;
      float dz = (s - v) / rangeSigma;
      w *= exp(-0.5 * dz * dz);
    }
    sum += w * s;
    weights += w;
  }
  smoothed = sum / weights;
}
)";

// pass 4: normals from the smoothed depth, then water shading in world space
const std::string kShadeFragment = std::string(R"(#version 430 core
uniform sampler2D depth;
uniform sampler2D thickness;
uniform mat4 projection;
uniform vec2 viewport;
uniform mat3 viewToWorld;
uniform vec3 sun;
uniform vec3 background;
uniform vec3 absorption;
out vec4 color;
)") + kWaterShading + R"(
vec3 viewPosition(ivec2 p, float d) {
  vec2 ndc = (vec2(p) + 0.5) / viewport * 2.0 - 1.0;
  return vec3(ndc.x / projection[0][0], ndc.y / projection[1][1], -1.0) * d;
}
// the difference towards the neighbour along o: the smaller of the two one-sided ones, or the one there is
vec3 along(ivec2 p, vec3 c, ivec2 o) {
  ivec2 last = textureSize(depth, 0) - 1;
  ivec2 ahead = clamp(p + o, ivec2(0), last), behind = clamp(p - o, ivec2(0), last);
  float a = ahead == p ? 0.0 : texelFetch(depth, ahead, 0).r;
  float b = behind == p ? 0.0 : texelFetch(depth, behind, 0).r;
  vec3 forward = viewPosition(ahead, a) - c, backward = c - viewPosition(behind, b);
  if (a <= 0.0) return b <= 0.0 ? vec3(o, 0) : backward;
  if (b <= 0.0) return forward;
  return abs(forward.z) < abs(backward.z) ? forward : backward;
}
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  float d = texelFetch(depth, p, 0).r;
  if (d <= 0.0) discard;
  vec3 c = viewPosition(p, d);
  vec3 n = cross(along(p, c, ivec2(1, 0)), along(p, c, ivec2(0, 1)));
  n = length(n) > 0.0 ? normalize(n) : vec3(0, 0, 1);
  vec3 v = viewToWorld * normalize(-c);
  vec3 transmitted = background * exp(-absorption * texelFetch(thickness, p, 0).r);
  color = vec4(shadeWater(viewToWorld * n, v, transmitted, sun), 1);
}
)";

// a single-channel float texture with a framebuffer drawing into it
struct FloatTarget {
  GLuint texture = 0, framebuffer = 0;
  FloatTarget(int width, int height, GLuint depthBuffer) {
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32F, width, height);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    if (depthBuffer)
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depthBuffer);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      throw RuntimeFailure("render: the GL cannot make a float framebuffer for screen-space fluids");
  }
  ~FloatTarget() {
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteTextures(1, &texture);
  }
  FloatTarget(const FloatTarget&) = delete;
  FloatTarget& operator=(const FloatTarget&) = delete;
  void bind(int width, int height) const {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, width, height);
  }
};

GLuint depthRenderbuffer(int width, int height) {
  GLuint id = 0;
  glGenRenderbuffers(1, &id);
  glBindRenderbuffer(GL_RENDERBUFFER, id);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
  return id;
}

}  // namespace

struct ScreenSpaceFluidRenderer::Gl {
  GlProgram depthProgram{"fluid depth", kSphereSpriteVertex, kDepthFragment};
  GlProgram thicknessProgram{"fluid thickness", kSphereSpriteVertex, kThicknessFragment};
  GlProgram smoothProgram{"fluid smoothing", kScreenVertex, kSmoothFragment};
  GlProgram shadeProgram{"fluid shading", kScreenVertex, kShadeFragment};
  GLuint vertexArray = 0, positions = 0, noValues = 0, zBuffer;
  FloatTarget depth, thickness, across, smoothed, smoothedThickness;  // across: a filter's half-way result
  Gl(int width, int height)
      : zBuffer(depthRenderbuffer(width, height)),
        depth(width, height, zBuffer),
        thickness(width, height, 0),
        across(width, height, 0),
        smoothed(width, height, 0),
        smoothedThickness(width, height, 0) {
    glGenVertexArrays(1, &vertexArray);
    glGenBuffers(1, &positions);
    glGenBuffers(1, &noValues);
    const float none = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, noValues);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof none, &none, GL_STATIC_DRAW);
  }
  ~Gl() {
    glDeleteBuffers(1, &noValues);
    glDeleteBuffers(1, &positions);
    glDeleteVertexArrays(1, &vertexArray);
    glDeleteRenderbuffers(1, &zBuffer);
  }
  // the sphere sprites' uniforms, shared by passes 1 and 2
  void sphereUniforms(const GlProgram& p, const Mat4& view, const Mat4& projection, float width, float height,
                      float radius) const {
    glUseProgram(p.id());
    glUniformMatrix4fv(p.uniform("view"), 1, GL_FALSE, view.data());
    glUniformMatrix4fv(p.uniform("projection"), 1, GL_FALSE, projection.data());
    glUniform2f(p.uniform("viewport"), width, height);
    glUniform1f(p.uniform("radius"), radius);
    glUniform1f(p.uniform("valueTop"), 1);
    glUniform1i(p.uniform("hasValues"), 0);
  }
};

ScreenSpaceFluidRenderer::ScreenSpaceFluidRenderer(int width, int height)
    : target_(width, height), gl_(std::make_unique<Gl>(width, height)) {}

ScreenSpaceFluidRenderer::~ScreenSpaceFluidRenderer() = default;

Image ScreenSpaceFluidRenderer::render(const std::vector<Vec3>& positions, const Camera& camera,
                                       const FluidStyle& style) {
  static_assert(sizeof(Vec3) == 3 * sizeof(float), "positions go to the GL as packed floats");
  if (!positions.empty()) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, gl_->positions);
    glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(positions.size() * sizeof(Vec3)), positions.data(),
                 GL_STREAM_DRAW);
  }
  drawBuffer(gl_->positions, positions.size(), camera, style);
  return target_.read();
}

Image ScreenSpaceFluidRenderer::render(const ParticleBuffer& particles, const Camera& camera,
                                       const FluidStyle& style) {
  draw(particles, camera, style);
  return target_.read();
}

void ScreenSpaceFluidRenderer::draw(const ParticleBuffer& particles, const Camera& camera,
                                    const FluidStyle& style) {
  drawBuffer(particles.id(), particles.count(), camera, style);
}

void ScreenSpaceFluidRenderer::drawBuffer(unsigned positions, std::size_t particleCount, const Camera& camera,
                                          const FluidStyle& style) {
  if (!(style.radius > 0) || style.smoothingIterations < 0)
    throw RuntimeFailure("render: screen-space fluids need a positive radius and no negative iterations");
  Gl& gl = *gl_;
  const int w = target_.width(), h = target_.height();
  target_.begin(kBackground);  // the background, and the timer over every pass
  if (particleCount == 0) return target_.end("screen-space fluid");
  const Mat4 view = camera.view(), projection = camera.projection(float(w) / float(h));
  glBindVertexArray(gl.vertexArray);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, positions);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, gl.noValues);
  glEnable(GL_PROGRAM_POINT_SIZE);
  const GLsizei count = GLsizei(particleCount);

  // 1. depth
  gl.depth.bind(w, h);
  glClearColor(0, 0, 0, 0);
  glClearDepth(1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  gl.sphereUniforms(gl.depthProgram, view, projection, float(w), float(h), style.radius);
  glDrawArrays(GL_POINTS, 0, count);

  // 2. thickness
  gl.thickness.bind(w, h);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE);
  gl.sphereUniforms(gl.thicknessProgram, view, projection, float(w), float(h), style.radius);
  glDrawArrays(GL_POINTS, 0, count);
  glDisable(GL_BLEND);

  // 3. smoothing, across then down: the depth as often as asked, the thickness once
  const GlProgram& smooth = gl.smoothProgram;
  glUseProgram(smooth.id());
  glUniform1i(smooth.uniform("values"), 0);
  glUniform1i(smooth.uniform("depth"), 1);
  glUniform1f(smooth.uniform("radiusPixelsAtUnitDepth"), style.radius * projection[5] * 0.5f * float(h));
  glUniform1f(smooth.uniform("radius"), style.radius);
  glUniform1f(smooth.uniform("smoothingWidth"), style.smoothingWidth);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, gl.depth.texture);
  glActiveTexture(GL_TEXTURE0);
  auto filter = [&](GLuint source, const FloatTarget& into, bool bilateral) {
    glUniform1i(smooth.uniform("bilateral"), bilateral);
    for (int axis = 0; axis < 2; ++axis) {
      const FloatTarget& to = axis == 0 ? gl.across : into;
      to.bind(w, h);
      glBindTexture(GL_TEXTURE_2D, axis == 0 ? source : gl.across.texture);
      glUniform2i(smooth.uniform("direction"), axis == 0, axis == 1);
      glDrawArrays(GL_TRIANGLES, 0, 3);
    }
  };
  GLuint depth = gl.depth.texture;
  for (int i = 0; i < style.smoothingIterations; ++i) {
    filter(depth, gl.smoothed, true);
    depth = gl.smoothed.texture;
  }
  GLuint thickness = gl.thickness.texture;
  if (style.smoothingIterations > 0) {
    filter(thickness, gl.smoothedThickness, false);
    thickness = gl.smoothedThickness.texture;
  }

  // 4. shading, over the background
  target_.bind();
  const GlProgram& shade = gl.shadeProgram;
  glUseProgram(shade.id());
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, depth);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, thickness);
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(shade.uniform("depth"), 0);
  glUniform1i(shade.uniform("thickness"), 1);
  glUniformMatrix4fv(shade.uniform("projection"), 1, GL_FALSE, projection.data());
  glUniform2f(shade.uniform("viewport"), float(w), float(h));
  // the view's rotation is orthonormal: its transpose takes view-space directions back to the world
  const float* m = view.data();  // column-major
  const float viewToWorld[9] = {m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]};
  glUniformMatrix3fv(shade.uniform("viewToWorld"), 1, GL_FALSE, viewToWorld);
  glUniform3f(shade.uniform("sun"), style.sun.x, style.sun.y, style.sun.z);
  glUniform3f(shade.uniform("background"), kBackground.r, kBackground.g, kBackground.b);
  glUniform3f(shade.uniform("absorption"), style.absorption.r, style.absorption.g, style.absorption.b);
  environment_.bind(shade, 2);
  glDisable(GL_DEPTH_TEST);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glEnable(GL_DEPTH_TEST);
  target_.end("screen-space fluid");
}

}  // namespace eddy::render
