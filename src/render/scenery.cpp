#include "render/scenery.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "render/gl.h"
#include "render/gl_program.h"
#include "render/sphere_sprites.h"
#include "render/water_shading.h"

namespace eddy::render {

namespace {

constexpr float kPi = 3.14159265358979f;

const char* kVertex = R"(#version 430 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
out vec3 worldPosition;
out vec3 worldNormal;
void main() {
  vec4 w = model * vec4(position, 1);
  worldPosition = w.xyz;
  worldNormal = mat3(model) * normal;
  gl_Position = projection * view * w;
}
)";

// Lambert under the sun, a sky term brighter for upward faces, and an ambient floor, in linear light (the
// albedo decoded from sRGB, the result encoded); lit from either side (mesh windings vary), except that a
// tank shows only the faces turned away from the eye
const std::string kFragment = std::string("#version 430 core\n") + kSrgb + R"(
uniform vec3 sun;
uniform vec3 eye;
uniform vec3 albedo;
uniform float checker;  // the floor's tile size; 0: plain
uniform int insideOnly;
in vec3 worldPosition;
in vec3 worldNormal;
out vec4 colour;
void main() {
  vec3 n = normalize(worldNormal);
  bool facing = dot(n, eye - worldPosition) > 0.0;
  if (insideOnly != 0 && facing) discard;
  if (!facing) n = -n;
  vec3 base = albedo;
  if (checker > 0.0) {
    ivec2 c = ivec2(floor(worldPosition.xz / checker));
    if (((c.x + c.y) & 1) != 0) base *= 0.86;
  }
  float light = 0.25 + 0.25 * (0.5 + 0.5 * n.y) + 0.5 * max(dot(n, normalize(sun)), 0.0);
  colour = vec4(toSrgb(toLinear(base) * light), 1);
}
)";

// the solid particles: sphere sprites (render/sphere_sprites.h) whose value is their colour's index
const std::string kSolidFragment = std::string(R"(#version 430 core
)") + kSrgb + R"(
uniform mat4 projection;
uniform vec2 viewport;
uniform float radius;
uniform vec3 palette[4];
uniform vec3 sun;
uniform mat3 viewToWorld;
flat in vec3 centre;
flat in float t;
out vec4 colour;
layout(depth_greater) out float gl_FragDepth;
)" + kSphereRayCast + R"(
void main() {
  vec3 hit, dir;
  float chord;
  if (!castOntoSphere(centre, hit, dir, chord)) discard;
  gl_FragDepth = windowDepth(hit);
  vec3 n = viewToWorld * ((hit - centre) / radius);
  float light = 0.15 + 0.25 * (0.5 + 0.5 * n.y) + 0.6 * max(dot(n, normalize(sun)), 0.0);
  colour = vec4(toSrgb(toLinear(palette[int(round(t * 3.0))]) * light), 1);
}
)";

// triangles with a normal per vertex, interleaved: x y z nx ny nz
struct Triangles {
  std::vector<float> data;
  void vertex(Vec3 p, Vec3 n) { data.insert(data.end(), {p.x, p.y, p.z, n.x, n.y, n.z}); }
  void triangle(Vec3 a, Vec3 b, Vec3 c, Vec3 na, Vec3 nb, Vec3 nc) {
    vertex(a, na), vertex(b, nb), vertex(c, nc);
  }
  void quad(Vec3 a, Vec3 b, Vec3 c, Vec3 d, Vec3 n) {
    triangle(a, b, c, n, n, n), triangle(a, c, d, n, n, n);
  }
};

void box(Triangles& t, Vec3 h) {
  for (int axis = 0; axis < 3; ++axis)
    for (int side = -1; side <= 1; side += 2) {
      Vec3 n{0, 0, 0}, u{0, 0, 0}, v{0, 0, 0};
      (&n.x)[axis] = Real(side);
      (&u.x)[(axis + 1) % 3] = (&h.x)[(axis + 1) % 3];
      (&v.x)[(axis + 2) % 3] = (&h.x)[(axis + 2) % 3];
      const Vec3 c = n * (&h.x)[axis];
      t.quad(c - u - v, c + u - v, c + u + v, c - u + v, n);
    }
}

// a point of a profile turned about the y axis: its distance from the axis, height, and the normal's
// radial and vertical parts
struct ProfilePoint {
  float r, y, nr, ny;
};

