// The scene-file schema: one table of keys per struct, shared by the reader (types, ranges, unknown-key
// lists) and the writer, so the two cannot drift apart. docs/scene-format.md documents the same tables.
#pragma once

#include <eddy/scene.h>
#include <eddy/simulation.h>

#include <array>
#include <limits>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

namespace eddy::scene_keys {

// allowed interval of a number; open ends exclude the bound
struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool loOpen = false;
  bool hiOpen = false;
};

constexpr Range anyValue() { return {}; }
constexpr Range above(double lo) { return {lo, std::numeric_limits<double>::infinity(), true, false}; }
constexpr Range atLeast(double lo) { return {lo, std::numeric_limits<double>::infinity(), false, false}; }
constexpr Range closed(double lo, double hi) { return {lo, hi, false, false}; }
constexpr Range openClosed(double lo, double hi) { return {lo, hi, true, false}; }
constexpr Range closedOpen(double lo, double hi) { return {lo, hi, false, true}; }
constexpr Range open(double lo, double hi) { return {lo, hi, true, true}; }

// extra rule for a 3-vector
enum class VecRule { Any, NonZero, Positive };

template <class S>
using Member = std::variant<int S::*, unsigned S::*, long long S::*, Real S::*, bool S::*, std::string S::*,
                            Vec3 S::*, Quat S::*>;

// one scalar or vector key of struct S
template <class S>
struct Field {
  std::string_view key;
  Member<S> member;
  Range range{};
  std::span<const std::string_view> choices{};  // for strings: the allowed values (empty = free text)
  VecRule vec = VecRule::Any;
};

// the registered solvers (src/solvers/registry.cpp), so a new solver needs no edit here
inline std::span<const std::string_view> solverChoices() {
  static const std::vector<std::string> names = solverNames();
  static const std::vector<std::string_view> views(names.begin(), names.end());
  return views;
}
inline constexpr std::array<std::string_view, 2> kEquationsOfState{"tait", "linear"};
inline constexpr std::array<std::string_view, 6> kShapeTypes{"plane",   "box",      "sphere",
                                                             "capsule", "cylinder", "mesh"};
inline constexpr std::array<std::string_view, 2> kEmitterTypes{"volume", "nozzle"};
inline constexpr std::array<std::string_view, 2> kLattices{"cubic", "bcc"};
inline constexpr std::array<std::string_view, 2> kStartPressures{"zero", "hydrostatic"};
inline constexpr std::array<std::string_view, 2> kOutputFormats{"ply", "vtk"};
inline constexpr std::array<std::string_view, 3> kSurfaceMethods{"zhu-bridson", "yu-turk", "sph-density"};
inline constexpr std::array<std::string_view, 2> kSurfaceFormats{"ply", "obj"};
inline constexpr std::array<std::string_view, 2> kSurfaceGroups{"material", "all"};
inline constexpr std::array<std::string_view, 3> kMpmTransfers{"apic", "pic", "flip"};
inline constexpr std::array<std::string_view, 3> kMpmBoundaries{"separate", "slip", "sticky"};
inline constexpr std::array<std::string_view, 2> kMpmEquationsOfState{"linear", "tait"};
inline constexpr std::array<std::string_view, 4> kMaterialTypes{"water", "elastic", "snow", "sand"};
inline constexpr std::array<std::string_view, 2> kWcsphDensities{"continuity", "summation"};
inline constexpr std::array<std::string_view, 2> kDfsphPressureSolvers{"conjugate_gradient", "jacobi"};
inline constexpr std::array<std::string_view, 2> kProbeTypes{"point", "gauge"};
inline constexpr std::array<std::string_view, 3> kRenderModes{"particles", "ssfr", "surface"};
inline constexpr std::array<std::string_view, 4> kColorBy{"speed", "density", "id", "material"};

// top level: scalar keys, then the keys that hold sections (read by hand), in file order
inline const std::array<Field<SceneDesc>, 2> kSceneFields{{
    {.key = "name", .member = &SceneDesc::name},
    {.key = "solver", .member = &SceneDesc::solver, .choices = solverChoices()},
}};
inline constexpr std::array<std::string_view, 15> kSceneSections{
    "description", "pbf",       "wcsph",    "dfsph",  "mpm",     "fluid",  "domain", "time",
    "forces",      "colliders", "emitters", "output", "surface", "probes", "render"};

