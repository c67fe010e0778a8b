// Pictures checked for what they must show, on whatever OpenGL this machine has (Mesa's llvmpipe where
// there is no GPU): particles cover the pixels they project to and nothing else, and take the colour map's
// ends. Skipped, with the reason, where the build has no renderer or no EGL display can be opened.
#include <eddy/error.h>
#include <eddy/scene_io.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#ifdef EDDY_WITH_RENDER
#include <eddy/surface.h>

#include "render/camera.h"
#include "render/color_bar.h"
#include "render/ellipsoid_buffer.h"
#include "render/gl_context.h"
#include "render/image.h"
#include "render/particle_renderer.h"
#include "render/radiance_hdr.h"
#include "render/scenery.h"
#include "render/screen_space_fluid_renderer.h"
#include "render/surface_renderer.h"
#include "render_checks.h"
#include "surface/particle_ellipsoids.h"
#endif

namespace {

#ifdef EDDY_WITH_RENDER

using eddy::Vec3;
using namespace eddy::render;

using namespace eddy::render::checks;

class Render : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      gl_ = std::make_unique<HeadlessGl>();
    } catch (const eddy::InputError& e) {
      GTEST_SKIP() << "no OpenGL here: " << e.what();
    }
    std::printf("  OpenGL: %s (EGL %s)\n", gl_->renderer().c_str(), gl_->platform().c_str());
  }
  std::unique_ptr<HeadlessGl> gl_;
};

TEST_F(Render, ParticlesCoverWhatTheyProjectTo) {
  const std::vector<Vec3> points = column();
  const float radius = kSpacing / 2;
  const Camera camera = Camera::framing(points, radius);
  ParticleRenderer renderer(kWidth, kHeight);
  const Image image = renderer.render(points, std::vector<float>(points.size(), 0.0f), camera, {radius, 1});
  ASSERT_EQ(image.rgb.size(), std::size_t(kWidth) * kHeight * 3);

  const std::vector<char> expected = analyticMask(points, camera, radius);
  std::size_t drawn = 0;
  const double iou = silhouetteIoU(image, expected, &drawn);
  std::printf("  %zu particles: %zu pixels drawn, %zu projected, IoU %.4f\n", points.size(), drawn,
              std::size_t(std::count(expected.begin(), expected.end(), 1)), iou);
  EXPECT_GE(iou, 0.9);
  EXPECT_GT(drawn, std::size_t(kWidth * kHeight / 20));  // the column fills a good part of the frame
  // the corners are background
  EXPECT_TRUE(isBackground(image, 0, 0));
  EXPECT_TRUE(isBackground(image, kWidth - 1, kHeight - 1));

  // at rest, the nearest particle's centre pixel shows the colour map's low end, unshaded
  std::size_t nearest = 0;
  for (std::size_t i = 1; i < points.size(); ++i)
    if (length(points[i] - camera.position) < length(points[nearest] - camera.position)) nearest = i;
  float px, py, depth;
  camera.project(points[nearest], kWidth, kHeight, px, py, depth);
  const std::uint8_t* c = image.at(int(px), int(py));
  std::printf("  nearest particle's centre pixel: %d %d %d\n", c[0], c[1], c[2]);
  EXPECT_NEAR(c[0], channel(kColorLow.r), 3);
  EXPECT_NEAR(c[1], channel(kColorLow.g), 3);
  EXPECT_NEAR(c[2], channel(kColorLow.b), 3);
}

TEST_F(Render, FastParticlesTakeTheHighEnd) {
  const std::vector<Vec3> one{Vec3{0, 0, 0}};
  Camera camera;
  camera.position = {0, 0, 1};
  camera.target = {0, 0, 0};
  ParticleRenderer renderer(kWidth, kHeight);
  const Image image = renderer.render(one, {5.0f}, camera, {0.05f, 2.0f});
  const std::uint8_t* c = image.at(kWidth / 2, kHeight / 2);
  EXPECT_NEAR(c[0], channel(kColorHigh.r), 3);
  EXPECT_NEAR(c[1], channel(kColorHigh.g), 3);
  EXPECT_NEAR(c[2], channel(kColorHigh.b), 3);
  // the sphere's edge is darker than its centre (lit from the camera)
  float px, py, depth;
  camera.project(Vec3{0.045f, 0, 0}, kWidth, kHeight, px, py, depth);
  EXPECT_LT(image.at(int(px), int(py))[0], c[0] - 40);
  EXPECT_TRUE(isBackground(image, 0, 0));
}

