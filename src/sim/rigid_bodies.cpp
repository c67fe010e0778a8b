#include "sim/rigid_bodies.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>

#include "colliders/body_locks.h"
#include "sim/body_contacts.h"

namespace eddy::EDDY_NS {

namespace {

// the pose and motion a collider needs so that colliderCenter and colliderOrientation give the body's at
// time t, moving on with its current velocities: the shape's centre moves with the velocity the body's
// turn about its centre of mass gives it there (colliderVelocityAt then gives every point's)
EDDY_HD inline void placeCollider(const RigidBody& b, ColliderData& c, Real t) {
  const Vec3 origin = shapeOrigin(b);
  c.linearVelocity = b.linearVelocity + cross(b.angularVelocity, origin - b.position);
  c.center = origin - c.linearVelocity * t;
  c.orientation = conjugate(quatFromRotationVector(b.angularVelocity * t)) * b.orientation;
  c.angularVelocity = b.angularVelocity;
  c.turned = true;
}

EDDY_HD inline Quat normalized(Quat q) {
  Real n = sqrtf(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return {q.w / n, q.x / n, q.y / n, q.z / n};
}

// one substep of the body's motion under gravity and the fluid's force and torque (f: six sums)
EDDY_HD inline void integrateBody(RigidBody& b, const double* f, Real dt) {
  Vec3 force{Real(f[0]), Real(f[1]), Real(f[2])}, moment{Real(f[3]), Real(f[4]), Real(f[5])};
  b.fluidForce = force;
  b.fluidTorque = moment;
  if (b.averageFluidLoad) {
    b.fluidForce = (force + b.lastForce) * Real(0.5);
    b.fluidTorque = (moment + b.lastTorque) * Real(0.5);
    b.lastForce = force;
    b.lastTorque = moment;
  }
  // the force sums' torque is about the shape's centre: about the centre of mass instead
  b.fluidTorque += cross(shapeOrigin(b) - b.position, b.fluidForce);
  if (b.hinged) {
    // one degree of freedom: the torque about the axis through the pivot turns it
    Vec3 force = b.fluidForce + b.gravity * b.mass;
    Real moment = dot(b.fluidTorque + cross(b.position - b.pivot, force), b.hingeAxis);
    Real w = dot(b.angularVelocity, b.hingeAxis) + moment / hingeInertia(b) * dt;
    turnAboutHinge(b, w * dt);
    spinAboutHinge(b, w);
    return;
  }
  Vec3 a = b.fluidForce * (1 / b.mass) + b.gravity;
  // the rotation in the body's frame about its principal axes, with the gyroscopic term w x I w
  Quat toLocal = conjugate(b.orientation * b.principal);
  Vec3 w = rotate(toLocal, b.angularVelocity);
  Vec3 iw{b.inertia.x * w.x, b.inertia.y * w.y, b.inertia.z * w.z};
  Vec3 torque = rotate(toLocal, b.fluidTorque) - cross(w, iw);
  Vec3 alpha = rotate(b.orientation * b.principal,
                      Vec3{torque.x / b.inertia.x, torque.y / b.inertia.y, torque.z / b.inertia.z});
  // semi-implicit Euler: the velocities first (less what the locks hold), the pose with the new ones
  b.linearVelocity = masked(b.linearVelocity + a * dt, b.freeLinear);
  b.angularVelocity = masked(b.angularVelocity + alpha * dt, b.freeAngular);
  b.position += b.linearVelocity * dt;
  b.orientation = normalized(quatFromRotationVector(b.angularVelocity * dt) * b.orientation);
}

}  // namespace

RigidBody makeRigidBody(const SimulationDesc& scene, std::size_t i, const ColliderData& c,
                        const ShapeMass& m) {
  const ColliderDesc& d = scene.colliders[i];
  // the scene reader refuses these already; a scene made in code meets them here
  const std::string key = scene.sourcePath + ": /colliders/" + std::to_string(i) + "/density: ";
  if (d.shape.type == "plane")
    throw InputError(key + "a rigid body is a box, sphere, capsule, cylinder or closed mesh, not a plane");
  if (d.container || !d.keyframes.empty())
    throw InputError(key + "a rigid body is neither a container nor keyframed");
  if (d.shape.type == "mesh" && d.shape.thickness > 0)
    throw InputError(scene.sourcePath + ": /colliders/" + std::to_string(i) +
                     "/shape/thickness: a rigid body's mesh is solid, not a thin shell");
  if (!(m.volume > 0) || m.samples.empty())
    throw InputError(key + "the shape encloses no volume, so it has no mass");
  BodyLocks locks;
  std::string bad;
  if (!parseBodyLocks(d.locks, locks, bad))
    throw InputError(scene.sourcePath + ": /colliders/" + std::to_string(i) + "/locks: " + bad +
                     "; the locks are x y z rx ry rz");
  RigidBody b;
  b.collider = int(i);
  b.mass = Real(d.density * m.volume);
  b.inertia = m.moments * d.density;
  b.principal = m.principal;
  b.centreOfMass = m.centre;
  b.reach = m.reach;
  b.sampleCount = int(m.samples.size());
  b.sampleRadius = m.sampleRadius;
  for (int k = 0; k < b.sampleCount; ++k) b.samples[k] = m.samples[std::size_t(k)];
  b.gravity = scene.forces.gravity;
  b.domainLo = scene.domain.min;
  b.domainHi = scene.domain.max;
  b.friction = d.friction;
  b.averageFluidLoad = scene.solver == "pbf";
  b.orientation = c.orientation;
  b.position = c.center + rotate(c.orientation, m.centre);
  b.freeLinear = locks.freeLinear;
  b.freeAngular = locks.freeAngular;
  // linear_velocity is the shape centre's (a mesh's origin's), as for any collider: the centre of mass
  // moves with that and the spin about the centre
  b.linearVelocity =
      masked(d.linearVelocity + cross(d.angularVelocity, rotate(c.orientation, m.centre)), b.freeLinear);
  b.angularVelocity = masked(d.angularVelocity, b.freeAngular);
  const Real axis = length(d.hingeAxis);
  if (axis > 0) {
    if (!d.locks.empty())
      throw InputError(scene.sourcePath + ": /colliders/" + std::to_string(i) +
                       "/locks: a hinge already holds every motion but the turn about its axis");
    b.hinged = true;
    b.hingeAxis = d.hingeAxis / axis;
    b.pivot = d.hingePoint;
    // it starts turning about the axis at the spin given along it
    spinAboutHinge(b, dot(d.angularVelocity, b.hingeAxis));
  }
  return b;
}

void RigidBodies::setup(const SimulationDesc& scene, const std::vector<ColliderData>& colliders,
                        const std::vector<ShapeMass>& masses, Index particleCapacity) {
  std::vector<RigidBody> bodies;
  std::vector<int> slotOf(scene.colliders.size() + 1, -1);  // the domain last, never a body
  for (std::size_t i = 0; i < scene.colliders.size(); ++i)
    if (scene.colliders[i].density > 0) {
      slotOf[i] = int(bodies.size());
      bodies.push_back(makeRigidBody(scene, i, colliders[i], masses[i]));
    }
  count_ = int(bodies.size());
  colliderCount_ = int(scene.colliders.size());
  hostSlotOf_ = slotOf;
  if (count_ == 0) return;
  bodies_ = Buffer<RigidBody>(kDevice, bodies.size());
  bodies_.upload(bodies.data(), bodies.size());
  // the colliders a body meets that are not bodies themselves, in the scene's order
  std::vector<int> obstacles;
  for (int i = 0; i < colliderCount_; ++i)
    if (slotOf[std::size_t(i)] < 0) obstacles.push_back(i);
  obstacleCount_ = int(obstacles.size());
  obstacles_ = Buffer<int>(kDevice, std::max<std::size_t>(obstacles.size(), 1));
  if (!obstacles.empty()) obstacles_.upload(obstacles.data(), obstacles.size());
  sums_ = Buffer<double>(kDevice, std::size_t(6) * count_);
  const std::size_t pairs = contactPairs(count_, obstacleCount_);
  sets_ = Buffer<ContactSet>(kDevice, pairs);
  contacts_ = Buffer<StoredContact>(kDevice, pairs * kContactSlots);
  impulses_ = Buffer<ContactImpulse>(kDevice, pairs * kContactSlots);
  lists_ = Buffer<int>(kDevice, 2 * pairs);
  inverseInertia_ = Buffer<Sym3>(kDevice, std::size_t(count_));
  forces_.setup(slotOf, particleCapacity);
}

void RigidBodies::reserve(Index particleCapacity) {
  if (count_ > 0) forces_.reserve(particleCapacity);
}

void RigidBodies::advance(Measurements& measurements, StepContext& ctx, Solver& solver,
                          ColliderData* colliders, Real t, Real dt) {
  if (count_ == 0) return;
  double* sums = sums_.data();
  // the reaction of what the fluid received from the bodies: through the particles' wall terms, or
  // through a grid solver's nodes (without particles the step leaves the grid as it was)
  const NodePushes nodes = solver.nodePushes(ctx);
  bool withFluid = false;
  if (nodes.push) {
    withFluid = ctx.particles.size() > 0;
    if (withFluid) forces_.compute(nodes, ctx.colliders, t, sums);
  } else {
    const WallForceInputs fluid = measurements.wallForceInputs(ctx, solver, t, forces_.colliderBits());
    withFluid = fluid.pressure != nullptr;
    if (withFluid) forces_.compute(fluid, sums);
  }
  RigidBody* bodies = bodies_.data();
  Sym3* inverseInertia = inverseInertia_.data();
  parallelFor(
      Index(count_), EDDY_KERNEL(Index k) {
        RigidBody& b = bodies[k];
        const double none[6] = {0, 0, 0, 0, 0, 0};
        integrateBody(b, withFluid ? sums + 6 * k : none, dt);
        // the contacts' passes do not turn the body: this holds for all of them
        inverseInertia[k] = worldInverseInertia(b);
      });
  // the contacts, found once for the passes, one thread a candidate pair (sim/body_contact_detection.h)
  ContactScene scene{bodies, inverseInertia, count_, colliders, obstacles_.data(), obstacleCount_, t, dt};
  const int pairs = int(contactPairs(count_, obstacleCount_));
  ContactSet* sets = sets_.data();
  StoredContact* contacts = contacts_.data();
  parallelFor(
      Index(pairs), EDDY_KERNEL(Index p) { detectPair(scene, int(p), sets, contacts); });
  // the contacts couple the bodies, so one thread resolves them all, in a fixed order
  ContactBodies solve{bodies, inverseInertia};
  int* lists = lists_.data();
  ContactImpulse* impulses = impulses_.data();
  const int count = count_;
  parallelFor(
      Index(1), EDDY_KERNEL(Index) {
        solveContacts(solve, sets, contacts, pairs, lists, impulses, dt);
        for (int k = 0; k < count; ++k) placeCollider(bodies[k], colliders[bodies[k].collider], t);
      });
}

std::vector<RigidBody> RigidBodies::download() const {
  std::vector<RigidBody> out(static_cast<std::size_t>(count_));
  if (count_ > 0) bodies_.download(out.data(), out.size());
  return out;
}

std::string RigidBodies::save() const {
  std::vector<RigidBody> b = download();
  return std::string(reinterpret_cast<const char*>(b.data()), b.size() * sizeof(RigidBody));
}

RigidBody RigidBodies::body(std::size_t collider) const {
  RigidBody b;
  bodies_.download(&b, 1, std::size_t(hostSlotOf_[collider]));
  return b;
}

void RigidBodies::check(const std::string& bytes) const {
  if (bytes.size() != std::size_t(count_) * sizeof(RigidBody))
    throw InputError("the saved state does not fit the scene: " + std::to_string(bytes.size()) +
                     " bytes of rigid bodies, " + std::to_string(std::size_t(count_) * sizeof(RigidBody)) +
                     " expected");
}

void RigidBodies::restore(const std::string& bytes, ColliderData* colliders, Real t) {
  check(bytes);
  if (count_ == 0) return;
  bodies_.upload(reinterpret_cast<const RigidBody*>(bytes.data()), std::size_t(count_));
  place(colliders, t);
}

void RigidBodies::place(ColliderData* colliders, Real t) {
  if (count_ == 0) return;
  RigidBody* bodies = bodies_.data();
  parallelFor(
      Index(count_), EDDY_KERNEL(Index k) { placeCollider(bodies[k], colliders[bodies[k].collider], t); });
}

std::size_t RigidBodies::bytes() const {
  return bodies_.bytes() + obstacles_.bytes() + sums_.bytes() + sets_.bytes() + contacts_.bytes() +
         impulses_.bytes() + lists_.bytes() + inverseInertia_.bytes() + forces_.bytes();
}

}  // namespace eddy::EDDY_NS
