// The simulation object of one backend: particles, neighbour grid, colliders, emitters and a solver.
// A frame is a fixed interval split into substeps (fixed count, or CFL-limited where the solver or the
// scene asks for it), in the manner of Jet's PhysicsAnimation (Kim, "Fluid Engine Development").
#pragma once

#include <eddy/simulation.h>

#include <memory>
#include <vector>

#include "backend/chunked_reduction.h"
#include "colliders/mesh_sdf.h"
#include "emitters/nozzle_emitter.h"
#include "io/blow_up_report.h"
#include "probes/probe_sampler.h"
#include "probes/wall_forces.h"
#include "sim/surface_groups.h"
#include "solvers/solver.h"
#include "surface/particle_ellipsoids.h"
#include "surface/surface_reconstructor.h"

namespace eddy::EDDY_NS {

// the per-frame statistics, folded in one pass over the particles (one read-back instead of ten)
struct FrameSums {
  double densityError, kineticEnergy;  // sums
  Real maxDensityError, maxSpeed;
  Vec3 lo, hi;  // bounds
  static EDDY_HD FrameSums identity() {
    constexpr Real big = 3.4e38f;
    return {0, 0, -big, -big, Vec3{big, big, big}, Vec3{-big, -big, -big}};
  }
  // the maxima keep their first argument unless the second is larger, as the reductions before did
  static EDDY_HD Real larger(Real a, Real b) { return a < b ? b : a; }
  static EDDY_HD Real smaller(Real a, Real b) { return b < a ? b : a; }
  static EDDY_HD FrameSums combine(const FrameSums& a, const FrameSums& b) {
    return {a.densityError + b.densityError,
            a.kineticEnergy + b.kineticEnergy,
            larger(a.maxDensityError, b.maxDensityError),
            larger(a.maxSpeed, b.maxSpeed),
            Vec3{smaller(a.lo.x, b.lo.x), smaller(a.lo.y, b.lo.y), smaller(a.lo.z, b.lo.z)},
            Vec3{larger(a.hi.x, b.hi.x), larger(a.hi.y, b.hi.y), larger(a.hi.z, b.hi.z)}};
  }
};

class FluidSimulation final : public Simulation {
 public:
  explicit FluidSimulation(const SceneDesc& scene);

  void advanceFrame() override;
  void advanceSubstep(Real dt) override;
  FrameStats stats() override;
  void copyParticles(HostParticles& out) override;
  void copyPositions(Vec3* out) override;
  SimulationState saveState() override;
  void restoreState(const SimulationState& state) override;

  const SceneDesc& scene() const override { return scene_; }
  Backend backend() const override { return kBackend; }
  Profile& profile() override;
  void setPhaseTiming(bool on) override { timers_.setPhaseTiming(on); }
  int frame() const override { return frame_; }
  double time() const override { return time_; }
  std::int64_t substeps() const override { return substeps_; }
  std::int64_t particleCount() const override { return particles_.size(); }
  std::size_t deviceMemoryBytes() const override;
  void overwriteParticle(std::int64_t i, Vec3 x, Vec3 v) override;
  void moveCollider(std::size_t collider, Vec3 center, Vec3 velocity) override;
  void setNozzleActive(std::size_t nozzle, bool active) override;
  void buildSurface(TriangleMesh& out, SurfaceStats* stats = nullptr,
                    const SurfaceSettings* settings = nullptr, const std::string& group = {}) override;
  void buildSurfaceOnDevice(SurfaceMeshView& out, SurfaceStats* stats = nullptr,
                            const SurfaceSettings* settings = nullptr,
                            const std::string& group = {}) override;
  void buildEllipsoidsOnDevice(EllipsoidView& out) override;
  void copyValues(const std::string& quantity, float* out) override;
  std::vector<std::string> surfaceGroups() const override { return surfaceGroups_.names(); }
  std::vector<std::string> warnings() const override;
  std::vector<std::string> probeColumns() const override;
  void takeProbeRows(std::vector<std::vector<double>>& rows) override;
  std::vector<std::string> forceColumns() const override;
  std::vector<double> colliderForces() override;

  // the substep time.adaptive allows, counting `known` (prescribedSpeed) among the particles' speeds
  // (public: CUDA lambdas cannot live in private members)
  Real motionTimeStep(Real known);

