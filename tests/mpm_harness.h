// A test harness for the MLS-MPM solver: the pieces FluidSimulation puts together, held open so that a test
// can run the substep's stages one by one and read the solver's particle attributes (F, J, Jp, C), which the
// public Simulation interface does not expose. CPU backend only: the attributes are in host memory.
#pragma once

#include <eddy/scene_io.h>
#include <eddy/simulation.h>

#include <vector>

#include "emitters/volume_emitter.h"
#include "solvers/mpm/moving_least_squares_mpm.h"

namespace eddy::test {

struct MpmHarness {
  using Index = cpu::Index;
  using StepContext = cpu::StepContext;

  SceneDesc scene;
  cpu::ParticleSet particles;
  cpu::NeighborGrid neighbors;  // unused by MPM; the context needs one
  cpu::Primitives prims;
  cpu::PhaseTimers timers;
  std::vector<ColliderKeyframe> keyframes;  // the keyframed colliders' poses, read by colliders
  Buffer<ColliderData> colliders;
  cpu::MovingLeastSquaresMpm solver;
  double time = 0;

  explicit MpmHarness(const SceneDesc& s) : scene(s), solver(s) {
    std::vector<std::size_t> firstFrame;
    for (const ColliderDesc& c : scene.colliders) {
      firstFrame.push_back(keyframes.size());
      std::vector<ColliderKeyframe> own = makeColliderKeyframes(c);
      keyframes.insert(keyframes.end(), own.begin(), own.end());
    }
    std::vector<ColliderData> cs;
    for (std::size_t i = 0; i < scene.colliders.size(); ++i)
      cs.push_back(makeColliderData(
          scene.colliders[i], scene.colliders[i].keyframes.empty() ? nullptr : &keyframes[firstFrame[i]]));
    cs.push_back(makeDomainContainer(scene.domain));
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
    StepContext ctx = context();
    solver.setup(ctx);
    for (std::size_t i = 0; i < emitted.size(); ++i) {
      Index first = particles.size();
      particles.append(emitted[i].position, emitted[i].velocity);
      solver.initializeParticles(ctx, first, particles.size() - first, int(i));
    }
  }

  StepContext context() {
    return StepContext{scene,
                       particles,
                       neighbors,
                       prims,
                       timers,
                       {colliders.data(), colliders.size()},
                       SphKernels::make(scene.fluid.spacing * 2),
                       WallKernel{},
                       0,
                       0,
                       Real(time)};
  }
  void step(Real dt) {
    timers.beginSubstep();
    StepContext ctx = context();
    solver.step(ctx, dt);
    timers.endSubstep();
    time += dt;
  }
  Real stableDt() {
    StepContext ctx = context();
    return solver.stableTimeStep(ctx);
  }
  Index size() const { return particles.size(); }
  Vec3* x() { return particles.vec3(cpu::attr::kPosition).data; }
  Vec3* v() { return particles.vec3(cpu::attr::kVelocity).data; }
  Mat3* affine() { return particles.array<Mat3>(cpu::attr_mpm::kAffine).data; }
  Mat3* deformation() { return particles.array<Mat3>(cpu::attr_mpm::kDeformation).data; }
  Real* j() { return particles.real(cpu::attr_mpm::kJ).data; }
  Real* plasticJ() { return particles.real(cpu::attr_mpm::kPlasticJ).data; }
  Real mass(Index i) {
    int m = int(particles.real(cpu::attr_mpm::kMaterial).data[i]);
    return solver.materials()[m].density * solver.particleVolume();
  }
};

}  // namespace eddy::test
