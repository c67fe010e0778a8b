#include "render/scene_look.h"

#include <eddy/error.h>

#include <vector>

namespace eddy::render {

SceneLook sceneLook(const SceneDesc& scene, const std::string& command) {
  SceneLook look;
  const RenderDesc& r = scene.render;
  const float radius = float(Real(0.5) * scene.fluid.spacing);
  // the camera frames the domain (every frame the same view), unless the scene places it
  const Vec3 lo = scene.domain.min, hi = scene.domain.max;
  std::vector<Vec3> corners;
  for (int c = 0; c < 8; ++c)
    corners.push_back({c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z});
  look.camera = Camera::framing(corners, radius);
  look.camera.fovY = float(r.fov);
  if (!r.frame) {
    look.camera.position = r.camera, look.camera.target = r.target;
    look.camera.near = 1e-3f * length(hi - lo);
    look.camera.far = 1000;
  }
  auto rgb = [](Vec3 c) { return Rgb{c.x, c.y, c.z}; };
  look.spheres = ParticleStyle{radius, 1, rgb(r.colorLow), rgb(r.colorHigh)};
  look.fluid.radius = radius;
  look.fluid.absorption = look.water.absorption = rgb(r.absorption);
  look.fluid.sun = look.water.sun = r.sun;
  if (!r.environment.empty()) {
    try {
      look.environment = readPng(r.environment);
    } catch (const InputError& e) {
      throw InputError(command + ": render.environment: " + e.what());
    }
  }
  return look;
}

}  // namespace eddy::render
