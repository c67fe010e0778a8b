#include "render/radiance_hdr.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace eddy::render {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw InputError("'" + path + "': cannot be read as a Radiance HDR image (" + why + ")");
}

}  // namespace

HdrImage readRadianceHdr(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "the file cannot be opened");
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::size_t at = 0;
  auto line = [&] {
    std::string s;
    while (at < bytes.size() && bytes[at] != '\n') s += char(bytes[at++]);
    if (at >= bytes.size()) fail(path, "the header ends before the pixels");
    ++at;
    return s;
  };
  if (line().rfind("#?", 0) != 0) fail(path, "no '#?RADIANCE' signature on the first line");
  for (std::string s = line(); !s.empty(); s = line())
    if (s.rfind("FORMAT=", 0) == 0 && s != "FORMAT=32-bit_rle_rgbe")
      fail(path, "format '" + s.substr(7) + "'; only 32-bit_rle_rgbe is read");
  HdrImage image;
  const std::string size = line();
  char rest = 0;
  if (std::sscanf(size.c_str(), "-Y %d +X %d%c", &image.height, &image.width, &rest) != 2 ||
      image.width <= 0 || image.height <= 0 || image.width > 32768 || image.height > 32768)
    fail(path, "size line '" + size + "'; expected '-Y HEIGHT +X WIDTH', each 1 to 32768");
  const int w = image.width, h = image.height;
  std::vector<std::uint8_t> rgbe(std::size_t(w) * 4);
  image.rgb.resize(std::size_t(w) * h * 3);
  auto next = [&]() -> std::uint8_t {
    if (at >= bytes.size()) fail(path, "the pixels end early");
    return bytes[at++];
  };
  for (int y = 0; y < h; ++y) {
    const bool encoded = w >= 8 && w < 32768 && at + 4 <= bytes.size() && bytes[at] == 2 &&
                         bytes[at + 1] == 2 && !(bytes[at + 2] & 0x80);
    if (encoded) {
      if (((bytes[at + 2] << 8) | bytes[at + 3]) != w) fail(path, "row " + std::to_string(y) + "'s width");
      at += 4;
      for (int c = 0; c < 4; ++c)  // each channel of the row in runs
        for (int x = 0; x < w;) {
          int count = next();
          const bool run = count > 128;
          if (run) count -= 128;
          if (count == 0 || x + count > w) fail(path, "a run past the end of row " + std::to_string(y));
          const std::uint8_t value = run ? next() : 0;
          for (int k = 0; k < count; ++k) rgbe[std::size_t(x++) * 4 + c] = run ? value : next();
        }
    } else {
      for (std::uint8_t& b : rgbe) b = next();
    }
    for (int x = 0; x < w; ++x) {
      const std::uint8_t* p = &rgbe[std::size_t(x) * 4];
      const float scale = p[3] == 0 ? 0.0f : std::ldexp(1.0f, int(p[3]) - (128 + 8));
      float* out = &image.rgb[(std::size_t(y) * w + x) * 3];
      for (int c = 0; c < 3; ++c) out[c] = (float(p[c]) + (p[3] == 0 ? 0.0f : 0.5f)) * scale;
    }
  }
  return image;
}

Image toneMapped(const HdrImage& hdr) {
  // the key: 0.18 at the image's log-average luminance
  double logSum = 0;
  const std::size_t n = std::size_t(hdr.width) * hdr.height;
  auto luminance = [&](std::size_t k) {
    return 0.2126f * hdr.rgb[3 * k] + 0.7152f * hdr.rgb[3 * k + 1] + 0.0722f * hdr.rgb[3 * k + 2];
  };
  for (std::size_t k = 0; k < n; ++k) logSum += std::log(1e-4 + double(luminance(k)));
  const double average = std::exp(logSum / double(std::max<std::size_t>(n, 1)));
  const float exposure = float(0.18 / std::max(average, 1e-6));
  Image image;
  image.width = hdr.width, image.height = hdr.height;
  image.rgb.resize(n * 3);
  for (std::size_t k = 0; k < n * 3; ++k) {
    const float v = hdr.rgb[k] * exposure;
    const float mapped = v / (1 + v);
    image.rgb[k] = std::uint8_t(std::lround(std::pow(std::clamp(mapped, 0.0f, 1.0f), 1 / 2.2f) * 255));
  }
  return image;
}

Image readEnvironmentImage(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](char c) { return char(std::tolower(c)); });
  if (extension == ".hdr") return toneMapped(readRadianceHdr(path));
  return readPng(path);
}

}  // namespace eddy::render
