// Particles as spheres: every pixel of each particle's projected silhouette ray-cast against its sphere
// (render/sphere_splatting.h, compute shaders), the nearest hit kept, so silhouettes, shading and
// overlaps are those of true spheres. Coloured by a scalar (speed, density, id) through a colour map
// (kColorLow to kColorHigh unless the style says otherwise) or by a category (material) through a palette,
// lit by a headlight; a sphere's centre pixel shows its colour unshaded. Drawn into an offscreen framebuffer
// and read back, or left there for a window to copy.
#pragma once

#include <eddy/vec3.h>

#include <memory>
#include <vector>

#include "render/camera.h"
#include "render/image.h"
#include "render/offscreen_target.h"
#include "render/particle_buffer.h"
#include "render/scenery.h"

namespace eddy::render {

// the colour map's ends (speed 0 and speed >= the map's top)
inline constexpr Rgb kColorLow{0.10f, 0.30f, 0.85f};
inline constexpr Rgb kColorHigh{0.95f, 0.95f, 1.00f};

struct ParticleStyle {
  float radius = 0.01f;                    // m
  float valueTop = 1;                      // the value mapped to the high end (speed in m/s)
  Rgb low = kColorLow, high = kColorHigh;  // the colour map's ends
  float valueLow = 0;                      // the value mapped to the low end
  // a colour per value 0, 1, 2, ... (materials) in place of the map, where not empty (at most 16)
  std::vector<Rgb> palette;
};

class ParticleRenderer {
 public:
  // needs a current OpenGL 4.3 context (HeadlessGl); throws InputError for a size beyond the GL's limit
  ParticleRenderer(int width, int height);
  ~ParticleRenderer();
  ParticleRenderer(const ParticleRenderer&) = delete;
  ParticleRenderer& operator=(const ParticleRenderer&) = delete;

  // values: one per particle (speed, say), or empty for the low end everywhere
  Image render(const std::vector<Vec3>& positions, const std::vector<float>& values, const Camera& camera,
               const ParticleStyle& style);
  // from a simulation's positions (and values, where the buffer was filled with them) in GL buffers
  Image render(const ParticleBuffer& particles, const Camera& camera, const ParticleStyle& style);
  // the same, left in target() without a read-back (a window copies it)
  void draw(const ParticleBuffer& particles, const Camera& camera, const ParticleStyle& style);
  OffscreenTarget& target() { return target_; }
  // drawn behind the particles from the next picture on (nullptr: the plain background); not owned
  void setScenery(const Scenery* scenery) { scenery_ = scenery; }
  // the GPU's time for the last render's clear and draw (a GL timer query), without the particles' upload
  // and the image's read-back
  double drawMilliseconds() const { return target_.drawMilliseconds(); }

 private:
  void drawBuffer(unsigned positions, unsigned values, std::size_t count, const Camera& camera,
                  const ParticleStyle& style);
  struct Gl;
  OffscreenTarget target_;
  const Scenery* scenery_ = nullptr;
  std::unique_ptr<Gl> gl_;
};

}  // namespace eddy::render
