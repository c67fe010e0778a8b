#include "solvers/mpm/moving_least_squares_mpm.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "solvers/fluid_common.h"
#include "solvers/mpm/particle_to_grid.h"

namespace eddy::EDDY_NS {

namespace {

// a node this close to a collider surface (in cells) counts as on it: the nodes of the domain faces lie
// there up to rounding
constexpr Real kWallTolerance = Real(1e-3);

EDDY_HD inline MpmPacked packParticle(Vec3 x, Real mass, Vec3 momentum, const Mat3& a) {
  MpmPacked q;
  q.position = withW(x, mass);
  q.momentum = withW(momentum, a.m[0][0]);
  q.affine1 = Vec4{a.m[0][1], a.m[0][2], a.m[1][0], a.m[1][1]};
  q.affine2 = Vec4{a.m[1][2], a.m[2][0], a.m[2][1], a.m[2][2]};
  return q;
}

// clamps one coordinate into [lo, hi]; the velocity loses its outward part
EDDY_HD inline void holdAxis(Real& x, Real& v, Real lo, Real hi, bool& held) {
  if (x < lo) {
    x = lo;
    v = fmaxf(v, Real(0));
    held = true;
  } else if (x > hi) {
    x = hi;
    v = fminf(v, Real(0));
    held = true;
  }
}

// the speed of sound of a particle's material now (snow stiffens as it is compacted)
EDDY_HD inline Real particleWaveSpeed(const MpmMaterial& m, Real plasticJ) {
  Real c = waveSpeed(m);
  if (m.type == MpmMaterialType::Snow) c *= sqrtf(expf(m.hardening * (1 - plasticJ)));
  return c;
}

}  // namespace

MpmMaterial mpmMaterialFor(const SimulationDesc& scene, const MaterialDesc& d) {
  Real density = d.density > 0 ? d.density : scene.fluid.restDensity;
  if (d.type == "elastic") return makeElastic(density, d.youngsModulus, d.poissonRatio);
  if (d.type == "snow")
    return makeSnow(density, d.youngsModulus, d.poissonRatio, d.criticalCompression, d.criticalStretch,
                    d.hardening);
  if (d.type == "sand") {
    MpmMaterial m = makeSand(density, d.youngsModulus, d.poissonRatio, d.frictionAngle);
    m.cohesion = d.cohesion;
    return m;
  }
  const MpmSettings& s = scene.mpm;
  return makeWater(density, s.bulkModulus, s.equationOfState == "tait", s.gamma, s.viscosity);
}

MovingLeastSquaresMpm::MovingLeastSquaresMpm(const SimulationDesc& scene) : settings_(scene.mpm) {
  transfer_ = settings_.transfer == "pic"    ? MpmTransfer::Pic
              : settings_.transfer == "flip" ? MpmTransfer::Flip
                                             : MpmTransfer::Apic;
  boundary_ = settings_.boundary == "slip"     ? MpmBoundary::Slip
              : settings_.boundary == "sticky" ? MpmBoundary::Sticky
                                               : MpmBoundary::Separate;
}

void MovingLeastSquaresMpm::setup(StepContext& ctx) {
  const SimulationDesc& scene = ctx.scene;
  hostMaterials_.clear();
  for (const EmitterDesc& e : scene.emitters) hostMaterials_.push_back(mpmMaterialFor(scene, e.material));
  materials_ = Buffer<MpmMaterial>(kDevice, hostMaterials_.size());
  materials_.upload(hostMaterials_.data(), hostMaterials_.size());
  // water reads only J: where every material is water, F and Jp do not exist (40 bytes a particle, and
  // twice that with their reorder's share)
  solids_ = std::any_of(hostMaterials_.begin(), hostMaterials_.end(),
                        [](const MpmMaterial& m) { return m.type != MpmMaterialType::Water; });

  ParticleSet& p = ctx.particles;
  p.addAttribute(attr_mpm::kAffine, 9);
  if (solids_) p.addAttribute(attr_mpm::kDeformation, 9);
  p.addAttribute(attr_mpm::kJ, 1);
  if (solids_) p.addAttribute(attr_mpm::kPlasticJ, 1);
  p.addAttribute(attr_mpm::kMaterial, 1);
  p.addAttribute(attr_mpm::kPacked, int(sizeof(MpmPacked) / sizeof(Real)), false);
  p.addAttribute(attr_mpm::kMass, 1, false);

  grid_.setup(scene, p.capacity(), transfer_ == MpmTransfer::Flip);
  // the rigid bodies' push (nodePushes), only where there are bodies: 16 bytes a node
  bool bodies = false;
  for (const ColliderDesc& c : scene.colliders) bodies = bodies || c.density > 0;
  if (bodies) {
    pushes_ = Buffer<Vec4>(kDevice, std::size_t(grid_.nodeCount()));
    pushes_.fillZero();
  }
  Real spacing = scene.fluid.spacing;
  volume_ = spacing * spacing * spacing;

  // explicit viscosity: nu dt / dx^2 <= 1/6 in three dimensions
  Real dx = grid_.view().dx;
  viscousDt_ = std::numeric_limits<Real>::infinity();
  for (const MpmMaterial& m : hostMaterials_)
    if (m.type == MpmMaterialType::Water && m.viscosity > 0)
      viscousDt_ = std::min(viscousDt_, m.density * dx * dx / (6 * m.viscosity));

  fastest_.words(0);  // allocated here, not in the step loop
  heldIn_ = Buffer<unsigned long long>(kDevice, 1);
  heldIn_.fillZero();
  fastestNode_ = Buffer<std::uint32_t>(kDevice, 1);
  fastestNode_.fillZero();
}

void MovingLeastSquaresMpm::initializeParticles(StepContext& ctx, Index first, Index count,
                                                int emitterIndex) {
  ParticleSet& p = ctx.particles;
  Mat3* c = p.array<Mat3>(attr_mpm::kAffine).data;
  Mat3* f = solids_ ? p.array<Mat3>(attr_mpm::kDeformation).data : nullptr;
  Real* j = p.real(attr_mpm::kJ).data;
  Real* jp = solids_ ? p.real(attr_mpm::kPlasticJ).data : nullptr;
  Real* mat = p.real(attr_mpm::kMaterial).data;
  Real index = Real(emitterIndex);
  // the velocity gradient of the emitter's rigid motion v0 + w x (x - center): the skew matrix of w, so
  // APIC starts with the whole rotation (C = 0 would lose the spin at the edges in the first transfer)
  const EmitterDesc& e = ctx.scene.emitters[emitterIndex];
  Vec3 w = e.type == "volume" ? e.angularVelocity : Vec3{};
  Mat3 spin = Mat3::fromRows({0, -w.z, w.y}, {w.z, 0, -w.x}, {-w.y, w.x, 0});
  parallelFor(
      count, EDDY_KERNEL(Index k) {
        Index i = first + k;
        c[i] = spin;
        if (f) f[i] = Mat3::identity();
        j[i] = 1;
        if (jp) jp[i] = 1;
        mat[i] = index;
      });
}

namespace {
// non-negative floats compare like their bit patterns, so one integer max serves for them
EDDY_HD inline std::uint32_t speedBits(Real s) {
  std::uint32_t b;
  __builtin_memcpy(&b, &s, sizeof b);
  return b;
}
}  // namespace

void MovingLeastSquaresMpm::launchStableTimeStep(StepContext& ctx, int slot) {
  Index n = ctx.particles.size();
  noParticles_[slot] = n == 0;
  if (n == 0) return;
  ParticleSet& p = ctx.particles;
  const Vec3* v = p.vec3(attr::kVelocity).data;
  const Real* jp = solids_ ? p.real(attr_mpm::kPlasticJ).data : nullptr;
  const Real* mat = p.real(attr_mpm::kMaterial).data;
  const MpmMaterial* mats = materials_.data();
  // the fastest particle, the fastest sound and the fastest grid node of the last update, as three
  // maxima read back together; the last was maximised by the update, and starts again from zero here
  std::uint32_t* most = fastest_.words(slot);
  std::uint32_t* node = fastestNode_.data();
  fillBytes(kDevice, most, 0, 2 * sizeof(std::uint32_t));
  const Vec3* x = p.vec3(attr::kPosition).data;
  parallelFor(
      n, EDDY_KERNEL(Index i) {
        if (i == 0) {
          most[2] = *node;
          *node = 0;
        }
        // a position that is not finite counts as a speed that is not (the blow-up check)
        Vec3 xi = x[i];
        bool finite = xi.x - xi.x == 0 && xi.y - xi.y == 0 && xi.z - xi.z == 0;
        atomicMaxU32(&most[0], speedBits(finite ? length(v[i]) : Real(NAN)));
        atomicMaxU32(&most[1], speedBits(particleWaveSpeed(mats[int(mat[i])], jp ? jp[i] : Real(1))));
      });
  fastest_.queueCopy(slot);
}

// the fastest node of the grid as it is (after a restore; the update maximises it as it goes)
void MovingLeastSquaresMpm::findFastestNode() {
  std::uint32_t* node = fastestNode_.data();
  fillBytes(kDevice, node, 0, sizeof(std::uint32_t));
  const Vec4* nodes = grid_.nodes().data;
  parallelFor(
      grid_.nodeCount(), EDDY_KERNEL(Index k) { atomicMaxU32(node, speedBits(length(xyz(nodes[k])))); });
}

Real MovingLeastSquaresMpm::stableTimeStepOf(StepContext& ctx, int slot, Real knownSpeed) {
  Real dx = grid_.view().dx;
  if (noParticles_[slot])
    return knownSpeed > 0 ? std::min(settings_.cfl * dx / knownSpeed, viscousDt_)
                          : Solver::stableTimeStepOf(ctx, slot, knownSpeed);
  Real speed[3];
  __builtin_memcpy(speed, fastest_.read(slot), sizeof speed);
  // a NaN's bits exceed every finite speed's, so a non-finite velocity surfaces in these maxima
  invalid_ = !(std::isfinite(speed[0]) && std::isfinite(speed[1]) && std::isfinite(speed[2]));
  // CFL on the fastest motion, of the particles, of the grid or prescribed, plus the fastest sound
  Real dt = settings_.cfl * dx / (std::max({speed[0], speed[2], knownSpeed}) + speed[1]);
  return std::min(dt, viscousDt_);
}

void MovingLeastSquaresMpm::step(StepContext& ctx, Real dt) {
  if (ctx.particles.size() == 0) return;
  bin(ctx);
  pack(ctx, dt);
  particleToGrid(ctx, dt);
  gridToParticle(ctx, dt);
  sinceMoved_ = (sinceMoved_ + 1) % kMoveEvery;
}

void MovingLeastSquaresMpm::bin(StepContext& ctx) {
  ctx.timers.mark(Phase::NeighborGrid);
  moved_ = sinceMoved_ == 0;
  grid_.bin(ctx.particles, ctx.prims, moved_);
}

void MovingLeastSquaresMpm::pack(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::Density);
  ParticleSet& p = ctx.particles;
  const Vec3* x = p.vec3(attr::kPosition).data;
  const Vec3* v = p.vec3(attr::kVelocity).data;
  const Mat3* c = p.array<Mat3>(attr_mpm::kAffine).data;
  const Mat3* f = solids_ ? p.array<Mat3>(attr_mpm::kDeformation).data : nullptr;
  const Real* j = p.real(attr_mpm::kJ).data;
  const Real* jp = solids_ ? p.real(attr_mpm::kPlasticJ).data : nullptr;
  const Real* mat = p.real(attr_mpm::kMaterial).data;
  MpmPacked* out = p.array<MpmPacked>(attr_mpm::kPacked).data;
  const MpmMaterial* mats = materials_.data();
  Real vol = volume_;
  Real dx = grid_.view().dx;
  // the MLS force -(4 dt / dx^2) V0 tau, folded into the affine momentum (Hu et al. 2018, eq. 29)
  Real stressScale = 4 * dt / (dx * dx) * vol;
  bool apic = transfer_ == MpmTransfer::Apic;
  // the packed particles go in the sort's order; the attributes are in it only where the bin moved them
  const std::uint32_t* through = moved_ ? nullptr : grid_.order();
  parallelFor(
      p.size(), EDDY_KERNEL(Index k) {
        Index i = through ? Index(through[k]) : k;
        const MpmMaterial& m = mats[int(mat[i])];
        Real mass = m.density * vol;
        Mat3 ci = c[i];
        Real ji = j[i];
        // water's stress reads only J (F and Jp exist with solids only)
        Mat3 tau =
            f ? kirchhoffStress(m, f[i], ji, jp[i]) : kirchhoffStress(m, Mat3::identity(), ji, Real(1));
        // Newtonian viscosity: the deviatoric Cauchy stress mu (grad v + grad v^T - 2/3 div v I), times J
        if (m.type == MpmMaterialType::Water && m.viscosity > 0)
          tau += (ci + transpose(ci) - Mat3::identity() * (Real(2) / 3 * trace(ci))) * (m.viscosity * ji);
        Mat3 a = tau * -stressScale;
        if (apic) a += ci * mass;
        out[k] = packParticle(x[i], mass, v[i] * mass, a);
      });
}

