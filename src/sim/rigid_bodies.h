// Colliders the fluid pushes: rigid bodies (a collider with a "density") that gravity pulls and the fluid's
// wall pressure pushes, integrated at the fluid's substep. The force and torque on a body are the reaction
// of the wall terms the particles feel from it (probes/wall_forces.h; under PBF the body's share of the
// density corrections and the contacts that moved particles out of it), or under MPM of the momentum its
// boundary condition gave the grid nodes, summed on the device in a fixed order in two launches whatever
// the number of bodies (probes/body_forces.h), so CPU runs repeat to the bit; the body then moves as a
// collider with that velocity over the next substep, which is how the fluid sees it (its surface velocity
// enters the solvers' boundary terms, and MPM's node conditions).
//
// The coupling is explicit: the body moves over a substep under the force the fluid put on it over the
// one before. Partitioned explicit couplings are known to go unstable where the fluid's added mass far
// exceeds the body's and the fluid answers the body's acceleration at once (Causin, Gerbeau & Nobile,
// "Added-mass effect in the design of partitioned algorithms for fluid-structure problems", CMAME 194,
// 2005); WCSPH's pressure answers at its finite speed of sound, over several substeps, and a box ten times
// lighter than water settles (tests/test_rigid_bodies.cpp). PBF's push is position-level and answers
// within the substep: a body's sideways step comes back as the opposite push in the next substep, a mode
// that alternates every substep (on a symmetric sinking cube, 0.16 N RMS on a cube of 0.17 N weight). Under
// PBF the body is therefore moved by the mean of the last two substeps' sums (the trapezoidal rule over the
// substep's ends), which leaves a steady push as it is and cancels the alternating one (0.0065 N RMS).
//
// Contacts (sim/body_contacts.h): after each substep's motion the bodies are kept inside the domain, out
// of the other colliders (static or moving as the scene prescribes) and out of each other, by impulses
// with the pair's restitution and Coulomb friction that turn the body too, and by moving overlapping
// bodies apart; they are found once a substep, one thread a candidate pair, and one thread resolves them
// in a fixed order, so a few bodies pile up and runs repeat to the bit.
#pragma once

#include <eddy/simulation_desc.h>

#include <string>
#include <vector>

#include "backend/primitives.h"
#include "colliders/collider.h"
#include "colliders/shape_mass.h"
#include "core/buffer.h"
#include "probes/body_forces.h"
#include "sim/measurements.h"
#include "solvers/solver.h"

