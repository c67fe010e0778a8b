// The viewer's camera: it circles a target point at a distance, turned by yaw (about the world's y axis)
// and pitch (above the horizon). Mouse drags orbit and pan it, the wheel zooms; a pixel gives the ray
// through it, for pushing the water where the mouse points. Plain math, no GL.
#pragma once

#include <eddy/vec3.h>

#include "render/camera.h"

namespace eddy::viewer {

struct Ray {
  Vec3 origin, direction;  // direction unit
};

class OrbitCamera {
 public:
  // the same view as camera (its position, target and field of view)
  explicit OrbitCamera(const render::Camera& camera);

  render::Camera camera() const;
  // a drag of (dx, dy) pixels in a viewport height pixels tall: half a turn per viewport height
  void orbit(double dx, double dy, int height);
  // the target moves with the drag, so the point under the mouse stays under it (at the target's depth)
  void pan(double dx, double dy, int height);
  // steps of the wheel: each brings the camera 10 % closer (negative: further)
  void zoom(double steps);
  // the ray from the eye through pixel (x right, y down from the top-left corner)
  Ray ray(double x, double y, int width, int height) const;
  Vec3 target() const { return target_; }
  float distance() const { return distance_; }

 private:
  Vec3 forward() const;  // unit, from the eye towards the target
  Vec3 target_;
  float distance_, yaw_, pitch_, fovY_, near_, far_;
};

// where a ray meets the vertical plane through point p that faces the ray's horizontal direction (the plane
// the viewer's pusher slides in); p itself where the ray runs along the plane
Vec3 hitFacingPlane(const Ray& ray, Vec3 p);

}  // namespace eddy::viewer
