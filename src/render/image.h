// An 8-bit RGB image, rows from the top, and its PNG encoding (libpng), written atomically and read back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace eddy::render {

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // width * height * 3, row 0 at the top

  const std::uint8_t* at(int x, int y) const { return rgb.data() + (std::size_t(y) * width + x) * 3; }
};

std::string encodePng(const Image& image);
// encodes and writes through a temporary file, so a reader never sees half an image
void writePng(const std::string& path, const Image& image);
// any PNG (grey, palette, alpha and 16-bit ones converted to 8-bit RGB); InputError naming the file and
// libpng's reason where it cannot be read
Image readPng(const std::string& path);

}  // namespace eddy::render
