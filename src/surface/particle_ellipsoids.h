// Every particle as an ellipsoid: the sphere of radius r it would be drawn as, stretched like its Yu–Turk
// anisotropic kernel (surface/yu_turk_field.h). At the water's surface the ellipsoids flatten along the
// normal and widen along the surface, so a splatting renderer (screen-space fluid rendering,
// render/sphere_splatting.h) draws flat water flat and thin sheets thin; in the bulk they stay spheres of
// radius r. NVIDIA FleX and the DX11 PBF demo splat the same ellipsoids.
//
// The neighbourhood is the kernel radius R (surface.radius), not the surface method's 2 R: FleX and the
// DX11 demo take the anisotropy from the simulation's own neighbours, and so does a simulation here when
// its SPH support is R (the default): the neighbour lists of its last substep, no sort, about 30 neighbours
// a particle instead of some 650 candidates, and many times faster than a grid search of its own. Particles
// read from files (or from a solver without lists) get the same neighbourhood from a sorted copy on a grid
// of their own.
//
// With G the kernel's matrix (support R_k = h) and S_k its stretches, the ellipsoid is
// { x : |A (x - x_i)| <= 1 } with A = f G h / r, f = cbrt(S1 S2 S3): an isotropic kernel (G = I / h) gives
// the sphere of radius r, and every ellipsoid keeps that sphere's volume, so the water keeps its volume
// and an isolated drop (the paper's k_n kernel) its size. It is centred on the particle itself, not on the
// kernel's smoothed centre: that smoothing pulls a flat surface in by about a spacing, which the paper's
// iso-surface of the kernels makes up for and splats would not. `bound` is the largest semi-axis, for the
// splat's screen bounds.
//
// Reference: J. Yu, G. Turk, "Reconstructing surfaces of particle-based fluids using anisotropic kernels",
// ACM Trans. Graph. 32(1), 2013 (the kernels); M. Macklin, M. Müller, "Position based fluids", SIGGRAPH
// 2013, section 7 (ellipsoid splats of these kernels in screen-space rendering).
#pragma once

#include <eddy/backend.h>
#include <eddy/mat3.h>
#include <eddy/surface.h>

#include <cstdint>
#include <vector>

#include "neighbors/neighbor_grid.h"
#include "surface/yu_turk_field.h"

namespace eddy::EDDY_NS {

class ParticleEllipsoids {
 public:
  // n particles on the device; the view is valid until the next call
  EllipsoidView build(const Vec3* positions, Index n, const SurfaceSettings& settings, Real radius,
                      Primitives& prims);
  // the same from a simulation's neighbour lists within R of its n particles, in the lists' order (built
  // in the last substep: a neighbour that has since moved past R is left out, one that has come within R
  // is missed, both near R where the weight is small; 99 % of the ellipsoids are within 1.2 % of the
  // general path's, tests/test_particle_ellipsoids.cpp)
  EllipsoidView build(const Vec3* positions, Index n, const NeighborView& neighbors,
                      const SurfaceSettings& settings, Real radius);
  std::size_t bytes() const;

 private:
  YuTurkField kernels_;
  Buffer<Mat3> shapes_;
  Buffer<Real> bounds_;
};

HostEllipsoids particleEllipsoids(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                  Real radius);

}  // namespace eddy::EDDY_NS
