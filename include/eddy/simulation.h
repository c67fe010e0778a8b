// The simulation object: owns particles, neighbour grid, colliders, emitters, forces and a solver.
#pragma once

#include <eddy/backend.h>
#include <eddy/mesh.h>
#include <eddy/profile.h>
#include <eddy/simulation_desc.h>
#include <eddy/simulation_state.h>
#include <eddy/surface.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace eddy {

struct SceneDesc;  // <eddy/scene.h>

// statistics of one frame, reduced on the device
struct FrameStats {
  int frame = 0;
  double time = 0;  // s
  std::int64_t particles = 0;
  // density errors, rho0 the rest density of each particle's own material (fluid.rest_density where none
  // given)
  double meanDensityError = 0;     // mean of max(0, rho/rho0 - 1)
  double maxDensityError = 0;      // max of max(0, rho/rho0 - 1)
  double kineticEnergy = 0;        // J
  Vec3 boundsMin{}, boundsMax{};   // m
  double maxSpeed = 0;             // m/s
  std::int64_t substeps = 0;       // substeps so far (stats.jsonl: substeps_total)
  std::int64_t frameSubsteps = 0;  // substeps of this frame (stats.jsonl: substeps)
  std::int64_t heldIn = 0;         // clamps of particles back into the domain in this frame's substeps (MPM)
};

// host copy of the attributes that output writes
struct HostParticles {
  std::vector<Vec3> position;
  std::vector<Vec3> velocity;
  std::vector<Real> density;
  // persistent particle id: 0, 1, 2, ... in emission order over the whole run (volume emitters at set-up in
  // scene order, then nozzle particles as they are released); follows its particle through every sort, so
  // renderers can match particles across frames (motion blur, trails)
  std::vector<std::uint32_t> id;
  std::vector<Real> pressure;  // Pa; empty where the solver has no pressure (MPM)
  // MPM: the index of the scene emitter each particle came from, whose "material" it is made of (renderers
  // colour sand, snow and jelly by it); empty for PBF and WCSPH, whose particles are all water
  std::vector<std::uint32_t> material;
  std::size_t size() const { return position.size(); }
};

// One particle attribute where the simulation keeps it (Simulation::particleArrays): `count` rows of
// `components` 32-bit elements each, interleaved (a position is x y z), in the simulation's own memory.
struct ParticleArray {
  std::string name;
  AttributeType type = AttributeType::Float32;
  int components = 1;
  void* data = nullptr;
  std::int64_t count = 0;
  Device device = Device::Host;  // Device::Cuda: a pointer into the GPU's memory
};

// where a scene collider is and how it moves at the simulation's current time (Simulation::colliderPose)
struct ColliderPose {
  Vec3 center{};           // m: the shape's centre (a mesh's origin, a plane's point)
  Quat orientation{};      // local -> world
  Vec3 linearVelocity{};   // m/s
  Vec3 angularVelocity{};  // rad/s about the centre (keyframed colliders: the current segment's spin)
};

// the fluid's push on a rigid body (a collider with a density) over the last substep (Simulation::fluidLoad)
struct FluidLoad {
  Vec3 force{};   // N
  Vec3 torque{};  // N m about the body's centre of mass
};

class Simulation {
 public:
  virtual ~Simulation() = default;

  // advance one frame of 1/fps seconds in substeps. Throws SimulationBlowUp (its message names the frame,
  // substep, cause and what to change) where the particles stop being finite or fly far outside the
  // domain, or where time.max_substeps would stretch a substep past the stability limit; the state is
  // left where the frame stopped.
  virtual void advanceFrame() = 0;
  // advance exactly one substep of the given size (benchmarks, tests); throws SimulationBlowUp as
  // advanceFrame does
  virtual void advanceSubstep(Real dt) = 0;
  // the longest substep the solver's stability allows from the current state (its CFL, viscous and body-force
  // limits, counting the speeds the scene prescribes now), infinity for a solver without one: the bound
  // advanceFrame keeps to, for callers that step with advanceSubstep. It reads the solver's maxima afresh
  // (MPM's restart from its next grid update), so call it before the first substep or among advanceSubstep
  // calls, not between the frames of a run that advanceFrame steps.
  virtual Real stableSubstep() = 0;

