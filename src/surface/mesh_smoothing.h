// Taubin's smoothing of a surface mesh on the device: each iteration moves every vertex toward the mean of
// its neighbours by lambda = 0.5, then away by mu = -0.53, which removes the marching-cubes staircase
// without the shrinking of plain Laplacian smoothing. Neighbours are found from the triangles (atomic
// sums, one source for the CPU and CUDA); the normals are recomputed from the smoothed triangles
// (area-weighted). Smoothing can fold the surface where it was not folded, so the reconstructor unfolds
// the smoothed mesh again (MarchingCubes::unfold), which keeps these normals where they agree.
//
// Reference: G. Taubin, "A signal processing approach to fair surface design", SIGGRAPH 1995.
#pragma once

#include "backend/primitives.h"
#include "surface/marching_cubes.h"

namespace eddy::EDDY_NS {

class MeshSmoothing {
 public:
  static constexpr Real kLambda = Real(0.5), kMu = Real(-0.53);
  void smooth(const SurfaceMeshView& mesh, int iterations);
  std::size_t bytes() const { return sums_.bytes(); }
  // one Laplacian step of the given factor (public: CUDA lambdas cannot live in private members)
  void pass(const SurfaceMeshView& mesh, Real factor);

 private:
  Buffer<Vec4> sums_;  // per vertex: the sum of its neighbours and their count
};

}  // namespace eddy::EDDY_NS
