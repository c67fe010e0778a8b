#include "surface/sph_density_field.h"

#include "core/sph_kernels.h"

namespace eddy::EDDY_NS {

void SphDensityField::build(const Vec3* positions, Index n, const SurfaceSettings& s, SurfaceGrid& grid,
                            Primitives& prims) {
  Real R = s.kernelRadius, iso = s.isoLevel;
  grid.layout(positions, n, s.cell, R, iso, prims);
  SurfaceGridView g = grid.view();
  Real* values = grid.values();
  parallelFor(
      g.storedNodes(), EDDY_KERNEL(Index i) { values[i] = iso; });
  // every particle takes its share of the colour from the nodes within R
  SphKernels kernel = SphKernels::make(R);
  Real volume = s.particleVolume;
  parallelFor(
      n, EDDY_KERNEL(Index p) {
        Vec3 x = positions[p];
        g.forNodesNear(x, R, [&](std::size_t at, Vec3 node) {
          Vec3 d = x - node;
          Real w = kernel.poly6(dot(d, d));
          if (w > 0) atomicAddReal(values + at, -volume * w);
        });
      });
}

}  // namespace eddy::EDDY_NS
