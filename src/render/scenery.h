// What the water is seen against: the domain's floor (a checkerboard, so that sizes and the refraction
// through the water read), its side walls (the tank the domain is, its far inner side only; left out where
// the scene has a container collider of its own) and the scene's colliders, the analytic shapes tessellated
// and the meshes as the simulation places them, each posed at the picture's time (prescribed velocities and
// keyframes) and lit by the sun and the sky. A tank (a container collider) shows only its far, inner side, so
// it never hides the water in it. Drawn into the renderer's target before the water, whose passes then hide
// the water behind it and show it through the water. Grains and solids of an MPM scene (sand, snow, jelly)
// are part of it too: opaque spheres in their material's colour, in front of and behind which the water is
// drawn.
#pragma once

#include <eddy/collider_shapes.h>
#include <eddy/scene.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "render/camera.h"
#include "render/offscreen_target.h"

namespace eddy::render {

class Scenery {
 public:
  // needs a current OpenGL 4.3 context; throws InputError for a mesh collider whose file cannot be loaded.
  // Without floorAndColliders only the solid particles are drawn.
  explicit Scenery(const SceneDesc& scene, bool floorAndColliders = true);
  ~Scenery();
  Scenery(const Scenery&) = delete;
  Scenery& operator=(const Scenery&) = delete;

  // the simulated time the colliders are posed at (s)
  void setTime(double seconds) { time_ = seconds; }
  // where the rigid bodies are (colliders the fluid moves, which the scene cannot pose): collider index and
  // pose, kept until the next call; a collider left out is posed by the scene at the time
  void setBodyPoses(std::vector<std::pair<std::size_t, ColliderPose>> poses) {
    bodyPoses_ = std::move(poses);
  }
  // the time and the rigid bodies' poses of a live simulation, as it is now
  void follow(const Simulation& sim);
  // into the bound framebuffer, with its depth test, lit by the scene's render.sun
  void draw(const Camera& camera, float aspect) const;
  // the parts drawn: the floor, then one per collider
  std::size_t partCount() const { return parts_.size(); }
  // opaque spheres of the given radius, one colour each (index into materialColours), drawn with the
  // scenery until the next call
  void setSolidParticles(const std::vector<Vec3>& positions, const std::vector<float>& colourIndex,
                         float radius);
  // the colours of the materials that are not water, by index: sand, snow, elastic
  static const std::vector<Rgb>& materialColours();
  // the index into materialColours of a material type ("sand", "snow", "elastic"); -1 for water
  static int materialColour(const std::string& type);

 private:
  struct Part;
  struct Gl;
  std::vector<std::unique_ptr<Part>> parts_;
  std::unique_ptr<Gl> gl_;
  std::unique_ptr<ColliderShapes> colliders_;  // none without floorAndColliders
  double time_ = 0;
  std::vector<std::pair<std::size_t, ColliderPose>> bodyPoses_;
  std::vector<std::size_t> bodies_;  // the colliders with a density
  Vec3 sun_;
  std::size_t solidCount_ = 0;
  float solidRadius_ = 0;
};

}  // namespace eddy::render
