// A running simulation drawn as its scene's "render" section says (mode, camera, styles, scenery): each
// picture from the simulation's own memory (positions and values, ellipsoids or the surface mesh, built on
// its device and copied into OpenGL buffers there), left in an offscreen target. `eddy run --render` reads
// the pictures back to PNG; `eddy bench --realtime --render` only waits for them.
#pragma once

#include <eddy/scene.h>
#include <eddy/simulation.h>

#include <memory>
#include <string>

#include "render/ellipsoid_buffer.h"
#include "render/image.h"
#include "render/mesh_buffer.h"
#include "render/offscreen_target.h"
#include "render/particle_buffer.h"
#include "render/particle_renderer.h"
#include "render/scene_look.h"
#include "render/scenery.h"
#include "render/screen_space_fluid_renderer.h"
#include "render/surface_renderer.h"

namespace eddy::render {

class LivePicture {
 public:
  // needs a current OpenGL 4.3 context; `command` prefixes messages ("run"); throws InputError for a size
  // beyond the GL's limit or an environment image that cannot be read
  LivePicture(const SceneDesc& scene, int width, int height, const std::string& command);

  // the simulation now; stats widen the colour map of `particles` mode. The picture stays in target().
  void draw(Simulation& sim, const FrameStats& stats);
  OffscreenTarget& target() { return *target_; }
  // the picture read back, with the colour bar where the particles are coloured by a value
  Image read();
  // whether the last picture's data went device to device through CUDA-OpenGL interop
  bool throughInterop() const;

 private:
  SceneDesc scene_;
  SceneLook look_;
  std::unique_ptr<ParticleRenderer> spheres_;
  std::unique_ptr<ScreenSpaceFluidRenderer> fluid_;
  std::unique_ptr<SurfaceRenderer> surface_;
  std::unique_ptr<Scenery> scenery_;
  OffscreenTarget* target_ = nullptr;
  ParticleBuffer particles_;
  EllipsoidBuffer ellipsoids_;
  MeshBuffer mesh_;
};

}  // namespace eddy::render