// colour by a value over a range (density from the rest density up), and by category (materials)
TEST_F(Render, ParticlesTakeTheColourOfTheirValueOrMaterial) {
  const std::vector<Vec3> three{Vec3{-0.3f, 0, 0}, Vec3{0, 0, 0}, Vec3{0.3f, 0, 0}};
  Camera camera;
  camera.position = {0, 0, 2};
  camera.target = {0, 0, 0};
  auto centre = [&](const Image& image, int k) {
    float px, py, depth;
    camera.project(three[std::size_t(k)], kWidth, kHeight, px, py, depth);
    return image.at(int(px), int(py));
  };
  auto expectColour = [](const std::uint8_t* c, Rgb want, const char* what) {
    std::printf("  %s: %d %d %d\n", what, c[0], c[1], c[2]);
    EXPECT_NEAR(c[0], channel(want.r), 3) << what;
    EXPECT_NEAR(c[1], channel(want.g), 3) << what;
    EXPECT_NEAR(c[2], channel(want.b), 3) << what;
  };
  ParticleRenderer renderer(kWidth, kHeight);
  ParticleStyle density{0.05f, 1010};
  density.valueLow = 1000;
  const Image byDensity = renderer.render(three, {1000, 1005, 1010}, camera, density);
  expectColour(centre(byDensity, 0), kColorLow, "rest density");
  expectColour(centre(byDensity, 2), kColorHigh, "densest");
  const Rgb half{0.5f * (kColorLow.r + kColorHigh.r), 0.5f * (kColorLow.g + kColorHigh.g),
                 0.5f * (kColorLow.b + kColorHigh.b)};
  expectColour(centre(byDensity, 1), half, "half way");
  ParticleStyle materials{0.05f, 1};
  materials.palette = {kColorLow, Scenery::materialColours()[0], Scenery::materialColours()[2]};
  const Image byMaterial = renderer.render(three, {2, 0, 1}, camera, materials);
  expectColour(centre(byMaterial, 0), Scenery::materialColours()[2], "elastic");
  expectColour(centre(byMaterial, 1), kColorLow, "water");
  expectColour(centre(byMaterial, 2), Scenery::materialColours()[0], "sand");
}

// Yu–Turk ellipsoids in screen-space fluid rendering: a one-particle sheet seen edge on is drawn far thinner
// than as spheres (its ellipsoids flatten across it), while a block of water keeps its outline
TEST_F(Render, EllipsoidsFlattenASheetAndKeepABlock) {
  const float radius = kSpacing / 2;
  const eddy::SurfaceSettings settings = eddy::SurfaceSettings::fromSpacing(kSpacing);
  FluidStyle style;
  style.radius = radius;
  ScreenSpaceFluidRenderer renderer(kWidth, kHeight);
  EllipsoidBuffer ellipsoids;
  auto drawn = [&](const std::vector<Vec3>& points, const Camera& camera, bool stretched) {
    if (!stretched) return renderer.render(points, camera, style);
    ellipsoids.upload(eddy::particleEllipsoids(points, settings, radius, eddy::Backend::Cpu));
    return renderer.render(ellipsoids, camera, style);
  };
  // the sheet: 30 x 30 particles in the plane y = 0.3, the camera level with it
  std::vector<Vec3> sheet;
  for (int i = 0; i < 30; ++i)
    for (int k = 0; k < 30; ++k) sheet.push_back(Vec3{float(i) * kSpacing, 0.3f, float(k) * kSpacing});
  Camera edgeOn;
  edgeOn.position = {0.29f, 0.3f, 1.6f};
  edgeOn.target = {0.29f, 0.3f, 0.29f};
  edgeOn.fovY = 12;
  auto rowsCovered = [](const Image& image) {  // the water's height in pixels, the median over its columns
    std::vector<int> heights;
    for (int x = 0; x < kWidth; ++x) {
      int rows = 0;
      for (int y = 0; y < kHeight; ++y) rows += !isBackground(image, x, y);
      if (rows > 0) heights.push_back(rows);
    }
    if (heights.empty()) return 0;
    std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
    return heights[heights.size() / 2];
  };
  const int asSpheres = rowsCovered(drawn(sheet, edgeOn, false)),
            asEllipsoids = rowsCovered(drawn(sheet, edgeOn, true));
  std::printf("  a sheet seen edge on: %d rows as spheres, %d as ellipsoids\n", asSpheres, asEllipsoids);
  EXPECT_GE(asSpheres, 10);
  EXPECT_GE(asEllipsoids, 1);
  // inside the sheet the ellipsoids' half-thickness is 0.40 r (stretches 1.19, 1.19 and 1.19 / k_r, brought
  // back to the sphere's volume); along its near edge, which the median column sees, about 0.5 r
  EXPECT_LE(asEllipsoids, 0.7 * asSpheres);
  // the block: nearly the spheres' outline
  const std::vector<Vec3> points = column();
  const Camera camera = Camera::framing(points, radius);
  const double iou = silhouetteIoU(drawn(points, camera, true), analyticMask(points, camera, radius));
  std::printf("  the column as ellipsoids: IoU %.4f against the spheres' projection\n", iou);
  EXPECT_GE(iou, 0.8);
}

