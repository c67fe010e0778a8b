#include "render/scene_look.h"

#include <eddy/error.h>
#include <eddy/render.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "render/radiance_hdr.h"

namespace eddy::render {

SceneLook sceneLook(const SceneDesc& scene, const std::string& command, float aspect) {
  SceneLook look;
  const RenderDesc& r = scene.render;
  const float radius = float(Real(0.5) * scene.fluid.spacing);
  // the camera frames the domain (every frame the same view), unless the scene places it
  look.camera = cameraOf(renderCamera(r, scene.domain.min, scene.domain.max, radius, aspect, command));
  auto rgb = [](Vec3 c) { return Rgb{c.x, c.y, c.z}; };
  look.spheres = ParticleStyle{radius, 1, rgb(r.colorLow), rgb(r.colorHigh)};
  if (r.colorBy == "density") look.spheres.valueLow = look.spheres.valueTop = float(scene.fluid.restDensity);
  if (r.colorBy == "material") look.spheres.palette = materialPalette(scene, look.spheres.low);
  look.fluid.radius = radius;
  look.fluid.absorption = look.water.absorption = rgb(r.absorption);
  look.fluid.sun = look.water.sun = r.sun;
  if (!r.environment.empty()) {
    try {
      look.environment = readEnvironmentImage(r.environment);
    } catch (const InputError& e) {
      throw InputError(command + ": render.environment: " + e.what());
    }
  }
  return look;
}

std::vector<Rgb> materialPalette(const SceneDesc& scene, Rgb water) {
  std::vector<Rgb> palette;
  for (std::size_t e = 0; e < scene.emitters.size() && e < 16; ++e) {
    const int c = Scenery::materialColour(scene.emitters[e].material.type);
    palette.push_back(c >= 0 ? Scenery::materialColours()[std::size_t(c)] : water);
  }
  if (palette.empty()) palette.push_back(water);
  return palette;
}

void widenColorRange(ParticleStyle& style, const SceneDesc& scene, const FrameStats& stats) {
  const std::string& by = scene.render.colorBy;
  float top = style.valueTop;
  if (by == "speed") top = float(stats.maxSpeed);
  if (by == "density") top = float(scene.fluid.restDensity * (1 + stats.maxDensityError));
  if (by == "id") top = float(std::max<std::int64_t>(stats.particles - 1, 0));
  // a blown-up frame's infinite speed would make the whole map one colour from then on
  if (std::isfinite(top)) style.valueTop = std::max(style.valueTop, top);
  if (!(style.valueTop > style.valueLow)) style.valueTop = style.valueLow + (by == "density" ? 1.0f : 1e-3f);
}

std::string colorUnit(const std::string& colorBy) {
  if (colorBy == "speed") return "m/s";
  if (colorBy == "density") return "kg/m3";
  return "";
}

}  // namespace eddy::render
