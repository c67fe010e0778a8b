// `eddy view`: a scene simulating live, drawn each frame with the renderers of src/render and steered from
// a Dear ImGui panel and the mouse. The viewer does not know where it draws: a window (viewer/window.cpp) or
// an offscreen framebuffer (the same frames, measured without a display) hands it the input of the frame
// and a framebuffer, and it steps the simulation, draws the picture, copies it there and draws the panel
// over it.
//
// Controls: left drag orbits, right or middle drag pans, the wheel zooms; shift + left drag pushes the
// water with a sphere; space pauses, N steps one frame, R resets, M cycles the render mode, 1-9 toggle the
// nozzle emitters. Parameter sliders rebuild the simulation from the changed scene and carry its state
// over (Simulation::saveState / restoreState), so any key a solver reads can be steered the same way.
#pragma once

#include <eddy/backend.h>
#include <eddy/profile.h>
#include <eddy/scene.h>
#include <eddy/simulation.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "render/ellipsoid_buffer.h"
#include "render/mesh_buffer.h"
#include "render/particle_buffer.h"
#include "render/scene_look.h"
#include "render/scenery.h"
#include "viewer/orbit_camera.h"

namespace eddy::viewer {

// what the display saw since the last frame
struct ViewerInput {
  double mouseX = 0, mouseY = 0;  // pixels from the top-left corner
  bool left = false, right = false, middle = false, shift = false;
  double wheel = 0;       // steps, positive away from the user
  std::vector<int> keys;  // pressed since the last frame: ' ', 'N', 'R', 'M', '1'..'9'
  bool uiHasMouse = false, uiHasKeyboard = false;  // the panel takes them (ImGui's WantCapture*)
  double frameSeconds = 1.0 / 60;                  // wall time since the last frame
};

enum class ViewMode : int { Particles = 0, ScreenSpaceFluid = 1, Surface = 2 };

// one frame's cost, milliseconds
struct ViewerTimings {
  double simulation = 0;  // the substeps on the device (the profile's step time)
  double picture = 0;     // the renderer's passes (GL timer, the frame before)
  double frame = 0;       // wall time of the whole frame, as the display measured it
  std::array<double, int(Phase::Count)> phases{};
};

class Viewer {
 public:
  // needs a current OpenGL 4.3 context and an ImGui context whose OpenGL backend is set up; throws
  // InputError for a scene that cannot be built
  // aspect: the picture's width / height at the start, which the first camera frames
  Viewer(const SceneDesc& scene, Backend backend, float aspect = 16.0f / 9.0f);
  ~Viewer();
  Viewer(const Viewer&) = delete;
  Viewer& operator=(const Viewer&) = delete;

  // one frame: input, simulation, the picture into `framebuffer` (width x height; 0 is a window's), the
  // panel over it. The display has started ImGui's frame (its backends' NewFrame), not ImGui::NewFrame.
  void frame(const ViewerInput& input, unsigned framebuffer, int width, int height);

  void setMode(ViewMode mode) { mode_ = mode; }
  // simulated frames per drawn frame
  void setSpeed(double speed) { speed_ = speed; }
  ViewMode mode() const { return mode_; }
  const ViewerTimings& timings() const { return timings_; }
  const Simulation& simulation() const { return *sim_; }
  // the simulation blew up and stopped; the message says how
  const std::string& failure() const { return failure_; }

 private:
  void handleInput(const ViewerInput& in, int width, int height);
  void advance(double frames);
  void drawPicture(unsigned framebuffer, int width, int height);
  void drawPanel(const ViewerInput& in);
  void rebuild(bool keepState);
  void movePusher(Vec3 center, Vec3 velocity);
  void parkPusher();

  SceneDesc scene_;  // as loaded, plus the pusher; sliders edit it and rebuild
  Backend backend_;
  std::unique_ptr<Simulation> sim_;
  render::SceneLook look_;
  OrbitCamera orbit_;
  ViewMode mode_ = ViewMode::Particles;
  struct Renderers;
  std::unique_ptr<Renderers> renderers_;
  std::unique_ptr<render::Scenery> scenery_;  // the scene's floor and colliders (not the pusher)
  bool showScenery_ = true;
  render::ParticleBuffer particles_;
  render::MeshBuffer surface_;          // the liquid's surface, built on the simulation's device
  render::EllipsoidBuffer ellipsoids_;  // the particles as Yu–Turk ellipsoids, for ssfr

  bool paused_ = false, stepOnce_ = false;
  double speed_ = 1, owedFrames_ = 0;  // simulated frames per drawn frame, and the fraction carried
  std::vector<char> nozzleActive_;
  std::size_t pusher_ = 0;  // the pusher's collider index
  Vec3 parked_{}, pusherAt_{};
  bool pushing_ = false;
  enum class Drag { None, Orbit, Pan, Push } drag_ = Drag::None;
  double lastX_ = 0, lastY_ = 0;
  double framesThisDraw_ = 0;
  bool particlesStale_ = true, ellipsoidsStale_ = true,
       meshStale_ = true;  // the GL's copies are older than the simulation

  FrameStats stats_;
  Profile profileBefore_;
  ViewerTimings timings_;
  std::string failure_;
  std::string device_;
};

}  // namespace eddy::viewer
