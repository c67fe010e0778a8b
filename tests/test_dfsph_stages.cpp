// DFSPH's substep stage by stage (the pieces FluidSimulation puts together, held open): the XSPH change the
// substep applies is that of the velocities the divergence solve left, as Bender & Koschier's non-pressure
// forces follow the divergence solve of the step before. CPU backend: the attributes are in host memory.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "emitters/volume_emitter.h"
#include "solvers/dfsph/divergence_free_sph.h"
#include "solvers/fluid_common.h"
#include "test_support.h"

namespace eddy {
namespace {

using cpu::Index;

// a block of water 10 x 6 x 10 spacings in the middle of a large box, gravity off, its two halves moving
// towards each other: the divergence solve has the compression where they meet to take out
const char* kBlocks = R"({
  "solver": "dfsph",
  "fluid": {"rest_density": 1000, "spacing": 0.02},
  "dfsph": {"xsph": 0.5},
  "domain": {"min": [-1, -1, -1], "max": [1, 1, 1]},
  "forces": {"gravity": [0, 0, 0]},
  "emitters": [{"type": "volume", "shape": {"type": "box", "center": [-0.05, 0, 0],
                "half_extents": [0.05, 0.06, 0.1]}, "velocity": [0.5, 0, 0]},
               {"type": "volume", "shape": {"type": "box", "center": [0.05, 0, 0],
                "half_extents": [0.05, 0.06, 0.1]}, "velocity": [-0.5, 0, 0]}]
})";

struct DfsphStages {
  SceneDesc scene;
  cpu::ParticleSet particles;
  cpu::NeighborGrid grid;
  cpu::Primitives prims;
  cpu::PhaseTimers timers;
  Buffer<ColliderData> colliders;
  std::vector<Real> overlaps;
  SphKernels kernels;
  WallKernel wall;
  Real mass = 0;
  cpu::DivergenceFreeSph solver;

  explicit DfsphStages(const SceneDesc& s) : scene(s), solver(s) {
    kernels = SphKernels::make(scene.fluid.supportRatio * scene.fluid.spacing);
    // the lattice mass, as FluidSimulation gives it: a particle inside the lattice sums to the rest density
    double sum = 0;
    for (int z = -2; z <= 2; ++z)
      for (int y = -2; y <= 2; ++y)
        for (int x = -2; x <= 2; ++x) {
          Vec3 d = Vec3{Real(x), Real(y), Real(z)} * scene.fluid.spacing;
          sum += kernels.poly6(dot(d, d));
        }
    mass = Real(scene.fluid.restDensity / sum);
    wall = WallKernel::make(kernels, scene.fluid.spacing, mass, scene.fluid.restDensity);
    overlaps = WallKernel::makeOverlapTables(kernels, scene.fluid.spacing, mass, scene.fluid.restDensity);
    wall.overlaps = overlaps.data();
    std::vector<ColliderData> cs = {makeDomainContainer(scene.domain)};
    colliders = Buffer<ColliderData>(Device::Host, cs.size());
    colliders.upload(cs.data(), cs.size());
    particles.addAttribute(cpu::attr::kPosition, 3);
    particles.addAttribute(cpu::attr::kVelocity, 3);
    particles.addAttribute(cpu::attr::kDensity, 1);
    std::vector<EmittedParticles> emitted;
    Index total = 0;
    for (const EmitterDesc& e : scene.emitters) {
      emitted.push_back(sampleVolume(e, scene.colliders, scene.fluid.spacing));
      total += Index(emitted.back().position.size());
    }
    particles.reserve(total);
    cpu::StepContext ctx = context();
    solver.setup(ctx);
    for (const EmittedParticles& e : emitted) particles.append(e.position, e.velocity);
    grid.setup(kernels.h, total, 0, scene.domain.min, scene.domain.max);
  }

  cpu::StepContext context() {
    return cpu::StepContext{scene,   particles,
                            grid,    prims,
                            timers,  {colliders.data(), colliders.size()},
                            kernels, wall,
                            mass,    solver.contactSpacings() * scene.fluid.spacing,
                            0};
  }
  std::vector<Vec3> velocities() {
    const Vec3* v = particles.vec3(cpu::attr::kVelocity).data;
    return std::vector<Vec3>(v, v + particles.size());
  }
};

// After the divergence solve, the XSPH stage and the non-pressure forces (here XSPH alone: no gravity, no
// wall within reach) change each velocity by c m / rho0 sum_j (v_j - v_i) W_ij of the velocities the
// divergence solve left. (Taken before the solve, as it was, the change put back part of the compression
// the solve had removed where the two halves meet.)
TEST(DfsphStages, XsphSmoothsTheVelocitiesTheDivergenceSolveLeft) {
  DfsphStages s(parseScene(kBlocks, "blocks.json", {}));
  cpu::StepContext ctx = s.context();
  const Real dt = Real(1.0 / 1000);
  cpu::findNeighbors(
      ctx, cpu::attr::kPosition, 0, [] {}, [&] { s.solver.densityAndFactor(ctx); });
  std::vector<Vec3> before = s.velocities();
  s.solver.solve<true>(ctx, dt);
  std::vector<Vec3> solved = s.velocities();
  s.solver.viscosity(ctx);
  s.solver.nonPressureForces(ctx, dt);
  std::vector<Vec3> after = s.velocities();

  // the XSPH change of a velocity field, over the neighbour lists
  const Vec3* x = s.particles.vec3(cpu::attr::kPosition).data;
  cpu::NeighborView nb = s.grid.neighbors();
  Real c = s.scene.dfsph.xsph * s.mass / s.scene.fluid.restDensity;
  auto xsph = [&](const std::vector<Vec3>& v, Index i) {
    Vec3 blend{};
    nb.forEach(i, [&](Index j) { blend += (v[j] - v[i]) * s.kernels.poly6(lengthSquared(x[i] - x[j])); });
    return blend * c;
  };
  double largestSolveChange = 0, largestMiss = 0, largestOldMiss = 0;
  for (Index i = 0; i < s.particles.size(); ++i) {
    largestSolveChange = std::max(largestSolveChange, double(length(solved[i] - before[i])));
    Vec3 change = after[i] - solved[i];
    largestMiss = std::max(largestMiss, double(length(change - xsph(solved, i))));
    largestOldMiss = std::max(largestOldMiss, double(length(change - xsph(before, i))));
  }
  std::printf(
      "  the divergence solve changed velocities by up to %.4f m/s; the XSPH change differs from that of "
      "the solved velocities by %.2e m/s, from that of the velocities before the solve by %.2e m/s\n",
      largestSolveChange, largestMiss, largestOldMiss);
  ASSERT_GT(largestSolveChange, 0.01) << "the divergence solve must have had compression to take out";
  EXPECT_LT(largestMiss, 1e-5);
  EXPECT_GT(largestOldMiss, 100 * largestMiss);
}

}  // namespace
}  // namespace eddy
