#include "render/camera.h"

#include <algorithm>
#include <cmath>

namespace eddy::render {

namespace {

constexpr float kPi = 3.14159265358979f;

void basis(const Camera& c, Vec3& right, Vec3& up, Vec3& back) {
  back = normalizeOr(c.position - c.target, Vec3{0, 0, 1});
  right = normalizeOr(cross(c.up, back), Vec3{1, 0, 0});
  up = cross(back, right);
}

}  // namespace

Mat4 Camera::view() const {
  Vec3 r, u, b;
  basis(*this, r, u, b);
  return {r.x,
          u.x,
          b.x,
          0,
          r.y,
          u.y,
          b.y,
          0,
          r.z,
          u.z,
          b.z,
          0,
          -dot(r, position),
          -dot(u, position),
          -dot(b, position),
          1};
}

Mat4 Camera::projection(float aspect) const {
  const float f = 1 / std::tan(fovY * kPi / 360);
  return {f / aspect,
          0,
          0,
          0,
          0,
          f,
          0,
          0,
          0,
          0,
          (far + near) / (near - far),
          -1,
          0,
          0,
          2 * far * near / (near - far),
          0};
}

void Camera::project(Vec3 p, int width, int height, float& px, float& py, float& depth) const {
  Vec3 r, u, b;
  basis(*this, r, u, b);
  const Vec3 d = p - position;
  depth = -dot(d, b);
  const float f = 1 / std::tan(fovY * kPi / 360);
  const float aspect = float(width) / float(height);
  const float ndcX = f / aspect * dot(d, r) / depth, ndcY = f * dot(d, u) / depth;
  px = (ndcX + 1) * 0.5f * float(width);
  py = (1 - ndcY) * 0.5f * float(height);
}

Camera Camera::framing(const std::vector<Vec3>& points, float margin, float fovY, float aspect,
                       Vec3 direction) {
  Camera c;
  c.fovY = fovY;
  if (points.empty()) return c;
  Vec3 lo = points[0], hi = points[0];
  for (const Vec3& p : points) lo = cwiseMin(lo, p), hi = cwiseMax(hi, p);
  c.target = (lo + hi) * 0.5f;
  const float radius = 0.5f * length(hi - lo) + margin;
  // far enough that the bounding sphere fits both fields of view: the vertical half-angle and the
  // horizontal one, atan(aspect tan(fovY / 2)); a sphere of radius r seen from distance d spans asin(r / d)
  const float halfVertical = fovY * kPi / 360;
  // a picture of no width yet (a window before its first frame) frames as a square one
  const float halfHorizontal = std::atan((aspect > 0 ? aspect : 1) * std::tan(halfVertical));
  const float distance = radius / std::sin(std::min(halfVertical, halfHorizontal));
  c.position = c.target + normalizeOr(direction, Vec3{0, 0, 1}) * distance;
  c.near = std::max(distance - 2 * radius, distance * 1e-3f);
  c.far = distance + 2 * radius;
  return c;
}

}  // namespace eddy::render