TEST_F(Render, SizeBeyondTheLimitIsRefused) {
  for (auto [w, h] : {std::pair{0, 240}, std::pair{320, -1}, std::pair{1 << 20, 240}}) {
    try {
      ParticleRenderer renderer(w, h);
      ADD_FAILURE() << w << "x" << h << " accepted";
    } catch (const eddy::InputError& e) {
      // the size and the limit; the command that asked puts its name and flag in front
      EXPECT_NE(std::string(e.what()).find(std::to_string(w) + "x" + std::to_string(h) +
                                           ": each side must be 1 to"),
                std::string::npos)
          << e.what();
    }
  }
}

// the colour map's key: low end at the bottom, high end at the top, the top value written above it
TEST(RenderColorBar, ShowsTheMapAndItsTop) {
  Image image;
  image.width = kWidth, image.height = kHeight;
  image.rgb.assign(std::size_t(kWidth) * kHeight * 3, 235);
  const ColorBarPlacement bar = drawColorBar(image, kColorLow, kColorHigh, 0, 3.2f, "m/s");
  ASSERT_LT(bar.x0, bar.x1);
  const std::uint8_t* bottom = image.at((bar.x0 + bar.x1) / 2, bar.y1);
  const std::uint8_t* top = image.at((bar.x0 + bar.x1) / 2, bar.y0);
  EXPECT_EQ(bottom[2], channel(kColorLow.b));
  EXPECT_EQ(bottom[0], channel(kColorLow.r));
  EXPECT_EQ(top[0], channel(kColorHigh.r));
  // the label above the bar: dark glyph pixels in the rows just above it
  int dark = 0;
  for (int y = bar.y0 - 11; y < bar.y0 - 4; ++y)
    for (int x = bar.x0 - 50; x <= bar.x1; ++x) dark += image.at(x, y)[0] < 100;
  EXPECT_GT(dark, 30);
  // too small a picture gets no bar and is left alone
  Image tiny;
  tiny.width = 32, tiny.height = 32;
  tiny.rgb.assign(32 * 32 * 3, 7);
  EXPECT_GT(drawColorBar(tiny, kColorLow, kColorHigh, 0, 1, "").x0,
            drawColorBar(tiny, kColorLow, kColorHigh, 0, 1, "").x1);
  EXPECT_EQ(std::count(tiny.rgb.begin(), tiny.rgb.end(), 7), 32 * 32 * 3);
}

// Radiance HDR environment images: written here flat (a row narrower than 8) and run-length encoded, read
// back to the radiance put in (RGBE keeps 8 bits of mantissa), tone-mapped brightest to brightest; broken
// files refused by name
TEST(RenderHdr, ReadsFlatAndRunLengthEncodedRows) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("eddy_hdr_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // radiance of pixel (x, y): a red sun at (2, 1), a blue sky elsewhere growing brighter up the image
  auto radiance = [](int x, int y, int c) {
    if (x == 2 && y == 1) return c == 0 ? 5000.0f : 20.0f;
    return c == 2 ? 0.5f + 0.1f * float(4 - y) : 0.1f;
  };
  auto rgbe = [](const float* v, std::uint8_t* out) {
    const float most = std::max({v[0], v[1], v[2]});
    int e = 0;
    const float m = std::frexp(most, &e);  // most = m 2^e, m in [0.5, 1)
    for (int c = 0; c < 3; ++c) out[c] = std::uint8_t(v[c] * (m * 256.0f / most));
    out[3] = std::uint8_t(e + 128);
  };
  auto write = [&](const std::string& name, int w, int h, bool encode) {
    std::string file =
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " + std::to_string(h) + " +X " + std::to_string(w) + "\n";
    for (int y = 0; y < h; ++y) {
      std::vector<std::uint8_t> row(std::size_t(w) * 4);
      for (int x = 0; x < w; ++x) {
        const float v[3] = {radiance(x, y, 0), radiance(x, y, 1), radiance(x, y, 2)};
        rgbe(v, &row[std::size_t(x) * 4]);
      }
      if (!encode) {
        file.append(row.begin(), row.end());
        continue;
      }
      file += {char(2), char(2), char(w >> 8), char(w & 0xff)};
      for (int c = 0; c < 4; ++c) {  // a run of the first three, then the rest as literals
        file += char(128 + 3);
        file += char(row[c]);
        file += char(w - 3);
        for (int x = 3; x < w; ++x) file += char(row[std::size_t(x) * 4 + c]);
      }
    }
    std::ofstream((dir / name).string(), std::ios::binary) << file;
    return (dir / name).string();
  };
  for (auto [w, encode] : {std::pair{5, false}, std::pair{12, true}}) {
    const std::string path = write("sky" + std::to_string(w) + ".hdr", w, 4, encode);
    const HdrImage hdr = readRadianceHdr(path);
    ASSERT_EQ(hdr.width, w);
    ASSERT_EQ(hdr.height, 4);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < 3; ++c) {
          // a run copies its first pixel's value over three pixels of each row
          const float want = encode && x < 3 ? radiance(0, y, c) : radiance(x, y, c);
          if (encode && x < 3 && y == 1) continue;  // the sun sits inside the run
          // RGBE's shared exponent: each channel within a step of the brightest one's 8-bit mantissa
          const float brightest = std::max({radiance(x, y, 0), radiance(x, y, 1), radiance(x, y, 2)});
          EXPECT_NEAR(hdr.rgb[(std::size_t(y) * w + x) * 3 + c], want, brightest / 128)
              << w << " wide, " << x << "," << y << " channel " << c;
        }
    const Image mapped = readEnvironmentImage(path);
    ASSERT_EQ(mapped.width, w);
    if (!encode) {
      EXPECT_GT(mapped.at(2, 1)[0], 250);                 // the sun saturates to white-red
      EXPECT_GT(mapped.at(0, 0)[2], mapped.at(0, 0)[0]);  // the sky is blue
      EXPECT_GT(mapped.at(0, 0)[2], mapped.at(0, 3)[2]);  // and brighter at the top
    }
  }
  std::ofstream((dir / "bad.hdr").string()) << "P6 not radiance\n";
  std::ofstream((dir / "xyz.hdr").string()) << "#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 1\nabcd";
  std::ofstream((dir / "short.hdr").string()) << "#?RADIANCE\n\n-Y 2 +X 2\nabcd";
  std::ofstream((dir / "flipped.hdr").string()) << "#?RADIANCE\n\n+Y 2 +X 2\nabcdabcdabcdabcd";
  for (const char* name : {"bad.hdr", "xyz.hdr", "short.hdr", "flipped.hdr", "missing.hdr"}) {
    try {
      readEnvironmentImage((dir / name).string());
      ADD_FAILURE() << name << " accepted";
    } catch (const eddy::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("Radiance HDR"), std::string::npos) << e.what();
    }
  }
  fs::remove_all(dir);
}

