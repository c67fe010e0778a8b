// Particles as spheres (or ellipsoids), drawn by compute shaders instead of the raster pipeline. Each
// particle walks the pixels of its projected silhouette (the tangent bounds of render/sphere_sprites.h; an
// ellipsoid's of its bounding sphere), casts each pixel's ray onto its sphere or ellipsoid and merges the
// hit with atomics into per-pixel buffers:
//   - the nearest hit's view-space depth: atomicMin on its bits (positive floats order as their bits);
//   - which particle that hit belongs to (a second walk writes the index where its depth won);
//   - the summed chord lengths inside the spheres, times 6 / pi (the water the spheres stand for), in
//     fixed point so that the sum is an integer atomicAdd.
// Per-pixel passes (render/particle_renderer.cpp, render/screen_space_fluid_renderer.cpp) then read those
// buffers and write the picture into an RGBA8 image that is copied into the renderer's target.
//
// Why compute: a data-centre GPU runs vertex and pixel shaders on a few of its multiprocessors (the H100
// on two of its texture processing clusters), compute shaders on all of them; there the rasteriser draws
// point sprites many times slower than compute splats them. The pictures are the same on every GL: the pixel
// centres, ray cast and nearest-hit rule are those of the sprites.
#pragma once

#include <cstddef>
#include <memory>

#include "render/camera.h"
#include "render/offscreen_target.h"

namespace eddy::render {

// storage-buffer bindings: particles in 0 (positions, packed xyz floats) and 1 (values), per-pixel buffers
// from 2 on
inline constexpr const char* kSplatBuffers = R"(
layout(std430, binding = 2) buffer SplatDepth { uint depthBits[]; };         // ~0u where no sphere
layout(std430, binding = 3) buffer SplatParticle { uint nearestParticle[]; };
layout(std430, binding = 4) buffer SplatThickness { uint thicknessFixed[]; };
const float kThicknessPerUnit = 1.0 / 1048576.0;  // metres per fixed-point unit
const uint kNoSphere = 0xffffffffu;
layout(binding = 4) uniform sampler2D scene;  // the scenery drawn before the water (the background, a floor)
)";

// ellipsoids in place of spheres: GL buffers of per-particle shape matrices (9 floats, row-major) and
// bounding radii, as render/ellipsoid_buffer.h holds them; shapes 0 for spheres
struct SplatShapes {
  unsigned shapes = 0, bounds = 0;
};

// a storage buffer of one 32-bit word per pixel (uint or float), for the per-pixel passes
unsigned pixelBuffer(int width, int height);

class SphereSplatting {
 public:
  // needs a current OpenGL 4.3 context
  SphereSplatting(int width, int height);
  ~SphereSplatting();
  SphereSplatting(const SphereSplatting&) = delete;
  SphereSplatting& operator=(const SphereSplatting&) = delete;

  // the nearest sphere per pixel (depthBits), and with `particles` which one (nearestParticle); positions
  // is a GL buffer of packed xyz floats. Spheres behind what `scene` holds in its depth (the scenery drawn
  // before) are hidden.
  void nearest(unsigned positions, std::size_t count, const Mat4& view, const Mat4& projection, float radius,
               bool particles, const OffscreenTarget& scene, SplatShapes ellipsoids = {});
  // the summed chords per pixel in front of the scenery (thicknessFixed)
  void thickness(unsigned positions, std::size_t count, const Mat4& view, const Mat4& projection,
                 float radius, const OffscreenTarget& scene, SplatShapes ellipsoids = {});
  // for other primitives splatted the same way (render/surface_renderer.cpp: triangles): the nearest
  // depths back to "none", and the per-pixel buffers bound (2, 3, 4) for a walk of their own
  void clearNearest();
  // the thickness buffer back to 0 (a walk of triangles keeps the farthest depth's bits there)
  void clearThickness();
  void bindPixelBuffers() const;
  // binds the per-pixel buffers (2, 3, 4), the colour image (image unit 0, rgba8, write-only) and the
  // scene's colour (texture unit 4: `scene` in kSplatBuffers) for a per-pixel pass
  void bindForShading(const OffscreenTarget& scene) const;
  // runs the program in use over every pixel, in 16 x 16 groups
  void dispatchPixels() const;
  // the colour image, as the per-pixel pass left it, into the target's framebuffer
  void copyColourInto(OffscreenTarget& target) const;

 private:
  void walk(int pass, unsigned positions, std::size_t count, const Mat4& view, const Mat4& projection,
            float radius, unsigned sceneDepth, SplatShapes ellipsoids);
  int width_, height_;
  unsigned depth_ = 0, particle_ = 0, thickness_ = 0;  // per-pixel storage buffers
  unsigned colour_ = 0, colourFramebuffer_ = 0;        // the picture, and a framebuffer to copy it from
  struct Programs;
  std::unique_ptr<Programs> programs_;
};

}  // namespace eddy::render
