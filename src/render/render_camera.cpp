// The one place a picture's camera is decided: `eddy render` (framing its frames), and `eddy run --render`,
// `eddy view` and PictureMaker (framing the scene's domain, through sceneLook) all ask renderCamera.
#include <eddy/error.h>
#include <eddy/render.h>

#include <string>
#include <vector>

#include "render/camera.h"

namespace eddy {

CameraView renderCamera(const RenderDesc& look, Vec3 lo, Vec3 hi, float margin, float aspect,
                        const std::string& command, const std::optional<Vec3>& position,
                        const std::optional<Vec3>& target) {
  std::vector<Vec3> corners;
  for (int c = 0; c < 8; ++c)
    corners.push_back({c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z});
  const render::Camera framed = render::Camera::framing(corners, margin, float(look.fov), aspect);
  CameraView view{framed.position, framed.target, framed.fovY, framed.near, framed.far};
  if (!look.frame) view.position = look.camera, view.target = look.target;
  if (target) view.target = *target;
  if (position) view.position = *position;
  if (length(view.position - view.target) == 0)
    throw InputError(command + ": the camera stands on its target (" + std::to_string(view.target.x) + ", " +
                     std::to_string(view.target.y) + ", " + std::to_string(view.target.z) + ")");
  if (!look.frame || position || target) {
    // no clipping of what the user aims at
    view.near = 1e-3f * length(hi - lo);
    view.far = 1000;
  }
  return view;
}

namespace render {

Camera cameraOf(const CameraView& view) {
  Camera c;
  c.position = view.position;
  c.target = view.target;
  c.fovY = view.fovDegrees;
  c.near = view.near;
  c.far = view.far;
  return c;
}

}  // namespace render

}  // namespace eddy