  virtual FrameStats stats() = 0;
  virtual void copyParticles(HostParticles& out) = 0;
  // the positions alone, particleCount() of them, into memory on the simulation's own device: the GPU's
  // (an OpenGL buffer mapped through CUDA-OpenGL interop, say) for the CUDA backend, the host's for the
  // CPU; no trip through the host on the GPU
  virtual void copyPositions(Vec3* out) = 0;

  // Between frames: every persistent particle attribute (position, velocity, density, id, then the solver's
  // own, as in SimulationState::attributes) where the simulation keeps it, for tools that read and write
  // particles in place without a copy (the Python module's arrays). Rows are the particles in the
  // simulation's current order, which every substep changes: match them across frames through "id". From
  // the first call on, every call that moves particles in memory (the substeps sort them; stats,
  // copyParticles and colliderForces may sort them for their densities) leaves each attribute at the
  // address this call gave before it returns, so one array shows the current particles between any two
  // calls; the first particleCount() rows hold particles. Positions and velocities written there between
  // frames are what the next substep starts from, and what stats, copyParticles and colliderForces measure
  // (they measure the densities again on every call once this has been called). Only a growth of the
  // storage (addParticles past particleCapacity(), restoreState of a state with more particles) moves them:
  // the memory handed out before then stays allocated, showing the particles as they were, until the
  // simulation is destroyed.
  virtual std::vector<ParticleArray> particleArrays() = 0;

  // Between frames only (not inside advanceFrame): the whole state, copied to the host, and back. A
  // simulation built from the same scene and given this state continues exactly as this one would.
  // restoreState throws InputError when the state does not fit the scene (attributes, sizes, emitters).
  virtual SimulationState saveState() = 0;
  virtual void restoreState(const SimulationState& state) = 0;