void MovingLeastSquaresMpm::particleToGrid(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::PositionCorrection);
  GridUpdate update;
  update.forces = ctx.scene.forces;
  update.colliders = ctx.colliders.data;
  update.colliderCount = int(ctx.colliders.size);
  update.dt = dt;
  update.time = ctx.time + dt;
  update.tolerance = kWallTolerance * grid_.view().dx;
  update.mode = boundary_;
  update.nodes = grid_.nodes().data;
  update.previous = transfer_ == MpmTransfer::Flip ? grid_.previous().data : nullptr;
  update.fastest = fastestNode_.data();
  update.pushes = pushes_.size() > 0 ? pushes_.data() : nullptr;
  eddy::EDDY_NS::particleToGrid(grid_, ctx.particles.array<MpmPacked>(attr_mpm::kPacked).data, update);
}

void MovingLeastSquaresMpm::gridToParticle(StepContext& ctx, Real dt) {
  ctx.timers.mark(Phase::Integration);
  ParticleSet& p = ctx.particles;
  Vec3* x = p.vec3(attr::kPosition).data;
  Vec3* v = p.vec3(attr::kVelocity).data;
  Mat3* c = p.array<Mat3>(attr_mpm::kAffine).data;
  Mat3* f = solids_ ? p.array<Mat3>(attr_mpm::kDeformation).data : nullptr;
  Real* j = p.real(attr_mpm::kJ).data;
  Real* jp = solids_ ? p.real(attr_mpm::kPlasticJ).data : nullptr;
  const Real* mat = p.real(attr_mpm::kMaterial).data;
  const MpmMaterial* mats = materials_.data();
  MpmGridView g = grid_.view();
  const Vec4* nodes = grid_.nodes().data;
  const Vec4* previous = transfer_ == MpmTransfer::Flip ? grid_.previous().data : nullptr;
  Real alpha = settings_.flipRatio;
  Real gradientScale = 4 * g.invDx * g.invDx;
  // the scene colliders push particles out; the domain (the last collider) holds them by clamping
  const ColliderData* cs = ctx.colliders.data;
  int nc = int(ctx.colliders.size) - 1;
  Real t = ctx.time + dt;
  Vec3 lo = ctx.scene.domain.min, hi = ctx.scene.domain.max;
  unsigned long long* held = heldIn_.data();
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) {
        Vec3 xi = x[i];
        int bx, by, bz;
        Vec3 fx;
        g.locate(xi, bx, by, bz, fx);
        Vec3 w[3];
        bsplineWeights(fx, w);
        Vec3 vPic{}, change{};
        Mat3 b{};
        EDDY_UNROLL
        for (int oc = 0; oc < 3; ++oc) {
          EDDY_UNROLL
          for (int ob = 0; ob < 3; ++ob) {
            EDDY_UNROLL
            for (int oa = 0; oa < 3; ++oa) {
              Index node = g.linear(bx + oa, by + ob, bz + oc);
              Real weight = w[oa].x * w[ob].y * w[oc].z;
              Vec3 d = Vec3{Real(oa) - fx.x, Real(ob) - fx.y, Real(oc) - fx.z} * g.dx;
              Vec3 vn = xyz(nodes[node]) * weight;
              vPic += vn;
              b += outer(vn, d);
              if (previous) change += vn - xyz(previous[node]) * weight;
            }
          }
        }
        Mat3 grad = b * gradientScale;
        Vec3 vi = previous ? (v[i] + change) * alpha + vPic * (1 - alpha) : vPic;

        const MpmMaterial& m = mats[int(mat[i])];
        if (m.type == MpmMaterialType::Water) {
          j[i] *= 1 + dt * trace(grad);
        } else {
          Mat3 fi = (Mat3::identity() + grad * dt) * f[i];
          Real jpi = jp[i];
          projectPlasticity(m, fi, jpi);
          f[i] = fi;
          jp[i] = jpi;
          j[i] = determinant(fi) * jpi;
        }
        c[i] = grad;

        // the path is swept first: a collider thinner than a grid cell may hold no node, so the particles
        // themselves must not pass through it
        Vec3 start = xi;
        xi += vi * dt;
        sweepAll(cs, nc, start, xi, Real(0), t, dt, &vi);
        for (int k = 0; k < nc; ++k) collideVelocity(cs[k], xi, vi, Real(0), t);
        bool out = false;
        holdAxis(xi.x, vi.x, lo.x, hi.x, out);
        holdAxis(xi.y, vi.y, lo.y, hi.y, out);
        holdAxis(xi.z, vi.z, lo.z, hi.z, out);
        if (out) atomicAddCount(held, 1);
        x[i] = xi;
        v[i] = vi;
      });
}

