#include "render/screen_space_fluid_renderer.h"

#include <eddy/error.h>

#include <algorithm>
#include <string>

#include "render/gl.h"
#include "render/gl_program.h"
#include "render/sphere_splatting.h"
#include "render/water_shading.h"

namespace eddy::render {

namespace {

// the per-pixel passes run over the screen in 16 x 16 groups; buffers 5 to 9 hold floats per pixel
const std::string kPixelPass = std::string(R"(#version 430 core
layout(local_size_x = 16, local_size_y = 16) in;
uniform ivec2 viewport;
)") + kSplatBuffers + R"(
layout(std430, binding = 5) buffer Source { float source[]; };
layout(std430, binding = 6) buffer Guide { float guide[]; };  // the unsmoothed depth: where water is, how far
layout(std430, binding = 7) buffer Result { float result[]; };
int pixel(ivec2 p) { return p.y * viewport.x + p.x; }
)";

// the splats as floats: the nearest view-space depth (0 where there is no water) into result, the
// thickness in metres into source
const std::string kResolve = kPixelPass + R"(
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= viewport.x || p.y >= viewport.y) return;
  int k = pixel(p);
  result[k] = depthBits[k] == kNoSphere ? 0.0 : uintBitsToFloat(depthBits[k]);
  source[k] = float(thicknessFixed[k]) * kThicknessPerUnit;
}
)";

// one axis of a Gaussian filter whose sigma is smoothingWidth projected particle radii at the pixel's
// depth. Over the depth it is bilateral: neighbours without water are left out, and a range sigma of two
// particle radii, plus the depth a surface at 70 degrees from the view runs through over the filter's
// width, keeps depths far apart from mixing (without the slope term a surface seen at a grazing angle,
// whose depth changes by more than a particle radius from pixel to pixel, would not be smoothed at all and
// sparkle where particles are a pixel or two wide). Over the thickness it is plain. Pixels without water
// stay empty.
const std::string kSmooth = kPixelPass + R"(
uniform int bilateral;
uniform ivec2 direction;
uniform float radiusPixelsAtUnitDepth;  // a particle's projected radius in pixels, times its depth
uniform float metresPerPixelAtUnitDepth;
uniform float radius;
uniform float smoothingWidth;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= viewport.x || p.y >= viewport.y) return;
  float d = guide[pixel(p)];
  if (d <= 0.0) {
    result[pixel(p)] = 0.0;
    return;
  }
  float v = source[pixel(p)];
  float sigma = clamp(smoothingWidth * radiusPixelsAtUnitDepth / d, 0.5, 16.0);
  int reach = int(ceil(2.0 * sigma));
  float rangeSigma = 2.0 * radius + 2.75 * sigma * metresPerPixelAtUnitDepth * d;  // tan 70 = 2.75
  float sum = 0.0, weights = 0.0;
  for (int k = -reach; k <= reach; ++k) {
    float s = source[pixel(clamp(p + k * direction, ivec2(0), viewport - 1))];
    float w = exp(-0.5 * float(k * k) / (sigma * sigma));
    if (bilateral != 0) {
      if (s <= 0.0) continue;
      float dz = (s - v) / rangeSigma;
      w *= exp(-0.5 * dz * dz);
    }
    sum += w * s;
    weights += w;
  }
  result[pixel(p)] = sum / weights;
}
)";

// normals from the smoothed depth (source), then water shading in world space with the smoothed thickness
// (guide): the scenery behind the water seen through it, displaced along the normal by as much as the
// water is thick (screen-space refraction), and absorbed over that thickness; the scenery alone where
// there is no water
const std::string kShade = kPixelPass + R"(
layout(rgba8, binding = 0) uniform writeonly image2D colour;
uniform mat4 projection;
uniform mat3 viewToWorld;
uniform vec3 sun;
uniform vec3 absorption;
uniform float refraction;  // pixels of displacement per metre of water and unit normal slant, at unit depth
)" + kSrgb + kWaterShading +
                           R"(