 private:
  // the fastest the scene moves a collider's surface or a nozzle's jet within [t0, t1]
  // (sim/prescribed_speed.cpp)
  Real prescribedSpeed(double t0, double t1) const;
  // throws SimulationBlowUp with the message of src/io/blow_up_report.h
  [[noreturn]] void stopOnBlowUp(BlowUpKind kind, double neededDt, double allowedDt);
  StepContext context();
  // the solver's pressures into pressure_; null where it has none
  const Real* pressures();
  // Between substeps every query (statistics, particles, wall forces) reads one state: the density at the
  // current positions, made once after a substep (the SPH solvers sort the particles for it, which moves
  // what a query made before it would have read), then left alone until the next substep.
  void settleQueries();
  void copyParticlesAsTheyAre(HostParticles& out);
  void sampleProbes();
  void emit(Real dt);
  void checkMemory(std::int64_t particles) const;
  // loads, checks, scales and places a mesh shape and builds its distance field into sdf; data (made by
  // makeShapeData) gets the placement and the field. `where` is the shape's JSON pointer, for messages
  // (needsInside: the mesh is filled, so it must be closed; a container needs that too)
  void placeMeshShape(const ShapeDesc& shape, const std::string& where, MeshSdf& sdf, ColliderData& data,
                      bool needsInside = false);
  // the reconstruction for these settings (made, or made again, where they differ); the group's positions
  SurfaceReconstructor& surfaceFor(const SurfaceSettings* settings);
  EmittedParticles fillVolume(const EmitterDesc& e, int index, const std::vector<ColliderData>& cs,
                              const std::vector<const MeshSdf*>& colliderMesh);
  std::size_t meshBytes() const;

  SceneDesc scene_;
  ParticleSet particles_;
  std::unique_ptr<SurfaceReconstructor> surface_;  // made by the first buildSurface
  ParticleEllipsoids ellipsoids_;                  // what buildEllipsoidsOnDevice returns a view of
  SurfaceGroups surfaceGroups_;
  NeighborGrid grid_;
  Primitives prims_;
  PhaseTimers timers_;
  Buffer<ColliderData> colliders_;
  std::vector<ColliderData> hostColliders_;      // colliders_ as uploaded (moveCollider edits one)
  Buffer<ColliderData> barriers_;                // the obstacles thinner than h, for the neighbour search
  Buffer<ColliderKeyframe> keyframes_;           // the keyframed colliders' poses, read by colliders_
  std::vector<ColliderKeyframe> hostKeyframes_;  // the same on the host, each collider's from firstKeyframe_
  std::vector<std::size_t> firstKeyframe_;
  std::vector<std::unique_ptr<MeshSdf>> meshes_;  // the fields the mesh colliders read
  Buffer<Real> statsScratch_;              // per-particle values (density errors, the adaptive substep)
  ChunkedReduction<FrameSums> frameSums_;  // the statistics' one-pass reduction
  std::vector<NozzleEmitter> nozzles_;
  std::vector<int> nozzleEmitter_;  // scene emitter index of each nozzle
  std::vector<char> nozzleActive_;  // setNozzleActive; a paused nozzle skips its layers
  EmittedParticles emitted_;        // reused by the nozzles every substep
  std::unique_ptr<Solver> solver_;
  std::unique_ptr<ProbeSampler> probes_;  // only with probes in the scene
  WallForces wallForces_;
  Buffer<Real> pressure_;  // per particle, for probes, forces and output
  bool hasPressure_ = false;
  // the particles are in the order of grid_'s neighbour lists (after a substep of a solver with lists,
  // until a state is restored or a particle overwritten)
  bool gridOrder_ = false;
  bool queriesSettled_ = false;  // settleQueries has run since the last substep
  SphKernels kernels_;
  WallKernel wall_;
  Buffer<Real> wallOverlaps_;  // the tables of walls meeting at edges and corners (WallKernel::overlaps)
  Real particleMass_ = 0;
  Vec3 blowUpLo_{}, blowUpHi_{};  // a particle outside has blown up
  int frame_ = 0;
  double time_ = 0;
  Real lastDt_ = 0;  // the last substep's length
  // the most spacings the fastest particle moved in one substep, seen by stats(), and when
  Real fastestMotion_ = 0, fastestMotionSpeed_ = 0;
  int fastestMotionFrame_ = 0;
  std::int64_t substeps_ = 0;
  std::int64_t heldInAtFrameStart_ = 0;
  std::int64_t substepsAtFrameStart_ = 0;
};

std::unique_ptr<Simulation> makeSimulation(const SceneDesc& scene);
std::vector<std::string> solverNames();

}  // namespace eddy::EDDY_NS
