#include "sim/measurements.h"

#include <eddy/error.h>

#include <algorithm>

namespace eddy::EDDY_NS {

Measurements::Measurements(const SimulationDesc& scene, StepContext& ctx, Solver& solver) : scene_(scene) {
  pressure_ = Buffer<Real>(kDevice, std::size_t(std::max<Index>(ctx.particles.capacity(), 1)));
  hasPressure_ = solver.pressures(ctx, pressure_.data());
  if (scene.probes.empty()) return;
  if (!solver.usesNeighborGrid())
    throw InputError(scene.sourcePath +
                     ": /probes: probes read the particles through the SPH neighbour grid; "
                     "solver '" +
                     scene.solver + "' has none (use pbf, wcsph or dfsph)");
  probes_ = std::make_unique<ProbeSampler>(scene, hasPressure_, scene.time.maxSubsteps + 1);
}

void Measurements::reserve(Index capacity) {
  if (hasPressure_ && pressure_.size() < std::size_t(capacity))
    pressure_ = Buffer<Real>(kDevice, std::size_t(capacity));
}

const Real* Measurements::pressures(StepContext& ctx, Solver& solver) {
  if (!hasPressure_) return nullptr;
  solver.pressures(ctx, pressure_.data());
  return pressure_.data();
}

// density and pressure as the substep's density pass found them
void Measurements::sampleProbes(StepContext& ctx, Solver& solver, double time) {
  if (!probes_ || !probes_->due(time) || ctx.particles.size() == 0) return;
  ProbeInputs in;
  in.grid = ctx.grid.grid();
  in.position = ctx.particles.vec3(attr::kPosition).data;
  in.velocity = ctx.particles.vec3(attr::kVelocity).data;
  in.density = ctx.particles.real(attr::kDensity).data;
  in.pressure = pressures(ctx, solver);
  in.kernels = ctx.kernels;
  in.mass = ctx.particleMass;
  in.colliders = ctx.colliders;
  in.wall = ctx.wall;
  in.time = Real(time);
  probes_->sample(time, in);
}

std::vector<std::string> Measurements::probeColumns() const {
  return probes_ ? probes_->columns() : std::vector<std::string>{};
}

void Measurements::takeProbeRows(std::vector<std::vector<double>>& rows) {
  rows.clear();
  if (probes_) probes_->takeRows(rows);
}

void Measurements::startAt(double time) {
  if (probes_) probes_->startAt(time);
}

std::vector<std::string> Measurements::forceColumns() const {
  std::vector<std::string> c;
  if (!hasPressure_) return c;
  for (std::size_t i = 0; i <= scene_.colliders.size(); ++i) {
    std::string name = i == scene_.colliders.size()       ? "domain"
                       : scene_.colliders[i].name.empty() ? "collider" + std::to_string(i)
                                                          : scene_.colliders[i].name;
    for (const char* q : {".fx", ".fy", ".fz", ".tx", ".ty", ".tz"}) c.push_back(name + q);
  }
  return c;
}

std::vector<double> Measurements::colliderForces(StepContext& ctx, Solver& solver) {
  std::vector<double> out;
  if (!hasPressure_) return out;
  wallForces_.compute(wallForceInputs(ctx, solver, ctx.time), ctx.prims, out);
  return out;
}

WallForceInputs Measurements::wallForceInputs(StepContext& ctx, Solver& solver, Real t,
                                              std::uint32_t colliders) {
  WallForceInputs in;
  in.position = ctx.particles.vec3(attr::kPosition).data;
  in.pressure = pressures(ctx, solver);
  in.density = ctx.particles.real(attr::kDensity).data;
  in.count = ctx.particles.size();
  in.colliders = ctx.colliders;
  in.wall = ctx.wall;
  in.mass = ctx.particleMass;
  in.restDensity = scene_.fluid.restDensity;
  in.time = t;
  in.gradientScale = solver.gradientScale();
  in.gravity = scene_.forces.gravity;
  in.terms = solver.wallTermsNear(ctx, colliders);
  in.balls = ctx.colliderBalls;
  return in;
}

std::size_t Measurements::bytes() const {
  return pressure_.bytes() + wallForces_.bytes() + (probes_ ? probes_->bytes() : 0);
}

}  // namespace eddy::EDDY_NS
