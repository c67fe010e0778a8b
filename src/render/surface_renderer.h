// The liquid's surface mesh with water shading (render/water_shading.h, in linear light): Schlick's
// Fresnel term between the reflection of the sky and the light through the water (the background absorbed
// and scattered over the thickness the view ray crosses, from the nearest surface to the farthest in front
// of the scenery), and the sun's specular highlight. Vertex normals from the mesh where it has them, else
// from its faces. With scenery, the sky the water reflects is drawn behind it.
//
// Reference: C. Schlick, "An inexpensive BRDF model for physically-based rendering", Computer Graphics
// Forum 13(3), 1994 (F = F0 + (1 - F0)(1 - cos theta)^5, F0 = 0.02 for water).
#pragma once

#include <eddy/mesh.h>

#include <memory>

#include "render/camera.h"
#include "render/environment_map.h"
#include "render/image.h"
#include "render/mesh_buffer.h"
#include "render/offscreen_target.h"
#include "render/scenery.h"

namespace eddy::render {

struct WaterStyle {
  Rgb absorption{4.0f, 1.1f, 0.7f};  // Beer-Lambert coefficients per metre of water, red absorbed first
  float depth = 0.45f;               // the depth light crosses where the mesh is one open sheet, m
  float fresnelF0 = 0.02f;           // reflectance looking straight in (water: 0.02)
  Vec3 sun{0.3f, 0.9f, 0.35f};       // direction towards the sun
};

class SurfaceRenderer {
 public:
  // needs a current OpenGL 4.3 context (HeadlessGl); throws InputError for a size beyond the GL's limit
  SurfaceRenderer(int width, int height);
  ~SurfaceRenderer();
  SurfaceRenderer(const SurfaceRenderer&) = delete;
  SurfaceRenderer& operator=(const SurfaceRenderer&) = delete;

  Image render(const TriangleMesh& mesh, const Camera& camera, const WaterStyle& style = {});
  // the same, left in target() without a read-back (a window copies it)
  void draw(const TriangleMesh& mesh, const Camera& camera, const WaterStyle& style = {});
  // a running simulation's surface from its GL buffers (built on its device, never copied to the host)
  void draw(const MeshBuffer& mesh, const Camera& camera, const WaterStyle& style = {});
  OffscreenTarget& target() { return target_; }
  // drawn behind the water from the next picture on, in front of the sky the water reflects (nullptr: the
  // plain background, no sky); not owned
  void setScenery(const Scenery* scenery) { scenery_ = scenery; }
  // an equirectangular image the water reflects instead of the procedural sky (empty: the sky again)
  void setEnvironment(const Image& equirectangular) { environment_.set(equirectangular); }
  double drawMilliseconds() const { return target_.drawMilliseconds(); }

 private:
  void drawBuffers(unsigned vertices, unsigned normals, unsigned triangles, std::size_t count,
                   const Camera& camera, const WaterStyle& style);
  struct Gl;
  OffscreenTarget target_;
  const Scenery* scenery_ = nullptr;
  EnvironmentMap environment_;
  SkyBackground sky_;  // behind the scenery, where there is one
  std::unique_ptr<Gl> gl_;
};

}  // namespace eddy::render