TEST(RenderPng, EncodesTheImage) {
  Image image;
  image.width = 3, image.height = 2;
  image.rgb.assign(18, 200);
  const std::string png = encodePng(image);
  ASSERT_GT(png.size(), 33u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  // IHDR: width and height, big-endian, at bytes 16 and 20
  EXPECT_EQ(std::uint8_t(png[19]), 3);
  EXPECT_EQ(std::uint8_t(png[23]), 2);
  // read back: the same pixels; a file that is no PNG is refused by name
  const std::string path = (std::filesystem::temp_directory_path() / "eddy_png_round_trip.png").string();
  writePng(path, image);
  const Image back = readPng(path);
  EXPECT_EQ(back.width, 3);
  EXPECT_EQ(back.height, 2);
  EXPECT_EQ(back.rgb, image.rgb);
  std::ofstream(path, std::ios::binary) << "not a picture";
  try {
    readPng(path);
    ADD_FAILURE() << "a text file read as a PNG";
  } catch (const eddy::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
  image.rgb.pop_back();
  EXPECT_THROW(encodePng(image), eddy::RuntimeFailure);
}

// a sphere of radius r about the origin, as latitude-longitude triangles wound outwards
eddy::TriangleMesh sphereMesh(float r, int rings = 48, int segments = 96) {
  eddy::TriangleMesh m;
  for (int i = 0; i <= rings; ++i)
    for (int j = 0; j < segments; ++j) {
      const float theta = 3.14159265f * float(i) / float(rings),
                  phi = 6.2831853f * float(j) / float(segments);
      m.vertices.push_back(
          Vec3{std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)} * r);
    }
  auto at = [&](int i, int j) { return std::uint32_t(i * segments + (j % segments)); };
  for (int i = 0; i < rings; ++i)
    for (int j = 0; j < segments; ++j) {
      m.triangles.push_back({at(i, j), at(i, j + 1), at(i + 1, j)});
      m.triangles.push_back({at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)});
    }
  return m;
}

// the water's surface: covers the sphere's projected disc, shows the water's colour where it faces the camera
// and the sky's reflection at grazing angles (Fresnel)
TEST_F(Render, SurfaceIsShadedAsWater) {
  const float r = 0.1f;
  Camera camera;
  camera.position = {0, 0, 0.6f};
  camera.target = {0, 0, 0};
  SurfaceRenderer renderer(kWidth, kHeight);
  const Image image = renderer.render(sphereMesh(r), camera);
  const float f = 1 / std::tan(camera.fovY * 3.14159265f / 360) * 0.5f * kHeight;
  const float d = 0.6f, disc = f * r / std::sqrt(d * d - r * r);
  std::vector<char> expected(std::size_t(kWidth) * kHeight, 0);
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const float dx = float(x) + 0.5f - kWidth / 2.0f, dy = float(y) + 0.5f - kHeight / 2.0f;
      expected[std::size_t(y) * kWidth + x] = dx * dx + dy * dy <= disc * disc;
    }
  const double iou = silhouetteIoU(image, expected);
  const std::uint8_t* centre = image.at(kWidth / 2, kHeight / 2);
  const std::uint8_t* rim = image.at(kWidth / 2 + int(0.97f * disc), kHeight / 2);
  std::printf("  sphere: IoU %.4f; centre %d %d %d, rim %d %d %d\n", iou, centre[0], centre[1], centre[2],
              rim[0], rim[1], rim[2]);
  EXPECT_GE(iou, 0.95);
  EXPECT_TRUE(isBackground(image, 0, 0));
  // looking straight in: the background through 0.2 m of water, red absorbed most
  EXPECT_GT(centre[2], centre[0] + 40);
  EXPECT_GT(centre[1], centre[0] + 30);
  // grazing: mostly the sky's reflection, far less red lost
  EXPECT_GT(rim[0], centre[0] + 40);  // Fresnel about 0.27 at 0.97 of the radius
}