namespace eddy::EDDY_NS {

// the most points a body's contacts are sampled at
inline constexpr int kBodySamples = kMostShapeSamples;

// what a body is made of (constant) and how it moves (state), one element a body on the device
struct RigidBody {
  int collider = 0;     // index among the scene's colliders
  Real mass = 0;        // kg
  Vec3 inertia{};       // principal moments about the centre of mass, kg m^2
  Quat principal{};     // their axes' frame -> the shape's frame (a mesh's; the identity for the others)
  Vec3 centreOfMass{};  // in the shape's frame, from its centre (a mesh's origin; zero for the others)
  Real reach = 0;       // the farthest point of the body from its centre of mass, m
  // the points its contacts are sampled at, in the shape's frame: spheres of sampleRadius about them
  int sampleCount = 0;
  Real sampleRadius = 0;
  Vec3 samples[kBodySamples];
  Vec3 gravity{};  // m/s^2
  Vec3 domainLo{}, domainHi{};
  Real friction = 0;
  // the collider's "locks" (colliders/body_locks.h): 1 where the body may move along / turn about a world
  // axis, 0 where it is held; its velocities and every impulse on it are multiplied by them
  Vec3 freeLinear{1, 1, 1}, freeAngular{1, 1, 1};
  // a hinge (the collider's "hinge_axis"): the body turns about this fixed world axis through pivot only
  bool hinged = false;
  Vec3 pivot{}, hingeAxis{};  // m; unit
  // state
  Vec3 position{};                           // centre of mass, m
  Quat orientation{};                        // local -> world
  Vec3 linearVelocity{}, angularVelocity{};  // m/s, rad/s (world)
  Vec3 fluidForce{}, fluidTorque{};          // what moved it over the last substep, N, N m about the centre
  // whether the body moves with the mean of the last two substeps' sums (PBF, see above), and the last
  // substep's own sums
  bool averageFluidLoad = false;
  Vec3 lastForce{}, lastTorque{};
};

// what a substep's velocity passes have given one contact so far (sim/body_contacts.h), and the normal
// speed it is to leave with
struct ContactImpulse {
  Real target = 0;  // m/s
  Real normal = 0;  // N s, >= 0
  Vec3 tangent{};   // N s, at most friction x normal long
};

// a symmetric 3 x 3 matrix: a body's inverse inertia in the world frame, a contact point's inverse mass
struct Sym3 {
  Real xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0;
};

EDDY_HD inline Vec3 operator*(const Sym3& m, Vec3 v) {
  return {m.xx * v.x + m.xy * v.y + m.xz * v.z, m.xy * v.x + m.yy * v.y + m.yz * v.z,
          m.xz * v.x + m.yz * v.y + m.zz * v.z};
}

// one contact that a substep's detection found (sim/body_contact_detection.h): body a is pushed along
// normal, away from the other side, where depth > 0; what the passes need of it is worked out once
struct StoredContact {
  Vec3 point{};
  Vec3 normal{0, 1, 0};
  Real depth = 0;             // at detection, m; the velocity passes' (they move nothing)
  Vec3 anchorA{}, anchorB{};  // the point in a's frame, and in b's (the world's for a collider or a wall)
  Real offset = 0;            // the depth is offset + dot(normal, anchorB - anchorA), both in the world
  Vec3 armA{}, armB{};        // point - the centres of a and b
  Vec3 surfaceVelocity{};     // a collider's at the point (zero for a wall or a body)
  Sym3 inverseMass;           // of the pair at the point: 1 / effective mass along d is d . inverseMass d
  Real along = 0;             // that along the normal
};

// a candidate pair's contacts: body a against a domain wall, a collider or body b, in fixed slots
struct ContactSet {
  int a = 0;
  int b = -1;  // the other body's slot, or -1
  int count = 0;
  int deepest = -1;  // where the contacts share one normal: the deepest, which alone undoes the overlap
  int pushing = 0;   // bit k: contact k is near enough for the velocity passes (a speculative gap at most)
  Real restitution = 0, friction = 0;
  Real restingSpeed = 0;  // m/s, below which a contact does not bounce
};

// v's components where mask is 1, zero where it is 0 (a body's locks)
EDDY_HD inline Vec3 masked(Vec3 v, Vec3 mask) { return {v.x * mask.x, v.y * mask.y, v.z * mask.z}; }

// where the shape's centre (a mesh's origin) is, in the world
EDDY_HD inline Vec3 shapeOrigin(const RigidBody& b) {
  return b.position - rotate(b.orientation, b.centreOfMass);
}

// A hinged body has one degree of freedom, its angle about the hinge's axis a: its moment of inertia about
// the axis is a . I a + m |a x r|^2 (the parallel axis theorem, r from the pivot to the centre of mass)
EDDY_HD inline Real hingeInertia(const RigidBody& b) {
  Vec3 l = rotate(conjugate(b.orientation * b.principal), b.hingeAxis);
  Vec3 across = cross(b.hingeAxis, b.position - b.pivot);
  return b.inertia.x * l.x * l.x + b.inertia.y * l.y * l.y + b.inertia.z * l.z * l.z +
         b.mass * dot(across, across);
}

// turns a hinged body by `angle` (rad) about its axis, its centre of mass with it
EDDY_HD inline void turnAboutHinge(RigidBody& b, Real angle) {
  Quat q = quatFromRotationVector(b.hingeAxis * angle);
  b.position = b.pivot + rotate(q, b.position - b.pivot);
  Quat o = q * b.orientation;
  Real n = sqrtf(o.w * o.w + o.x * o.x + o.y * o.y + o.z * o.z);
  b.orientation = {o.w / n, o.x / n, o.y / n, o.z / n};
}

// sets a hinged body's spin to w (rad/s) about its axis, and its centre's velocity to match
EDDY_HD inline void spinAboutHinge(RigidBody& b, Real w) {
  b.angularVelocity = b.hingeAxis * w;
  b.linearVelocity = cross(b.angularVelocity, b.position - b.pivot);
}

// The body that collider i of the scene is, placed where `shape` (the collider on the device, made by
// the scene model) is, with the mass, centre and inertia of `mass` (colliders/shape_mass.h) at the
// collider's density. Throws InputError (naming the key) for a shape that cannot be a body.
RigidBody makeRigidBody(const SimulationDesc& scene, std::size_t collider, const ColliderData& shape,
                        const ShapeMass& mass);

class RigidBodies {
 public:
  // the scene's bodies: each collider with a density, as the model placed it (`colliders`, the host copy,
  // and `masses`, one per collider, filled for the bodies)
  void setup(const SimulationDesc& scene, const std::vector<ColliderData>& colliders,
             const std::vector<ShapeMass>& masses, Index particleCapacity);
  bool empty() const { return count_ == 0; }
  int count() const { return count_; }
  bool isBody(std::size_t collider) const {
    return collider < hostSlotOf_.size() && hostSlotOf_[collider] >= 0;
  }
  // the body that collider i is, as it is now (a copy to the host)
  RigidBody body(std::size_t collider) const;
  void reserve(Index particleCapacity);

  // after a substep of length dt that ended at time t: the fluid's force on each body (from the particles'
  // pressure, none for a solver without one), then the bodies' motion, written into the colliders
  void advance(Measurements& measurements, StepContext& ctx, Solver& solver, ColliderData* colliders, Real t,
               Real dt);

  // the bodies as they are now (a copy to the host); host colliders get their current motion
  std::vector<RigidBody> download() const;
  // opaque bytes for SimulationState, and back; check throws InputError where they do not fit the scene
  std::string save() const;
  void check(const std::string& bytes) const;
  void restore(const std::string& bytes, ColliderData* colliders, Real t);
  // gives each body's collider (the device copy) the body's pose and motion at time t
  void place(ColliderData* colliders, Real t);
  std::size_t bytes() const;

 private:
  int count_ = 0;
  int colliderCount_ = 0;  // the scene's colliders (the domain's container follows them)
  Buffer<RigidBody> bodies_;
  int obstacleCount_ = 0;
  Buffer<int> obstacles_;        // the scene's colliders that are not bodies, by index
  std::vector<int> hostSlotOf_;  // per collider (and the domain): its body slot, or -1
  Buffer<double> sums_;          // six per body: the fluid's force and torque
  // the substep's contacts (sim/body_contacts.h): per candidate pair its set and its slots of contacts
  // and impulses; the lists of the pairs that have any, and of those the velocity passes visit
  Buffer<ContactSet> sets_;
  Buffer<StoredContact> contacts_;
  Buffer<ContactImpulse> impulses_;
  Buffer<int> lists_;
  Buffer<Sym3> inverseInertia_;  // per body, in the world frame at the substep's orientation
  BodyForces forces_;
};

}  // namespace eddy::EDDY_NS
