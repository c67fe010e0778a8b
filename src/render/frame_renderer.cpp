// `eddy render`'s drawing: frames read from files (particles, or surfaces with the particles beside them)
// drawn with the run's scene's look, its floor and colliders, an MPM scene's solids, and the colour bar.
#include <eddy/error.h>
#include <eddy/render.h>
#include <eddy/surface.h>

#include <algorithm>

#include "render/camera.h"
#include "render/color_bar.h"
#include "render/ellipsoid_buffer.h"
#include "render/gl_context.h"
#include "render/image.h"
#include "render/offscreen_target.h"
#include "render/particle_renderer.h"
#include "render/radiance_hdr.h"
#include "render/scene_look.h"
#include "render/scenery.h"
#include "render/screen_space_fluid_renderer.h"
#include "render/surface_renderer.h"

namespace eddy {

struct FrameRenderer::Drawing {
  SceneDesc scene;
  bool withScenery = false;
  render::Image environment;
  FrameLook look;
  std::unique_ptr<render::HeadlessGl> gl;  // before every GL object: made first, gone last
  std::unique_ptr<render::ParticleRenderer> particles;
  std::unique_ptr<render::SurfaceRenderer> surface;
  std::unique_ptr<render::ScreenSpaceFluidRenderer> fluid;
  std::unique_ptr<render::Scenery> scenery;
  std::vector<std::pair<std::size_t, ColliderPose>> bodyPoses;  // until the scenery exists
  std::unique_ptr<render::EllipsoidBuffer> ellipsoids;
  SurfaceSettings ellipsoidSettings;
  render::Camera camera;
  render::ParticleStyle style;
  render::FluidStyle fluidStyle;
  render::WaterStyle water;
  std::string unit = "m/s";
};

namespace {

render::Rgb rgb(Vec3 c) { return render::Rgb{c.x, c.y, c.z}; }

// An MPM frame's particles of sand, snow and elastic material (by the "material" property and the scene's
// emitters) become the scenery's solid particles; the water, and every particle of a frame without
// materials, stay for the water renderer (their rows in `water`). With keepAll, every particle stays.
void splitMaterials(const ParticleFrame& frame, const SceneDesc& scene, float radius,
                    render::Scenery* scenery, bool keepAll, std::vector<std::size_t>& water) {
  std::vector<Vec3> solids;
  std::vector<float> colour;
  for (std::size_t k = 0; k < frame.position.size(); ++k) {
    const std::uint32_t m = frame.material.empty() ? ~0u : frame.material[k];
    const int c = m < scene.emitters.size() && scenery && !keepAll
                      ? render::Scenery::materialColour(scene.emitters[m].material.type)
                      : -1;
    if (c >= 0) {
      solids.push_back(frame.position[k]);
      colour.push_back(float(c));
    } else {
      water.push_back(k);
    }
  }
  if (scenery) scenery->setSolidParticles(solids, colour, radius);
}

// the quantity `particles` mode colours by, for the given rows of a frame
std::vector<float> valuesOf(const ParticleFrame& frame, const std::string& quantity,
                            const std::vector<std::size_t>& rows) {
  std::vector<float> values;
  values.reserve(rows.size());
  for (std::size_t k : rows) {
    if (quantity == "speed")
      values.push_back(frame.velocity.empty() ? 0.0f : float(length(frame.velocity[k])));
    else if (quantity == "density")
      values.push_back(frame.density[k]);
    else if (quantity == "id")
      values.push_back(float(frame.id[k]));
    else
      values.push_back(frame.material.empty() ? 0.0f : float(frame.material[k]));
  }
  return values;
}

Picture pictureOf(const render::Image& image) {
  Picture out;
  out.width = image.width;
  out.height = image.height;
  out.rgba.resize(std::size_t(image.width) * image.height * 4);
  for (std::size_t i = 0, n = std::size_t(image.width) * image.height; i < n; ++i) {
    for (int c = 0; c < 3; ++c) out.rgba[4 * i + c] = image.rgb[3 * i + c];
    out.rgba[4 * i + 3] = 255;
  }
  return out;
}

}  // namespace

FrameRenderer::FrameRenderer(const SceneDesc& scene, bool withScenery, const std::string& command)
    : drawing_(std::make_unique<Drawing>()) {
  drawing_->scene = scene;
  drawing_->withScenery = withScenery;
  if (!scene.render.environment.empty()) {
    try {
      drawing_->environment = render::readEnvironmentImage(scene.render.environment);
    } catch (const InputError& e) {
      throw InputError(command + ": the environment image: " + e.what());
    }
  }
}

FrameRenderer::~FrameRenderer() = default;

void FrameRenderer::started() const {
  if (!drawing_->gl) throw RuntimeFailure("FrameRenderer: start() must come before the pictures");
}

void FrameRenderer::start(const FrameLook& look) {
  Drawing& d = *drawing_;
  // the renderers' GL objects belong to the context made here: a second one would outlive them
  if (d.gl) throw RuntimeFailure("FrameRenderer::start: called a second time");
  const RenderDesc& r = d.scene.render;
  d.look = look;
  d.gl = std::make_unique<render::HeadlessGl>();
  try {
    if (r.mode == "surface") {
      d.surface = std::make_unique<render::SurfaceRenderer>(look.width, look.height);
      d.surface->setEnvironment(d.environment);
    } else if (r.mode == "ssfr") {
      d.fluid = std::make_unique<render::ScreenSpaceFluidRenderer>(look.width, look.height);
      d.fluid->setEnvironment(d.environment);
    } else {
      d.particles = std::make_unique<render::ParticleRenderer>(look.width, look.height);
    }
  } catch (const render::PictureSizeRefused& e) {
    throw InputError(std::string("render: --size ") + e.what());
  }
  // the floor and the colliders of the run's scene behind the water, and the MPM grains and solids (a mesh
  // that cannot be read stops here, before anything is written)
  if (d.withScenery) {
    d.scenery = std::make_unique<render::Scenery>(d.scene, r.scenery);
    d.scenery->setBodyPoses(d.bodyPoses);
    if (d.surface) d.surface->setScenery(d.scenery.get());
    if (d.fluid) d.fluid->setScenery(d.scenery.get());
    if (d.particles) d.particles->setScenery(d.scenery.get());
  }
  d.camera = render::cameraOf(look.camera);
  const float radius = float(look.radius);
  d.style.radius = radius;
  d.style.valueTop = float(look.speedTop);
  d.style.low = rgb(r.colorLow);
  d.style.high = rgb(r.colorHigh);
  // the colour map's range: speed from 0 to the fastest, density from the rest density to the densest, id
  // over every id; material: a colour per emitter
  if (r.colorBy == "density") {
    d.style.valueLow = float(d.scene.fluid.restDensity);
    d.style.valueTop = float(std::max(look.densest, double(d.style.valueLow) * 1.001));
    d.unit = "kg/m3";
  } else if (r.colorBy == "id") {
    d.style.valueTop = float(std::max(look.lastId, 1.0));
    d.unit = "";
  } else if (r.colorBy == "material") {
    d.style.palette = render::materialPalette(d.scene, d.style.low);
  }
  if (r.mode == "ssfr" && r.ellipsoids) {
    d.ellipsoids = std::make_unique<render::EllipsoidBuffer>();
    d.ellipsoidSettings =
        d.withScenery ? surfaceSettingsFor(d.scene) : SurfaceSettings::fromSpacing(Real(2 * look.radius));
  }
  d.fluidStyle.radius = radius;
  d.fluidStyle.absorption = rgb(r.absorption);
  d.fluidStyle.sun = r.sun;
  d.water.absorption = rgb(r.absorption);
  d.water.sun = r.sun;
}

std::string FrameRenderer::device() const {
  started();
  return drawing_->gl->renderer() + " (EGL " + drawing_->gl->platform() + ")";
}
double FrameRenderer::valueLow() const { return drawing_->style.valueLow; }
double FrameRenderer::valueTop() const { return drawing_->style.valueTop; }
std::string FrameRenderer::unit() const { return drawing_->unit; }

void FrameRenderer::setBodyPoses(std::vector<std::pair<std::size_t, ColliderPose>> poses) {
  drawing_->bodyPoses = std::move(poses);
  if (drawing_->scenery) drawing_->scenery->setBodyPoses(drawing_->bodyPoses);
}

Picture FrameRenderer::drawParticles(const ParticleFrame& frame, double time) {
  started();
  Drawing& d = *drawing_;
  const RenderDesc& r = d.scene.render;
  const bool particleMode = r.mode == "particles";
  // the particles drawn as water (or all, coloured by material); the others go to the scenery as solids
  std::vector<std::size_t> rows;
  splitMaterials(frame, d.scene, float(d.look.solidRadius), d.scenery.get(),
                 particleMode && r.colorBy == "material", rows);
  std::vector<Vec3> liquid;
  liquid.reserve(rows.size());
  for (std::size_t k : rows) liquid.push_back(frame.position[k]);
  if (d.scenery) d.scenery->setTime(time);
  render::Image image;
  if (d.ellipsoids) {
    d.ellipsoids->upload(particleEllipsoids(liquid, d.ellipsoidSettings, Real(d.look.radius), Backend::Auto));
    image = d.fluid->render(*d.ellipsoids, d.camera, d.fluidStyle);
  } else if (d.fluid) {
    image = d.fluid->render(liquid, d.camera, d.fluidStyle);
  } else {
    const bool speedless = r.colorBy == "speed" && frame.velocity.empty();
    image = d.particles->render(liquid, speedless ? std::vector<float>{} : valuesOf(frame, r.colorBy, rows),
                                d.camera, d.style);
    // the key to the colours, where the frames carry them
    if (r.colorBy != "material" && !liquid.empty() && d.look.colourBar)
      render::drawColorBar(image, d.style.low, d.style.high, d.style.valueLow, d.style.valueTop, d.unit);
  }
  return pictureOf(image);
}

Picture FrameRenderer::drawSurface(const TriangleMesh& surface, const ParticleFrame& beside, double time) {
  started();
  Drawing& d = *drawing_;
  std::vector<std::size_t> rows;
  splitMaterials(beside, d.scene, float(d.look.solidRadius), d.scenery.get(), false, rows);
  if (d.scenery) d.scenery->setTime(time);
  // an MPM scene without water (a sand column, a snowball): its one surface wraps the grains, which the
  // particles beside it draw as what they are; shaded as water it would drown them
  const bool water =
      d.scene.solver != "mpm" || std::any_of(d.scene.emitters.begin(), d.scene.emitters.end(),
                                             [](const EmitterDesc& e) { return e.material.type == "water"; });
  return pictureOf(d.surface->render(water ? surface : TriangleMesh{}, d.camera, d.water));
}

}  // namespace eddy
