#include "sim/fluid_simulation.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "colliders/mesh_shape.h"
#include "core/memory.h"
#include "emitters/volume_emitter.h"
#include "io/blow_up_report.h"
#include "solvers/mpm/moving_least_squares_mpm.h"

namespace eddy::EDDY_NS {

namespace {

// mass that gives a particle inside a full cubic lattice exactly the rest density
Real latticeMass(const FluidDesc& fluid, const SphKernels& k) {
  int reach = int(std::ceil(k.h / fluid.spacing));
  double sum = 0;
  for (int z = -reach; z <= reach; ++z)
    for (int y = -reach; y <= reach; ++y)
      for (int x = -reach; x <= reach; ++x) {
        Vec3 d = Vec3{Real(x), Real(y), Real(z)} * fluid.spacing;
        sum += k.poly6(dot(d, d));
      }
  return Real(fluid.restDensity / sum);
}

// bytes a particle may cost, with room for lists that widen: attributes in their two arenas (~110), sort
// arrays (~20), neighbour lists of 48 slots (~200) that grow by half where particles crowd; measured 350
// (PBF) and 334 (WCSPH) per particle at 1M on the GPU, 439 for PBF at 100M with 64-slot lists
constexpr std::size_t kBytesPerParticle = 768;

// spacings the fastest particle may move in one substep before the run warns
constexpr Real kMotionWarning = 3;

// particles are numbered by Index; capacities grow by half again (the neighbour lists), so 2^30 keeps
// every count below 2^31
constexpr std::int64_t kMostParticles = std::int64_t(1) << 30;

const char* memoryName() { return kDevice == Device::Cuda ? "GPU" : "host"; }

}  // namespace

FluidSimulation::FluidSimulation(const SceneDesc& scene) : scene_(scene), surfaceGroups_(scene) {
  kernels_ = SphKernels::make(scene.fluid.supportRatio * scene.fluid.spacing);
  particleMass_ = latticeMass(scene.fluid, kernels_);
  wall_ = WallKernel::make(kernels_, scene.fluid.spacing, particleMass_, scene.fluid.restDensity);
  std::vector<Real> overlaps =
      WallKernel::makeOverlapTables(kernels_, scene.fluid.spacing, particleMass_, scene.fluid.restDensity);
  wallOverlaps_.resize(kDevice, overlaps.size());
  wallOverlaps_.upload(overlaps.data(), overlaps.size());
  wall_.overlaps = wallOverlaps_.data();
  solver_ = makeSolver(scene_);

  // colliders: the scene's, then the domain as a container; a mesh gets its distance field, exact to
  // beyond the kernel support (the wall term reads it out to h); keyframed ones read their keyframes from
  // one buffer, all colliders' one after another
  std::vector<ColliderKeyframe> frames;
  std::vector<std::size_t> firstFrame;
  for (std::size_t i = 0; i < scene.colliders.size(); ++i) {
    firstFrame.push_back(frames.size());
    std::vector<ColliderKeyframe> own;
    try {
      own = makeColliderKeyframes(scene.colliders[i]);
    } catch (const InputError& e) {
      // a scene built in code, which the reader did not check: its messages start with "keyframes: "
      throw InputError(scene.sourcePath + ": /colliders/" + std::to_string(i) + "/" + e.what());
    }
    frames.insert(frames.end(), own.begin(), own.end());
  }
  keyframes_ = Buffer<ColliderKeyframe>(kDevice, frames.size());
  keyframes_.upload(frames.data(), frames.size());
  hostKeyframes_ = frames;
  firstKeyframe_ = firstFrame;
  std::vector<ColliderData> cs;
  std::vector<const MeshSdf*> colliderMesh(scene.colliders.size(), nullptr);
  for (std::size_t i = 0; i < scene.colliders.size(); ++i) {
    const ColliderDesc& c = scene.colliders[i];
    cs.push_back(makeColliderData(c, c.keyframes.empty() ? nullptr : keyframes_.data() + firstFrame[i]));
    if (c.shape.type != "mesh") continue;
    meshes_.push_back(std::make_unique<MeshSdf>());
    colliderMesh[i] = meshes_.back().get();
    // a keyframed mesh starts at its first keyframe's pose
    placeMeshShape(shapeAtStart(c), "/colliders/" + std::to_string(i) + "/shape", *meshes_.back(), cs.back());
  }
  cs.push_back(makeDomainContainer(scene.domain));
  colliders_ = Buffer<ColliderData>(kDevice, cs.size());
  colliders_.upload(cs.data(), cs.size());
  hostColliders_ = cs;
  // the obstacles thin enough for neighbours to see each other through them
  std::vector<ColliderData> thin;
  for (const ColliderData& c : cs)
    if (isBarrier(c, kernels_.h)) thin.push_back(c);
  barriers_ = Buffer<ColliderData>(kDevice, thin.size());
  barriers_.upload(thin.data(), thin.size());

  // one-shot volume emitters now; nozzles over time
  std::vector<EmittedParticles> volumes(scene.emitters.size());
  std::int64_t budget = 0;
  for (std::size_t i = 0; i < scene.emitters.size(); ++i) {
    const EmitterDesc& e = scene.emitters[i];
    if (e.type == "nozzle") {
      nozzles_.emplace_back(e, scene.fluid.spacing);
      nozzleEmitter_.push_back(int(i));
      nozzleActive_.push_back(1);
      budget += e.maxParticles;
      continue;
    }
    volumes[i] = fillVolume(e, int(i), cs, colliderMesh);
    budget += std::int64_t(volumes[i].position.size());
  }
  if (budget == 0)
    throw InputError(scene.sourcePath + ": /emitters: the emitters produce no particles at spacing " +
                     std::to_string(scene.fluid.spacing) +
                     " m; make the shapes larger or the spacing smaller");
  checkMemory(budget);

  particles_.addAttribute(attr::kPosition, 3);
  particles_.addAttribute(attr::kVelocity, 3);
  particles_.addAttribute(attr::kDensity, 1);
  // ids count from 0 in emission order: the volume emitters below, then the nozzles (append assigns them)
  particles_.addAttribute(attr::kId, 1, true, AttributeType::UInt32);
  // room for what the nozzles will add, so the step loop does not allocate
  particles_.reserve(Index(budget));
  StepContext ctx = context();
  solver_->setup(ctx);
  // one emitter at a time, so the solver knows which emitter (material) each particle came from
  for (std::size_t i = 0; i < volumes.size(); ++i) {
    Index first = particles_.size();
    particles_.append(volumes[i].position, volumes[i].velocity);
    if (particles_.size() > first)
      solver_->initializeParticles(ctx, first, particles_.size() - first, int(i));
  }
  statsScratch_ = Buffer<Real>(kDevice, std::size_t(particles_.capacity()));
  frameSums_.reserve(particles_.capacity());
  // a particle this far outside the domain has blown up: the domain's walls hold every sane one inside
  Vec3 extent = scene.domain.max - scene.domain.min;
  Real reach = Real(0.5) * std::max({extent.x, extent.y, extent.z}) + 4 * kernels_.h;
  blowUpLo_ = scene.domain.min - Vec3{reach, reach, reach};
  blowUpHi_ = scene.domain.max + Vec3{reach, reach, reach};
  grid_.setNarrowLists(kNarrowLists && solver_->narrowNeighborLists() &&
                       Index(budget) >= NeighborGrid::kNarrowListsFrom);
  if (solver_->usesNeighborGrid())
    grid_.setup(kernels_.h, Index(budget), solver_->neighborCap(), blowUpLo_, blowUpHi_);
  grid_.setBarriers({barriers_.data(), barriers_.size()});

  pressure_ = Buffer<Real>(kDevice, std::size_t(std::max<Index>(particles_.capacity(), 1)));
  hasPressure_ = solver_->pressures(ctx, pressure_.data());
  if (!scene.probes.empty()) {
    if (!solver_->usesNeighborGrid())
      throw InputError(scene.sourcePath +
                       ": /probes: probes read the particles through the SPH neighbour grid; "
                       "solver '" +
                       scene.solver + "' has none (use pbf, wcsph or dfsph)");
    probes_ = std::make_unique<ProbeSampler>(scene, hasPressure_, scene.time.maxSubsteps + 1);
  }
}

const Real* FluidSimulation::pressures() {
  if (!hasPressure_) return nullptr;
  StepContext ctx = context();
  solver_->pressures(ctx, pressure_.data());
  return pressure_.data();
}

// after a substep: the probes that are due read the particles where the substep left them (density and
// pressure as its density pass found them)
void FluidSimulation::sampleProbes() {
  if (!probes_ || !probes_->due(time_) || particles_.size() == 0) return;
  ProbeInputs in;
  in.grid = grid_.grid();
  in.position = particles_.vec3(attr::kPosition).data;
  in.velocity = particles_.vec3(attr::kVelocity).data;
  in.density = particles_.real(attr::kDensity).data;
  in.pressure = pressures();
  in.kernels = kernels_;
  in.mass = particleMass_;
  in.colliders = {colliders_.data(), colliders_.size()};
  in.wall = wall_;
  in.time = Real(time_);
  probes_->sample(time_, in);
}

std::vector<std::string> FluidSimulation::probeColumns() const {
  return probes_ ? probes_->columns() : std::vector<std::string>{};
}

void FluidSimulation::takeProbeRows(std::vector<std::vector<double>>& rows) {
  rows.clear();
  if (probes_) probes_->takeRows(rows);
}

std::vector<std::string> FluidSimulation::forceColumns() const {
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

void FluidSimulation::settleQueries() {
  if (queriesSettled_ || particles_.size() == 0) return;
  StepContext ctx = context();
  solver_->updateDensity(ctx);
  queriesSettled_ = true;
}

std::vector<double> FluidSimulation::colliderForces() {
  std::vector<double> out;
  if (!hasPressure_) return out;
  settleQueries();
  WallForceInputs in;
  in.position = particles_.vec3(attr::kPosition).data;
  in.pressure = pressures();
  in.density = particles_.real(attr::kDensity).data;
  in.count = particles_.size();
  in.colliders = {colliders_.data(), colliders_.size()};
  in.wall = wall_;
  in.mass = particleMass_;
  in.restDensity = scene_.fluid.restDensity;
  in.time = Real(time_);
  in.gradientScale = solver_->gradientScale();
  in.gravity = scene_.forces.gravity;
  StepContext ctx = context();
  in.terms = solver_->wallTerms(ctx);
  wallForces_.compute(in, prims_, out);
  return out;
}

void FluidSimulation::placeMeshShape(const ShapeDesc& shape, const std::string& where, MeshSdf& sdf,
                                     ColliderData& data, bool needsInside) {
  // a tank needs an inside as a filled mesh does: no open shell
  needsInside |= data.container;
  PlacedMesh placed = placeMesh(shape, data.orientation, scene_.sourcePath + ": " + where, needsInside);
  MeshSdfSettings settings;
  settings.resolution = shape.sdfResolution;
  settings.band = Real(1.5) * kernels_.h;
  settings.shellThickness = shape.thickness;
  auto prefixed = [&](const InputError& e) {
    return InputError(scene_.sourcePath + ": " + where + ": mesh '" + shape.file + "': " + e.what());
  };
  // the field's size from the mesh's box, checked against what can be indexed and the free memory before
  // the build allocates anything (checkMemory then checks the particles against what the fields leave)
  MeshFieldLayout layout;
  try {
    layout = meshFieldLayout(placed.mesh, settings);
  } catch (const InputError& e) {
    throw prefixed(e);
  }
  std::string refusal = meshFieldRefusal(layout, !(settings.shellThickness > 0),
                                         double(freeDeviceBytes(kDevice)), memoryName());
  if (!refusal.empty()) {
    std::string key = where + "/sdf_resolution";
    throw InputError(scene_.sourcePath + ": " + key + ": mesh '" + shape.file + "': " + refusal + "; lower " +
                     key);
  }
  try {
    sdf.build(placed.mesh, settings, prims_);
  } catch (const InputError& e) {
    throw prefixed(e);
  }
  data.center = placed.translation;
  data.field = sdf.view();
}

// a volume emitter's particles; a mesh (its own shape, or the collider it fills) is sampled through a host
// copy of its distance field
EmittedParticles FluidSimulation::fillVolume(const EmitterDesc& e, int index,
                                             const std::vector<ColliderData>& cs,
                                             const std::vector<const MeshSdf*>& colliderMesh) {
  const std::vector<ColliderDesc>& colliders = scene_.colliders;
  auto target = std::find_if(colliders.begin(), colliders.end(), [&](const ColliderDesc& c) {
    return !e.collider.empty() && c.name == e.collider;
  });
  const ShapeDesc& shape = target != colliders.end() ? target->shape : e.shape;
  if (shape.type != "mesh") return sampleVolume(e, colliders, scene_.fluid.spacing);
  MeshSdf own;
  ColliderData data;
  const MeshSdf* sdf = nullptr;
  if (target != colliders.end()) {
    std::size_t i = std::size_t(target - colliders.begin());
    data = cs[i];
    sdf = colliderMesh[i];
  } else {
    data = makeShapeData(shape);
    placeMeshShape(shape, "/emitters/" + std::to_string(index) + "/shape", own, data, true);
    sdf = &own;
  }
  std::vector<Real> values = sdf->download();
  data.field.values = values.data();
  return sampleVolume(e, colliders, scene_.fluid.spacing, &data);
}

std::size_t FluidSimulation::meshBytes() const {
  std::size_t bytes = 0;
  for (const auto& m : meshes_) bytes += m->bytes();
  return bytes;
}

// The mesh colliders' fields were built before (placeMeshShape checked each against the memory then free),
// so the free memory here is what they leave: the particles are checked against that, and the message
// counts the fields in, since lowering their resolution makes room too.
void FluidSimulation::checkMemory(std::int64_t particles) const {
  double need = double(particles) * kBytesPerParticle + double(std::size_t(64) << 20);
  double free = double(freeDeviceBytes(kDevice));
  auto mib = [](double bytes) { return std::to_string(std::int64_t(bytes / (1024.0 * 1024.0))); };
  if (need > free) {
    std::size_t fields = meshBytes();
    std::string held = fields == 0
                           ? std::string()
                           : ", beside the " + mib(double(fields)) + " MiB its mesh colliders' fields hold";
    throw InputError(scene_.sourcePath + ": the scene needs about " + mib(need) + " MiB of " + memoryName() +
                     " memory for " + std::to_string(particles) + " particles" + held + ", but only " +
                     mib(free) + " MiB are free; increase /fluid/spacing or reduce the emitters" +
                     (fields == 0 ? "" : ", or lower the meshes' sdf_resolution"));
  }
  if (particles > kMostParticles)
    throw InputError(scene_.sourcePath + ": the emitters make " + std::to_string(particles) +
                     " particles, more than the " + std::to_string(kMostParticles) +
                     " (2^30) the engine can index; increase /fluid/spacing or reduce the emitters");
}

StepContext FluidSimulation::context() {
  return StepContext{scene_,        particles_,
                     grid_,         prims_,
                     timers_,       {colliders_.data(), colliders_.size()},
                     kernels_,      wall_,
                     particleMass_, solver_->contactSpacings() * scene_.fluid.spacing,
                     Real(time_)};
}

// time.adaptive, in every solver: no particle moves more than time.cfl spacings in a substep, counting
// the speed gravity can add within the frame and the speeds the scene prescribes (prescribedSpeed)
Real FluidSimulation::motionTimeStep(Real known) {
  Index n = particles_.size();
  Real vmax = known;
  if (n > 0) {
    Real* s = statsScratch_.data();
    const Vec3* v = particles_.vec3(attr::kVelocity).data;
    Real gained = length(scene_.forces.gravity) / scene_.time.fps;
    parallelFor(
        n, EDDY_KERNEL(Index i) { s[i] = length(v[i]) + gained; });
    vmax = std::max(vmax, prims_.max(statsScratch_.view(n), n));
  }
  if (!(vmax > 0)) return std::numeric_limits<Real>::infinity();
  return scene_.time.cfl * scene_.fluid.spacing / vmax;
}

void FluidSimulation::stopOnBlowUp(BlowUpKind kind, double neededDt, double allowedDt) {
  BlowUpFacts f;
  f.kind = kind;
  f.solver = solver_->name();
  f.frame = frame_ + 1;
  f.substep = substeps_ + 1;
  f.lo = blowUpLo_;
  f.hi = blowUpHi_;
  f.neededDt = neededDt;
  f.allowedDt = allowedDt;
  Index index = 0;
  if (kind == BlowUpKind::InvalidState && solver_->usesNeighborGrid() &&
      grid_.invalidParticle(index, f.position)) {
    f.known = true;
    f.index = std::size_t(index);
  }
  HostParticles p;
  copyParticlesAsTheyAre(p);  // no density pass over a state that has blown up
  throw SimulationBlowUp(blowUpMessage(f, scene_, p));
}

std::vector<std::string> FluidSimulation::warnings() const {
  std::vector<std::string> w;
  int cap = solver_->neighborCap();
  if (cap > 0 && solver_->usesNeighborGrid() && grid_.mostNeighborsSeen() > cap)
    w.push_back("the neighbour cap pbf.max_neighbors = " + std::to_string(cap) +
                " was reached: particles had up to " + std::to_string(grid_.mostNeighborsSeen()) +
                " neighbours, and their lists kept the " + std::to_string(cap) + " nearest");
  // A substep that moves particles several spacings leaves the flow unresolved: the default dam break at
  // 1M particles with the scene's 1/240 s moved them 15 spacings, reached 19.8 m/s and nearly 8 times the
  // rest density (PBF, which has no CFL limit of its own). The default dam break peaks at 1.2.
  if (fastestMotion_ > kMotionWarning) {
    char text[320];
    std::snprintf(
        text, sizeof text,
        "the fastest particle moved %.1f spacings in one substep (%.2f m/s at frame %d), where about "
        "1 resolves the flow: particles pile up and the neighbour lists grow; raise time.substeps "
        "or set time.adaptive, whose time.cfl bounds the motion",
        double(fastestMotion_), double(fastestMotionSpeed_), fastestMotionFrame_);
    w.push_back(text);
  }
  return w;
}

SurfaceReconstructor& FluidSimulation::surfaceFor(const SurfaceSettings* settings) {
  if (settings && surface_ && !(surface_->settings() == *settings)) surface_.reset();
  if (!surface_)
    surface_ = std::make_unique<SurfaceReconstructor>(settings ? *settings : surfaceSettingsFor(scene_));
  return *surface_;
}

void FluidSimulation::buildSurface(TriangleMesh& out, SurfaceStats* stats, const SurfaceSettings* settings,
                                   const std::string& group) {
  SurfaceReconstructor& surface = surfaceFor(settings);
  Index n = 0;
  const Vec3* positions = surfaceGroups_.positions(particles_, group, prims_, n);
  if (n == 0) {
    out = TriangleMesh{};  // no liquid yet (a nozzle that has not started), or none of this material
    return;
  }
  surface.reconstruct(positions, n, out, stats);
}

void FluidSimulation::buildSurfaceOnDevice(SurfaceMeshView& out, SurfaceStats* stats,
                                           const SurfaceSettings* settings, const std::string& group) {
  SurfaceReconstructor& surface = surfaceFor(settings);
  Index n = 0;
  const Vec3* positions = surfaceGroups_.positions(particles_, group, prims_, n);
  out = n == 0 ? SurfaceMeshView{} : surface.reconstructOnDevice(positions, n, stats);
}

void FluidSimulation::buildEllipsoidsOnDevice(EllipsoidView& out) {
  const SurfaceSettings settings = surfaceSettingsFor(scene_);
  const Real radius = Real(0.5) * scene_.fluid.spacing;
  // where the SPH support is the ellipsoids' neighbourhood (the default), the last substep's neighbour
  // lists are theirs, in the particles' order: no copy, no sort
  if (gridOrder_ && surfaceGroups_.names().empty() &&
      std::fabs(kernels_.h - settings.kernelRadius) <= Real(1e-4) * settings.kernelRadius) {
    out = ellipsoids_.build(particles_.vec3(attr::kPosition).data, particles_.size(), grid_.neighbors(),
                            settings, radius);
    return;
  }
  Index n = 0;
  const Vec3* positions = surfaceGroups_.positions(particles_, {}, prims_, n);
  out = ellipsoids_.build(positions, n, settings, radius, prims_);
}

void FluidSimulation::copyValues(const std::string& quantity, float* out) {
  static_assert(sizeof(Real) == sizeof(float), "values go out as floats");
  const Index n = particles_.size();
  if (quantity == "speed") {
    const Vec3* v = particles_.vec3(attr::kVelocity).data;
    parallelFor(
        n, EDDY_KERNEL(Index i) { out[i] = length(v[i]); });
  } else if (quantity == "density") {
    settleQueries();
    copyBytes(kDevice, out, kDevice, particles_.real(attr::kDensity).data, std::size_t(n) * sizeof(Real));
  } else if (quantity == "id") {
    const std::uint32_t* id = particles_.uint32(attr::kId).data;
    parallelFor(
        n, EDDY_KERNEL(Index i) { out[i] = float(id[i]); });
  } else if (quantity == "material") {
    if (particles_.has(attr_mpm::kMaterial))
      copyBytes(kDevice, out, kDevice, particles_.real(attr_mpm::kMaterial).data,
                std::size_t(n) * sizeof(Real));
    else
      parallelFor(
          n, EDDY_KERNEL(Index i) { out[i] = 0; });
  } else {
    throw InputError("values: '" + quantity +
                     "' is not a particle quantity (allowed: speed, density, id, "
                     "material)");
  }
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
  // the last entry is the domain, not a scene collider
  if (i + 1 >= hostColliders_.size())
    throw RuntimeFailure("moveCollider: the scene has no collider " + std::to_string(i));
  ColliderData& c = hostColliders_[i];
  if (c.keyframeCount > 0 || isBarrier(c, kernels_.h))
    throw RuntimeFailure(
        "moveCollider: collider " + std::to_string(i) +
        (c.keyframeCount > 0 ? " follows keyframes" : " is thinner than the kernel support"));
  // colliders move as center + velocity * t over the simulation's clock
  c.center = center - velocity * Real(time_);
  c.linearVelocity = velocity;
  colliders_.upload(&c, 1, i);
  queriesSettled_ = false;  // the walls' share of the density moves with the collider
}

void FluidSimulation::setNozzleActive(std::size_t k, bool active) {
  if (k >= nozzles_.size())
    throw RuntimeFailure("setNozzleActive: the scene has " + std::to_string(nozzles_.size()) +
                         " nozzle emitters, no nozzle " + std::to_string(k));
  nozzleActive_[k] = active ? 1 : 0;
}

Profile& FluidSimulation::profile() {
  timers_.flush();
  return timers_.profile();
}

void FluidSimulation::emit(Real dt) {
  if (nozzles_.empty()) return;
  StepContext ctx = context();
  for (std::size_t k = 0; k < nozzles_.size(); ++k) {
    if (!nozzleActive_[k]) {
      nozzles_[k].skip(Real(time_), dt);
      continue;
    }
    nozzles_[k].emit(Real(time_), dt, emitted_);
    Index first = particles_.size();
    particles_.append(emitted_.position, emitted_.velocity);
    if (particles_.size() > first)
      solver_->initializeParticles(ctx, first, particles_.size() - first, nozzleEmitter_[k]);
  }
}

void FluidSimulation::advanceSubstep(Real dt) {
  timers_.beginSubstep();
  {
    timers_.mark(Phase::Integration);
    emit(dt);
  }
  StepContext ctx = context();
  solver_->step(ctx, dt);
  gridOrder_ = solver_->usesNeighborGrid();
  // the check rides on work the step did anyway (the neighbour list pass, the solver's CFL maxima)
  if ((solver_->usesNeighborGrid() && grid_.invalidPositions()) || solver_->invalidState())
    stopOnBlowUp(BlowUpKind::InvalidState, 0, 0);
  timers_.endSubstep();
  queriesSettled_ = false;
  time_ += dt;
  lastDt_ = dt;
  ++substeps_;
  sampleProbes();
}

void FluidSimulation::advanceFrame() {
  const TimeDesc& t = scene_.time;
  heldInAtFrameStart_ = solver_->heldInCount();
  substepsAtFrameStart_ = substeps_;
  double frameEnd = double(frame_ + 1) / t.fps;
  Real fixedDt = Real(1) / (t.fps * Real(t.substeps));
  int taken = 0;
  // The CFL maxima are read one substep late, so the host never drains the GPU for them: substep k takes
  // its limit from the state substep k - 1 started from (the first two from the frame's start), read back
  // while substep k - 1 runs. Each frame starts from fresh maxima, so a restart from a checkpoint repeats
  // the substeps of an uninterrupted run.
  {
    StepContext ctx = context();
    solver_->launchStableTimeStep(ctx, 1);
  }
  while (time_ < frameEnd - 1e-9) {
    StepContext ctx = context();
    // the speeds the host knows already count for this substep: those the scene prescribes from now to the
    // longest substep on (a keyframed collider starting, a nozzle switching on), which the maxima read back
    // from the state before cannot hold yet
    Real known = prescribedSpeed(time_, std::min(time_ + double(fixedDt), frameEnd));
    Real stable = solver_->stableTimeStepOf(ctx, taken >= 2 ? taken % 2 : 1, known);
    if (solver_->invalidState() || std::isnan(stable)) stopOnBlowUp(BlowUpKind::InvalidState, 0, 0);
    Real dt = std::min(fixedDt, stable);
    if (t.adaptive) dt = std::min(dt, motionTimeStep(known));
    double remaining = frameEnd - time_;
    // split what is left of the frame into equal substeps no longer than dt
    int left = std::max(1, int(std::ceil(remaining / dt - 1e-4)));
    int allowed = std::max(1, t.maxSubsteps - taken);
    // time.max_substeps never stretches a substep past the solver's stability limit: the run stops instead,
    // naming the substep it would need (a hair of slack for round-off in the split)
    if (left > allowed && Real(remaining / allowed) > stable * Real(1 + 1e-4))
      stopOnBlowUp(BlowUpKind::SubstepTooShort, stable, remaining / allowed);
    left = std::min(left, allowed);
    advanceSubstep(Real(remaining / left));
    if (left > 1) {  // the maxima for the substep after next
      StepContext after = context();
      solver_->launchStableTimeStep(after, taken % 2);
    }
    ++taken;
  }
  time_ = frameEnd;
  ++frame_;
  timers_.flush();
}

FrameStats FluidSimulation::stats() {
  FrameStats s;
  s.frame = frame_;
  s.time = time_;
  s.substeps = substeps_;
  s.frameSubsteps = substeps_ - substepsAtFrameStart_;
  Index n = particles_.size();
  s.particles = n;
  s.heldIn = solver_->heldInCount() - heldInAtFrameStart_;
  if (n == 0) return s;
  // densities fresh at the current positions (SPH solvers sort the particles for that)
  settleQueries();
  StepContext ctx = context();
  const Real* masses = solver_->particleMasses(ctx).data;  // null: every particle has particleMass_
  // density errors relative to each particle's own material (the solver knows the materials)
  if (statsScratch_.size() < std::size_t(n)) statsScratch_.resize(kDevice, particles_.capacity());
  Real* q = statsScratch_.data();
  solver_->densityErrors(ctx, q);
  const Vec3* x = particles_.vec3(attr::kPosition).data;
  const Vec3* v = particles_.vec3(attr::kVelocity).data;
  Real m = particleMass_;
  FrameSums f = frameSums_.run(
      n, EDDY_KERNEL(Index i) {
        Real speed2 = dot(v[i], v[i]);
        return FrameSums{q[i], Real(0.5) * (masses ? masses[i] : m) * speed2, q[i], sqrtf(speed2), x[i],
                         x[i]};
      });
  s.meanDensityError = f.densityError / n;
  s.maxDensityError = f.maxDensityError;
  s.kineticEnergy = f.kineticEnergy;
  s.maxSpeed = f.maxSpeed;
  s.boundsMin = f.lo;
  s.boundsMax = f.hi;
  Real motion = Real(s.maxSpeed) * lastDt_ / scene_.fluid.spacing;
  if (motion > fastestMotion_) {
    fastestMotion_ = motion;
    fastestMotionSpeed_ = Real(s.maxSpeed);
    fastestMotionFrame_ = frame_;
  }
  return s;
}

void FluidSimulation::copyPositions(Vec3* out) {
  copyBytes(kDevice, out, kDevice, particles_.vec3(attr::kPosition).data,
            std::size_t(particles_.size()) * sizeof(Vec3));
}

void FluidSimulation::copyParticles(HostParticles& out) {
  settleQueries();
  copyParticlesAsTheyAre(out);
}

void FluidSimulation::copyParticlesAsTheyAre(HostParticles& out) {
  Index n = particles_.size();
  out.position.resize(n);
  out.velocity.resize(n);
  out.density.resize(n);
  out.id.resize(n);
  copyBytes(Device::Host, out.position.data(), kDevice, particles_.vec3(attr::kPosition).data,
            n * sizeof(Vec3));
  copyBytes(Device::Host, out.velocity.data(), kDevice, particles_.vec3(attr::kVelocity).data,
            n * sizeof(Vec3));
  copyBytes(Device::Host, out.density.data(), kDevice, particles_.real(attr::kDensity).data,
            n * sizeof(Real));
  copyBytes(Device::Host, out.id.data(), kDevice, particles_.uint32(attr::kId).data,
            n * sizeof(std::uint32_t));
  out.pressure.clear();
  if (const Real* p = pressures()) {
    out.pressure.resize(n);
    copyBytes(Device::Host, out.pressure.data(), kDevice, p, n * sizeof(Real));
  }
  // MPM keeps each particle's material table index (its emitter) as a real
  out.material.clear();
  if (particles_.has(attr_mpm::kMaterial)) {
    std::vector<Real> material(n);
    copyBytes(Device::Host, material.data(), kDevice, particles_.real(attr_mpm::kMaterial).data,
              n * sizeof(Real));
    out.material.assign(material.begin(), material.end());
  }
}

SimulationState FluidSimulation::saveState() {
  SimulationState s;
  s.frame = frame_;
  s.time = time_;
  s.substeps = substeps_;
  s.particles = particles_.size();
  s.nextId = particles_.nextId();
  // scratch attributes are recomputed every substep before they are read; only persistent ones carry state
  for (const ParticleSet::Info& a : particles_.attributes())
    if (a.persistent) s.attributes.push_back({a.name, a.components, a.type, particles_.download(a.name)});
  StepContext ctx = context();
  s.solver = solver_->saveState(ctx);
  for (const NozzleEmitter& n : nozzles_) s.nozzles.push_back(n.state());
  return s;
}

void FluidSimulation::restoreState(const SimulationState& s) {
  // every check first, so that a state that does not fit leaves this simulation as it was
  auto fail = [](const std::string& what) {
    throw InputError("the saved state does not fit the scene: " + what);
  };
  if (s.particles < 0 || s.particles > particles_.capacity())
    fail(std::to_string(s.particles) + " particles, but the scene's emitters make at most " +
         std::to_string(particles_.capacity()));
  if (s.nozzles.size() != nozzles_.size())
    fail(std::to_string(s.nozzles.size()) + " nozzle emitters saved, the scene has " +
         std::to_string(nozzles_.size()));
  for (std::size_t k = 0; k < nozzles_.size(); ++k) nozzles_[k].checkState(s.nozzles[k]);
  std::vector<const AttributeState*> saved;
  for (const ParticleSet::Info& a : particles_.attributes()) {
    if (!a.persistent) continue;
    auto it = std::find_if(s.attributes.begin(), s.attributes.end(),
                           [&](const AttributeState& b) { return b.name == a.name; });
    if (it == s.attributes.end()) fail("no particle attribute '" + a.name + "'");
    if (it->components != a.components || it->type != a.type ||
        it->bytes.size() != std::size_t(s.particles) * a.components * sizeof(Real))
      fail("particle attribute '" + a.name + "' has " + std::to_string(it->components) + " components of " +
           (it->type == AttributeType::UInt32 ? "UInt32" : "Float32") + " in " +
           std::to_string(it->bytes.size()) + " bytes; " + std::to_string(a.components) + " of " +
           (a.type == AttributeType::UInt32 ? "UInt32" : "Float32") + " expected");
    saved.push_back(&*it);
  }
  if (saved.size() != s.attributes.size())
    fail(std::to_string(s.attributes.size()) + " particle attributes saved, " + std::to_string(saved.size()) +
         " expected");
  StepContext ctx = context();
  solver_->restoreState(ctx, s.solver);  // checks its bytes before it changes anything

  particles_.restore(Index(s.particles), s.nextId);
  for (const AttributeState* a : saved) particles_.upload(a->name, a->bytes);
  gridOrder_ = false;
  queriesSettled_ = false;
  for (std::size_t k = 0; k < nozzles_.size(); ++k) nozzles_[k].restore(s.nozzles[k]);
  frame_ = s.frame;
  time_ = s.time;
  substeps_ = s.substeps;
  substepsAtFrameStart_ = s.substeps;
  heldInAtFrameStart_ = solver_->heldInCount();
  if (probes_) probes_->startAt(time_);
}

std::size_t FluidSimulation::deviceMemoryBytes() const {
  return particles_.bytes() + grid_.bytes() + prims_.scratchBytes() + colliders_.bytes() + barriers_.bytes() +
         keyframes_.bytes() + meshBytes() + statsScratch_.bytes() + frameSums_.bytes() +
         wallOverlaps_.bytes() + solver_->deviceBytes() + (surface_ ? surface_->bytes() : 0) +
         surfaceGroups_.bytes() + ellipsoids_.bytes() + pressure_.bytes() + wallForces_.bytes() +
         (probes_ ? probes_->bytes() : 0);
}

std::unique_ptr<Simulation> makeSimulation(const SceneDesc& scene) {
  return std::make_unique<FluidSimulation>(scene);
}

std::vector<std::string> solverNames() {
  std::vector<std::string> names;
  for (const SolverEntry& e : registeredSolvers()) names.push_back(e.name);
  return names;
}

}  // namespace eddy::EDDY_NS
