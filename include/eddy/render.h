// Pictures of particle frames and surfaces read from files, as `eddy render` draws them, the camera every
// picture of a scene is drawn with, and PNG files of pictures. Part of the renderer (the library
// eddy_render), which a build has where EGL, OpenGL and libpng were found; like <eddy/picture.h> it is not
// installed. Nothing here names an OpenGL type: the drawing stays inside the renderer.
#pragma once

#include <eddy/mesh.h>
#include <eddy/particle_files.h>
#include <eddy/picture.h>
#include <eddy/scene.h>
#include <eddy/vec3.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace eddy {

// where a picture is seen from: a pinhole camera at position looking at target, y up
struct CameraView {
  Vec3 position{2, 1.5f, 3};
  Vec3 target{0, 0, 0};
  float fovDegrees = 40;  // vertical field of view
  float near = 0.01f, far = 100;
};

// The camera of every picture eddy draws (`eddy render`, `eddy run --render`, `eddy view`, PictureMaker):
// the scene's render.camera and render.target where render.frame is false, else a camera that frames the
// box lo..hi (grown by margin, m) at render.fov for a picture of the given aspect (width / height), seen
// from the front, above and to the right. position and target, where given, replace the camera's. A camera
// placed by hand clips nothing it aims at (near a thousandth of the box's diagonal, far 1000 m). Throws
// InputError, its message beginning with `command` ("render"), where the camera stands on its target.
CameraView renderCamera(const RenderDesc& look, Vec3 lo, Vec3 hi, float margin, float aspect,
                        const std::string& command, const std::optional<Vec3>& position = {},
                        const std::optional<Vec3>& target = {});

// How `eddy render` draws every frame of a run alike: the picture's size, the particles' size, the camera
// and the colour map's range over all frames
struct FrameLook {
  int width = 1280, height = 720;
  double radius = 0;       // the particles' radius, m (unused for surfaces)
  double solidRadius = 0;  // the radius of an MPM scene's sand, snow and jelly particles, m
  CameraView camera;
  // `particles` mode's colour map (render.color_by): speed from 0 to speedTop (m/s); density from the rest
  // density to densest (kg/m^3); id from 0 to lastId
  double speedTop = 1, densest = 0, lastId = 0;
  bool colourBar = true;  // the key to the colours in the picture's corner (not for material)
};

class FrameRenderer {
 public:
  // Reads the environment image the scene's render section names (render.environment, relative to where
  // the scene was read); nothing is drawn yet and no OpenGL context is made. scene: the run's scene with
  // the command's flags applied to its render section; withScenery: the run has its scene, so its floor,
  // its colliders and an MPM scene's solid particles are drawn. Throws InputError beginning with `command`
  // where the image cannot be read.
  FrameRenderer(const SceneDesc& scene, bool withScenery, const std::string& command);
  ~FrameRenderer();
  FrameRenderer(const FrameRenderer&) = delete;
  FrameRenderer& operator=(const FrameRenderer&) = delete;

  // Once, before any picture: an OpenGL context of its own (EGL, no display), current on the calling thread,
  // and the renderer of the scene's render.mode at look's size. The pictures, and the destructor, run on
  // this thread. Throws InputError where no EGL platform gives an OpenGL 4.3 context, the size is beyond the
  // GL's limit ("render: --size ..."), or a mesh collider cannot be placed; RuntimeFailure on a second call.
  void start(const FrameLook& look);
  // "llvmpipe (LLVM 15.0.6, 256 bits) (EGL surfaceless)": what draws; after start
  std::string device() const;
  // the colour map's range and unit ("m/s", "kg/m3", "" for id) in `particles` mode; after start
  double valueLow() const;
  double valueTop() const;
  std::string unit() const;

  // The picture of one frame of particles (`particles` or `ssfr` mode), or of one surface (`surface` mode)
  // with the particles of the same frame beside it (empty where there are none: an MPM scene's solids come
  // from them). An MPM frame's sand, snow and jelly become the scenery's solids unless `particles` mode
  // colours by material; the surface of an MPM scene without water is not drawn (it wraps those solids).
  // time: the frame's simulated time (s), which poses the colliders.
  Picture drawParticles(const ParticleFrame& frame, double time);
  // where the rigid bodies (colliders with a density, which the fluid moves) are in the pictures that
  // follow: collider index and pose, as bodies.csv (readBodyTrack) or Simulation::colliderPose give them;
  // the colliders left out are posed by the scene at each picture's time
  void setBodyPoses(std::vector<std::pair<std::size_t, ColliderPose>> poses);
  Picture drawSurface(const TriangleMesh& surface, const ParticleFrame& beside, double time);

 private:
  void started() const;  // throws RuntimeFailure before start
  struct Drawing;
  std::unique_ptr<Drawing> drawing_;
};

// The picture's red, green and blue (alpha left out) as an 8-bit PNG, written through a temporary file so a
// reader never sees half a picture. Throws RuntimeFailure where the file cannot be written.
void writePng(const std::string& path, const Picture& picture);

// The time the renderer takes for a simulation's pictures, as `eddy bench --render` measures it: the
// particles drawn at width x height in mode ("particles", "ssfr" or "surface"; ssfr with ellipsoids as
// render.ellipsoids says), framed by the particles' box, without scenery.
struct RenderTimes {
  double prepareMs = 0;  // what a picture needs from the simulation, built on its device and copied to GL
  double drawMs = 0;     // the GL's time for the picture
  double wallMs = 0;     // both, by the clock
};

class RenderTimer {
 public:
  // An OpenGL context of its own, as FrameRenderer::start; throws InputError as it does
  RenderTimer(const std::string& mode, bool ellipsoids, int width, int height);
  ~RenderTimer();
  RenderTimer(const RenderTimer&) = delete;
  RenderTimer& operator=(const RenderTimer&) = delete;
  std::string device() const;  // as FrameRenderer::device
  // one picture to warm up, then the median of `repeats` pictures of the simulation as it is
  RenderTimes measure(Simulation& sim, int repeats);

 private:
  struct Drawing;
  std::unique_ptr<Drawing> drawing_;
};

}  // namespace eddy
