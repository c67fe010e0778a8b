#include "viewer/orbit_camera.h"

#include <algorithm>
#include <cmath>

namespace eddy::viewer {

namespace {
constexpr float kPi = 3.14159265358979f;
constexpr float kMaxPitch = 0.49f * kPi;  // never straight up or down, where yaw has no meaning
}  // namespace

OrbitCamera::OrbitCamera(const render::Camera& c)
    : target_(c.target), fovY_(c.fovY), near_(c.near), far_(c.far) {
  const Vec3 d = c.position - c.target;  // from the target to the eye
  distance_ = std::max(float(length(d)), 1e-6f);
  yaw_ = std::atan2(float(d.x), float(d.z));
  pitch_ = std::clamp(std::asin(std::clamp(float(d.y) / distance_, -1.0f, 1.0f)), -kMaxPitch, kMaxPitch);
}

Vec3 OrbitCamera::forward() const {
  return Vec3{-std::cos(pitch_) * std::sin(yaw_), -std::sin(pitch_), -std::cos(pitch_) * std::cos(yaw_)};
}

render::Camera OrbitCamera::camera() const {
  render::Camera c;
  c.target = target_;
  c.position = target_ - forward() * distance_;
  c.fovY = fovY_;
  // the clip planes follow the distance, so zooming far in or out never cuts the water
  c.near = std::min(near_, 0.01f * distance_);
  c.far = std::max(far_, 10.0f * distance_);
  return c;
}

void OrbitCamera::orbit(double dx, double dy, int height) {
  const float perPixel = kPi / float(std::max(height, 1));
  yaw_ -= float(dx) * perPixel;
  pitch_ = std::clamp(pitch_ + float(dy) * perPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(double dx, double dy, int height) {
  // metres per pixel at the target's depth
  const float perPixel = 2 * distance_ * std::tan(fovY_ * kPi / 360) / float(std::max(height, 1));
  const Vec3 f = forward();
  const Vec3 right = normalizeOr(cross(f, Vec3{0, 1, 0}), Vec3{1, 0, 0});
  const Vec3 up = cross(right, f);
  target_ = target_ - right * (float(dx) * perPixel) + up * (float(dy) * perPixel);
}

void OrbitCamera::zoom(double steps) {
  distance_ = std::clamp(distance_ * std::pow(0.9f, float(steps)), 1e-4f, 1e4f);
}

Ray OrbitCamera::ray(double x, double y, int width, int height) const {
  const float h = float(std::max(height, 1)), w = float(std::max(width, 1));
  const float halfHeight = std::tan(fovY_ * kPi / 360);
  const float sx = (2 * (float(x) + 0.5f) / w - 1) * halfHeight * w / h;
  const float sy = (1 - 2 * (float(y) + 0.5f) / h) * halfHeight;
  const Vec3 f = forward();
  const Vec3 right = normalizeOr(cross(f, Vec3{0, 1, 0}), Vec3{1, 0, 0});
  const Vec3 up = cross(right, f);
  return Ray{target_ - f * distance_, normalizeOr(f + right * sx + up * sy, f)};
}

Vec3 hitFacingPlane(const Ray& ray, Vec3 p) {
  Vec3 n{ray.direction.x, 0, ray.direction.z};
  if (length(n) < 1e-6f) return p;  // looking straight down: no facing plane
  n = n / length(n);
  const float along = float(dot(ray.direction, n));
  return ray.origin + ray.direction * (float(dot(p - ray.origin, n)) / along);
}

}  // namespace eddy::viewer
