#include "render/surface_renderer.h"

#include <eddy/error.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "render/gl.h"
#include "render/gl_program.h"
#include "render/sphere_splatting.h"
#include "render/water_shading.h"

namespace eddy::render {

namespace {

// the mesh's storage buffers: vertex positions (0) and normals (1), packed xyz floats, and the triangles'
// vertex indices (5)
const std::string kMeshBuffers = std::string(R"(#version 430 core
layout(std430, binding = 0) readonly buffer Vertices { float vertex[]; };
layout(std430, binding = 1) readonly buffer Normals { float normal[]; };
layout(std430, binding = 5) readonly buffer Triangles { uint corner[]; };
)") + kSplatBuffers + R"(
uniform mat4 view;
uniform mat4 projection;
uniform ivec2 viewport;
vec3 load(uint v) { return vec3(vertex[3 * v], vertex[3 * v + 1], vertex[3 * v + 2]); }
// triangle t on the screen: the corners' clip coordinates and pixel positions (a pixel's centre at its
// integer coordinates); false for a triangle reaching behind the eye
bool onScreen(uint t, out vec4 clip[3], out vec2 pixel[3]) {
  for (int k = 0; k < 3; ++k) {
    clip[k] = projection * view * vec4(load(corner[3 * t + k]), 1);
    if (clip[k].w <= 1e-6) return false;
    pixel[k] = (clip[k].xy / clip[k].w * 0.5 + 0.5) * vec2(viewport) - 0.5;
  }
  return true;
}
float edge(vec2 a, vec2 b, vec2 q) { return (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x); }
// the perspective-correct weights of the corners at pixel q (all >= 0 inside), from the screen weights
bool weightsAt(vec4 clip[3], vec2 pixel[3], vec2 q, out vec3 w, out float depth) {
  float area = edge(pixel[0], pixel[1], pixel[2]);
  if (abs(area) < 1e-12) return false;
  vec3 s = vec3(edge(pixel[1], pixel[2], q), edge(pixel[2], pixel[0], q), edge(pixel[0], pixel[1], q)) / area;
  if (s.x < 0.0 || s.y < 0.0 || s.z < 0.0) return false;
  vec3 overW = s / vec3(clip[0].w, clip[1].w, clip[2].w);
  depth = 1.0 / (overW.x + overW.y + overW.z);  // the view-space depth (clip w)
  w = overW * depth;
  return true;
}
)";

// per triangle: pass 0 keeps the nearest depth per pixel (depthBits) and the farthest (thicknessFixed, as
// bits: the water's back), pass 1 the triangle that has the nearest; triangles behind the scenery drawn
// before are hidden
const std::string kWalk = kMeshBuffers + R"(
layout(local_size_x = 128) in;
uniform uint count;
uniform int pass;
uniform sampler2D sceneDepth;
void main() {
  uint t = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 128u + gl_LocalInvocationID.x;
  vec4 clip[3];
  vec2 pixel[3];
  if (t >= count || !onScreen(t, clip, pixel)) return;
  ivec2 lo = max(ivec2(ceil(min(pixel[0], min(pixel[1], pixel[2])))), ivec2(0));
  ivec2 hi = min(ivec2(floor(max(pixel[0], max(pixel[1], pixel[2])))), viewport - 1);
  for (int y = lo.y; y <= hi.y; ++y) {
    for (int x = lo.x; x <= hi.x; ++x) {
      vec3 w;
      float depth;
      if (!weightsAt(clip, pixel, vec2(x, y), w, depth)) continue;
      float ndc = 2.0 * texelFetch(sceneDepth, ivec2(x, y), 0).r - 1.0;
      if (depth > projection[3][2] / (ndc + projection[2][2])) continue;  // behind the scenery
      uint p = uint(y * viewport.x + x), bits = floatBitsToUint(depth);
      if (pass == 0) {
        atomicMin(depthBits[p], bits);
        atomicMax(thicknessFixed[p], bits);
      }
      else if (depthBits[p] == bits)
        nearestParticle[p] = t;
    }
  }
}
)";

// per pixel: the nearest triangle's point and interpolated normal, shaded as water over what lies behind
// it (the scenery, shifted by the normal's slant: screen-space refraction), absorbed over the water the
// view ray crosses: from the nearest surface to the farthest in front of the scenery (a nominal depth where
// the mesh is one open sheet there)
const std::string kShade = kMeshBuffers + kSrgb + kWaterShading + R"(
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba8, binding = 0) uniform writeonly image2D colour;
uniform vec3 eye;
uniform vec3 sun;
uniform vec3 absorption;
uniform float depth;
uniform float refraction;  // pixels of displacement per metre of water and unit normal slant, at unit depth
vec3 loadNormal(uint v) { return vec3(normal[3 * v], normal[3 * v + 1], normal[3 * v + 2]); }
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= viewport.x || p.y >= viewport.y) return;
  uint k = uint(p.y * viewport.x + p.x);
  vec4 clip[3];
  vec2 pixel[3];
  vec3 w;
  float d;
  uint t = nearestParticle[k];
  if (depthBits[k] == kNoSphere || !onScreen(t, clip, pixel) || !weightsAt(clip, pixel, vec2(p), w, d)) {
    imageStore(colour, p, texelFetch(scene, p, 0));
    return;
  }
  uint a = corner[3 * t], b = corner[3 * t + 1], c = corner[3 * t + 2];
  vec3 x = w.x * load(a) + w.y * load(b) + w.z * load(c);
  vec3 n = normalize(w.x * loadNormal(a) + w.y * loadNormal(b) + w.z * loadNormal(c));
  vec3 v = normalize(eye - x);
  if (dot(n, v) < 0.0) n = -n;
  float back = uintBitsToFloat(thicknessFixed[k]);
  // view depths to a length along the ray: the ray runs |x - eye| / d times as far as the depth grows
  float thickness = back > d * 1.00001 ? (back - d) * length(eye - x) / d : depth;
  vec2 slant = (view * vec4(n, 0)).xy;
  vec2 shift = clamp(-slant * refraction * min(thickness, 0.5) / d, vec2(-48.0), vec2(48.0));
  ivec2 behind = clamp(p + ivec2(round(shift)), ivec2(0), viewport - 1);
  vec3 transmitted = throughWater(toLinear(texelFetch(scene, behind, 0).rgb), thickness, absorption);
  imageStore(colour, p, vec4(toSrgb(shadeWater(n, v, transmitted, sun)), 1));
}
)";

