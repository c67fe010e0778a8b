#include "sim/fluid_simulation.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "sim/between_frames.h"
#include "sim/particle_copies.h"
#include "sim/time_step.h"

namespace eddy::EDDY_NS {

FluidSimulation::FluidSimulation(std::shared_ptr<const SceneDesc> scene, const SimulationDesc& physics)
    : wholeScene_(std::move(scene)), scene_(physics), nozzles_(scene_), surfaces_(scene_) {
  solver_ = makeSolver(scene_);
  InitialParticles initial;
  assembleScene(scene_, prims_, model_, initial);

  particles_.addAttribute(attr::kPosition, 3);
  particles_.addAttribute(attr::kVelocity, 3);
  particles_.addAttribute(attr::kDensity, 1);
  // ids count from 0 in emission order: the volume emitters below, then the nozzles (append assigns them)
  particles_.addAttribute(attr::kId, 1, true, AttributeType::UInt32);
  // room for what the nozzles will add, so the step loop does not allocate
  particles_.reserve(Index(initial.budget));
  StepContext ctx = context();
  solver_->setup(ctx);
  // one emitter at a time, so the solver knows which emitter (material) each particle came from
  for (std::size_t i = 0; i < initial.volumes.size(); ++i) {
    Index first = particles_.size();
    particles_.append(initial.volumes[i].position, initial.volumes[i].velocity);
    if (particles_.size() == first) continue;
    const Index count = particles_.size() - first;
    solver_->initializeParticles(ctx, first, count, int(i));
    const std::vector<Real>& pressure = initial.volumes[i].pressure;
    if (pressure.empty()) continue;
    Buffer<Real> start(kDevice, pressure.size());
    start.upload(pressure.data(), pressure.size());
    solver_->startPressure(ctx, first, count, start.data());
  }
  statistics_.reserve(particles_.capacity());
  grid_.setNarrowLists(kNarrowLists && solver_->narrowNeighborLists() &&
                       Index(initial.budget) >= NeighborGrid::kNarrowListsFrom);
  if (solver_->usesNeighborGrid())
    grid_.setup(model_.kernels.h, Index(initial.budget), solver_->neighborCap(), model_.blowUpLo,
                model_.blowUpHi);
  grid_.setBarriers({model_.barriers.data(), model_.barriers.size()});
  measurements_ = std::make_unique<Measurements>(scene_, ctx, *solver_);
  // the bodies' force sums run over the particles or, for a grid solver, over its nodes
  bodies_.setup(scene_, model_.hostColliders, model_.shapeMasses,
                std::max(particles_.capacity(), solver_->nodePushes(ctx).count()));
  // a body's collider moves as the body does from the start (a hinge's turn, what its locks leave free)
  bodies_.place(model_.colliders.data(), Real(time_));
  bool anyBall =
      std::any_of(model_.hostColliders.begin(), model_.hostColliders.end(),
                  [](const ColliderData& c) { return obstacleBound(c) >= 0 && c.keyframeCount == 0; });
  if (anyBall) balls_ = Buffer<ColliderBall>(kDevice, model_.colliders.size());
}

// each collider's ball over [t0, t1] (colliders/collider_reach.h)
void placeColliderBalls(const ColliderData* cs, ColliderBall* balls, Index n, Real t0, Real t1) {
  parallelFor(
      n, EDDY_KERNEL(Index c) { balls[c] = makeColliderBall(cs[c], t0, t1); });
}

StepContext FluidSimulation::context() {
  return StepContext{scene_,
                     particles_,
                     grid_,
                     prims_,
                     timers_,
                     model_.colliderView(),
                     model_.kernels,
                     model_.wall,
                     model_.particleMass,
                     solver_->contactSpacings() * scene_.fluid.spacing,
                     Real(time_)};
}

void FluidSimulation::settleQueries() {
  // where particleArrays handed the memory out, positions may have been written there since the last
  // settling (tools move particles between frames): the densities are measured again every time
  if ((queriesSettled_ && !arraysHandedOut_) || particles_.size() == 0) return;
  StepContext ctx = context();
  solver_->updateDensity(ctx);
  queriesSettled_ = true;
  keepArraysInPlace();
}

void FluidSimulation::advanceSubstep(Real dt) {
  substep(dt);
  keepArraysInPlace();
}

void FluidSimulation::substep(Real dt) {
  timers_.beginSubstep();
  StepContext ctx = context();
  {
    timers_.mark(Phase::Integration);
    nozzles_.emit(ctx, *solver_, dt);
  }
  if (balls_.size() > 0) {  // the colliders' balls over [time_, time_ + dt], as they move now
    placeColliderBalls(model_.colliders.data(), balls_.data(), Index(balls_.size()), Real(time_),
                       Real(time_ + dt));
    ctx.colliderBalls = balls_.data();
  }
  solver_->step(ctx, dt);
  gridOrder_ = solver_->usesNeighborGrid();
  // the check rides on work the step did anyway (the neighbour list pass, the solver's CFL maxima)
  if ((solver_->usesNeighborGrid() && grid_.invalidPositions()) || solver_->invalidState())
    stopOnBlowUp(BlowUpKind::InvalidState, 0, 0);
  // the fluid's push over this substep moves the bodies for the next
  bodies_.advance(*measurements_, ctx, *solver_, model_.colliders.data(), Real(time_ + dt), dt);
  timers_.endSubstep();
  queriesSettled_ = false;
  time_ += dt;
  lastDt_ = dt;
  ++substeps_;
  StepContext after = context();
  measurements_->sampleProbes(after, *solver_, time_);
}

Real FluidSimulation::stableSubstep() {
  StepContext ctx = context();
  double longest = 1.0 / (double(scene_.time.fps) * scene_.time.substeps);
  return solver_->stableTimeStep(ctx, prescribedSpeed(scene_, model_, nozzles_, time_, time_ + longest));
}

void FluidSimulation::advanceFrame() {
  heldInAtFrameStart_ = solver_->heldInCount();
  substepsAtFrameStart_ = substeps_;
  SubstepSchedule schedule(scene_.time, double(frame_ + 1) / scene_.time.fps);
  launchStabilityLimit(SubstepSchedule::kFrameStartSlot);
  while (schedule.running(time_)) {
    const SubstepSchedule::Substep next = scheduleSubstep(schedule);
    substep(next.dt);
    if (next.readAheadSlot >= 0) launchStabilityLimit(next.readAheadSlot);
  }
  time_ = schedule.frameEnd();
  ++frame_;
  keepArraysInPlace();
  timers_.flush();
}

void FluidSimulation::launchStabilityLimit(int slot) {
  StepContext ctx = context();
  solver_->launchStableTimeStep(ctx, slot);
}

SubstepSchedule::Substep FluidSimulation::scheduleSubstep(SubstepSchedule& schedule) {
  StepContext ctx = context();
  // the speeds the host knows already count for this substep: those the scene prescribes from now to the
  // longest substep on (a keyframed collider starting, a nozzle switching on), which the maxima read back
  // from the state before cannot hold yet
  Real known = prescribedSpeed(scene_, model_, nozzles_, time_, schedule.lookAheadEnd(time_));
  Real stable = solver_->stableTimeStepOf(ctx, schedule.limitSlot(), known);
  if (solver_->invalidState() || std::isnan(stable)) stopOnBlowUp(BlowUpKind::InvalidState, 0, 0);
  Real bound = scene_.time.adaptive ? motionTimeStep(scene_, particles_, prims_, statistics_.scratch(), known)
                                    : std::numeric_limits<Real>::infinity();
  SubstepSchedule::Substep next = schedule.next(time_, stable, bound);
  // rather than a substep past the solver's stability limit, the run stops, naming the substep it needs
  if (next.tooLong) stopOnBlowUp(BlowUpKind::SubstepTooShort, stable, next.allowedDt);
  return next;
}

void FluidSimulation::stopOnBlowUp(BlowUpKind kind, double neededDt, double allowedDt) {
  BlowUpFacts f{kind,     solver_->name(), frame_ + 1, substeps_ + 1, model_.blowUpLo, model_.blowUpHi,
                neededDt, allowedDt};
  Index index = 0;
  if (kind == BlowUpKind::InvalidState && solver_->usesNeighborGrid() &&
      grid_.invalidParticle(index, f.position)) {
    f.known = true;
    f.index = std::size_t(index);
  }
  // arrays handed out show the state that blew up, for a look at it
  keepArraysInPlace();
  // the particles as they are: no density pass over a state that has blown up
  HostParticles p;
  StepContext ctx = context();
  copyToHost(particles_, measurements_->pressures(ctx, *solver_), p);
  throw SimulationBlowUp(blowUpMessage(f, scene_, p));
}

FrameStats FluidSimulation::stats() {
  FrameStats s;
  s.frame = frame_;
  s.time = time_;
  s.substeps = substeps_;
  s.frameSubsteps = substeps_ - substepsAtFrameStart_;
  s.particles = particles_.size();
  s.heldIn = solver_->heldInCount() - heldInAtFrameStart_;
  if (s.particles == 0) return s;
  settleQueries();  // densities fresh at the current positions (SPH solvers sort the particles for that)
  StepContext ctx = context();
  statistics_.measure(ctx, *solver_, lastDt_, s);
  return s;
}

std::vector<std::string> FluidSimulation::warnings() const {
  std::vector<std::string> w;
  int cap = solver_->neighborCap();
  if (cap > 0 && solver_->usesNeighborGrid() && grid_.mostNeighborsSeen() > cap)
    w.push_back("the neighbour cap pbf.max_neighbors = " + std::to_string(cap) +
                " was reached: particles had up to " + std::to_string(grid_.mostNeighborsSeen()) +
                " neighbours, and their lists kept the " + std::to_string(cap) + " nearest");
  if (std::string motion = statistics_.motionWarning(); !motion.empty()) w.push_back(motion);
  return w;
}

std::vector<ParticleArray> FluidSimulation::particleArrays() {
  arraysHandedOut_ = true;
  particles_.settle();
  particles_.keepReplacedStorage();
  return persistentArrays(particles_);
}

void FluidSimulation::copyParticles(HostParticles& out) {
  settleQueries();
  StepContext ctx = context();
  copyToHost(particles_, measurements_->pressures(ctx, *solver_), out);
}

void FluidSimulation::copyValues(const std::string& quantity, float* out) {
  if (quantity == "density") settleQueries();
  eddy::EDDY_NS::copyValues(particles_, quantity, out);
}

std::vector<double> FluidSimulation::colliderForces() {
  if (!measurements_->hasPressure()) return {};
  settleQueries();
  StepContext ctx = context();
  return measurements_->colliderForces(ctx, *solver_);
}

void FluidSimulation::buildEllipsoidsOnDevice(EllipsoidView& out) {
  NeighborView lists = grid_.neighbors();
  out = surfaces_.buildEllipsoids(particles_, prims_, gridOrder_ ? &lists : nullptr, model_.kernels.h);
}

void FluidSimulation::overwriteParticle(std::int64_t i, Vec3 x, Vec3 v) {
  if (i < 0 || i >= particles_.size())
    throw InputError("overwriteParticle: no particle " + std::to_string(i));
  copyBytes(kDevice, particles_.vec3(attr::kPosition).data + i, Device::Host, &x, sizeof(Vec3));
  copyBytes(kDevice, particles_.vec3(attr::kVelocity).data + i, Device::Host, &v, sizeof(Vec3));
  gridOrder_ = false;
  queriesSettled_ = false;
}

void FluidSimulation::moveCollider(std::size_t i, Vec3 center, Vec3 velocity) {
  setColliderMotion(model_, bodies_, i, center, velocity, Real(time_));
  queriesSettled_ = false;  // the walls' share of the density moves with the collider
}

void FluidSimulation::addParticles(const std::vector<Vec3>& position, const std::vector<Vec3>& velocity,
                                   std::size_t emitter) {
  checkAddedParticles(scene_, position, velocity, emitter,
                      particles_.size());  // a refused call changes nothing
  if (position.empty()) return;
  Index first = particles_.size();
  // room for these and for what the nozzles may still release: they never grow the storage in a substep
  particles_.reserve(Index(first + std::int64_t(position.size()) + nozzles_.remaining()));
  particles_.append(position, velocity);
  StepContext ctx = context();
  solver_->initializeParticles(ctx, first, particles_.size() - first, int(emitter));
  reserveObservers();
  gridOrder_ = false;
  queriesSettled_ = false;
  keepArraysInPlace();
}

SimulationState FluidSimulation::saveState() {
  SimulationState s;
  s.frame = frame_;
  s.time = time_;
  s.substeps = substeps_;
  saveParticles(particles_, s);
  StepContext ctx = context();
  s.solver = solver_->saveState(ctx);
  s.nozzles = nozzles_.states();
  s.bodies = bodies_.save();
  return s;
}

void FluidSimulation::restoreState(const SimulationState& s) {
  // every check first, so that a state that does not fit leaves this simulation as it was
  std::vector<const AttributeState*> saved = checkSavedParticles(particles_, s);
  nozzles_.checkStates(s.nozzles);
  bodies_.check(s.bodies);
  StepContext ctx = context();
  solver_->restoreState(ctx, s.solver);  // checks its bytes before it changes anything

  // room for the state's particles and what its nozzles may still release
  restoreParticles(particles_, s, saved, s.particles + nozzles_.remaining(s.nozzles));
  gridOrder_ = false;
  queriesSettled_ = false;
  nozzles_.restore(s.nozzles);
  reserveObservers();
  bodies_.restore(s.bodies, model_.colliders.data(), Real(s.time));
  frame_ = s.frame;
  time_ = s.time;
  substeps_ = s.substeps;
  substepsAtFrameStart_ = s.substeps;
  heldInAtFrameStart_ = solver_->heldInCount();
  measurements_->startAt(time_);
  keepArraysInPlace();
}

std::size_t FluidSimulation::deviceMemoryBytes() const {
  return particles_.bytes() + grid_.bytes() + prims_.scratchBytes() + model_.bytes() + statistics_.bytes() +
         solver_->deviceBytes() + surfaces_.bytes() + measurements_->bytes() + bodies_.bytes();
}

std::unique_ptr<Simulation> makeSimulation(std::shared_ptr<const SceneDesc> scene,
                                           const SimulationDesc& physics) {
  return std::make_unique<FluidSimulation>(std::move(scene), physics);
}

}  // namespace eddy::EDDY_NS