vec3 viewPosition(ivec2 p, float d) {
  vec2 ndc = (vec2(p) + 0.5) / vec2(viewport) * 2.0 - 1.0;
  return vec3(ndc.x / projection[0][0], ndc.y / projection[1][1], -1.0) * d;
}
// the difference towards the neighbour along o: the smaller of the two one-sided ones, or the one there is
vec3 along(ivec2 p, vec3 c, ivec2 o) {
  ivec2 ahead = clamp(p + o, ivec2(0), viewport - 1), behind = clamp(p - o, ivec2(0), viewport - 1);
  float a = ahead == p ? 0.0 : source[pixel(ahead)];
  float b = behind == p ? 0.0 : source[pixel(behind)];
  vec3 forward = viewPosition(ahead, a) - c, backward = c - viewPosition(behind, b);
  if (a <= 0.0) return b <= 0.0 ? vec3(o, 0) : backward;
  if (b <= 0.0) return forward;
  return abs(forward.z) < abs(backward.z) ? forward : backward;
}
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= viewport.x || p.y >= viewport.y) return;
  float d = source[pixel(p)];
  if (d <= 0.0) {
    imageStore(colour, p, texelFetch(scene, p, 0));
    return;
  }
  vec3 c = viewPosition(p, d);
  vec3 n = cross(along(p, c, ivec2(1, 0)), along(p, c, ivec2(0, 1)));
  n = length(n) > 0.0 ? normalize(n) : vec3(0, 0, 1);
  vec3 v = viewToWorld * normalize(-c);
  float thickness = guide[pixel(p)];
  vec2 shift = clamp(-n.xy * refraction * min(thickness, 0.5) / d, vec2(-48.0), vec2(48.0));
  ivec2 behind = clamp(p + ivec2(round(shift)), ivec2(0), viewport - 1);
  vec3 transmitted = throughWater(toLinear(texelFetch(scene, behind, 0).rgb), thickness, absorption);
  imageStore(colour, p, vec4(toSrgb(shadeWater(viewToWorld * n, v, transmitted, sun)), 1));
}
)";

}  // namespace

struct ScreenSpaceFluidRenderer::Gl {
  GlProgram resolve{"fluid splats", kResolve};
  GlProgram smooth{"fluid smoothing", kSmooth};
  GlProgram shade{"fluid shading", kShade};
  SphereSplatting spheres;
  GLuint positions = 0;
  // depth as splatted, smoothed, half-way through a filter; thickness as splatted, smoothed
  GLuint depth, smoothed, across, thickness, smoothedThickness;
  Gl(int width, int height)
      : spheres(width, height),
        depth(pixelBuffer(width, height)),
        smoothed(pixelBuffer(width, height)),
        across(pixelBuffer(width, height)),
        thickness(pixelBuffer(width, height)),
        smoothedThickness(pixelBuffer(width, height)) {
    glGenBuffers(1, &positions);
  }
  ~Gl() {
    const GLuint buffers[6] = {positions, depth, smoothed, across, thickness, smoothedThickness};
    glDeleteBuffers(6, buffers);
  }
  // the float buffers a per-pixel pass reads and writes
  static void bindPass(GLuint source, GLuint guide, GLuint result) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, source);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 6, guide);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 7, result);
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

Image ScreenSpaceFluidRenderer::render(const EllipsoidBuffer& ellipsoids, const Camera& camera,
                                       const FluidStyle& style) {
  draw(ellipsoids, camera, style);
  return target_.read();
}

void ScreenSpaceFluidRenderer::draw(const EllipsoidBuffer& ellipsoids, const Camera& camera,
                                    const FluidStyle& style) {
  drawBuffer(ellipsoids.centres(), ellipsoids.count(), camera, style, ellipsoids.shapes());
}