// screen-space fluid: the water's outline is the particles' silhouette, the inside is tinted by what the
// light crosses, and the smoothed depth makes one smooth body of the particles' bumps
TEST_F(Render, ScreenSpaceFluidIsOneBodyOfWater) {
  const std::vector<Vec3> points = column();
  const float radius = kSpacing / 2;
  const Camera camera = Camera::framing(points, radius);
  ScreenSpaceFluidRenderer renderer(kWidth, kHeight);
  FluidStyle style;
  style.radius = radius;
  const Image image = renderer.render(points, camera, style);
  const std::vector<char> expected = analyticMask(points, camera, radius);
  std::size_t drawn = 0;
  const double iou = silhouetteIoU(image, expected, &drawn);
  EXPECT_GE(iou, 0.9);
  EXPECT_TRUE(isBackground(image, 0, 0));
  EXPECT_TRUE(isBackground(image, kWidth - 1, kHeight - 1));
  // looking through the middle of the column (0.16-0.3 m of water): red absorbed, blue kept
  float px, py, depth;
  camera.project(Vec3{0.1f, 0.15f, 0.08f}, kWidth, kHeight, px, py, depth);
  const std::uint8_t* middle = image.at(int(px), int(py));
  EXPECT_GT(middle[2], middle[0] + 50);
  // the smoothing at work: bumpier without it, and far bumpier as shaded spheres
  FluidStyle raw = style;
  raw.smoothingIterations = 0;
  const double smooth = roughnessInside(image, expected),
               unsmoothed = roughnessInside(renderer.render(points, camera, raw), expected);
  ParticleRenderer spheres(kWidth, kHeight);
  const double beads = roughnessInside(spheres.render(points, {}, camera, {radius, 1}), expected);
  std::printf(
      "  %zu particles: IoU %.4f, %zu pixels drawn; middle %d %d %d; roughness inside (brightness steps "
      "between neighbours): %.2f smoothed, %.2f unsmoothed, %.2f as spheres\n",
      points.size(), iou, drawn, middle[0], middle[1], middle[2], smooth, unsmoothed, beads);
  EXPECT_LT(smooth, 0.7 * unsmoothed);
  EXPECT_LT(smooth, 0.25 * beads);
}

// a flat pool seen at a grazing angle, its particles a pixel or two wide (a million particles on a screen):
// from pixel to pixel the surface's depth changes by more than a particle radius, and the depth filter must
// smooth it all the same, or the surface sparkles with the particles' bumps
TEST_F(Render, ScreenSpaceFluidSmoothsASurfaceSeenAtAGrazingAngle) {
  std::vector<Vec3> pool;
  std::uint32_t state = 12345;  // a little jitter, as particles at rest have
  auto jitter = [&] {
    state = state * 1664525u + 1013904223u;
    return (float(state >> 8) / float(1 << 24) - 0.5f) * 0.2f * kSpacing;
  };
  for (int i = 0; i < 60; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 60; ++k)
        pool.push_back(Vec3{float(i) * kSpacing + jitter(), float(j) * kSpacing + jitter(),
                            float(k) * kSpacing + jitter()});
  const float radius = kSpacing / 2;
  Camera camera;
  camera.position = {0.6f, 0.55f, 3.2f};
  camera.target = {0.6f, 0.0f, 0.6f};
  ScreenSpaceFluidRenderer renderer(kWidth, kHeight);
  FluidStyle style;
  style.radius = radius;
  const Image image = renderer.render(pool, camera, style);
  const std::vector<char> expected = analyticMask(pool, camera, radius);
  const double rough = roughnessInside(image, expected);
  std::printf("  %zu particles of %.1f pixels' radius at the pool's middle: roughness inside %.2f\n",
              pool.size(), double(radius) * kHeight / (2 * std::tan(camera.fovY * 3.14159265 / 360) * 3.0),
              rough);
  // llvmpipe: 8.5 (much of it the floor's checkerboard seen through the water); 15.2 with a range sigma of
  // two radii alone
  EXPECT_LT(rough, 11.0);
}

