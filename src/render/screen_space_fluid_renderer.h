// Screen-space fluid rendering: the liquid drawn straight from its particles, with no mesh, as one smooth
// body of water. Four passes on the GPU:
//   1. depth: each particle a ray-cast sphere, or the ellipsoid of its Yu–Turk anisotropy (flattened
//      along the water's surface, as FleX and the DX11 PBF demo splat them); the nearest view-space depth
//      per pixel;
//   2. thickness: every sphere's or ellipsoid's chord along the pixel's ray, added up (no depth test);
//   3. smoothing: a separable bilateral filter over the depth, as wide as a few projected particle radii,
//      that leaves depths further apart than a couple of radii alone (so the water's outline and layers
//      in front of each other keep their edges) and never fills pixels without water; a plain one over
//      the thickness;
//   4. shading: normals from the smoothed depth (the smaller of the one-sided differences, so no normal
//      bends across an edge), then the water shading of render/water_shading.h, with the background
//      seen through the water absorbed and scattered over the thickness, in linear light.
// The water's outline is the particles' own silhouette.
//
// Reference: W. J. van der Laan, S. Green, M. Sainz, "Screen space fluid rendering with curvature flow",
// I3D 2009 (depth and thickness passes, smoothed depth, normals from it, Fresnel and absorption shading);
// the bilateral filter stands in for their curvature flow, as in S. Green, "Screen space fluid rendering
// for games", GDC 2010.
#pragma once

#include <eddy/vec3.h>

#include <memory>
#include <vector>

#include "render/camera.h"
#include "render/ellipsoid_buffer.h"
#include "render/environment_map.h"
#include "render/image.h"
#include "render/offscreen_target.h"
#include "render/particle_buffer.h"
#include "render/scenery.h"

namespace eddy::render {

struct FluidStyle {
  float radius = 0.01f;              // particle radius, m
  int smoothingIterations = 2;       // separable bilateral passes over the depth (0: none)
  float smoothingWidth = 2;          // the filter's sigma, in projected particle radii
  Rgb absorption{4.0f, 1.1f, 0.7f};  // Beer-Lambert coefficients per metre of water, red first
  Vec3 sun{0.3f, 0.9f, 0.35f};       // direction towards the sun
  float fresnelF0 = 0.02f;           // reflectance looking straight in (water: 0.02)
};

class ScreenSpaceFluidRenderer {
 public:
  // needs a current OpenGL 4.3 context (HeadlessGl); throws InputError for a size beyond the GL's limit
  ScreenSpaceFluidRenderer(int width, int height);
  ~ScreenSpaceFluidRenderer();
  ScreenSpaceFluidRenderer(const ScreenSpaceFluidRenderer&) = delete;
  ScreenSpaceFluidRenderer& operator=(const ScreenSpaceFluidRenderer&) = delete;

  Image render(const std::vector<Vec3>& positions, const Camera& camera, const FluidStyle& style);
  // from a simulation's positions in a GL buffer
  Image render(const ParticleBuffer& particles, const Camera& camera, const FluidStyle& style);
  // the same, left in target() without a read-back (a window copies it)
  void draw(const ParticleBuffer& particles, const Camera& camera, const FluidStyle& style);
  // every particle as its ellipsoid (Yu–Turk anisotropy) instead of a sphere
  Image render(const EllipsoidBuffer& ellipsoids, const Camera& camera, const FluidStyle& style);
  void draw(const EllipsoidBuffer& ellipsoids, const Camera& camera, const FluidStyle& style);
  OffscreenTarget& target() { return target_; }
  // drawn behind the water from the next picture on, in front of the sky the water reflects (nullptr: the
  // plain background, no sky); not owned
  void setScenery(const Scenery* scenery) { scenery_ = scenery; }
  // an equirectangular image the water reflects instead of the procedural sky (empty: the sky again)
  void setEnvironment(const Image& equirectangular) { environment_.set(equirectangular); }
  // the GPU's time for all four passes of the last render (a GL timer query), without the particles'
  // upload and the image's read-back
  double drawMilliseconds() const { return target_.drawMilliseconds(); }

 private:
  void drawBuffer(unsigned positions, std::size_t count, const Camera& camera, const FluidStyle& style,
                  SplatShapes ellipsoids = {});
  struct Gl;
  OffscreenTarget target_;
  const Scenery* scenery_ = nullptr;
  EnvironmentMap environment_;
  SkyBackground sky_;  // behind the scenery, where there is one
  std::unique_ptr<Gl> gl_;
};

}  // namespace eddy::render
