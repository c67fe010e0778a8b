#include "render/color_bar.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace eddy::render {

namespace {

// 5 x 7 glyphs, one byte per row, the low five bits from left (bit 4) to right (bit 0)
struct Glyph {
  char c;
  std::uint8_t rows[7];
};

constexpr Glyph kGlyphs[] = {
    {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}}, {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}}, {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
    {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}}, {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
    {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}}, {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}}, {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
    {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C}}, {'m', {0x00, 0x00, 0x1A, 0x15, 0x15, 0x11, 0x11}},
    {'/', {0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x10}}, {'s', {0x00, 0x00, 0x0E, 0x10, 0x0E, 0x01, 0x1E}},
    {'e', {0x00, 0x00, 0x0E, 0x11, 0x1F, 0x10, 0x0E}}, {'-', {0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00}},
    {'+', {0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00}}, {'k', {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12}},
    {'g', {0x00, 0x0F, 0x11, 0x11, 0x0F, 0x01, 0x0E}},
};

void put(Image& image, int x, int y, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
  std::uint8_t* p = image.rgb.data() + (std::size_t(y) * image.width + x) * 3;
  p[0] = r, p[1] = g, p[2] = b;
}

// the text's right end at x, its top at y; characters without a glyph are left blank
void writeText(Image& image, const std::string& text, int x, int y) {
  int left = x - int(text.size()) * 6 + 1;
  for (char c : text) {
    for (const Glyph& g : kGlyphs)
      if (g.c == c)
        for (int row = 0; row < 7; ++row)
          for (int col = 0; col < 5; ++col)
            if (g.rows[row] >> (4 - col) & 1) put(image, left + col, y + row, 40, 40, 40);
    left += 6;
  }
}

std::uint8_t channel(float c) { return std::uint8_t(std::lround(std::fmin(std::fmax(c, 0.0f), 1.0f) * 255)); }

}  // namespace

ColorBarPlacement drawColorBar(Image& image, Rgb low, Rgb high, float bottom, float top,
                               const std::string& unit) {
  if (image.width < 64 || image.height < 48) return {0, 0, -1, -1};
  const int width = std::max(6, image.width / 80), height = image.height / 2;
  const int x1 = image.width - 8, x0 = x1 - width + 1, y0 = (image.height - height) / 2, y1 = y0 + height - 1;
  // a dark frame one pixel around the bar
  for (int x = x0 - 1; x <= x1 + 1; ++x) put(image, x, y0 - 1, 40, 40, 40), put(image, x, y1 + 1, 40, 40, 40);
  for (int y = y0 - 1; y <= y1 + 1; ++y) put(image, x0 - 1, y, 40, 40, 40), put(image, x1 + 1, y, 40, 40, 40);
  for (int y = y0; y <= y1; ++y) {
    const float t = float(y1 - y) / float(std::max(1, y1 - y0));
    for (int x = x0; x <= x1; ++x)
      put(image, x, y, channel(low.r + (high.r - low.r) * t), channel(low.g + (high.g - low.g) * t),
          channel(low.b + (high.b - low.b) * t));
  }
  auto label = [](float v) {
    char text[32];
    // whole numbers from 1000 up written out (an id of 17999, a density of 1012), the rest to 4 digits
    if (std::fabs(v) >= 1000 && std::fabs(v) < 1e9)
      std::snprintf(text, sizeof text, "%.0f", double(v));
    else
      std::snprintf(text, sizeof text, "%.4g", double(v));
    return std::string(text);
  };
  writeText(image, label(top) + (unit.empty() ? "" : " " + unit), x1 + 1, y0 - 11);
  writeText(image, label(bottom), x1 + 1, y1 + 4);
  return {x0, y0, x1, y1};
}

}  // namespace eddy::render