// the surface swept by each segment (a, b) of the profile turned about the y axis
void lathe(Triangles& t, const std::vector<std::pair<ProfilePoint, ProfilePoint>>& segments) {
  constexpr int kAround = 32;
  for (const auto& [a, b] : segments)
    for (int k = 0; k < kAround; ++k) {
      const float t0 = 2 * kPi * float(k) / kAround, t1 = 2 * kPi * float(k + 1) / kAround;
      auto at = [](const ProfilePoint& p, float angle) {
        return Vec3{p.r * std::cos(angle), p.y, p.r * std::sin(angle)};
      };
      auto normal = [](const ProfilePoint& p, float angle) {
        return Vec3{p.nr * std::cos(angle), p.ny, p.nr * std::sin(angle)};
      };
      t.triangle(at(a, t0), at(b, t0), at(b, t1), normal(a, t0), normal(b, t0), normal(b, t1));
      t.triangle(at(a, t0), at(b, t1), at(a, t1), normal(a, t0), normal(b, t1), normal(a, t1));
    }
}

// a sphere of radius r cut at its equator and pulled apart by 2 * halfHeight along y (a capsule; a sphere
// for halfHeight 0)
void capsule(Triangles& t, float r, float halfHeight) {
  std::vector<std::pair<ProfilePoint, ProfilePoint>> segments;
  constexpr int kRings = 16;
  for (int i = 0; i < kRings; ++i) {
    const float a0 = -kPi / 2 + kPi * float(i) / kRings, a1 = -kPi / 2 + kPi * float(i + 1) / kRings;
    const float shift = a1 <= 0 ? -halfHeight : halfHeight;
    auto p = [&](float a) {
      return ProfilePoint{r * std::cos(a), r * std::sin(a) + shift, std::cos(a), std::sin(a)};
    };
    segments.push_back({p(a0), p(a1)});
    if (i == kRings / 2 - 1 && halfHeight > 0)
      segments.push_back({ProfilePoint{r, -halfHeight, 1, 0}, ProfilePoint{r, halfHeight, 1, 0}});
  }
  lathe(t, segments);
}

void cylinder(Triangles& t, float r, float h) {
  lathe(t, {{ProfilePoint{0, -h, 0, -1}, ProfilePoint{r, -h, 0, -1}},
            {ProfilePoint{r, -h, 1, 0}, ProfilePoint{r, h, 1, 0}},
            {ProfilePoint{r, h, 0, 1}, ProfilePoint{0, h, 0, 1}}});
}

// a square of side 2 * half in the plane through p with normal n
void square(Triangles& t, Vec3 p, Vec3 n, float half) {
  const Vec3 u = normalizeOr(cross(n, std::abs(n.y) < 0.9f ? Vec3{0, 1, 0} : Vec3{1, 0, 0}), Vec3{1, 0, 0});
  const Vec3 v = cross(n, u);
  t.quad(p - u * half - v * half, p + u * half - v * half, p + u * half + v * half, p - u * half + v * half,
         n);
}

}  // namespace

struct Scenery::Part {
  Triangles triangles;
  std::size_t collider = 0;  // whose pose it takes at a time (ColliderShapes::pose)
  bool posed = false;        // false: the triangles are in the world already
  bool insideOnly = false;
  float checker = 0;
  Rgb albedo{0.72f, 0.67f, 0.60f};
  GLuint vertexArray = 0, buffer = 0;
};

struct Scenery::Gl {
  GlProgram program{"scenery", kVertex, kFragment};
  GlProgram solids{"solid particles", kSphereSpriteVertex, kSolidFragment};
  GLuint solidVertexArray = 0, solidBuffers[2] = {0, 0};
  Gl() {
    glGenVertexArrays(1, &solidVertexArray);
    glGenBuffers(2, solidBuffers);
  }
  ~Gl() {
    glDeleteBuffers(2, solidBuffers);
    glDeleteVertexArrays(1, &solidVertexArray);
  }
};

const std::vector<Rgb>& Scenery::materialColours() {
  static const std::vector<Rgb> colours = {
      {0.86f, 0.71f, 0.46f},  // sand
      {0.96f, 0.97f, 1.00f},  // snow
      {0.90f, 0.28f, 0.38f},  // elastic: jelly
  };
  return colours;
}

int Scenery::materialColour(const std::string& type) {
  if (type == "sand") return 0;
  if (type == "snow") return 1;
  if (type == "elastic") return 2;
  return -1;
}

