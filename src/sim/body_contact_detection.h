// Detection of the rigid bodies' contacts (sim/body_contacts.h), once a substep, one thread a candidate
// pair: body against domain wall, body against collider, body against body.
//
// Detection samples a body at points and measures them with the other side's signed distance: each of the
// body's samples (colliders/shape_mass.h) is a small sphere, a point for a box's corners, a cylinder's
// rims and a mesh's spread vertices, the whole ball for a sphere and a capsule's end balls (its distance
// less the radius, with the distance's gradient as the normal, which is exact for a ball against any
// convex shape). So that a face resting on a smaller collider is not missed, the collider's point nearest
// the body's centre is measured against the body too. Two boxes (two bodies, or a body and a box
// collider) touch where boxContacts clips the face of one to the face of the other; two other bodies
// where the samples of each meet the other. The domain's walls are planes that each sample's point
// nearest the wall is measured against, and a cylinder's rims also at their points nearest the wall, so
// a cylinder rolls on its rims rather than on twelve corners. Two boxes whose edges cross are seen only
// through the corners of the clipped face, so crossed edges may sink a little into each other; a mesh
// is seen through its samples, so a sharp edge between two of them may sink into a wall.
//
// Each pair writes its contacts into its own slots (kContactSlots from contactSlot), so their order is
// fixed whatever the threads do; a pair whose bounding spheres (plus the widest gap a contact counts) do
// not meet writes none. With each contact go what the solve's passes would otherwise work out again on
// every pass: its arms, its inverse mass matrix, the collider's surface velocity, and its anchors.
#pragma once

#include "colliders/collider.h"
#include "sim/rigid_bodies.h"

