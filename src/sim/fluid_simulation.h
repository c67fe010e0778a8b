// The simulation of one backend, the facade over its parts: the scene's constant model (scene_model.h),
// the particles, the neighbour grid and a solver (the mutable state), the nozzles (nozzle_emission.h), and
// the observers that read the state between substeps or frames (measurements.h, surface_builder.h,
// frame_statistics.h). A frame is a fixed interval split into substeps (fixed count, or shorter where the
// solver's stability limit, the prescribed speeds or time.adaptive ask for it: substep_schedule.h,
// time_step.h), in the manner of Jet's PhysicsAnimation (Kim, "Fluid Engine Development").
#pragma once

#include <eddy/simulation.h>

#include <memory>
#include <vector>

#include "sim/between_frames.h"
#include "sim/blow_up_report.h"
#include "sim/frame_statistics.h"
#include "sim/measurements.h"
#include "sim/nozzle_emission.h"
#include "sim/particle_copies.h"
#include "sim/rigid_bodies.h"
#include "sim/scene_model.h"
#include "sim/substep_schedule.h"
#include "sim/surface_builder.h"
#include "solvers/solver.h"

namespace eddy::EDDY_NS {

class FluidSimulation final : public Simulation {
 public:
  FluidSimulation(std::shared_ptr<const SceneDesc> scene, const SimulationDesc& physics);

  void advanceFrame() override;
  void advanceSubstep(Real dt) override;
  Real stableSubstep() override;
  FrameStats stats() override;
  void copyParticles(HostParticles& out) override;
  void copyPositions(Vec3* out) override { copyPositionsTo(particles_, out); }
  SimulationState saveState() override;
  void restoreState(const SimulationState& state) override;
  std::vector<ParticleArray> particleArrays() override;

  const SceneDesc& scene() const override { return *wholeScene_; }
  Backend backend() const override { return kBackend; }
  Profile& profile() override {
    timers_.flush();
    return timers_.profile();
  }
  void setPhaseTiming(bool on) override { timers_.setPhaseTiming(on); }
  int frame() const override { return frame_; }
  double time() const override { return time_; }
  std::int64_t substeps() const override { return substeps_; }
  std::int64_t particleCount() const override { return particles_.size(); }
  std::size_t deviceMemoryBytes() const override;
  void overwriteParticle(std::int64_t i, Vec3 x, Vec3 v) override;
  void moveCollider(std::size_t collider, Vec3 center, Vec3 velocity) override;
  ColliderPose colliderPose(std::size_t collider) const override {
    return colliderPoseAt(model_, bodies_, collider, Real(time_));
  }
  FluidLoad fluidLoad(std::size_t collider) const override { return fluidLoadOn(model_, bodies_, collider); }
  void addParticles(const std::vector<Vec3>& position, const std::vector<Vec3>& velocity,
                    std::size_t emitter = 0) override;
  std::int64_t particleCapacity() const override { return particles_.capacity() - nozzles_.remaining(); }
  void setNozzleActive(std::size_t nozzle, bool active) override { nozzles_.setActive(nozzle, active); }
  void buildSurface(TriangleMesh& out, SurfaceStats* stats = nullptr,
                    const SurfaceSettings* settings = nullptr, const std::string& group = {}) override {
    surfaces_.build(particles_, prims_, out, stats, settings, group);
  }
  void buildSurfaceOnDevice(SurfaceMeshView& out, SurfaceStats* stats = nullptr,
                            const SurfaceSettings* settings = nullptr,
                            const std::string& group = {}) override {
    out = surfaces_.buildOnDevice(particles_, prims_, stats, settings, group);
  }
  void buildEllipsoidsOnDevice(EllipsoidView& out) override;
  void copyValues(const std::string& quantity, float* out) override;
  std::vector<std::string> surfaceGroups() const override { return surfaces_.groups(); }
  std::vector<std::string> warnings() const override;
  std::vector<std::string> probeColumns() const override { return measurements_->probeColumns(); }
  void takeProbeRows(std::vector<std::vector<double>>& rows) override { measurements_->takeProbeRows(rows); }
  std::vector<std::string> forceColumns() const override { return measurements_->forceColumns(); }
  std::vector<double> colliderForces() override;

 private:
  // throws SimulationBlowUp with the message of sim/blow_up_report.h
  [[noreturn]] void stopOnBlowUp(BlowUpKind kind, double neededDt, double allowedDt);
  StepContext context();
  // Between substeps every query (statistics, particles, wall forces) reads one state: the density at the
  // current positions, made once after a substep (the SPH solvers sort the particles for it, which moves
  // what a query made before it would have read), then left alone until the next substep.
  void settleQueries();
  // the stages of advanceFrame besides substep: the CFL maxima of the current state read back into a slot
  // (asynchronously), and the next substep of the schedule under every limit on it
  void launchStabilityLimit(int slot);
  SubstepSchedule::Substep scheduleSubstep(SubstepSchedule& schedule);
  // one substep of advanceFrame or advanceSubstep
  void substep(Real dt);
  // room in the measurements and the bodies' force sums for the particles' capacity
  void reserveObservers() {
    measurements_->reserve(particles_.capacity());
    bodies_.reserve(particles_.capacity());
  }
  // once particleArrays has handed out addresses: the attributes back at them (ParticleSet::settle)
  void keepArraysInPlace() {
    if (arraysHandedOut_) particles_.settle();
  }

  std::shared_ptr<const SceneDesc> wholeScene_;  // scene() (host code reads its output and render sections)
  SimulationDesc scene_;                         // what the engine reads
  Primitives prims_;
  SceneModel model_;
  ParticleSet particles_;
  NeighborGrid grid_;
  PhaseTimers timers_;
  std::unique_ptr<Solver> solver_;
  NozzleEmission nozzles_;
  FrameStatistics statistics_;
  std::unique_ptr<Measurements> measurements_;  // made once the solver has its attributes
  SurfaceBuilder surfaces_;
  RigidBodies bodies_;
  // where each collider can be over the current substep (colliders/collider_reach.h); empty where no
  // collider has a bounding ball (the culling would skip nothing)
  Buffer<ColliderBall> balls_;
  // the particles are in the order of grid_'s neighbour lists (after a substep of a solver with lists,
  // until a state is restored or a particle overwritten)
  bool gridOrder_ = false;
  bool queriesSettled_ = false;   // settleQueries has run since the last substep
  bool arraysHandedOut_ = false;  // particleArrays has been called
  int frame_ = 0;
  double time_ = 0;
  Real lastDt_ = 0;  // the last substep's length
  std::int64_t substeps_ = 0;
  std::int64_t heldInAtFrameStart_ = 0;
  std::int64_t substepsAtFrameStart_ = 0;
};

std::unique_ptr<Simulation> makeSimulation(std::shared_ptr<const SceneDesc> scene,
                                           const SimulationDesc& physics);

}  // namespace eddy::EDDY_NS
