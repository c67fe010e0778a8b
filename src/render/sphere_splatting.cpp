#include "render/sphere_splatting.h"

#include <eddy/error.h>

#include <algorithm>
#include <string>

#include "render/gl.h"
#include "render/gl_program.h"

namespace eddy::render {

namespace {

// pass 0: nearest depth; 1: which particle has it; 2: summed chords
const std::string kWalk = std::string(R"(#version 430 core
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer Positions { float position[]; };
)") + kSplatBuffers + R"(
uniform mat4 view;
uniform mat4 projection;
uniform ivec2 viewport;
uniform float radius;
uniform uint count;
uniform int pass;
// ellipsoids (render/ellipsoid_buffer.h): per particle the matrix A (row-major) of { x : |A (x - c)| <= 1 }
// and its largest semi-axis; the positions are then the ellipsoids' centres
uniform int ellipsoids;
layout(std430, binding = 5) readonly buffer Shapes { float shape[]; };
layout(std430, binding = 6) readonly buffer Bounds { float bound[]; };
uniform sampler2D sceneDepth;  // the target's depth: what was drawn before the water hides it
// how far along the unit ray dir through pixel (x, y) the scenery drawn before lies
float sceneDistance(int x, int y, vec3 dir) {
  float ndc = 2.0 * texelFetch(sceneDepth, ivec2(x, y), 0).r - 1.0;
  return projection[3][2] / (ndc + projection[2][2]) / -dir.z;
}
// the tangent slopes (coordinate / depth) of a circle of radius r at (c, depth) seen from the origin
vec2 tangents(float c, float depth, float r) {
  float d2 = depth * depth - r * r;
  float root = r * sqrt(max(c * c + d2, 0.0));
  return vec2(c * depth - root, c * depth + root) / d2;
}
// the ray from the eye along dir against the ellipsoid |Av (x - centre)| <= 1 (Av: A in view space, w =
// Av centre): the near distance and the chord, false where it misses. The residual e is formed as a vector
// so that no large terms cancel for a small ellipsoid far from the eye.
bool castOntoEllipsoid(mat3 Av, vec3 w, vec3 dir, out float near, out float chord) {
  vec3 u = Av * dir;
  float uu = dot(u, u), t0 = dot(u, w) / uu;
  vec3 e = w - u * t0;
  float h2 = 1.0 - dot(e, e);
  if (h2 < 0.0) return false;
  chord = 2.0 * sqrt(h2 / uu);
  near = t0 - 0.5 * chord;
  return true;
}
void main() {
  uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 128u + gl_LocalInvocationID.x;
  if (i >= count) return;
  vec3 centre = (view * vec4(position[3 * i], position[3 * i + 1], position[3 * i + 2], 1)).xyz;
  float depth = -centre.z;
  float reach = ellipsoids != 0 ? bound[i] : radius;
  if (depth <= reach * 1.001) return;  // the eye inside or behind the particle: not drawn
  mat3 Av = mat3(1.0);
  vec3 w = vec3(0.0);
  if (ellipsoids != 0) {
    // the rows of A fill the columns of a GLSL mat3, which is A^T; Av = A R^T with R the view's rotation
    uint k = 9u * i;
    mat3 At = mat3(shape[k], shape[k + 1u], shape[k + 2u], shape[k + 3u], shape[k + 4u], shape[k + 5u],
                   shape[k + 6u], shape[k + 7u], shape[k + 8u]);
    Av = transpose(At) * transpose(mat3(view));
    w = Av * centre;
  }
  vec2 sx = tangents(centre.x, depth, reach) * projection[0][0],
       sy = tangents(centre.y, depth, reach) * projection[1][1];
  // the pixels whose centres the silhouette's bounds enclose, and one more on each side for round-off
  vec2 size = vec2(viewport);
  ivec2 lo = max(ivec2(ceil((vec2(sx.x, sy.x) * 0.5 + 0.5) * size - 0.5)) - 1, ivec2(0));
  ivec2 hi = min(ivec2(floor((vec2(sx.y, sy.y) * 0.5 + 0.5) * size - 0.5)) + 1, viewport - 1);
  float cc = dot(centre, centre), r2 = radius * radius;
  for (int y = lo.y; y <= hi.y; ++y) {
    for (int x = lo.x; x <= hi.x; ++x) {
      vec2 ndc = (vec2(x, y) + 0.5) / size * 2.0 - 1.0;
      vec3 dir = normalize(vec3(ndc.x / projection[0][0], ndc.y / projection[1][1], -1.0));
      float near, chord;
      if (ellipsoids != 0) {
        if (!castOntoEllipsoid(Av, w, dir, near, chord)) continue;
      } else {
        float b = dot(dir, centre);
        float disc = b * b - cc + r2;
        if (disc < 0.0) continue;
        float halfChord = sqrt(disc);
        near = b - halfChord;
        chord = 2.0 * halfChord;
      }
      uint p = uint(y * viewport.x + x);
      float scene = sceneDistance(x, y, dir);
      if (pass == 2) {
        // the chord in front of the scenery; spheres of radius r fill pi / 6 of the cube of side 2 r each
        // particle stands for (an ellipsoid, pi / 6 of its box)
        float inFront = min(near + chord, scene) - near;
        if (inFront > 0.0) atomicAdd(thicknessFixed[p], uint(inFront * 1.9098593 / kThicknessPerUnit + 0.5));
        continue;
      }
      if (near > scene) continue;  // behind the scenery
      uint bits = floatBitsToUint(-dir.z * near);  // the hit's view-space depth
      if (pass == 0)
        atomicMin(depthBits[p], bits);
      else if (depthBits[p] == bits)
        nearestParticle[p] = i;
    }
  }
}
)";

void fill(GLuint buffer, GLuint value) {
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &value);
}

}  // namespace