void Scenery::setSolidParticles(const std::vector<Vec3>& positions, const std::vector<float>& colourIndex,
                                float radius) {
  static_assert(sizeof(Vec3) == 3 * sizeof(float), "positions go to the GL as packed floats");
  solidCount_ = std::min(positions.size(), colourIndex.size());
  solidRadius_ = radius;
  if (solidCount_ == 0) return;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, gl_->solidBuffers[0]);
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(solidCount_ * sizeof(Vec3)), positions.data(),
               GL_STREAM_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, gl_->solidBuffers[1]);
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(solidCount_ * sizeof(float)), colourIndex.data(),
               GL_STREAM_DRAW);
}

Scenery::Scenery(const SceneDesc& scene, bool floorAndColliders)
    : gl_(std::make_unique<Gl>()), sun_(scene.render.sun) {
  if (!floorAndColliders) return;
  for (std::size_t i = 0; i < scene.colliders.size(); ++i)
    if (scene.colliders[i].density > 0) bodies_.push_back(i);
  parts_.reserve(scene.colliders.size() + 1);
  const Vec3 lo = scene.domain.min, hi = scene.domain.max;
  const Vec3 extent = hi - lo;
  const float reach = std::max({float(extent.x), float(extent.y), float(extent.z)});
  // the floor: the domain's bottom, reaching a domain's width beyond it, in tiles of a tenth of that width
  auto floor = std::make_unique<Part>();
  const Vec3 mid{0.5f * (lo.x + hi.x), lo.y, 0.5f * (lo.z + hi.z)};
  square(floor->triangles, mid, Vec3{0, 1, 0}, 1.5f * std::max(float(extent.x), float(extent.z)));
  floor->checker = std::max(float(extent.x), float(extent.z)) / 10;
  floor->albedo = Rgb{0.82f, 0.81f, 0.78f};
  parts_.push_back(std::move(floor));
  // the domain's side walls, which hold the particles: a tank seen from outside shows its far inside
  // (unless the scene has a tank of its own, a container collider, drawn below)
  const bool tank = std::any_of(scene.colliders.begin(), scene.colliders.end(),
                                [](const ColliderDesc& d) { return d.container; });
  auto walls = std::make_unique<Part>();
  for (int axis : {0, 2})
    for (int side = -1; side <= 1 && !tank; side += 2) {
      const int across = 2 - axis;  // the wall's horizontal direction
      Vec3 n{0, 0, 0}, u{0, 0, 0}, v{0, 0, 0};
      (&n.x)[axis] = Real(side);
      (&u.x)[across] = Real(0.5) * (&extent.x)[across];
      v.y = Real(0.5) * extent.y;
      const Vec3 c = (lo + hi) * Real(0.5) + n * (Real(0.5) * (&extent.x)[axis]);
      walls->triangles.quad(c - u - v, c + u - v, c + u + v, c - u + v, n);
    }
  walls->insideOnly = true;
  walls->albedo = Rgb{0.88f, 0.86f, 0.82f};
  if (!tank) parts_.push_back(std::move(walls));
  colliders_ = std::make_unique<ColliderShapes>(scene);
  for (std::size_t i = 0; i < colliders_->size(); ++i) {
    const ColliderShape& c = colliders_->shape(i);
    auto part = std::make_unique<Part>();
    part->collider = i;
    part->posed = true;
    part->insideOnly = c.container;
    Triangles& t = part->triangles;
    switch (c.kind) {
      case ColliderShape::Kind::Box:
        box(t, c.halfExtents);
        break;
      case ColliderShape::Kind::Sphere:
        capsule(t, c.radius, 0);
        break;
      case ColliderShape::Kind::Capsule:
        capsule(t, c.radius, c.halfHeight);
        break;
      case ColliderShape::Kind::Cylinder:
        cylinder(t, c.radius, c.halfHeight);
        break;
      case ColliderShape::Kind::Plane:  // a ground, drawn as the floor is
        square(t, Vec3{0, 0, 0}, c.normal, 2 * reach);
        part->checker = parts_.front()->checker, part->albedo = parts_.front()->albedo;
        break;
      case ColliderShape::Kind::Mesh:
        for (const auto& tri : c.mesh.triangles) {
          const Vec3 a = c.mesh.vertices[tri[0]], b = c.mesh.vertices[tri[1]], e = c.mesh.vertices[tri[2]];
          const Vec3 n = normalizeOr(cross(b - a, e - a), Vec3{0, 1, 0});
          t.triangle(a, b, e, n, n, n);
        }
        break;
    }
    parts_.push_back(std::move(part));
  }
  for (auto& part : parts_) {
    glGenVertexArrays(1, &part->vertexArray);
    glBindVertexArray(part->vertexArray);
    glGenBuffers(1, &part->buffer);
    glBindBuffer(GL_ARRAY_BUFFER, part->buffer);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(part->triangles.data.size() * sizeof(float)),
                 part->triangles.data.data(), GL_STATIC_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                          reinterpret_cast<const void*>(3 * sizeof(float)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
  }
  glBindVertexArray(0);
}

void Scenery::follow(const Simulation& sim) {
  time_ = sim.time();
  bodyPoses_.clear();
  for (std::size_t i : bodies_) bodyPoses_.emplace_back(i, sim.colliderPose(i));
}

Scenery::~Scenery() {
  for (auto& part : parts_) {
    glDeleteBuffers(1, &part->buffer);
    glDeleteVertexArrays(1, &part->vertexArray);
  }
}

void Scenery::draw(const Camera& camera, float aspect) const {
  const GlProgram& p = gl_->program;
  glUseProgram(p.id());
  const Mat4 view = camera.view(), projection = camera.projection(aspect);
  glUniformMatrix4fv(p.uniform("view"), 1, GL_FALSE, view.data());
  glUniformMatrix4fv(p.uniform("projection"), 1, GL_FALSE, projection.data());
  glUniform3f(p.uniform("sun"), sun_.x, sun_.y, sun_.z);
  glUniform3f(p.uniform("eye"), camera.position.x, camera.position.y, camera.position.z);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  for (const auto& part : parts_) {
    Mat4 model{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    if (part->posed) {
      ColliderPose pose = colliders_->pose(part->collider, time_);
      for (const auto& [collider, body] : bodyPoses_)
        if (collider == part->collider) pose = body;
      const Vec3 centre = pose.center;
      const Quat q = pose.orientation;
      const Vec3 axes[3] = {rotate(q, Vec3{1, 0, 0}), rotate(q, Vec3{0, 1, 0}), rotate(q, Vec3{0, 0, 1})};
      for (int k = 0; k < 3; ++k)
        model[4 * k] = axes[k].x, model[4 * k + 1] = axes[k].y, model[4 * k + 2] = axes[k].z;
      model[12] = centre.x, model[13] = centre.y, model[14] = centre.z;
    }
    glUniformMatrix4fv(p.uniform("model"), 1, GL_FALSE, model.data());
    glUniform3f(p.uniform("albedo"), part->albedo.r, part->albedo.g, part->albedo.b);
    glUniform1f(p.uniform("checker"), part->checker);
    glUniform1i(p.uniform("insideOnly"), part->insideOnly ? 1 : 0);
    glBindVertexArray(part->vertexArray);
    glDrawArrays(GL_TRIANGLES, 0, GLsizei(part->triangles.data.size() / 6));
  }
  if (solidCount_ > 0) {
    const GlProgram& s = gl_->solids;
    glUseProgram(s.id());
    int width = 0, height = 0;
    GLint viewport[4] = {0, 0, 0, 0};
    glGetIntegerv(GL_VIEWPORT, viewport);
    width = viewport[2], height = viewport[3];
    glUniformMatrix4fv(s.uniform("view"), 1, GL_FALSE, view.data());
    glUniformMatrix4fv(s.uniform("projection"), 1, GL_FALSE, projection.data());
    glUniform2f(s.uniform("viewport"), float(width), float(height));
    glUniform1f(s.uniform("radius"), solidRadius_);
    glUniform1f(s.uniform("valueTop"), 3);
    glUniform1i(s.uniform("hasValues"), 1);
    glUniform3f(s.uniform("sun"), sun_.x, sun_.y, sun_.z);
    const float* m = view.data();  // the view's rotation, transposed: view to world
    const float viewToWorld[9] = {m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]};
    glUniformMatrix3fv(s.uniform("viewToWorld"), 1, GL_FALSE, viewToWorld);
    std::vector<float> palette;
    for (const Rgb& c : materialColours()) palette.insert(palette.end(), {c.r, c.g, c.b});
    palette.resize(12, 0);
    glUniform3fv(s.uniform("palette"), 4, palette.data());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, gl_->solidBuffers[0]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, gl_->solidBuffers[1]);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(gl_->solidVertexArray);
    glDrawArrays(GL_POINTS, 0, GLsizei(solidCount_));
  }
  glBindVertexArray(0);
}

}  // namespace eddy::render