inline const std::array<Field<PbfSettings>, 12> kPbfFields{{
    {.key = "iterations", .member = &PbfSettings::iterations, .range = closed(1, 100)},
    {.key = "relaxation", .member = &PbfSettings::relaxation, .range = above(0)},
    {.key = "clamp_density", .member = &PbfSettings::clampDensity},
    {.key = "scorr_k", .member = &PbfSettings::scorrK, .range = atLeast(0)},
    {.key = "scorr_n", .member = &PbfSettings::scorrN, .range = closed(1, 8)},
    // W(dq h) is a divisor and vanishes at dq = 1
    {.key = "scorr_dq", .member = &PbfSettings::scorrDq, .range = closedOpen(0, 1)},
    {.key = "over_relaxation", .member = &PbfSettings::overRelaxation, .range = closedOpen(1, 2)},
    {.key = "constraint_averaging", .member = &PbfSettings::constraintAveraging, .range = atLeast(0)},
    {.key = "vorticity", .member = &PbfSettings::vorticity, .range = atLeast(0)},
    {.key = "xsph", .member = &PbfSettings::xsph, .range = closed(0, 1)},
    {.key = "max_velocity_change", .member = &PbfSettings::maxVelocityChange, .range = atLeast(0)},
    {.key = "max_neighbors", .member = &PbfSettings::maxNeighbors, .range = closed(0, 4096)},
}};

// "density_diffusion" is refused in a file that also says "density": "summation" (read by hand), and not
// written for such a scene
inline const std::array<Field<WcsphSettings>, 8> kWcsphFields{{
    {.key = "equation_of_state", .member = &WcsphSettings::equationOfState, .choices = kEquationsOfState},
    {.key = "speed_of_sound", .member = &WcsphSettings::speedOfSound, .range = above(0)},
    {.key = "gamma", .member = &WcsphSettings::gamma, .range = closed(1, 10)},
    {.key = "stiffness", .member = &WcsphSettings::stiffness, .range = above(0)},
    {.key = "viscosity", .member = &WcsphSettings::viscosity, .range = atLeast(0)},
    {.key = "cfl", .member = &WcsphSettings::cfl, .range = openClosed(0, 1)},
    {.key = "density", .member = &WcsphSettings::density, .choices = kWcsphDensities},
    {.key = "density_diffusion", .member = &WcsphSettings::densityDiffusion, .range = closed(0, 1)},
}};

inline const std::array<Field<DfsphSettings>, 8> kDfsphFields{{
    {.key = "cfl", .member = &DfsphSettings::cfl, .range = openClosed(0, 1)},
    {.key = "max_density_error", .member = &DfsphSettings::maxDensityError, .range = above(0)},
    {.key = "max_divergence_error", .member = &DfsphSettings::maxDivergenceError, .range = above(0)},
    {.key = "min_iterations", .member = &DfsphSettings::minIterations, .range = closed(1, 1000)},
    {.key = "max_iterations", .member = &DfsphSettings::maxIterations, .range = closed(1, 1000)},
    {.key = "divergence_solve", .member = &DfsphSettings::divergenceSolve},
    {.key = "xsph", .member = &DfsphSettings::xsph, .range = closed(0, 1)},
    {.key = "pressure_solver", .member = &DfsphSettings::pressureSolver, .choices = kDfsphPressureSolvers},
}};

inline const std::array<Field<MpmSettings>, 9> kMpmFields{{
    // at most 2^31 - 1 nodes and what fits in memory; checked when the grid is built
    {.key = "grid_resolution", .member = &MpmSettings::gridResolution, .range = atLeast(4)},
    {.key = "transfer", .member = &MpmSettings::transfer, .choices = kMpmTransfers},
    {.key = "flip_ratio", .member = &MpmSettings::flipRatio, .range = closed(0, 1)},
    {.key = "boundary", .member = &MpmSettings::boundary, .choices = kMpmBoundaries},
    {.key = "equation_of_state", .member = &MpmSettings::equationOfState, .choices = kMpmEquationsOfState},
    {.key = "bulk_modulus", .member = &MpmSettings::bulkModulus, .range = above(0)},
    {.key = "gamma", .member = &MpmSettings::gamma, .range = closed(1, 10)},
    {.key = "viscosity", .member = &MpmSettings::viscosity, .range = atLeast(0)},
    {.key = "cfl", .member = &MpmSettings::cfl, .range = openClosed(0, 1)},
}};

inline const std::array<Field<FluidDesc>, 3> kFluidFields{{
    {.key = "rest_density", .member = &FluidDesc::restDensity, .range = above(0)},
    {.key = "spacing", .member = &FluidDesc::spacing, .range = above(0)},
    // at 1 no lattice neighbour lies inside h: PBF's constraint gradients and s_corr's scale vanish
    {.key = "support_ratio", .member = &FluidDesc::supportRatio, .range = openClosed(1, 4)},
}};

