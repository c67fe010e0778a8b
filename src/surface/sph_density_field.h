// The liquid's surface as a level of the SPH colour field, the simplest of the three methods and the
// default of splashsurf:
//
//   c(x) = sum_i V_i W(|x - x_i|, R),   phi(x) = c0 - c(x),
//
// with V_i the particle's rest volume (spacing^3), W the poly6 kernel of support R (core/sph_kernels.h) and
// the iso level c0 = 0.5: the field is 1 in the bulk and falls to 0 across the surface, so its half level
// sits near where the particles' volume ends (half a spacing beyond the outer particles), pulled in where
// the surface is curved. Negative inside; a node no particle reaches reads c0.
//
// References: M. Müller, D. Charypar, M. Gross, "Particle-based fluid simulation for interactive
// applications", SCA 2003 (the kernel and the colour field); F. Löschner et al., splashsurf
// (https://github.com/InteractiveComputerGraphics/splashsurf), whose default reconstruction this is.
#pragma once

#include <eddy/surface.h>

#include "backend/primitives.h"
#include "surface/surface_grid.h"

namespace eddy::EDDY_NS {

class SphDensityField {
 public:
  void build(const Vec3* positions, Index n, const SurfaceSettings& settings, SurfaceGrid& grid,
             Primitives& prims);
};

}  // namespace eddy::EDDY_NS