unsigned pixelBuffer(int width, int height) {
  GLuint id = 0;
  glGenBuffers(1, &id);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id);
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(width) * height * 4, nullptr, GL_DYNAMIC_COPY);
  return id;
}

struct SphereSplatting::Programs {
  GlProgram walk{"sphere splatting", kWalk};
};

SphereSplatting::SphereSplatting(int width, int height)
    : width_(width),
      height_(height),
      depth_(pixelBuffer(width, height)),
      particle_(pixelBuffer(width, height)),
      thickness_(pixelBuffer(width, height)),
      programs_(std::make_unique<Programs>()) {
  glGenTextures(1, &colour_);
  glBindTexture(GL_TEXTURE_2D, colour_);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height);
  glGenFramebuffers(1, &colourFramebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, colourFramebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour_, 0);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw RuntimeFailure("render: the GL cannot make an RGBA8 image for compute shading");
}

SphereSplatting::~SphereSplatting() {
  glDeleteFramebuffers(1, &colourFramebuffer_);
  glDeleteTextures(1, &colour_);
  const GLuint buffers[3] = {depth_, particle_, thickness_};
  glDeleteBuffers(3, buffers);
}

void SphereSplatting::walk(int pass, unsigned positions, std::size_t count, const Mat4& view,
                           const Mat4& projection, float radius, unsigned sceneDepth,
                           SplatShapes ellipsoids) {
  if (count == 0) return;
  const GlProgram& p = programs_->walk;
  glUseProgram(p.id());
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_2D, sceneDepth);
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(p.uniform("sceneDepth"), 3);
  glUniformMatrix4fv(p.uniform("view"), 1, GL_FALSE, view.data());
  glUniformMatrix4fv(p.uniform("projection"), 1, GL_FALSE, projection.data());
  glUniform2i(p.uniform("viewport"), width_, height_);
  glUniform1f(p.uniform("radius"), radius);
  glUniform1ui(p.uniform("count"), GLuint(count));
  glUniform1i(p.uniform("pass"), pass);
  glUniform1i(p.uniform("ellipsoids"), ellipsoids.shapes != 0 ? 1 : 0);
  if (ellipsoids.shapes != 0) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, ellipsoids.shapes);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 6, ellipsoids.bounds);
  }
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, positions);
  bindPixelBuffers();
  // groups of 128 particles, in rows of at most 65535 groups (the smallest limit GL allows)
  const std::size_t groups = (count + 127) / 128;
  const GLuint across = GLuint(std::min<std::size_t>(groups, 65535));
  glDispatchCompute(across, GLuint((groups + across - 1) / across), 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void SphereSplatting::nearest(unsigned positions, std::size_t count, const Mat4& view, const Mat4& projection,
                              float radius, bool particles, const OffscreenTarget& scene,
                              SplatShapes ellipsoids) {
  clearNearest();
  walk(0, positions, count, view, projection, radius, scene.depthTexture(), ellipsoids);
  if (particles) walk(1, positions, count, view, projection, radius, scene.depthTexture(), ellipsoids);
}

void SphereSplatting::thickness(unsigned positions, std::size_t count, const Mat4& view,
                                const Mat4& projection, float radius, const OffscreenTarget& scene,
                                SplatShapes ellipsoids) {
  fill(thickness_, 0);
  walk(2, positions, count, view, projection, radius, scene.depthTexture(), ellipsoids);
}

void SphereSplatting::clearNearest() { fill(depth_, ~GLuint(0)); }

void SphereSplatting::clearThickness() { fill(thickness_, 0); }

void SphereSplatting::bindPixelBuffers() const {
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, depth_);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, particle_);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, thickness_);
}

void SphereSplatting::bindForShading(const OffscreenTarget& scene) const {
  // the scenery's colour on unit 4: what shows where there is no water, and through it
  glActiveTexture(GL_TEXTURE4);
  glBindTexture(GL_TEXTURE_2D, scene.colourTexture());
  glActiveTexture(GL_TEXTURE0);
  bindPixelBuffers();
  glBindImageTexture(0, colour_, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
}

void SphereSplatting::dispatchPixels() const {
  glDispatchCompute(GLuint((width_ + 15) / 16), GLuint((height_ + 15) / 16), 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

void SphereSplatting::copyColourInto(OffscreenTarget& target) const {
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, colourFramebuffer_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target.framebuffer());
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, target.width(), target.height(), GL_COLOR_BUFFER_BIT,
                    GL_NEAREST);
  target.bind();
}

}  // namespace eddy::render
