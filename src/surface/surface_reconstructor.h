// The liquid's surface from particles already on the device, every stage on the device: the chosen
// method's field on a block-sparse grid, marching cubes, Taubin smoothing where asked, and one copy of the
// mesh to the host. Buffers are kept between calls and grow only, so a surface built every frame of a
// run allocates only when the liquid grows.
#pragma once

#include "backend/stop_watch.h"
#include "surface/marching_cubes.h"
#include "surface/mesh_smoothing.h"
#include "surface/sph_density_field.h"
#include "surface/surface_grid.h"
#include "surface/yu_turk_field.h"
#include "surface/zhu_bridson_field.h"

namespace eddy::EDDY_NS {

class SurfaceReconstructor {
 public:
  explicit SurfaceReconstructor(const SurfaceSettings& settings);
  // positions: n particles on the device
  void reconstruct(const Vec3* positions, Index n, TriangleMesh& out, SurfaceStats* stats = nullptr);
  // the same, leaving the mesh on the device (valid until the next call)
  SurfaceMeshView reconstructOnDevice(const Vec3* positions, Index n, SurfaceStats* stats = nullptr);
  const SurfaceSettings& settings() const { return settings_; }
  std::size_t bytes() const;

 private:
  SurfaceSettings settings_;
  Primitives prims_;
  SurfaceGrid grid_;
  ZhuBridsonField zhuBridson_;
  SphDensityField sphDensity_;
  YuTurkField yuTurk_;
  MarchingCubes marching_;
  MeshSmoothing smoothing_;
  StopWatch watch_;
};

}  // namespace eddy::EDDY_NS