// an environment image replaces the sky in the reflection: in a red world the grazing rim loses its
// green and blue (the sky's reflection is near white, the red world's has only red)
TEST_F(Render, EnvironmentImageIsReflected) {
  Camera camera;
  camera.position = {0, 0, 0.6f};
  camera.target = {0, 0, 0};
  SurfaceRenderer renderer(kWidth, kHeight);
  const Image sky = renderer.render(sphereMesh(0.1f), camera);
  Image red;
  red.width = 16, red.height = 8;
  for (int i = 0; i < red.width * red.height; ++i) red.rgb.insert(red.rgb.end(), {230, 20, 20});
  renderer.setEnvironment(red);
  const Image reflected = renderer.render(sphereMesh(0.1f), camera);
  const float f = 1 / std::tan(camera.fovY * 3.14159265f / 360) * 0.5f * kHeight;
  const int rimX = kWidth / 2 + int(0.97f * f * 0.1f / std::sqrt(0.36f - 0.01f));
  const std::uint8_t *before = sky.at(rimX, kHeight / 2), *after = reflected.at(rimX, kHeight / 2);
  std::printf("  rim: %d %d %d with the sky, %d %d %d with a red environment\n", before[0], before[1],
              before[2], after[0], after[1], after[2]);
  EXPECT_GE(after[0], before[0]);
  EXPECT_LT(after[1], before[1] - 30);
  EXPECT_LT(after[2], before[2] - 30);
  EXPECT_TRUE(isBackground(reflected, 0, 0));  // the background is not the environment
  renderer.setEnvironment(Image{});
  EXPECT_EQ(meanDifference(renderer.render(sphereMesh(0.1f), camera), sky), 0);
}

// One reference picture per mode: the column as the dam break starts, at 320 x 240, drawn on llvmpipe
// (tests/data/render/). A mean difference above 0.4 steps of 255 per channel over the water (the pixels
// the reference draws, not the background) fails; doubling the water's Fresnel F0 (0.7 steps) must fail
// it. llvmpipe draws the same pictures each time (0.000 here).
// Regenerating them is a deliberate, reviewed commit: EDDY_WRITE_REFERENCES=1
// ./build-cpu/tests/eddy_cpu_tests --gtest_filter=Render.ReferencePictures
// A sphere collider in front of a wall of water hides the water behind it, the floor shows below, and the
// water in front of a collider hides it; in ssfr the floor seen through the water is shifted by refraction
TEST_F(Render, SceneryHidesWaterBehindItAndShowsTheFloor) {
  eddy::SceneDesc scene = eddy::loadScene("", {"fluid.spacing=0.02"});
  scene.domain.min = {0, 0, 0};
  scene.domain.max = {1, 1, 1};
  eddy::ColliderDesc ball;
  ball.shape.type = "sphere";
  ball.shape.center = {0.5f, 0.5f, 0.6f};
  ball.shape.radius = 0.15f;
  scene.colliders = {ball};
  std::vector<Vec3> wall;  // a sheet of water behind the ball, seen from +z
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 30; ++j) wall.push_back({0.1f + 0.02f * float(i), 0.2f + 0.02f * float(j), 0.3f});
  Camera camera;
  camera.position = {0.5f, 0.5f, 3};
  camera.target = {0.5f, 0.5f, 0.5f};
  const float radius = 0.01f;
  Scenery scenery(scene);
  EXPECT_EQ(scenery.partCount(), 3u);  // the floor, the domain's walls and the ball
  ParticleRenderer renderer(kWidth, kHeight);
  const Image bare = renderer.render(wall, {}, camera, {radius, 1});
  renderer.setScenery(&scenery);
  const Image withBall = renderer.render(wall, {}, camera, {radius, 1});
  auto blue = [](const std::uint8_t* p) { return p[2] > p[0] + 60; };
  const int cx = kWidth / 2, cy = kHeight / 2;
  EXPECT_TRUE(blue(bare.at(cx, cy))) << "no water at the centre without the ball";
  EXPECT_FALSE(blue(withBall.at(cx, cy))) << "the ball does not hide the water behind it";
  EXPECT_LT(std::abs(int(withBall.at(cx, cy)[0]) - int(withBall.at(cx, cy)[2])), 60);  // the ball's stone
  // the water beside the ball still shows, the floor below the water is drawn
  float px, py, depth;
  camera.project({0.15f, 0.5f, 0.3f}, kWidth, kHeight, px, py, depth);
  EXPECT_TRUE(blue(withBall.at(int(px), int(py))));
  camera.project({0.5f, 0.0f, 0.8f}, kWidth, kHeight, px, py, depth);
  EXPECT_TRUE(isBackground(bare, int(px), int(py)));
  EXPECT_FALSE(isBackground(withBall, int(px), int(py))) << "no floor";
  // water in front of the ball hides it
  std::vector<Vec3> front = wall;
  for (Vec3& p : front) p.z = 0.9f;
  const Image inFront = renderer.render(front, {}, camera, {radius, 1});
  EXPECT_TRUE(blue(inFront.at(cx, cy))) << "the ball shows through the water in front of it";
}