// per-vertex normals where the mesh has none: the sum of its faces' area-weighted normals
std::vector<Vec3> vertexNormals(const TriangleMesh& mesh) {
  if (mesh.normals.size() == mesh.vertices.size()) return mesh.normals;
  std::vector<Vec3> n(mesh.vertices.size(), Vec3{0, 0, 0});
  for (const auto& t : mesh.triangles) {
    const Vec3 a = mesh.vertices[t[0]], b = mesh.vertices[t[1]], c = mesh.vertices[t[2]];
    const Vec3 face = cross(b - a, c - a);
    for (std::uint32_t i : t) n[i] = n[i] + face;
  }
  for (Vec3& v : n) v = normalizeOr(v, Vec3{0, 1, 0});
  return n;
}

}  // namespace

struct SurfaceRenderer::Gl {
  GlProgram walk{"surface splatting", kWalk};
  GlProgram shade{"surface shading", kShade};
  SphereSplatting canvas;         // its per-pixel buffers and colour image, for triangles
  GLuint buffers[3] = {0, 0, 0};  // vertices, normals, corner indices
  explicit Gl(int width, int height) : canvas(width, height) { glGenBuffers(3, buffers); }
  ~Gl() { glDeleteBuffers(3, buffers); }
};

SurfaceRenderer::SurfaceRenderer(int width, int height)
    : target_(width, height), gl_(std::make_unique<Gl>(width, height)) {}

SurfaceRenderer::~SurfaceRenderer() = default;

Image SurfaceRenderer::render(const TriangleMesh& mesh, const Camera& camera, const WaterStyle& style) {
  draw(mesh, camera, style);
  return target_.read();
}