void MovingLeastSquaresMpm::updateDensity(StepContext& ctx) {
  ParticleSet& p = ctx.particles;
  Real* rho = p.real(attr::kDensity).data;
  const Real* j = p.real(attr_mpm::kJ).data;
  const Real* mat = p.real(attr_mpm::kMaterial).data;
  const MpmMaterial* mats = materials_.data();
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) { rho[i] = mats[int(mat[i])].density / j[i]; });
}

// every particle against the rest density of its own material (sand at 1600 kg/m^3 is at rest at rho =
// 1600, not 60 % over fluid.rest_density)
void MovingLeastSquaresMpm::densityErrors(StepContext& ctx, Real* out) {
  ParticleSet& p = ctx.particles;
  const Real* rho = p.real(attr::kDensity).data;
  const Real* mat = p.real(attr_mpm::kMaterial).data;
  const MpmMaterial* mats = materials_.data();
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) { out[i] = fmaxf(rho[i] / mats[int(mat[i])].density - 1, Real(0)); });
}

View<const Real> MovingLeastSquaresMpm::particleMasses(StepContext& ctx) {
  ParticleSet& p = ctx.particles;
  View<Real> mass = p.real(attr_mpm::kMass);
  Real* out = mass.data;
  const Real* mat = p.real(attr_mpm::kMaterial).data;
  const MpmMaterial* mats = materials_.data();
  Real vol = volume_;
  parallelFor(
      p.size(), EDDY_KERNEL(Index i) { out[i] = mats[int(mat[i])].density * vol; });
  return asConst(mass);
}