TEST_F(Render, ReferencePictures) {
  constexpr double kMostDifference = 0.4;
  if (gl_->renderer().find("llvmpipe") == std::string::npos)
    GTEST_SKIP() << "the references are llvmpipe's pictures; this GL is " << gl_->renderer();
  const std::vector<Vec3> points = column();
  const float radius = kSpacing / 2;
  const Camera camera = Camera::framing(points, radius);
  ParticleRenderer spheres(kWidth, kHeight);
  ScreenSpaceFluidRenderer fluid(kWidth, kHeight);
  SurfaceRenderer surface(kWidth, kHeight);
  FluidStyle style;
  style.radius = radius;
  const eddy::TriangleMesh mesh =
      eddy::reconstructSurface(points, eddy::SurfaceSettings::fromSpacing(kSpacing), eddy::Backend::Cpu);
  FluidStyle brighter = style;  // a reflection twice as strong looking straight in
  brighter.fresnelF0 = 2 * style.fresnelF0;
  WaterStyle water, brighterWater;
  brighterWater.fresnelF0 = 2 * water.fresnelF0;
  const std::pair<const char*, Image> pictures[] = {
      {"particles", spheres.render(points, std::vector<float>(points.size(), 0.0f), camera, {radius, 1})},
      {"ssfr", fluid.render(points, camera, style)},
      {"surface", surface.render(mesh, camera, water)}};
  const std::pair<const char*, Image> doubledF0[] = {
      {"ssfr", fluid.render(points, camera, brighter)},
      {"surface", surface.render(mesh, camera, brighterWater)}};
  for (const auto& [mode, image] : pictures) {
    const std::string path = std::string(EDDY_SOURCE_DIR) + "/tests/data/render/column_" + mode + ".png";
    if (std::getenv("EDDY_WRITE_REFERENCES")) {
      writePng(path, image);
      std::printf("  wrote %s\n", path.c_str());
      continue;
    }
    ASSERT_TRUE(std::filesystem::exists(path)) << "no reference picture " << path;
    const Image reference = readPng(path);
    double share = 0;
    const double difference = meanDifferenceInMask(reference, image, &share);
    std::printf("  %-9s mean difference over the water (%.0f %% of the picture) from %s: %.3f\n", mode,
                100 * share, path.c_str(), difference);
    EXPECT_LE(difference, kMostDifference) << mode;
    for (const auto& [changed, picture] : doubledF0)
      if (std::string(changed) == mode) {
        const double d = meanDifferenceInMask(reference, picture);
        std::printf("  %-9s with F0 doubled: %.3f\n", mode, d);
        EXPECT_GT(d, kMostDifference)
            << mode << ": the comparison does not notice a reflection twice as strong";
      }
  }
}

