// The Moving Least Squares Material Point Method (MLS-MPM) of
//   Y. Hu, Y. Fang, Z. Ge, Z. Qu, Y. Zhu, A. Pradhana, C. Jiang, "A Moving Least Squares Material Point
//   Method with Displacement Discontinuity and Two-Way Rigid Body Coupling", ACM TOG 37(4), SIGGRAPH 2018,
// on a dense grid with quadratic B-splines and the APIC transfers of
//   C. Jiang, C. Schroeder, A. Selle, J. Teran, A. Stomakhin, "The Affine Particle-In-Cell Method",
//   SIGGRAPH 2015.
//
// One substep (the profile phases in brackets):
//   1. bin [neighbour grid]: sort the particles by base node, fill the per-node particle ranges;
//   2. pack [density]: per particle, what the transfer reads, in four Vec4: position and mass m, momentum
//      m v, and the affine matrix A = m C - (4 dt / dx^2) V0 tau (Hu et al. 2018, eq. 29: the MLS force
//      folded into the APIC momentum; tau = Kirchhoff stress of the material, with the water viscosity
//      mu (C + C^T - 2/3 tr(C) I) J added);
//   3. particle to grid and grid update [position correction]: every node gathers, over the particles of
//      the 27 base nodes around it, m_i = sum w m and p_i = sum w (m v + A (x_i - x_p)); then
//      v_i = p_i / m_i + dt (g - c_d (v_i - v_wind)), and the colliders' boundary condition: nodes on or
//      beyond a collider surface (the domain faces included) get "sticky" v = v_c, "slip" (no normal
//      relative velocity) or "separate" (no inward normal relative velocity), with Coulomb friction
//      (solvers/mpm/particle_to_grid.h: by node on small grids, by tiles of nodes through shared memory
//      on large ones);
//   4. grid to particle [integration]: v_pic = sum w v_i and the velocity gradient
//      C = (4 / dx^2) sum w v_i (x_i - x_p)^T; "apic" keeps v_pic and C as the affine velocity, "pic" and
//      "flip" drop the affine part from the next transfer (C is still the velocity gradient) and "flip"
//      blends v = alpha (v_p + sum w (v_i - v_i,old)) + (1 - alpha) v_pic. Then F <- (I + dt C) F and the
//      plastic projection for the solids, J <- J (1 + dt tr C) for water (Tampubolon et al. 2017: water
//      keeps only J), x <- x + dt v, the scene colliders push particles out, and a particle that would
//      leave the domain is clamped back onto it and counted (heldInCount).
// The substep obeys a CFL condition on the fastest particle or grid velocity plus the fastest wave speed.
#pragma once

#include <cstdint>
#include <vector>

#include "backend/async_readback.h"
#include "solvers/mpm/constitutive_models.h"
#include "solvers/mpm/mpm_grid.h"
#include "solvers/solver.h"