namespace eddy::EDDY_NS {

// one sampled contact: body a is pushed along normal (away from the other side) where depth > 0
struct BodyContact {
  Vec3 point{};
  Vec3 normal{0, 1, 0};
  Real depth = 0;
};

// no contact: further apart than any margin
EDDY_HD inline BodyContact noContact() { return {Vec3{}, Vec3{0, 1, 0}, Real(-1e30)}; }

// the body's signed distance at world point p (negative inside), *n its outward unit gradient
EDDY_HD inline Real bodyDistance(const ColliderData& shape, const RigidBody& b, Vec3 p, Vec3* n) {
  Vec3 g;
  Real d = shapeDistanceGradient(shape, rotate(conjugate(b.orientation), p - shapeOrigin(b)), &g);
  *n = rotate(b.orientation, g);
  return d;
}

// the world point at `local` in the body's shape frame (from the shape's centre, a mesh's origin)
EDDY_HD inline Vec3 bodyPoint(const RigidBody& b, Vec3 local) {
  return shapeOrigin(b) + rotate(b.orientation, local);
}

// the point of sample k's ball farthest along the world direction d (unit)
EDDY_HD inline Vec3 samplePoint(const RigidBody& b, int k, Vec3 d) {
  return bodyPoint(b, b.samples[k]) + d * b.sampleRadius;
}

// the point of a cylinder's rim (the cap at side -1 or +1 along its axis) farthest along d (unit); the
// cap's centre where d is along the axis, for which every rim point is as far
EDDY_HD inline Vec3 rimPoint(const ColliderData& c, const RigidBody& b, Real side, Vec3 d) {
  Vec3 axis = rotate(b.orientation, Vec3{0, 1, 0});
  Vec3 across = d - axis * dot(d, axis);
  Real l = length(across);
  Vec3 cap = bodyPoint(b, Vec3{0, side * c.halfHeight, 0});
  return l > Real(1e-6) ? cap + across * (c.radius / l) : cap;
}

// a point q of the other side measured against body a: a is pushed out of q's way
EDDY_HD inline BodyContact pointInA(const ColliderData& shape, const RigidBody& a, Vec3 q) {
  Vec3 g;
  Real d = bodyDistance(shape, a, q, &g);
  return {q, g * Real(-1), -d};
}

// how many candidates body a has against each of the domain's walls: every sample (a box lying on the
// floor rests on four corners, a sphere on its ball's lowest point), and a cylinder's two rims
EDDY_HD inline int wallCandidates(const ColliderData& shape, const RigidBody& a) {
  return a.sampleCount + (shape.kind == ShapeKind::Cylinder ? 2 : 0);
}

// candidate k of body a against the domain's wall `wall` (-x, +x, -y, +y, -z, +z)
EDDY_HD inline BodyContact wallContact(const ColliderData& shape, const RigidBody& a, int wall, int k) {
  int axis = wall / 2;
  Vec3 out{};
  (&out.x)[axis] = wall % 2 ? Real(1) : Real(-1);
  Vec3 p = k < a.sampleCount ? samplePoint(a, k, out) : rimPoint(shape, a, k == a.sampleCount ? -1 : 1, out);
  Real at = wall % 2 ? (&a.domainHi.x)[axis] : (&a.domainLo.x)[axis];
  Real depth = wall % 2 ? (&p.x)[axis] - at : at - (&p.x)[axis];
  return {p, out * Real(-1), depth};
}

// how far a box reaches from its centre along the world direction u (unit)
EDDY_HD inline Real boxReach(const ColliderData& s, const RigidBody& b, Vec3 u) {
  Vec3 l = rotate(conjugate(b.orientation), u);
  return s.halfExtents.x * fabsf(l.x) + s.halfExtents.y * fabsf(l.y) + s.halfExtents.z * fabsf(l.z);
}

EDDY_HD inline Vec3 boxAxis(const RigidBody& b, int i) {
  Vec3 e{};
  (&e.x)[i] = 1;
  return rotate(b.orientation, e);
}

// Where two boxes touch face to face, edge to face or corner to face: the face of one along whose normal
// they overlap least (the separating axis test over the six face normals, Gottschalk, Lin & Manocha,
// "OBBTree", SIGGRAPH 1996) is the reference; the face of the other turned most against it is clipped to
// the reference face's sides (Sutherland & Hodgman, "Reentrant polygon clipping", CACM 1974), and each
// point left is a contact, with its depth below the reference face along the one normal of the pair.
// Two boxes standing offset on each other touch over the overlap of their faces, whose corners are
// partly edge crossings that no corner of either box marks; and a corner's own nearest face is
// ambiguous where boxes of one size stand aligned.
struct BoxContacts {
  int count = 0;
  Vec3 point[8];
  Real depth[8];
  Vec3 normal{0, 1, 0};  // from b to a
};

EDDY_HD inline BoxContacts boxContacts(const ColliderData& sa, const RigidBody& a, const ColliderData& sb,
                                       const RigidBody& b) {
  BoxContacts out;
  Vec3 d = a.position - b.position;
  Real least = Real(1e30);
  int best = 0;
  for (int k = 0; k < 6; ++k) {
    Vec3 u = boxAxis(k < 3 ? a : b, k % 3);
    Real overlap = boxReach(sa, a, u) + boxReach(sb, b, u) - fabsf(dot(d, u));
    if (overlap < least) least = overlap, best = k;
  }
  bool refIsB = best >= 3;
  const RigidBody& ref = refIsB ? b : a;
  const RigidBody& inc = refIsB ? a : b;
  const Vec3 eRef = (refIsB ? sb : sa).halfExtents, eInc = (refIsB ? sa : sb).halfExtents;
  int axis = best % 3;
  // the reference face's outward normal, toward the other box
  Vec3 refN = boxAxis(ref, axis);
  if (dot(inc.position - ref.position, refN) < 0) refN = refN * Real(-1);
  out.normal = refIsB ? refN : refN * Real(-1);
  Vec3 refCentre = ref.position + refN * (&eRef.x)[axis];
  Vec3 u1 = boxAxis(ref, (axis + 1) % 3), u2 = boxAxis(ref, (axis + 2) % 3);
  Real h1 = (&eRef.x)[(axis + 1) % 3], h2 = (&eRef.x)[(axis + 2) % 3];
  // the incident face: the other box's face turned most against refN
  int incAxis = 0;
  Real most = -1;
  for (int i = 0; i < 3; ++i) {
    Real c = fabsf(dot(boxAxis(inc, i), refN));
    if (c > most) most = c, incAxis = i;
  }
  Vec3 fn = boxAxis(inc, incAxis);
  if (dot(fn, refN) > 0) fn = fn * Real(-1);
  Vec3 t1 = boxAxis(inc, (incAxis + 1) % 3) * (&eInc.x)[(incAxis + 1) % 3];
  Vec3 t2 = boxAxis(inc, (incAxis + 2) % 3) * (&eInc.x)[(incAxis + 2) % 3];
  Vec3 fc = inc.position + fn * (&eInc.x)[incAxis];
  Vec3 poly[8] = {fc + t1 + t2, fc - t1 + t2, fc - t1 - t2, fc + t1 - t2};
  int n = 4;
  // clip to the four sides: dot(p - refCentre, side) <= reach
  for (int side = 0; side < 4 && n > 0; ++side) {
    Vec3 dir = side < 2 ? u1 : u2;
    if (side % 2) dir = dir * Real(-1);
    Real reach = side < 2 ? h1 : h2;
    Vec3 kept[8];
    int m = 0;
    for (int i = 0; i < n; ++i) {
      Vec3 p = poly[i], q = poly[(i + 1) % n];
      Real fp = dot(p - refCentre, dir) - reach, fq = dot(q - refCentre, dir) - reach;
      if (fp <= 0 && m < 8) kept[m++] = p;
      // a crossing only where the edge changes sides strictly: an end on the side is kept as a corner
      // already, and adding it again would fill the eight places with copies and drop a real corner
      if (((fp < 0 && fq > 0) || (fp > 0 && fq < 0)) && m < 8) kept[m++] = p + (q - p) * (fp / (fp - fq));
    }
    n = m;
    for (int i = 0; i < n; ++i) poly[i] = kept[i];
  }
  for (int i = 0; i < n; ++i) {
    out.point[i] = poly[i];
    out.depth[i] = -dot(poly[i] - refCentre, refN);
  }
  out.count = n;
  return out;
}

// the contact of body a with body b where one of them is a sphere
EDDY_HD inline BodyContact sphereContact(const ColliderData& sa, const RigidBody& a, const ColliderData& sb,
                                         const RigidBody& b) {
  Vec3 g;
  if (sa.kind == ShapeKind::Sphere) {
    Real d = bodyDistance(sb, b, a.position, &g) - sa.radius;
    return {a.position - g * sa.radius, g, -d};
  }
  Real d = bodyDistance(sa, a, b.position, &g) - sb.radius;
  return {b.position - g * sb.radius, g * Real(-1), -d};
}

// how many candidates body a has against collider s: its samples, and but for a sphere the obstacle's
// point nearest its centre (a box against a box obstacle: boxContacts)
EDDY_HD inline int colliderCandidates(const ColliderData& shape, const RigidBody& a, const ColliderData& s) {
  if (shape.kind == ShapeKind::Sphere) return 1;
  return a.sampleCount + (s.container ? 0 : 1);
}

// candidate k of body a against collider s at time t (normal: toward s's fluid side, out of an obstacle,
// into a container)
EDDY_HD inline BodyContact colliderContact(const ColliderData& shape, const RigidBody& a,
                                           const ColliderData& s, Real t, int k) {
  Vec3 n;
  if (k < a.sampleCount) {
    Vec3 p = bodyPoint(a, a.samples[k]);
    Real phi = signedDistance(s, p, t, &n);
    return {p - n * a.sampleRadius, n, a.sampleRadius - phi};
  }
  if (k == a.sampleCount) {
    // the obstacle's point nearest the centre (none where the centre is inside it)
    Real phi = signedDistance(s, a.position, t, &n);
    if (!(phi > 0)) return noContact();
    return pointInA(shape, a, a.position - n * phi);
  }
  return noContact();
}

// P I^-1 P v in the world frame, from the principal moments and their axes, P the rotations the body's
// locks leave free (exact for a body free to turn, or held to turn about one of its principal axes)
EDDY_HD inline Vec3 inverseInertiaTimes(const RigidBody& b, Vec3 v) {
  Quat axes = b.orientation * b.principal;
  Vec3 l = rotate(conjugate(axes), masked(v, b.freeAngular));
  return masked(rotate(axes, Vec3{l.x / b.inertia.x, l.y / b.inertia.y, l.z / b.inertia.z}), b.freeAngular);
}

// 1 / mass along the unit direction d, what the locks let move
EDDY_HD inline Real inverseMassAlong(const RigidBody& b, Vec3 d) {
  return dot(d, masked(d, b.freeLinear)) / b.mass;
}

// the body's inverse inertia in the world frame, P I^-1 P as inverseInertiaTimes applies it
EDDY_HD inline Sym3 worldInverseInertia(const RigidBody& b) {
  Vec3 cx = inverseInertiaTimes(b, Vec3{1, 0, 0}), cy = inverseInertiaTimes(b, Vec3{0, 1, 0});
  Vec3 cz = inverseInertiaTimes(b, Vec3{0, 0, 1});
  return {cx.x, cy.y, cz.z, cx.y, cx.z, cy.z};
}

// the inverse mass matrix of body b at the arm r from its centre: an impulse j there changes the point's
// velocity by K j, K = (free linear axes) / m - [r]x W [r]x (Mirtich 1996); d . K d is 1 / the effective
// mass along the unit direction d
EDDY_HD inline Sym3 pointInverseMass(const RigidBody& b, const Sym3& w, Vec3 r) {
  if (b.hinged) {
    // an impulse j turns it by (u . j) / I about the axis a, u = a x s with s from the pivot to the point,
    // which moves the point along u: K = u u^T / I
    Vec3 u = cross(b.hingeAxis, r + b.position - b.pivot);
    Real k = 1 / hingeInertia(b);
    return {u.x * u.x * k, u.y * u.y * k, u.z * u.z * k, u.x * u.y * k, u.x * u.z * k, u.y * u.z * k};
  }
  Vec3 ux = cross(r, Vec3{1, 0, 0}), uy = cross(r, Vec3{0, 1, 0}), uz = cross(r, Vec3{0, 0, 1});
  Vec3 wx = w * ux, wy = w * uy, wz = w * uz;
  Real m = 1 / b.mass;
  return {b.freeLinear.x * m + dot(ux, wx),
          b.freeLinear.y * m + dot(uy, wy),
          b.freeLinear.z * m + dot(uz, wz),
          dot(ux, wy),
          dot(ux, wz),
          dot(uy, wz)};
}

EDDY_HD inline Sym3 operator+(const Sym3& a, const Sym3& b) {
  return {a.xx + b.xx, a.yy + b.yy, a.zz + b.zz, a.xy + b.xy, a.xz + b.xz, a.yz + b.yz};
}

// the most contacts one candidate pair keeps: a cylinder's against a wall, its rims' samples and their
// points nearest the wall; a pair with more candidates (two meshes, each's samples in the other) keeps the
// deepest
constexpr int kContactSlots = kBodySamples + 2;

// candidate k of two bodies that are neither two boxes nor a sphere: a's samples measured against b, then
// b's against a
EDDY_HD inline BodyContact sampledPairContact(const ColliderData& sa, const RigidBody& a,
                                              const ColliderData& sb, const RigidBody& b, int k) {
  Vec3 g;
  if (k < a.sampleCount) {
    Vec3 p = bodyPoint(a, a.samples[k]);
    Real d = bodyDistance(sb, b, p, &g);
    return {p - g * a.sampleRadius, g, a.sampleRadius - d};
  }
  Vec3 q = bodyPoint(b, b.samples[k - a.sampleCount]);
  Real d = bodyDistance(sa, a, q, &g);
  return {q - g * b.sampleRadius, g * Real(-1), b.sampleRadius - d};
}

// the candidate pairs of `bodies` bodies among `obstacles` colliders that are not bodies: each body
// against the six walls and each obstacle, in that order, then the pairs of bodies (i < j)
inline std::size_t contactPairs(int bodies, int obstacles) {
  return std::size_t(bodies) * (6 + std::size_t(obstacles)) + std::size_t(bodies) * (bodies - 1) / 2;
}

// where pair p's contacts start among the slots
EDDY_HD inline int contactSlot(int p) { return p * kContactSlots; }

// what a body and a collider or a wall of the domain need to be met
struct ContactScene {
  const RigidBody* bodies = nullptr;
  const Sym3* inverseInertia = nullptr;
  int count = 0;
  const ColliderData* colliders = nullptr;
  const int* obstacles = nullptr;  // the colliders that are not bodies, by index
  int obstacleCount = 0;
  Real t = 0, dt = 0;
};

// writes what set s's k-th contact needs into out; b the other body or null, vb a collider's surface
// velocity at the point
EDDY_HD inline void storeContact(const ContactScene& in, const ContactSet& s, const BodyContact& k, Vec3 vb,
                                 StoredContact& out) {
  const RigidBody& a = in.bodies[s.a];
  out.point = k.point;
  out.normal = k.normal;
  out.depth = k.depth;
  out.armA = k.point - a.position;
  out.anchorA = rotate(conjugate(a.orientation), out.armA);
  Vec3 pa = a.position + rotate(a.orientation, out.anchorA), pb = k.point;
  Sym3 inverseMass = pointInverseMass(a, in.inverseInertia[s.a], out.armA);
  out.surfaceVelocity = vb;
  if (s.b >= 0) {
    const RigidBody& b = in.bodies[s.b];
    out.armB = k.point - b.position;
    out.anchorB = rotate(conjugate(b.orientation), out.armB);
    pb = b.position + rotate(b.orientation, out.anchorB);
    inverseMass = inverseMass + pointInverseMass(b, in.inverseInertia[s.b], out.armB);
  } else {
    out.armB = Vec3{};
    out.anchorB = k.point;
  }
  // so that the anchors where they are now give the depth found, to rounding
  out.offset = k.depth - dot(k.normal, pb - pa);
  out.inverseMass = inverseMass;
  out.along = dot(k.normal, inverseMass * k.normal);
}

// set s takes contact k unless it is none at all; a full set swaps it for its shallowest contact where k
// is deeper
EDDY_HD inline void addContact(const ContactScene& in, ContactSet& s, const BodyContact& k, Vec3 vb,
                               StoredContact* slots) {
  if (!(k.depth > Real(-1e29))) return;
  int slot = s.count;
  if (slot == kContactSlots) {
    slot = 0;
    for (int j = 1; j < kContactSlots; ++j)
      if (slots[j].depth < slots[slot].depth) slot = j;
    if (!(k.depth > slots[slot].depth)) return;
    s.pushing &= ~(1 << slot);
  } else {
    ++s.count;
  }
  // a gap a resting speed closes within the substep counts (respond), one any wider does not
  if (-k.depth < s.restingSpeed * in.dt) s.pushing |= 1 << slot;
  storeContact(in, s, k, vb, slots[slot]);
}

// the deepest of the set's contacts (the first of equals): where they share one normal, moving the bodies
// apart along it by its depth clears all the others
EDDY_HD inline int deepestContact(const ContactSet& s, const StoredContact* slots) {
  int deepest = -1;
  for (int k = 0; k < s.count; ++k)
    if (deepest < 0 || slots[k].depth > slots[deepest].depth) deepest = k;
  return deepest;
}

// the contacts of candidate pair p (contactPairs' order) into sets[p] and its slots
EDDY_HD inline void detectPair(const ContactScene& in, int p, ContactSet* sets, StoredContact* contacts) {
  ContactSet s;
  StoredContact* slots = contacts + contactSlot(p);
  const int perBody = 6 + in.obstacleCount;
  const Real t = in.t;
  if (p < in.count * perBody) {
    s.a = p / perBody;
    const int other = p % perBody;
    const RigidBody& a = in.bodies[s.a];
    const ColliderData& sa = in.colliders[a.collider];
    s.restingSpeed = 2 * length(a.gravity) * in.dt;  // gravity's over two substeps
    Real margin = s.restingSpeed * in.dt;            // the widest gap the velocity passes count
    Real reach = a.reach + margin;
    if (other < 6) {
      // a wall further from the centre than the body reaches has no contact
      s.restitution = sa.restitution, s.friction = a.friction;
      int axis = other / 2;
      Real gap = other % 2 ? (&a.domainHi.x)[axis] - (&a.position.x)[axis]
                           : (&a.position.x)[axis] - (&a.domainLo.x)[axis];
      if (!(gap > reach)) {
        for (int k = 0, n = wallCandidates(sa, a); k < n; ++k)
          addContact(in, s, wallContact(sa, a, other, k), Vec3{}, slots);
        s.deepest = deepestContact(s, slots);
      }
    } else {
      const ColliderData& cs = in.colliders[in.obstacles[other - 6]];
      s.restitution = (sa.restitution + cs.restitution) / 2, s.friction = (a.friction + cs.friction) / 2;
      // nothing of the body comes within reach of a collider further from its centre than that
      if (!(signedDistance(cs, a.position, t, nullptr) > reach)) {
        if (sa.kind == ShapeKind::Box && cs.kind == ShapeKind::Box && !cs.container) {
          // a box collider is met as a box body is, face against face
          RigidBody box;
          box.position = colliderCenter(cs, t);
          box.orientation = colliderOrientation(cs, t);
          BoxContacts m = boxContacts(sa, a, cs, box);
          for (int k = 0; k < m.count; ++k) {
            BodyContact c{m.point[k], m.normal, m.depth[k]};
            addContact(in, s, c, colliderVelocityAt(cs, c.point, t), slots);
          }
          s.deepest = deepestContact(s, slots);
        } else {
          for (int k = 0, n = colliderCandidates(sa, a, cs); k < n; ++k) {
            BodyContact c = colliderContact(sa, a, cs, t, k);
            addContact(in, s, c, colliderVelocityAt(cs, c.point, t), slots);
          }
        }
      }
    }
  } else {
    // pair q of bodies i < j: row i holds count - 1 - i pairs
    int q = p - in.count * perBody, i = 0;
    while (q >= in.count - 1 - i) q -= in.count - 1 - i, ++i;
    s.a = i, s.b = i + 1 + q;
    const RigidBody &a = in.bodies[s.a], &b = in.bodies[s.b];
    const ColliderData &sa = in.colliders[a.collider], &sb = in.colliders[b.collider];
    s.restitution = (sa.restitution + sb.restitution) / 2, s.friction = (a.friction + b.friction) / 2;
    s.restingSpeed = 2 * length(a.gravity) * in.dt;
    Real margin = s.restingSpeed * in.dt;
    if (!(length(a.position - b.position) > a.reach + b.reach + margin)) {
      if (sa.kind == ShapeKind::Box && sb.kind == ShapeKind::Box) {
        BoxContacts m = boxContacts(sa, a, sb, b);
        for (int k = 0; k < m.count; ++k)
          addContact(in, s, {m.point[k], m.normal, m.depth[k]}, Vec3{}, slots);
        s.deepest = deepestContact(s, slots);
      } else if (sa.kind == ShapeKind::Sphere || sb.kind == ShapeKind::Sphere) {
        addContact(in, s, sphereContact(sa, a, sb, b), Vec3{}, slots);
      } else {
        for (int k = 0, n = a.sampleCount + b.sampleCount; k < n; ++k)
          addContact(in, s, sampledPairContact(sa, a, sb, b, k), Vec3{}, slots);
      }
    }
  }
  // a hinge turns its body, so each contact moves by its own lever: no one contact undoes the others
  if (in.bodies[s.a].hinged || (s.b >= 0 && in.bodies[s.b].hinged)) s.deepest = -1;
  sets[p] = s;
}

}  // namespace eddy::EDDY_NS