// `eddy render` over a run's frames: one PNG per frame; bad flags exit 2 and write nothing
TEST_F(Render, CommandDrawsEachFrame) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("eddy_render_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto eddy = [&](const std::string& args) {
    const std::string cmd =
        "cd '" + dir.string() + "' && '" + EDDY_CLI_PATH + "' " + args + " >out.txt 2>err.txt";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  ASSERT_EQ(
      eddy("run '" + std::string(EDDY_SOURCE_DIR) +
           "/scenes/dam_break.json' --frames 2 --set fluid.spacing=0.05 --backend cpu --quiet --out run"),
      0);
  EXPECT_EQ(eddy("render run --mode sprites"), 2);
  {
    // no OpenGL at all (no EGL vendor library to load): one message naming what to install, nothing written
    const std::string cmd = "cd '" + dir.string() +
                            "' && __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent.json '" + EDDY_CLI_PATH +
                            "' render run --out nogl >out.txt 2>err.txt";
    const int status = std::system(cmd.c_str());
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2);
    std::ifstream in(dir / "err.txt");
    const std::string err{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_NE(err.find("no EGL display"), std::string::npos) << err;
    EXPECT_FALSE(fs::exists(dir / "nogl"));
  }
  EXPECT_EQ(eddy("render run --color-by pressure"), 2);
  EXPECT_EQ(eddy("render run --set render.color_by=weight"), 2);
  {
    std::ifstream in(dir / "err.txt");
    const std::string err{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_NE(err.find("/render/color_by"), std::string::npos) << err;
  }
  EXPECT_EQ(eddy("render run --environment missing.png"), 2);
  EXPECT_EQ(eddy("render run --set render.fov=500"), 2);
  EXPECT_EQ(eddy("render run --set render.zoom=2"), 2);
  {
    std::ifstream in(dir / "err.txt");
    const std::string err{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_NE(err.find("/render/zoom"), std::string::npos) << err;
  }
  EXPECT_EQ(eddy("render run --mode surface"), 2);  // surfaces asked for, but this run wrote none
  EXPECT_EQ(eddy("render run --size 0x10"), 2);
  EXPECT_EQ(eddy("render run --size wide"), 2);
  EXPECT_EQ(eddy("render run --video movie.avi"), 2);
  EXPECT_FALSE(fs::exists(dir / "run" / "render"));
  ASSERT_EQ(eddy("render run --size 160x120 --quiet --mode ssfr --out fluid"), 0);
  EXPECT_TRUE(fs::exists(dir / "fluid" / "frame_000002.png"));
  // the scene's render section, changed with --set: the same picture as the flags give
  ASSERT_EQ(eddy("render run --size 160x120 --quiet --set render.mode=ssfr --set render.camera=[2,1,2] "
                 "--set render.target=[0.5,0.2,0.3] --out scene"),
            0);
  ASSERT_EQ(eddy("render run --size 160x120 --quiet --mode ssfr --camera 2,1,2 --target 0.5,0.2,0.3 "
                 "--out flags"),
            0);
  EXPECT_EQ(meanDifference(readPng((dir / "scene" / "frame_000001.png").string()),
                           readPng((dir / "flags" / "frame_000001.png").string())),
            0);
  EXPECT_GT(meanDifference(readPng((dir / "scene" / "frame_000001.png").string()),
                           readPng((dir / "fluid" / "frame_000001.png").string())),
            1);
  // coloured by id: the colour bar's top is the last id of the run's 2 frames
  ASSERT_EQ(eddy("render run --size 160x120 --color-by id --out ids"), 0);
  {
    std::ifstream in(dir / "out.txt");
    const std::string out{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_NE(out.find("coloured by id from 0 to "), std::string::npos) << out;
  }
  EXPECT_GT(meanDifference(readPng((dir / "ids" / "frame_000001.png").string()),
                           readPng((dir / "fluid" / "frame_000001.png").string())),
            1);
  ASSERT_EQ(eddy("render run --size 160x120 --quiet"), 0);
  for (const char* name : {"frame_000000.png", "frame_000001.png", "frame_000002.png"}) {
    std::ifstream in(dir / "run" / "render" / name, std::ios::binary);
    char head[4] = {};
    in.read(head, 4);
    EXPECT_EQ(std::string(head + 1, 3), "PNG") << name;
  }
  // `eddy run --render` draws the same pictures while it runs, from the simulation's memory
  const std::string view =
      " --set render.mode=ssfr --set render.camera=[2,1,2] --set render.target=[0.5,0.2,0.3]";
  EXPECT_EQ(
      eddy("run '" + std::string(EDDY_SOURCE_DIR) +
           "/scenes/dam_break.json' --frames 1 --backend cpu --quiet --render --render-size 0x5 --out bad"),
      2);
  EXPECT_FALSE(fs::exists(dir / "bad"));  // refused before anything is written
  ASSERT_EQ(eddy("run '" + std::string(EDDY_SOURCE_DIR) +
                 "/scenes/dam_break.json' --frames 1 --set fluid.spacing=0.05 --backend cpu --quiet --render "
                 "--render-size 160x120 --out live" +
                 view),
            0);
  ASSERT_EQ(eddy("render live --size 160x120 --quiet --out afterwards"), 0);
  for (const char* name : {"frame_000000.png", "frame_000001.png"}) {
    const double d = meanDifference(readPng((dir / "live" / "render" / name).string()),
                                    readPng((dir / "afterwards" / name).string()));
    std::printf("  %s: eddy run --render against eddy render afterwards, mean difference %.3f\n", name, d);
    EXPECT_LE(d, 0.5) << name;
  }
  ASSERT_EQ(
      eddy("run '" + std::string(EDDY_SOURCE_DIR) +
           "/scenes/dam_break.json' --frames 1 --set fluid.spacing=0.05 --backend cpu --quiet --surface "
           "--out wet"),
      0);
  ASSERT_EQ(eddy("render wet --mode surface --size 160x120 --quiet --out pictures --video movie.mp4"), 0);
  EXPECT_TRUE(fs::exists(dir / "pictures" / "frame_000001.png"));
  // an MP4 where ffmpeg is installed (its first box is "ftyp"), a note where it is not
  if (std::system("command -v ffmpeg >/dev/null 2>&1") == 0) {
    std::ifstream in(dir / "movie.mp4", std::ios::binary);
    char head[8] = {};
    in.read(head, 8);
    EXPECT_EQ(std::string(head + 4, 4), "ftyp");
    EXPECT_FALSE(fs::exists(dir / "movie.mp4.partial.mp4"));
  } else {
    std::ifstream in(dir / "out.txt");
    const std::string out{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_NE(out.find("no ffmpeg"), std::string::npos) << out;
  }
  fs::remove_all(dir);
}

#else

TEST(Render, NotBuilt) { GTEST_SKIP() << "this build has no renderer (EGL, libOpenGL and libpng not found)"; }

#endif

}  // namespace
