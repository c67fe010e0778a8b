// Liquid surfaces from particles: the settings, the whole reconstruction for the host (a field on a
// block-sparse grid, marching cubes, optional smoothing; src/surface) on the CPU or the GPU, the views a
// simulation hands out of the surfaces and ellipsoids it keeps on its device, and the particles' ellipsoids
// for the host. Inside a run, the simulation builds surfaces from its own device particles instead
// (Simulation::buildSurfaceOnDevice).
#pragma once

#include <eddy/backend.h>
#include <eddy/mat3.h>
#include <eddy/mesh.h>
#include <eddy/vec3.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace eddy {

// the field the surface is a level of, each in its own file, named after its paper
enum class SurfaceMethod {
  ZhuBridson,  // surface/zhu_bridson_field.h: distance to the kernel-weighted centre (the default)
  YuTurk,      // surface/yu_turk_field.h: anisotropic kernels (flat water reads flat, sheets stay thin)
  SphDensity,  // surface/sph_density_field.h: the colour field's half level (the simple baseline)
};

// "zhu-bridson", "yu-turk", "sph-density"; false for any other name
bool parseSurfaceMethod(const std::string& name, SurfaceMethod& method);
const char* surfaceMethodName(SurfaceMethod method);

struct SurfaceSettings {
  SurfaceMethod method = SurfaceMethod::ZhuBridson;
  Real cell = 0;            // grid spacing, m (Zhu & Bridson: h / 3)
  Real kernelRadius = 0;    // R, m: the support of every method's kernel
  Real particleRadius = 0;  // r_i, the same for every particle, m (Zhu–Bridson)
  Real particleReach =
      0;  // no surface farther than r from every particle but within this of two, m (Zhu–Bridson)
  Real particleVolume = 0;      // V_i = spacing^3, m^3 (SPH density, Yu–Turk)
  Real isoLevel = 0.5;          // the colour level of the surface (SPH density, Yu–Turk)
  int smoothingIterations = 0;  // Taubin smoothing of the mesh (surface/mesh_smoothing.h)

  bool operator==(const SurfaceSettings&) const = default;

  // every length from the particles' rest spacing: cell and radius in spacings
  static SurfaceSettings fromSpacing(Real spacing, Real cellInSpacings = Real(2) / 3,
                                     Real radiusInSpacings = 2);
};

// what one reconstruction took (device time: CUDA events on the GPU)
struct SurfaceStats {
  int nx = 0, ny = 0, nz = 0;   // the lattice spanned, in nodes
  std::size_t storedNodes = 0;  // nodes of the blocks stored
  std::size_t bytes = 0;        // device memory the reconstruction holds
  double fieldMilliseconds = 0, meshMilliseconds = 0, smoothMilliseconds = 0, copyMilliseconds = 0;
};

// a scene's "surface" section in lengths: cell and radius from the fluid's spacing
struct SimulationDesc;
SurfaceSettings surfaceSettingsFor(const SimulationDesc& scene);

// The groups whose particles get surfaces of their own: in an MPM scene whose surface section says
// "groups": "material" and whose emitters use more than one material type, those types in the order of the
// emitters that first use them (surfaces surface_<type>_NNNNNN, each of the particles of the emitters of
// that type); otherwise none (one surface of every particle).
std::vector<std::string> surfaceGroupNames(const SimulationDesc& scene);

// throws InputError naming the setting for a cell, radius, volume or iteration count it cannot use
void checkSurfaceSettings(const SurfaceSettings& settings);

// the surface of the particles on the given backend
TriangleMesh reconstructSurface(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                Backend backend, SurfaceStats* stats = nullptr);

// a mesh on the device: three vertex indices per triangle
struct SurfaceMeshView {
  Vec3* vertices = nullptr;
  Vec3* normals = nullptr;
  std::uint32_t* triangles = nullptr;
  std::int32_t vertexCount = 0, triangleCount = 0;
};

// the ellipsoids on a device: centres, shape matrices A (row-major) and bounds, count of each
struct EllipsoidView {
  const Vec3* centres = nullptr;
  const Mat3* shapes = nullptr;
  const Real* bounds = nullptr;
  std::int64_t count = 0;
};

// the same on the host
struct HostEllipsoids {
  std::vector<Vec3> centres;
  std::vector<Mat3> shapes;
  std::vector<Real> bounds;
};

// the ellipsoids of host particles (the frames of a run), computed on the given backend; radius: the
// spheres' radius, m
HostEllipsoids particleEllipsoids(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                  Real radius, Backend backend);

}  // namespace eddy