  // the scene this simulation was made from, in full (include <eddy/scene.h> to read it)
  virtual const SceneDesc& scene() const = 0;
  virtual Backend backend() const = 0;
  virtual Profile& profile() = 0;
  // per-phase timers on (the default) or off; off, only whole substeps are timed and nothing is recorded
  // between a substep's kernels, so the GPU runs them back to back as it does untimed
  virtual void setPhaseTiming(bool on) = 0;
  virtual int frame() const = 0;
  virtual double time() const = 0;
  virtual std::int64_t substeps() const = 0;
  virtual std::int64_t particleCount() const = 0;
  virtual std::size_t deviceMemoryBytes() const = 0;
  // conditions met during the run that a user should know of (one line each, empty when none)
  virtual std::vector<std::string> warnings() const = 0;
  // Between frames: the liquid's surface by the scene's "surface" settings (or the ones given), built on
  // the device from the particles where they are (only the mesh comes back to the host); the first call,
  // and a call with other settings, sets the reconstruction up. `group` names one of surfaceGroups(), or
  // is empty for every particle; another name throws InputError, as do settings checkSurfaceSettings
  // refuses.
  virtual void buildSurface(TriangleMesh& out, SurfaceStats* stats = nullptr,
                            const SurfaceSettings* settings = nullptr, const std::string& group = {}) = 0;
  // the same, left on the simulation's own device (the GPU's memory for the CUDA backend, the host's for the
  // CPU), valid until the next call: renderers copy it into OpenGL buffers without a trip through the host.
  // An empty view (no triangles) where there is no liquid.
  virtual void buildSurfaceOnDevice(SurfaceMeshView& out, SurfaceStats* stats = nullptr,
                                    const SurfaceSettings* settings = nullptr,
                                    const std::string& group = {}) = 0;
  // every particle as the ellipsoid of its Yu–Turk anisotropic kernel, sized for spheres of half the
  // spacing, by the scene's "surface" settings; on the simulation's own device until the next call (what
  // screen-space fluid rendering splats). An empty view where there is no liquid.
  virtual void buildEllipsoidsOnDevice(EllipsoidView& out) = 0;
  // one value per particle, in the order of copyPositions, written to `out` in the simulation's own memory
  // (a device pointer for the CUDA backend): "speed" (m/s), "density" (kg/m^3), "id", or "material" (an MPM
  // particle's emitter, an index into the scene's emitters; 0 for the other solvers). Throws InputError
  // for another name.
  virtual void copyValues(const std::string& quantity, float* out) = 0;
  // the material types that get surfaces of their own (surface.groups "material" in an MPM scene of
  // several materials); empty when one surface holds every particle
  virtual std::vector<std::string> surfaceGroups() const = 0;
  // probes.csv: the columns after "time" (src/probes/probe_sampler.h), empty for a scene without probes
  virtual std::vector<std::string> probeColumns() const = 0;
  // the probes' samples since the last call, each [time, one value per column], NaN where a probe was not due
  virtual void takeProbeRows(std::vector<std::vector<double>>& rows) = 0;
  // forces.csv: NAME.fx .fy .fz .tx .ty .tz for each collider (unnamed ones "collider<i>", the domain
  // "domain"); empty where the solver has no pressure (MPM)
  virtual std::vector<std::string> forceColumns() const = 0;
  // between frames: the force (N) and torque (N m, about each collider's centre) the fluid puts on each
  // collider now, one value per forceColumns() entry (src/probes/wall_forces.h)
  virtual std::vector<double> colliderForces() = 0;
  // sets particle i's position and velocity (tests and tools: injecting a fault into a running scene)
  virtual void overwriteParticle(std::int64_t i, Vec3 x, Vec3 v) = 0;
  // Between frames, for interactive tools (`eddy view` pushing the water with the mouse): collider i of the
  // scene (one with no keyframes) is at `center` now and moves on at `velocity` (m/s); its contacts, wall
  // pressure and friction see that velocity. Throws RuntimeFailure for a keyframed collider, one thinner
  // than the kernel support (the neighbour search holds its own copy of those), or an index out of range.
  virtual void moveCollider(std::size_t collider, Vec3 center, Vec3 velocity) = 0;
  // Between frames: appends particles at `position` moving at `velocity` (one each), made of scene emitter
  // `emitter`'s material (MPM; every PBF, WCSPH and DFSPH particle is water); their ids continue from the
  // last one. Where they do not fit particleCapacity(), the storage grows (keeping the nozzles' room), and
  // the addresses particleArrays gave before change (take them again). Throws InputError, changing nothing,
  // for lists of different lengths, values that are not finite, a position outside the domain, or no such
  // emitter.
  virtual void addParticles(const std::vector<Vec3>& position, const std::vector<Vec3>& velocity,
                            std::size_t emitter = 0) = 0;
  // the particles (those there now and those added) the storage holds before addParticles has to grow it:
  // its size less the room the nozzles keep for what they may still release (their max_particles)
  virtual std::int64_t particleCapacity() const = 0;
  // collider i of the scene (in scene order) at the current time: where moveCollider put it, where its
  // keyframes or velocities take it. Throws RuntimeFailure for an index out of range.
  virtual ColliderPose colliderPose(std::size_t collider) const = 0;
  // the fluid's force and torque on collider i over the last substep where it is a rigid body, which they
  // move; zero for the other colliders (forces.csv measures what the fluid puts on them). Throws
  // RuntimeFailure for an index out of range.
  virtual FluidLoad fluidLoad(std::size_t collider) const = 0;
  // Between frames: the nozzle emitters (counted in scene order among the nozzles alone, as in
  // SimulationState::nozzles) release particles only while active, as they all are at the start; a paused
  // nozzle's layers are skipped, not saved up. Throws RuntimeFailure for an index out of range.
  virtual void setNozzleActive(std::size_t nozzle, bool active) = 0;
};

// throws InputError for an unknown solver or a scene that cannot be built
std::unique_ptr<Simulation> createSimulation(const SceneDesc& scene, Backend backend);

// names of the registered solvers
std::vector<std::string> solverNames();

}  // namespace eddy
