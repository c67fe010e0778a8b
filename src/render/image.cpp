#include "render/image.h"

#include <eddy/error.h>
#include <eddy/output.h>
#include <png.h>

namespace eddy::render {

namespace {

void appendBytes(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<std::string*>(png_get_io_ptr(png));
  out->append(reinterpret_cast<const char*>(data), length);
}

void noFlush(png_structp) {}

}  // namespace

std::string encodePng(const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgb.size() != std::size_t(image.width) * std::size_t(image.height) * 3)
    throw RuntimeFailure("render: an image of " + std::to_string(image.width) + " x " +
                         std::to_string(image.height) + " pixels holds " + std::to_string(image.rgb.size()) +
                         " bytes");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    throw RuntimeFailure("render: libpng could not start an image");
  }
  std::string out;
  // libpng reports errors by longjmp back here: nothing with a destructor is made after this point
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw RuntimeFailure("render: libpng failed to encode an image");
  }
  png_set_write_fn(png, &out, appendBytes, noFlush);
  png_set_IHDR(png, info, png_uint_32(image.width), png_uint_32(image.height), 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < image.height; ++y)
    png_write_row(png, const_cast<png_bytep>(image.rgb.data() + std::size_t(y) * image.width * 3));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

void writePng(const std::string& path, const Image& image) { writeFileAtomic(path, encodePng(image)); }

Image readPng(const std::string& path) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str()))
    throw InputError("'" + path + "': cannot be read as a PNG image (" + png.message + ")");
  png.format = PNG_FORMAT_RGB;
  Image image;
  image.width = int(png.width), image.height = int(png.height);
  image.rgb.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, image.rgb.data(), 0, nullptr)) {
    const std::string why = png.message;
    png_image_free(&png);
    throw InputError("'" + path + "': cannot be read as a PNG image (" + why + ")");
  }
  return image;
}

}  // namespace eddy::render
