// The host side of the surface settings: method names, defaults from the particle spacing, and checks.
#include <eddy/error.h>
#include <eddy/simulation_desc.h>
#include <eddy/surface.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace eddy {

std::vector<std::string> surfaceGroupNames(const SimulationDesc& scene) {
  // only MPM keeps a material per particle; PBF and WCSPH particles are all water
  std::vector<std::string> names;
  if (scene.solver != "mpm" || scene.surface.groups != "material") return names;
  for (const EmitterDesc& e : scene.emitters)
    if (std::find(names.begin(), names.end(), e.material.type) == names.end())
      names.push_back(e.material.type);
  if (names.size() < 2) names.clear();
  return names;
}

bool parseSurfaceMethod(const std::string& name, SurfaceMethod& method) {
  if (name == "zhu-bridson")
    method = SurfaceMethod::ZhuBridson;
  else if (name == "yu-turk")
    method = SurfaceMethod::YuTurk;
  else if (name == "sph-density")
    method = SurfaceMethod::SphDensity;
  else
    return false;
  return true;
}

const char* surfaceMethodName(SurfaceMethod method) {
  switch (method) {
    case SurfaceMethod::YuTurk:
      return "yu-turk";
    case SurfaceMethod::SphDensity:
      return "sph-density";
    default:
      return "zhu-bridson";
  }
}

SurfaceSettings SurfaceSettings::fromSpacing(Real spacing, Real cellInSpacings, Real radiusInSpacings) {
  SurfaceSettings s;
  s.cell = cellInSpacings * spacing;
  s.kernelRadius = radiusInSpacings * spacing;
  // Zhu–Bridson's r: 0.57 spacing puts a flat layer's surface on the plane the layer fills (measured
  // -0.001 spacing; half a spacing gave -0.107), so a body's mesh encloses N spacing^3
  s.particleRadius = Real(0.57) * spacing;
  // Zhu–Bridson draws no surface farther than r from every particle unless within this of two
  // (surface/zhu_bridson_field.h): a flat layer's surface passes sqrt(3) / 2 spacing from its nearest
  // particles (above the middle of four top particles), a lattice ball's terraces a little farther
  s.particleReach = spacing;
  s.particleVolume = spacing * spacing * spacing;
  return s;
}

SurfaceSettings surfaceSettingsFor(const SimulationDesc& scene) {
  const SurfaceDesc& d = scene.surface;
  SurfaceSettings s = SurfaceSettings::fromSpacing(scene.fluid.spacing, d.cell, d.radius);
  if (!parseSurfaceMethod(d.method, s.method))
    throw InputError("surface.method: unknown method '" + d.method +
                     "' (allowed: zhu-bridson, yu-turk, sph-density)");
  s.smoothingIterations = d.smooth;
  return s;
}

void checkSurfaceSettings(const SurfaceSettings& s) {
  auto positive = [](Real v, const char* what) {
    if (!(v > 0) || !std::isfinite(v))
      throw InputError(std::string("surface: the ") + what + " must be a positive number (got " +
                       std::to_string(v) + ")");
  };
  positive(s.cell, "cell size");
  positive(s.kernelRadius, "kernel radius");
  positive(s.particleRadius, "particle radius");
  positive(s.particleVolume, "particle volume");
  positive(s.particleReach, "particle reach");
  if (s.particleReach < s.particleRadius)
    throw InputError("surface: the particle reach (" + std::to_string(s.particleReach) +
                     " m) must not be below the particle radius (" + std::to_string(s.particleRadius) +
                     " m)");
  if (!(s.isoLevel > 0 && s.isoLevel < 1))
    throw InputError("surface: the iso level must lie between 0 and 1 (got " + std::to_string(s.isoLevel) +
                     ")");
  if (s.smoothingIterations < 0 || s.smoothingIterations > 1000)
    throw InputError("surface: smoothing iterations must be 0 to 1000 (got " +
                     std::to_string(s.smoothingIterations) + ")");
  if (s.cell > s.kernelRadius)
    throw InputError("surface: the cell size (" + std::to_string(s.cell) +
                     " m) must not exceed the kernel radius (" + std::to_string(s.kernelRadius) + " m)");
}

}  // namespace eddy
