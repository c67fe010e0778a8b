// How a scene's "render" section draws its particles: the camera (framing the domain unless the scene
// places it), the styles of the three modes, and the environment image read from disk. Shared by
// `eddy run --render` and `eddy view`, so both draw a scene alike.
#pragma once

#include <eddy/scene.h>
#include <eddy/simulation.h>

#include <string>
#include <vector>

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

// `command` prefixes messages ("run", "view"); aspect: the picture's width / height, which the framing camera
// fits. Throws InputError naming render.environment where its image cannot be read
SceneLook sceneLook(const SceneDesc& scene, const std::string& command, float aspect);

// a colour per emitter of the scene, for particles coloured by material: sand, snow and elastic solids
// their own (Scenery::materialColours), water the given colour
std::vector<Rgb> materialPalette(const SceneDesc& scene, Rgb water);

// the colour map's range for a frame of a live simulation, widened and never narrowed so that colours stay
// comparable from frame to frame: speed from 0 to the fastest particle so far, density from the rest
// density to the densest so far, id from 0 to the last id given (render.color_by)
void widenColorRange(ParticleStyle& style, const SceneDesc& scene, const FrameStats& stats);

// the colour bar's unit for render.color_by ("m/s", "kg/m3", "" for id; material has no bar)
std::string colorUnit(const std::string& colorBy);

}  // namespace eddy::render
