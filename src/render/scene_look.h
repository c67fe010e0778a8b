// How a scene's "render" section draws its particles: the camera (framing the domain unless the scene
// places it), the styles of the three modes, and the environment image read from disk. Shared by
// `eddy run --render` and `eddy view`, so both draw a scene alike.
#pragma once

#include <eddy/scene.h>

#include <string>

#include "render/camera.h"
#include "render/image.h"
#include "render/particle_renderer.h"
#include "render/screen_space_fluid_renderer.h"
#include "render/surface_renderer.h"

namespace eddy::render {

struct SceneLook {
  Camera camera;
  ParticleStyle spheres;
  FluidStyle fluid;
  WaterStyle water;
  Image environment;  // empty: the procedural sky
};

// `command` prefixes messages ("run", "view"); throws InputError naming render.environment where its image
// cannot be read
SceneLook sceneLook(const SceneDesc& scene, const std::string& command);

}  // namespace eddy::render