std::int64_t MovingLeastSquaresMpm::heldInCount() {
  unsigned long long count = 0;
  heldIn_.download(&count, 1);
  return std::int64_t(count);
}

// layout: the held-in count (8 bytes), then every grid node (Vec4: velocity and mass)
std::string MovingLeastSquaresMpm::saveState(StepContext& ctx) {
  unsigned long long held = 0;
  heldIn_.download(&held, 1);
  View<Vec4> nodes = grid_.nodes();
  std::int32_t since = sinceMoved_;
  std::string bytes(sizeof held + nodes.size * sizeof(Vec4) + sizeof since, '\0');
  std::memcpy(bytes.data(), &held, sizeof held);
  copyBytes(Device::Host, bytes.data() + sizeof held, kDevice, nodes.data, nodes.size * sizeof(Vec4));
  std::memcpy(bytes.data() + sizeof held + nodes.size * sizeof(Vec4), &since, sizeof since);
  return bytes;
}

void MovingLeastSquaresMpm::restoreState(StepContext& ctx, const std::string& bytes) {
  View<Vec4> nodes = grid_.nodes();
  unsigned long long held = 0;
  std::int32_t since = 0;
  // checkpoints written before the counter of substeps since the attributes moved end without it
  std::size_t expected = sizeof held + nodes.size * sizeof(Vec4);
  if (bytes.size() != expected && bytes.size() != expected + sizeof since)
    throw InputError("MPM solver state of " + std::to_string(bytes.size()) + " bytes, but a grid of " +
                     std::to_string(nodes.size) + " nodes needs " + std::to_string(expected + sizeof since));
  std::memcpy(&held, bytes.data(), sizeof held);
  heldIn_.upload(&held, 1);
  copyBytes(kDevice, nodes.data, Device::Host, bytes.data() + sizeof held, nodes.size * sizeof(Vec4));
  if (bytes.size() > expected) std::memcpy(&since, bytes.data() + expected, sizeof since);
  sinceMoved_ = since >= 0 && since < kMoveEvery ? since : 0;
  findFastestNode();
}

std::size_t MovingLeastSquaresMpm::deviceBytes() const {
  return grid_.bytes() + materials_.bytes() + heldIn_.bytes() + fastest_.bytes() + fastestNode_.bytes() +
         pushes_.bytes();
}

NodePushes MovingLeastSquaresMpm::nodePushes(StepContext&) {
  NodePushes n;
  if (pushes_.size() == 0) return n;
  MpmGridView g = grid_.view();
  n.push = pushes_.data();
  n.origin = g.origin;
  n.spacing = g.dx;
  n.nx = g.nx, n.ny = g.ny, n.nz = g.nz;
  return n;
}

}  // namespace eddy::EDDY_NS
