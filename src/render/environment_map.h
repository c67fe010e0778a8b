// An equirectangular environment image on the GPU, which the water shading (render/water_shading.h)
// reflects in place of its procedural sky: longitude across the image, the zenith along the top row.
#pragma once

#include <memory>

#include "render/camera.h"
#include "render/gl_program.h"
#include "render/image.h"

namespace eddy::render {

class EnvironmentMap {
 public:
  EnvironmentMap() = default;
  ~EnvironmentMap();
  EnvironmentMap(const EnvironmentMap&) = delete;
  EnvironmentMap& operator=(const EnvironmentMap&) = delete;

  // needs a current OpenGL context; an empty image goes back to the procedural sky
  void set(const Image& equirectangular);
  bool empty() const { return texture_ == 0; }
  // binds the image to the texture unit and sets the program's `environment` and `hasEnvironment`
  // uniforms (the program must be in use)
  void bind(const GlProgram& program, int unit) const;

 private:
  unsigned texture_ = 0;
};

// The sky the water reflects (the environment image, else the procedural sky of render/water_shading.h),
// drawn over the whole picture behind everything, so that what the water mirrors is what surrounds it
class SkyBackground {
 public:
  SkyBackground();  // needs a current OpenGL 4.3 context
  ~SkyBackground();
  SkyBackground(const SkyBackground&) = delete;
  SkyBackground& operator=(const SkyBackground&) = delete;
  // into the bound framebuffer, leaving its depth alone
  void draw(const Camera& camera, float aspect, const EnvironmentMap& environment) const;

 private:
  std::unique_ptr<GlProgram> program_;
  unsigned vertexArray_ = 0;
};

}  // namespace eddy::render
