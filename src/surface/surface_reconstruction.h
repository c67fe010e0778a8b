// Liquid surfaces from particles, for the host: the settings, and the whole reconstruction (field, then
// marching cubes) on the CPU or the GPU, returning the mesh on the host.
#pragma once

#include <eddy/backend.h>
#include <eddy/vec3.h>

#include <vector>

#include "colliders/triangle_mesh.h"

namespace eddy {

struct SurfaceSettings {
  Real cell = 0;            // grid spacing, m (Zhu & Bridson: h / 3)
  Real kernelRadius = 0;    // R, m
  Real particleRadius = 0;  // r_i, the same for every particle, m
};

// what one reconstruction took
struct SurfaceStats {
  int nx = 0, ny = 0, nz = 0;  // grid nodes
  double fieldMilliseconds = 0, meshMilliseconds = 0;
};

// the Zhu–Bridson surface of the particles (surface/zhu_bridson_field.h, surface/marching_cubes.h) on the
// given backend
TriangleMesh reconstructSurface(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                Backend backend, SurfaceStats* stats = nullptr);

}  // namespace eddy