void ScreenSpaceFluidRenderer::drawBuffer(unsigned positions, std::size_t particleCount, const Camera& camera,
                                          const FluidStyle& style, SplatShapes ellipsoids) {
  if (!(style.radius > 0) || style.smoothingIterations < 0)
    throw RuntimeFailure("render: screen-space fluids need a positive radius and no negative iterations");
  Gl& gl = *gl_;
  const int w = target_.width(), h = target_.height();
  target_.begin(kBackground);  // the background, and the timer over every pass
  if (scenery_) {
    sky_.draw(camera, float(w) / float(h), environment_);
    scenery_->draw(camera, float(w) / float(h));
  }
  if (particleCount == 0) return target_.end("screen-space fluid");
  const Mat4 view = camera.view(), projection = camera.projection(float(w) / float(h));

  // 1. and 2. the nearest depth and the thickness, splatted, then as floats
  gl.spheres.nearest(positions, particleCount, view, projection, style.radius, false, target_, ellipsoids);
  gl.spheres.thickness(positions, particleCount, view, projection, style.radius, target_, ellipsoids);
  auto run = [&](const GlProgram& p) {
    glUseProgram(p.id());
    glUniform2i(p.uniform("viewport"), w, h);
    gl.spheres.bindForShading(target_);
  };
  run(gl.resolve);
  Gl::bindPass(gl.thickness, gl.depth, gl.depth);  // source: thickness out; result: depth out
  gl.spheres.dispatchPixels();

  // 3. smoothing, across then down: the depth as often as asked, the thickness once
  const GlProgram& smooth = gl.smooth;
  run(smooth);
  glUniform1f(smooth.uniform("radiusPixelsAtUnitDepth"), style.radius * projection[5] * 0.5f * float(h));
  glUniform1f(smooth.uniform("metresPerPixelAtUnitDepth"), 1 / (projection[5] * 0.5f * float(h)));
  glUniform1f(smooth.uniform("radius"), style.radius);
  glUniform1f(smooth.uniform("smoothingWidth"), style.smoothingWidth);
  auto filter = [&](GLuint source, GLuint into, bool bilateral) {
    glUniform1i(smooth.uniform("bilateral"), bilateral);
    for (int axis = 0; axis < 2; ++axis) {
      Gl::bindPass(axis == 0 ? source : gl.across, gl.depth, axis == 0 ? gl.across : into);
      glUniform2i(smooth.uniform("direction"), axis == 0, axis == 1);
      gl.spheres.dispatchPixels();
    }
  };
  GLuint depth = gl.depth;
  for (int i = 0; i < style.smoothingIterations; ++i) {
    filter(depth, gl.smoothed, true);
    depth = gl.smoothed;
  }
  GLuint thickness = gl.thickness;
  if (style.smoothingIterations > 0) {
    filter(thickness, gl.smoothedThickness, false);
    thickness = gl.smoothedThickness;
  }

  // 4. shading, over the background
  const GlProgram& shade = gl.shade;
  run(shade);
  Gl::bindPass(depth, thickness, 0);
  glUniformMatrix4fv(shade.uniform("projection"), 1, GL_FALSE, projection.data());
  // the view's rotation is orthonormal: its transpose takes view-space directions back to the world
  const float* m = view.data();  // column-major
  const float viewToWorld[9] = {m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]};
  glUniformMatrix3fv(shade.uniform("viewToWorld"), 1, GL_FALSE, viewToWorld);
  glUniform3f(shade.uniform("sun"), style.sun.x, style.sun.y, style.sun.z);
  glUniform3f(shade.uniform("absorption"), style.absorption.r, style.absorption.g, style.absorption.b);
  glUniform1f(shade.uniform("scattering"), kWaterScattering);
  glUniform1f(shade.uniform("fresnelF0"), style.fresnelF0);
  // water bends a ray by about (1 - 1 / 1.33) of its slant: a quarter of the thickness, in pixels
  glUniform1f(shade.uniform("refraction"), 0.25f * projection[5] * 0.5f * float(h));
  environment_.bind(shade, 2);
  gl.spheres.dispatchPixels();
  gl.spheres.copyColourInto(target_);
  target_.end("screen-space fluid");
}

}  // namespace eddy::render
