// What a rendered picture must show, shared by the CPU (llvmpipe) and GPU render tests: a standing column of
// particles, the pixels they project to, the background test, and how bumpy the water's inside is.
#pragma once

#include <eddy/vec3.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "render/camera.h"
#include "render/image.h"
#include "render/particle_renderer.h"

namespace eddy::render::checks {

constexpr int kWidth = 320, kHeight = 240;
constexpr float kSpacing = 0.02f;

// a standing water column on the rest lattice, as the dam break starts
inline std::vector<Vec3> column() {
  std::vector<Vec3> points;
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 15; ++j)
      for (int k = 0; k < 8; ++k)
        points.push_back(Vec3{float(i), float(j), float(k)} * kSpacing + Vec3{0.01f, 0.01f, 0.01f});
  return points;
}

inline std::uint8_t channel(float c) { return std::uint8_t(std::lround(c * 255)); }

inline bool isBackground(const Image& image, int x, int y) {
  const std::uint8_t* p = image.at(x, y);
  return std::abs(p[0] - channel(kBackground.r)) <= 1 && std::abs(p[1] - channel(kBackground.g)) <= 1 &&
         std::abs(p[2] - channel(kBackground.b)) <= 1;
}

// the pixels whose centres fall inside some particle's projected silhouette (a disc of the sphere's
// angular radius)
inline std::vector<char> analyticMask(const std::vector<Vec3>& points, const Camera& camera, float radius) {
  std::vector<char> mask(std::size_t(kWidth) * kHeight, 0);
  const float f = 1 / std::tan(camera.fovY * 3.14159265f / 360) * 0.5f * kHeight;  // pixels per unit slope
  for (const Vec3& p : points) {
    float px, py, depth;
    camera.project(p, kWidth, kHeight, px, py, depth);
    const float distance = length(p - camera.position);
    const float r = f * radius / std::sqrt(distance * distance - radius * radius) * distance / depth;
    for (int y = std::max(0, int(py - r) - 1); y <= std::min(kHeight - 1, int(py + r) + 1); ++y)
      for (int x = std::max(0, int(px - r) - 1); x <= std::min(kWidth - 1, int(px + r) + 1); ++x) {
        const float dx = float(x) + 0.5f - px, dy = float(y) + 0.5f - py;
        if (dx * dx + dy * dy <= r * r) mask[std::size_t(y) * kWidth + x] = 1;
      }
  }
  return mask;
}

// the share of pixels drawn where the analytic projection has them, over the pixels either has
inline double silhouetteIoU(const Image& image, const std::vector<char>& expected,
                            std::size_t* drawn = nullptr) {
  std::size_t both = 0, either = 0, any = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const bool a = expected[std::size_t(y) * kWidth + x] != 0, b = !isBackground(image, x, y);
      both += a && b;
      either += a || b;
      any += b;
    }
  if (drawn) *drawn = any;
  return either ? double(both) / double(either) : 0;
}

// how bumpy a picture is inside the water: the mean difference in brightness between neighbouring pixels,
// over the pixels whose whole 7 x 7 neighbourhood lies in the projected silhouette
inline double roughnessInside(const Image& image, const std::vector<char>& mask) {
  double sum = 0;
  std::size_t count = 0;
  auto inside = [&](int x, int y) {
    for (int j = -3; j <= 3; ++j)
      for (int i = -3; i <= 3; ++i) {
        const int u = x + i, v = y + j;
        if (u < 0 || v < 0 || u >= kWidth || v >= kHeight || !mask[std::size_t(v) * kWidth + u]) return false;
      }
    return true;
  };
  auto brightness = [&](int x, int y) {
    const std::uint8_t* p = image.at(x, y);
    return double(p[0]) + double(p[1]) + double(p[2]);
  };
  for (int y = 0; y < kHeight - 1; ++y)
    for (int x = 0; x < kWidth - 1; ++x)
      if (inside(x, y)) {
        sum += std::fabs(brightness(x + 1, y) - brightness(x, y)) +
               std::fabs(brightness(x, y + 1) - brightness(x, y));
        count += 2;
      }
  return count ? sum / double(count) : 0;
}

// the mean difference between two pictures of the same size, per channel, in 8-bit steps
inline double meanDifference(const Image& a, const Image& b) {
  if (a.width != b.width || a.height != b.height) return 255;
  double sum = 0;
  for (std::size_t i = 0; i < a.rgb.size(); ++i) sum += std::abs(int(a.rgb[i]) - int(b.rgb[i]));
  return a.rgb.empty() ? 0 : sum / double(a.rgb.size());
}

// the mean difference per channel over the pixels where the reference shows something other than the
// background (the water), and the share of the picture those pixels are
inline double meanDifferenceInMask(const Image& reference, const Image& b, double* share = nullptr) {
  if (reference.width != b.width || reference.height != b.height) return 255;
  double sum = 0;
  std::size_t pixels = 0;
  for (int y = 0; y < reference.height; ++y)
    for (int x = 0; x < reference.width; ++x) {
      if (isBackground(reference, x, y)) continue;
      ++pixels;
      for (int c = 0; c < 3; ++c) sum += std::abs(int(reference.at(x, y)[c]) - int(b.at(x, y)[c]));
    }
  if (share) *share = double(pixels) / (double(reference.width) * reference.height);
  return pixels ? sum / double(3 * pixels) : 0;
}

}  // namespace eddy::render::checks