void SurfaceRenderer::draw(const TriangleMesh& mesh, const Camera& camera, const WaterStyle& style) {
  static_assert(sizeof(Vec3) == 3 * sizeof(float), "vertices go to the GL as packed floats");
  const std::vector<Vec3> normals = vertexNormals(mesh);
  Gl& gl = *gl_;
  const std::size_t count = mesh.triangles.size();
  const std::pair<const void*, std::size_t> data[3] = {
      {mesh.vertices.data(), mesh.vertices.size() * sizeof(Vec3)},
      {normals.data(), normals.size() * sizeof(Vec3)},
      {mesh.triangles.data(), count * 3 * sizeof(std::uint32_t)}};
  for (int k = 0; k < 3; ++k) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, gl.buffers[k]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(std::max<std::size_t>(data[k].second, 4)),
                 data[k].second > 0 ? data[k].first : nullptr, GL_STREAM_DRAW);
  }
  drawBuffers(gl.buffers[0], gl.buffers[1], gl.buffers[2], count, camera, style);
}

void SurfaceRenderer::draw(const MeshBuffer& mesh, const Camera& camera, const WaterStyle& style) {
  drawBuffers(mesh.vertices(), mesh.normals(), mesh.triangles(), mesh.triangleCount(), camera, style);
}

void SurfaceRenderer::drawBuffers(unsigned vertices, unsigned normals, unsigned triangles, std::size_t count,
                                  const Camera& camera, const WaterStyle& style) {
  Gl& gl = *gl_;
  const unsigned buffers[3] = {vertices, normals, triangles};
  const int w = target_.width(), h = target_.height();
  target_.begin(kBackground);
  if (scenery_) {
    sky_.draw(camera, float(w) / float(h), environment_);
    scenery_->draw(camera, float(w) / float(h));
  }
  const Mat4 view = camera.view(), projection = camera.projection(float(w) / float(h));
  auto use = [&](const GlProgram& p) {
    glUseProgram(p.id());
    glUniformMatrix4fv(p.uniform("view"), 1, GL_FALSE, view.data());
    glUniformMatrix4fv(p.uniform("projection"), 1, GL_FALSE, projection.data());
    glUniform2i(p.uniform("viewport"), w, h);
    for (int k = 0; k < 3; ++k) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, k == 2 ? 5 : k, buffers[k]);
  };
  // 1. the nearest triangle per pixel, in front of the scenery
  gl.canvas.clearNearest();
  gl.canvas.clearThickness();
  if (count > 0) {
    use(gl.walk);
    gl.canvas.bindPixelBuffers();
    glActiveTexture(GL_TEXTURE3);
    glBindTexture(GL_TEXTURE_2D, target_.depthTexture());
    glActiveTexture(GL_TEXTURE0);
    glUniform1i(gl.walk.uniform("sceneDepth"), 3);
    glUniform1ui(gl.walk.uniform("count"), GLuint(count));
    const std::size_t groups = (count + 127) / 128;
    const GLuint across = GLuint(std::min<std::size_t>(groups, 65535));
    for (int pass = 0; pass < 2; ++pass) {
      glUniform1i(gl.walk.uniform("pass"), pass);
      glDispatchCompute(across, GLuint((groups + across - 1) / across), 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
  }
  // 2. water shading per pixel
  use(gl.shade);
  gl.canvas.bindForShading(target_);
  glUniform3f(gl.shade.uniform("eye"), camera.position.x, camera.position.y, camera.position.z);
  glUniform3f(gl.shade.uniform("sun"), style.sun.x, style.sun.y, style.sun.z);
  glUniform3f(gl.shade.uniform("absorption"), style.absorption.r, style.absorption.g, style.absorption.b);
  glUniform1f(gl.shade.uniform("depth"), style.depth);
  glUniform1f(gl.shade.uniform("scattering"), kWaterScattering);
  glUniform1f(gl.shade.uniform("fresnelF0"), style.fresnelF0);
  // water bends a ray by about (1 - 1 / 1.33) of its slant: a quarter of the depth, in pixels
  glUniform1f(gl.shade.uniform("refraction"), 0.25f * projection[5] * 0.5f * float(h));
  environment_.bind(gl.shade, 2);
  gl.canvas.dispatchPixels();
  gl.canvas.copyColourInto(target_);
  target_.end("a surface");
}

}  // namespace eddy::render