inline const std::array<Field<DomainDesc>, 2> kDomainFields{{
    {.key = "min", .member = &DomainDesc::min},
    {.key = "max", .member = &DomainDesc::max},
}};

inline const std::array<Field<TimeDesc>, 6> kTimeFields{{
    {.key = "fps", .member = &TimeDesc::fps, .range = above(0)},
    {.key = "frames", .member = &TimeDesc::frames, .range = atLeast(1)},
    {.key = "substeps", .member = &TimeDesc::substeps, .range = atLeast(1)},
    {.key = "adaptive", .member = &TimeDesc::adaptive},
    {.key = "cfl", .member = &TimeDesc::cfl, .range = openClosed(0, 1)},
    {.key = "max_substeps", .member = &TimeDesc::maxSubsteps, .range = atLeast(1)},
}};

// "fit_into" is read separately and written last, where it is set
inline const std::array<Field<ShapeDesc>, 13> kShapeFields{{
    {.key = "type", .member = &ShapeDesc::type, .choices = kShapeTypes},
    {.key = "center", .member = &ShapeDesc::center},
    {.key = "half_extents", .member = &ShapeDesc::halfExtents, .vec = VecRule::Positive},
    {.key = "radius", .member = &ShapeDesc::radius, .range = above(0)},
    {.key = "half_height", .member = &ShapeDesc::halfHeight, .range = above(0)},
    {.key = "normal", .member = &ShapeDesc::normal, .vec = VecRule::NonZero},
    {.key = "rotation", .member = &ShapeDesc::rotation},
    {.key = "quaternion", .member = &ShapeDesc::quaternion},
    {.key = "file", .member = &ShapeDesc::file},
    {.key = "scale", .member = &ShapeDesc::scale, .range = above(0)},
    {.key = "translation", .member = &ShapeDesc::translation},
    {.key = "sdf_resolution", .member = &ShapeDesc::sdfResolution, .range = closed(8, 2048)},
    {.key = "thickness", .member = &ShapeDesc::thickness, .range = atLeast(0)},
}};

inline const std::array<Field<FitBox>, 2> kFitBoxFields{{
    {.key = "min", .member = &FitBox::min},
    {.key = "max", .member = &FitBox::max},
}};

// "shape" is read separately and written right after "name"; "keyframes" is read separately and written last
inline const std::array<Field<ColliderDesc>, 11> kColliderFields{{
    {.key = "name", .member = &ColliderDesc::name},
    {.key = "container", .member = &ColliderDesc::container},
    {.key = "linear_velocity", .member = &ColliderDesc::linearVelocity},
    {.key = "angular_velocity", .member = &ColliderDesc::angularVelocity},
    {.key = "restitution", .member = &ColliderDesc::restitution, .range = closed(0, 1)},
    {.key = "friction", .member = &ColliderDesc::friction, .range = atLeast(0)},
    {.key = "static_friction", .member = &ColliderDesc::staticFriction, .range = atLeast(0)},
    {.key = "density", .member = &ColliderDesc::density, .range = atLeast(0)},
    {.key = "locks", .member = &ColliderDesc::locks},
    {.key = "hinge_axis", .member = &ColliderDesc::hingeAxis},
    {.key = "hinge_point", .member = &ColliderDesc::hingePoint},
}};

// an element of a collider's "keyframes" list; "time" and "translation" are required (checked by the reader)
inline const std::array<Field<KeyframeDesc>, 3> kKeyframeFields{{
    {.key = "time", .member = &KeyframeDesc::time, .range = atLeast(0)},
    {.key = "translation", .member = &KeyframeDesc::translation},
    {.key = "rotation", .member = &KeyframeDesc::rotation},
}};

// "shape" is read separately and written right after "type"; "material" is read separately and written last
inline const std::array<Field<EmitterDesc>, 16> kEmitterFields{{
    {.key = "type", .member = &EmitterDesc::type, .choices = kEmitterTypes},
    {.key = "collider", .member = &EmitterDesc::collider},
    {.key = "lattice", .member = &EmitterDesc::lattice, .choices = kLattices},
    {.key = "jitter", .member = &EmitterDesc::jitter, .range = closed(0, 0.5)},
    {.key = "seed", .member = &EmitterDesc::seed},
    {.key = "pressure", .member = &EmitterDesc::pressure, .choices = kStartPressures},
    {.key = "velocity", .member = &EmitterDesc::velocity},
    {.key = "angular_velocity", .member = &EmitterDesc::angularVelocity},
    {.key = "position", .member = &EmitterDesc::position},
    {.key = "direction", .member = &EmitterDesc::direction, .vec = VecRule::NonZero},
    {.key = "radius", .member = &EmitterDesc::radius, .range = above(0)},
    {.key = "speed", .member = &EmitterDesc::speed, .range = above(0)},
    {.key = "rate", .member = &EmitterDesc::rate, .range = atLeast(0)},
    {.key = "max_particles", .member = &EmitterDesc::maxParticles, .range = closed(1, 1e12)},
    {.key = "start", .member = &EmitterDesc::start, .range = atLeast(0)},
    {.key = "stop", .member = &EmitterDesc::stop, .range = atLeast(0)},
}};

