// A pinhole camera: where it stands, what it looks at, its vertical field of view; view and projection
// matrices (column-major, as OpenGL reads them) and the pixel a point projects to.
#pragma once

#include <eddy/vec3.h>

#include <array>
#include <vector>

namespace eddy {
struct CameraView;  // <eddy/render.h>
}  // namespace eddy

namespace eddy::render {

using Mat4 = std::array<float, 16>;  // column-major

struct Camera {
  Vec3 position{2, 1.5, 3};
  Vec3 target{0, 0, 0};
  Vec3 up{0, 1, 0};
  float fovY = 40;  // degrees
  float near = 0.01f, far = 100;

  Mat4 view() const;
  Mat4 projection(float aspect) const;
  // the point's pixel (x right, y down from the top-left corner) and its distance along the view axis
  // (negative behind the camera)
  void project(Vec3 p, int width, int height, float& px, float& py, float& depth) const;
  // a camera of vertical field of view fovY (degrees) that frames points (the bounding sphere of their box,
  // grown by margin) from the given direction in a picture of the given aspect (width / height): the sphere
  // fits the narrower of the two half-angles, so a narrow field of view or a portrait picture crops nothing
  static Camera framing(const std::vector<Vec3>& points, float margin, float fovY = 40, float aspect = 1,
                        Vec3 direction = {0.55f, 0.45f, 1});
};

// the camera renderCamera (<eddy/render.h>) chose, y up
Camera cameraOf(const CameraView& view);

}  // namespace eddy::render