namespace eddy::EDDY_NS {

namespace attr_mpm {
constexpr const char* kAffine = "mpm_affine";            // C: APIC affine velocity / velocity gradient (Mat3)
constexpr const char* kDeformation = "mpm_deformation";  // F: elastic deformation gradient (Mat3)
constexpr const char* kJ = "mpm_j";                      // J: volume ratio V / V0 (solids: det F times Jp)
constexpr const char* kPlasticJ = "mpm_plastic_j";       // Jp: volume change taken by plasticity
constexpr const char* kMaterial = "mpm_material";        // index into the material table (the emitter)
constexpr const char* kPacked = "mpm_p2g";               // what the transfer reads (MpmPacked), scratch
constexpr const char* kMass = "mpm_mass";                // particle mass for the statistics, scratch
}  // namespace attr_mpm

// what the particle-to-grid transfer reads of one particle, in four 16-byte loads
struct alignas(16) MpmPacked {
  Vec4 position;  // x, and the mass in w
  Vec4 momentum;  // m v, and A(0,0) in w
  Vec4 affine1;   // A(0,1) A(0,2) A(1,0) A(1,1)
  Vec4 affine2;   // A(1,2) A(2,0) A(2,1) A(2,2)
};

enum class MpmTransfer : int { Apic, Pic, Flip };
enum class MpmBoundary : int { Separate, Slip, Sticky };

// the material of each scene emitter (type from its "material" object, water from the "mpm" section);
// density 0 means fluid.rest_density
MpmMaterial mpmMaterialFor(const SimulationDesc& scene, const MaterialDesc& material);

class MovingLeastSquaresMpm final : public Solver {
 public:
  explicit MovingLeastSquaresMpm(const SimulationDesc& scene);
  const char* name() const override { return "mpm"; }
  void setup(StepContext& ctx) override;
  void launchStableTimeStep(StepContext& ctx, int slot) override;
  void findFastestNode();
  Real stableTimeStepOf(StepContext& ctx, int slot, Real knownSpeed) override;
  void step(StepContext& ctx, Real dt) override;
  void initializeParticles(StepContext& ctx, Index first, Index count, int emitterIndex) override;
  // rho = rho0 / J
  void updateDensity(StepContext& ctx) override;
  // max(0, rho / rho0 - 1) with rho0 the density of the particle's material (mpm_density_error.cpp)
  void densityErrors(StepContext& ctx, Real* out) override;
  View<const Real> particleMasses(StepContext& ctx) override;
  std::int64_t heldInCount() override;
  bool usesNeighborGrid() const override { return false; }
  NodePushes nodePushes(StepContext& ctx) override;
  bool invalidState() const override { return invalid_; }
  std::size_t deviceBytes() const override;
  // the held-in counter, and the grid nodes of the last update: the next substep's CFL condition reads
  // their fastest velocity before the transfer rewrites them
  std::string saveState(StepContext& ctx) override;
  void restoreState(StepContext& ctx, const std::string& bytes) override;

  // stages of one substep, in order (public so that CUDA lambdas may live in them, and for tests)
  void bin(StepContext& ctx);
  void pack(StepContext& ctx, Real dt);
  void particleToGrid(StepContext& ctx, Real dt);
  void gridToParticle(StepContext& ctx, Real dt);

  const MpmGrid& grid() const { return grid_; }
  const std::vector<MpmMaterial>& materials() const { return hostMaterials_; }
  Real particleVolume() const { return volume_; }

 private:
  MpmSettings settings_;
  MpmTransfer transfer_ = MpmTransfer::Apic;
  MpmBoundary boundary_ = MpmBoundary::Separate;
  MpmGrid grid_;
  std::vector<MpmMaterial> hostMaterials_;  // one per scene emitter
  Buffer<MpmMaterial> materials_;
  AsyncReadback fastest_;  // the speed maxima (as bits): particle, sound, node; per slot
  bool noParticles_[AsyncReadback::kSlots] = {};  // nothing to limit the substep when the slot was launched
  Buffer<unsigned long long> heldIn_;             // particles clamped into the domain, since the start
  // the fastest node of the grid updates since the last launchStableTimeStep (as bits), maximised by the
  // update itself: a pass of its own over every node cost a sizeable share of a small scene's substep
  Buffer<std::uint32_t> fastestNode_;
  Buffer<Vec4> pushes_;  // per node, where the scene has rigid bodies (NodePushes)
  Real volume_ = 0;      // V0 = spacing^3
  // The sort moves the particles' attributes into its order only every kMoveEvery substeps; in between,
  // pack reads each particle through the sort's order. A particle moves less than a cell a substep, so the
  // storage stays close to the sorted order and those reads nearly sequential, while the move of every
  // attribute took a large share of a substep (measured with eddy bench --solver mpm, see bench/results).
  static constexpr int kMoveEvery = 8;
  int sinceMoved_ = 0;    // substeps since the attributes last moved (saved with the checkpoints)
  bool moved_ = true;     // whether the last bin moved them
  bool invalid_ = false;  // the last CFL maxima were not finite
  bool solids_ = false;   // a material other than water: F and Jp are particle attributes
  Real viscousDt_ = 0;    // explicit viscosity limit rho dx^2 / (6 mu); infinity without
};

}  // namespace eddy::EDDY_NS
