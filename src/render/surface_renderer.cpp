#include "render/surface_renderer.h"

#include <eddy/error.h>

#include <string>
#include <vector>

#include "render/gl.h"
#include "render/gl_program.h"
#include "render/water_shading.h"

namespace eddy::render {

namespace {

const char* kVertex = R"(#version 430 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 view;
uniform mat4 projection;
out vec3 worldPosition;
out vec3 worldNormal;
void main() {
  worldPosition = position;
  worldNormal = normal;
  gl_Position = projection * view * vec4(position, 1);
}
)";

const std::string kFragment = std::string(R"(#version 430 core
uniform vec3 eye;
uniform vec3 sun;
uniform vec3 background;
uniform vec3 absorption;
uniform float depth;
in vec3 worldPosition;
in vec3 worldNormal;
out vec4 color;
)") + kWaterShading + R"(
void main() {
  vec3 v = normalize(eye - worldPosition);
  vec3 transmitted = background * exp(-absorption * depth);
  color = vec4(shadeWater(normalize(worldNormal), v, transmitted, sun), 1);
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
  GlProgram program{"surface", kVertex, kFragment};
  GLuint vertexArray = 0, buffers[3] = {0, 0, 0};
  Gl() {
    glGenVertexArrays(1, &vertexArray);
    glGenBuffers(3, buffers);
  }
  ~Gl() {
    glDeleteBuffers(3, buffers);
    glDeleteVertexArrays(1, &vertexArray);
  }
};

SurfaceRenderer::SurfaceRenderer(int width, int height)
    : target_(width, height), gl_(std::make_unique<Gl>()) {}

SurfaceRenderer::~SurfaceRenderer() = default;

Image SurfaceRenderer::render(const TriangleMesh& mesh, const Camera& camera, const WaterStyle& style) {
  draw(mesh, camera, style);
  return target_.read();
}

void SurfaceRenderer::draw(const TriangleMesh& mesh, const Camera& camera, const WaterStyle& style) {
  static_assert(sizeof(Vec3) == 3 * sizeof(float), "vertices go to the GL as packed floats");
  const std::vector<Vec3> normals = vertexNormals(mesh);
  glBindVertexArray(gl_->vertexArray);
  if (!mesh.triangles.empty()) {
    glBindBuffer(GL_ARRAY_BUFFER, gl_->buffers[0]);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(mesh.vertices.size() * sizeof(Vec3)), mesh.vertices.data(),
                 GL_STREAM_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, gl_->buffers[1]);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(normals.size() * sizeof(Vec3)), normals.data(), GL_STREAM_DRAW);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(1);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gl_->buffers[2]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(mesh.triangles.size() * 3 * sizeof(std::uint32_t)),
                 mesh.triangles.data(), GL_STREAM_DRAW);
  }
  target_.begin(kBackground);
  if (scenery_) scenery_->draw(camera, float(target_.width()) / float(target_.height()));
  glBindVertexArray(gl_->vertexArray);  // the scenery's draw left its own bound
  if (!mesh.triangles.empty()) {
    const GlProgram& p = gl_->program;
    glUseProgram(p.id());
    const Mat4 view = camera.view(),
               projection = camera.projection(float(target_.width()) / float(target_.height()));
    glUniformMatrix4fv(p.uniform("view"), 1, GL_FALSE, view.data());
    glUniformMatrix4fv(p.uniform("projection"), 1, GL_FALSE, projection.data());
    glUniform3f(p.uniform("eye"), camera.position.x, camera.position.y, camera.position.z);
    glUniform3f(p.uniform("sun"), style.sun.x, style.sun.y, style.sun.z);
    glUniform3f(p.uniform("background"), kBackground.r, kBackground.g, kBackground.b);
    glUniform3f(p.uniform("absorption"), style.absorption.r, style.absorption.g, style.absorption.b);
    glUniform1f(p.uniform("depth"), style.depth);
    environment_.bind(p, 0);
    glDrawElements(GL_TRIANGLES, GLsizei(mesh.triangles.size() * 3), GL_UNSIGNED_INT, nullptr);
  }
  target_.end("a surface");
}

}  // namespace eddy::render