// the "material" object of an emitter
inline const std::array<Field<MaterialDesc>, 9> kMaterialFields{{
    {.key = "type", .member = &MaterialDesc::type, .choices = kMaterialTypes},
    {.key = "density", .member = &MaterialDesc::density, .range = atLeast(0)},
    {.key = "youngs_modulus", .member = &MaterialDesc::youngsModulus, .range = above(0)},
    {.key = "poisson_ratio", .member = &MaterialDesc::poissonRatio, .range = open(-1, 0.5)},
    {.key = "friction_angle", .member = &MaterialDesc::frictionAngle, .range = closedOpen(0, 90)},
    {.key = "cohesion", .member = &MaterialDesc::cohesion, .range = atLeast(0)},
    {.key = "critical_compression", .member = &MaterialDesc::criticalCompression, .range = open(0, 1)},
    {.key = "critical_stretch", .member = &MaterialDesc::criticalStretch, .range = above(0)},
    {.key = "hardening", .member = &MaterialDesc::hardening, .range = atLeast(0)},
}};

inline const std::array<Field<ForcesDesc>, 3> kForcesFields{{
    {.key = "gravity", .member = &ForcesDesc::gravity},
    {.key = "wind_velocity", .member = &ForcesDesc::windVelocity},
    {.key = "drag", .member = &ForcesDesc::drag, .range = atLeast(0)},
}};

inline const std::array<Field<OutputDesc>, 3> kOutputFields{{
    {.key = "format", .member = &OutputDesc::format, .choices = kOutputFormats},
    {.key = "every", .member = &OutputDesc::every, .range = atLeast(1)},
    {.key = "particles", .member = &OutputDesc::particles},
}};

inline const std::array<Field<SurfaceDesc>, 7> kSurfaceFields{{
    {.key = "enabled", .member = &SurfaceDesc::enabled},
    {.key = "method", .member = &SurfaceDesc::method, .choices = kSurfaceMethods},
    // a cell larger than the kernel radius would step over the kernel's whole support
    {.key = "cell", .member = &SurfaceDesc::cell, .range = open(0, 8)},
    {.key = "radius", .member = &SurfaceDesc::radius, .range = open(0, 16)},
    {.key = "smooth", .member = &SurfaceDesc::smooth, .range = closed(0, 1000)},
    {.key = "format", .member = &SurfaceDesc::format, .choices = kSurfaceFormats},
    {.key = "groups", .member = &SurfaceDesc::groups, .choices = kSurfaceGroups},
}};

inline const std::array<Field<RenderDesc>, 13> kRenderFields{{
    {.key = "mode", .member = &RenderDesc::mode, .choices = kRenderModes},
    {.key = "frame", .member = &RenderDesc::frame},
    {.key = "camera", .member = &RenderDesc::camera},
    {.key = "target", .member = &RenderDesc::target},
    {.key = "fov", .member = &RenderDesc::fov, .range = open(1, 170)},
    {.key = "sun", .member = &RenderDesc::sun, .vec = VecRule::NonZero},
    {.key = "environment", .member = &RenderDesc::environment},
    {.key = "absorption", .member = &RenderDesc::absorption, .range = atLeast(0)},
    {.key = "color_low", .member = &RenderDesc::colorLow, .range = closed(0, 1)},
    {.key = "color_high", .member = &RenderDesc::colorHigh, .range = closed(0, 1)},
    {.key = "scenery", .member = &RenderDesc::scenery},
    {.key = "color_by", .member = &RenderDesc::colorBy, .choices = kColorBy},
    {.key = "ellipsoids", .member = &RenderDesc::ellipsoids},
}};

// an element of the scene's "probes" list; "name" and "position" are required, and the name's characters,
// its uniqueness and the position inside the domain are checked by src/io/scene_probes.cpp
inline const std::array<Field<ProbeDesc>, 5> kProbeFields{{
    {.key = "name", .member = &ProbeDesc::name},
    {.key = "type", .member = &ProbeDesc::type, .choices = kProbeTypes},
    {.key = "position", .member = &ProbeDesc::position},
    {.key = "every", .member = &ProbeDesc::every, .range = atLeast(0)},
    {.key = "face", .member = &ProbeDesc::face},
}};

}  // namespace eddy::scene_keys
