// Contacts of rigid bodies (sim/rigid_bodies.h) with the domain's walls, with the other colliders (static,
// or moving as the scene prescribes) and with each other, resolved after each substep's integration.
//
// Detection samples points and measures them with the other side's signed distance: a box's 8 corners, a
// sphere's centre (its distance less the radius, with the distance's gradient as the normal, which is
// exact for a sphere against any convex shape). So that a box's face resting on a smaller collider is not
// missed, the collider's point nearest the box's centre is measured against the box too. Two boxes (two
// bodies, or a body and a box collider) touch where boxContacts clips the face of one to the face of
// the other. The domain's walls are planes
// that each corner of a box, or a sphere's nearest point, is measured against. Two boxes whose edges
// cross are seen only through the corners of the clipped face, so crossed edges may sink a little into
// each other.
//
// Response, in the order of Guendelman, Bridson & Fedkiw, "Nonconvex rigid bodies with stacking",
// SIGGRAPH 2003: velocities first (sequential impulses with speculative contacts, see respond;
// restitution only on normal speeds above the speed gravity gives in two substeps, so a resting contact
// does not bounce), then positions (overlaps undone without touching the velocities, so undoing one adds
// no energy). An impulse at contact point p along the normal n has the effective mass
// 1 / (1/m_a + (r_a x n) . I_a^-1 (r_a x n) + the same of b) (Mirtich, "Impulse-based dynamic simulation
// of rigid body systems", PhD thesis, Berkeley 1996), so it turns the body too (a box dropped on its edge
// lands on a face); the tangential impulse stops the sliding at p as far as Coulomb's law allows, mu
// times the normal impulse (Bridson, Fedkiw & Anderson 2002). The position passes move each overlapping
// body out along the normal by the overlap, split between two bodies in proportion to their inverse
// masses, all to a body against a collider. Every pass walks the bodies and pairs in one fixed order
// (Gauss-Seidel), in one thread, so a CPU run repeats and resumes to the bit and the GPU runs the same
// code.
//
// A pair's coefficients are the means of its two sides' "restitution" and "friction"; a domain wall
// takes the body's own.
#pragma once

#include "colliders/collider.h"
#include "sim/rigid_bodies.h"

namespace eddy::EDDY_NS {

// Gauss-Seidel passes a substep: enough for three boxes stacked to rest within 0.2 mm/s of still and
// 0.01 mm of their heights (tests/test_body_contacts.cpp); each pass visits every candidate contact once
constexpr int kVelocityPasses = 10;
constexpr int kPositionPasses = 10;

// one sampled contact: body a is pushed along normal (away from the other side) where depth > 0
struct BodyContact {
  Vec3 point{};
  Vec3 normal{0, 1, 0};
  Real depth = 0;
};

// no contact: further apart than any margin
EDDY_HD inline BodyContact noContact() { return {Vec3{}, Vec3{0, 1, 0}, Real(-1e30)}; }

// the other side of a contact: a body, a collider, or (both null) a domain wall
struct ContactPair {
  RigidBody* a = nullptr;
  const ColliderData* shapeA = nullptr;
  RigidBody* b = nullptr;
  const ColliderData* shapeB = nullptr;  // b's shape, or the collider
  Real restitution = 0;
  Real friction = 0;
};

// the body's signed distance at world point p (negative inside), *n its outward unit gradient
EDDY_HD inline Real bodyDistance(const ColliderData& shape, const RigidBody& b, Vec3 p, Vec3* n) {
  Vec3 g;
  Real d = shapeDistanceGradient(shape, rotate(conjugate(b.orientation), p - b.position), &g);
  *n = rotate(b.orientation, g);
  return d;
}

EDDY_HD inline Vec3 boxCorner(const ColliderData& shape, int k) {
  Vec3 e = shape.halfExtents;
  return {k & 1 ? e.x : -e.x, k & 2 ? e.y : -e.y, k & 4 ? e.z : -e.z};
}

EDDY_HD inline Vec3 bodyPoint(const RigidBody& b, Vec3 local) {
  return b.position + rotate(b.orientation, local);
}

// radius of the sphere about the centre holding the body
EDDY_HD inline Real boundingRadius(const ColliderData& shape) {
  return shape.kind == ShapeKind::Sphere ? shape.radius : length(shape.halfExtents);
}

// the farthest point of the body's shape along the world direction d (unit)
EDDY_HD inline Vec3 supportPoint(const ColliderData& c, const RigidBody& b, Vec3 d) {
  if (c.kind == ShapeKind::Sphere) return b.position + d * c.radius;
  Vec3 local = rotate(conjugate(b.orientation), d);
  Vec3 e = c.halfExtents;
  return bodyPoint(b, {local.x >= 0 ? e.x : -e.x, local.y >= 0 ? e.y : -e.y, local.z >= 0 ? e.z : -e.z});
}

// a point q of the other side measured against body a: a is pushed out of q's way
EDDY_HD inline BodyContact pointInA(const ColliderData& shape, const RigidBody& a, Vec3 q) {
  Vec3 g;
  Real d = bodyDistance(shape, a, q, &g);
  return {q, g * Real(-1), -d};
}

// how many candidates body a has against the domain's walls: every corner of a box against each wall (a
// box lying on the floor rests on four), a sphere's point nearest each
EDDY_HD inline int wallCandidates(const ColliderData& shape) {
  return shape.kind == ShapeKind::Sphere ? 6 : 48;
}

// candidate k of body a against the domain's walls
EDDY_HD inline BodyContact wallContact(const ColliderData& shape, const RigidBody& a, int k) {
  int perWall = shape.kind == ShapeKind::Sphere ? 1 : 8;
  int wall = k / perWall, axis = wall / 2;
  Vec3 out{};
  (&out.x)[axis] = wall % 2 ? Real(1) : Real(-1);
  Vec3 p = perWall == 1 ? supportPoint(shape, a, out) : bodyPoint(a, boxCorner(shape, k % perWall));
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
      if ((fp < 0) != (fq < 0) && fp != fq && m < 8) kept[m++] = p + (q - p) * (fp / (fp - fq));
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

// the contact of body a with body b where one of them is a sphere (two boxes: boxContacts)
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

// how many candidates body a has against collider s (a box against a box obstacle: boxContacts)
EDDY_HD inline int colliderCandidates(const ColliderData& shape, const ColliderData& s) {
  if (shape.kind == ShapeKind::Sphere) return 1;
  return s.container ? 8 : 9;
}

// candidate k of body a against collider s at time t (normal: toward s's fluid side, out of an obstacle,
// into a container)
EDDY_HD inline BodyContact colliderContact(const ColliderData& shape, const RigidBody& a,
                                           const ColliderData& s, Real t, int k) {
  Vec3 n;
  if (shape.kind == ShapeKind::Sphere) {
    Real phi = signedDistance(s, a.position, t, &n);
    return {a.position - n * shape.radius, n, shape.radius - phi};
  }
  if (k < 8) {
    Vec3 p = bodyPoint(a, boxCorner(shape, k));
    Real phi = signedDistance(s, p, t, &n);
    return {p, n, -phi};
  }
  if (k == 8) {
    // the obstacle's point nearest the centre (none where the centre is inside it)
    Real phi = signedDistance(s, a.position, t, &n);
    if (!(phi > 0)) return noContact();
    return pointInA(shape, a, a.position - n * phi);
  }
  return noContact();
}

// P I^-1 P v in the world frame, from the principal moments and the orientation, P the rotations the
// body's locks leave free (exact for a body free to turn, or held to turn about one of its principal axes)
EDDY_HD inline Vec3 inverseInertiaTimes(const RigidBody& b, Vec3 v) {
  Vec3 l = rotate(conjugate(b.orientation), masked(v, b.freeAngular));
  return masked(rotate(b.orientation, Vec3{l.x / b.inertia.x, l.y / b.inertia.y, l.z / b.inertia.z}),
                b.freeAngular);
}

// 1 / mass along the unit direction d, what the locks let move
EDDY_HD inline Real inverseMassAlong(const RigidBody& b, Vec3 d) {
  return dot(d, masked(d, b.freeLinear)) / b.mass;
}

EDDY_HD inline Vec3 pointVelocity(const RigidBody& b, Vec3 p) {
  return b.linearVelocity + cross(b.angularVelocity, p - b.position);
}

// 1 / effective mass of the pair at p along the unit direction d
EDDY_HD inline Real inverseMassAlong(const ContactPair& c, Vec3 p, Vec3 d) {
  Vec3 ra = cross(p - c.a->position, d);
  Real k = inverseMassAlong(*c.a, d) + dot(ra, inverseInertiaTimes(*c.a, ra));
  if (c.b) {
    Vec3 rb = cross(p - c.b->position, d);
    k += inverseMassAlong(*c.b, d) + dot(rb, inverseInertiaTimes(*c.b, rb));
  }
  return k;
}

// impulse j on a at p, -j on b
EDDY_HD inline void applyImpulse(const ContactPair& c, Vec3 p, Vec3 j) {
  c.a->linearVelocity += masked(j, c.a->freeLinear) * (1 / c.a->mass);
  c.a->angularVelocity += inverseInertiaTimes(*c.a, cross(p - c.a->position, j));
  if (!c.b) return;
  c.b->linearVelocity -= masked(j, c.b->freeLinear) * (1 / c.b->mass);
  c.b->angularVelocity -= inverseInertiaTimes(*c.b, cross(p - c.b->position, j));
}

// a's velocity at p relative to the other side's
EDDY_HD inline Vec3 relativeVelocity(const ContactPair& c, Vec3 p, Real t) {
  Vec3 v = pointVelocity(*c.a, p);
  if (c.b) return v - pointVelocity(*c.b, p);
  if (c.shapeB) return v - colliderVelocityAt(*c.shapeB, p, t);
  return v;
}

// velocity response at one contact, as sequential impulses (Catto, "Iterative dynamics with temporal
// coherence", GDC 2005): each pass adds to the contact's total normal impulse what brings the normal
// velocity to the target, the total kept >= 0 (a contact pushes, never pulls), and to the total
// tangential impulse what stops the sliding, the total kept within mu times the normal one (Coulomb,
// Bridson, Fedkiw & Anderson 2002). Totals rather than each pass's increments are clamped, so a pass may
// take back what an earlier one gave too much, and a box resting on four corners settles on all four
// instead of rocking. The first pass sets the target: an approaching normal speed above restingSpeed
// leaves at e times itself, a slower one (gravity's over a substep or two) at 0. A body resting on
// another that falls with it over the substep does not reach into it, so a gap that a slow approach
// closes within the substep counts as a contact that lets the approach close the gap and no more
// (speculative contacts: Catto, "Continuous collision", GDC 2013); a fast one is left to collide in
// the substep it overlaps, with its restitution.
EDDY_HD inline void respond(const ContactPair& c, const BodyContact& k, ContactImpulse& acc, bool first,
                            Real restingSpeed, Real t, Real dt) {
  if (first) acc = ContactImpulse{};
  // a gap a resting speed closes within the substep counts too (a speculative contact, Catto 2013)
  Real gap = -k.depth;
  if (!(gap < restingSpeed * dt)) return;
  Vec3 n = k.normal;
  Real vn = dot(relativeVelocity(c, k.point, t), n);
  if (first) {
    if (gap > 0)
      acc.target = -vn > restingSpeed ? Real(-1e30) : -gap / dt;
    else
      acc.target = -vn > restingSpeed ? -c.restitution * vn : Real(0);
  }
  // a pair the locks hold along the normal on both sides takes no impulse along it
  Real along = inverseMassAlong(c, k.point, n);
  if (!(along > 0)) return;
  Real total = fmaxf(acc.normal + (acc.target - vn) / along, Real(0));
  applyImpulse(c, k.point, n * (total - acc.normal));
  acc.normal = total;
  Vec3 v = relativeVelocity(c, k.point, t);
  Vec3 vt = v - n * dot(v, n);
  Real slide = length(vt);
  Vec3 tangent = acc.tangent;
  Real across = slide > 0 ? inverseMassAlong(c, k.point, vt / slide) : Real(0);
  if (across > 0) tangent -= vt / across;
  Real limit = c.friction * acc.normal, held = length(tangent);
  if (held > limit) tangent *= limit / held;
  applyImpulse(c, k.point, tangent - acc.tangent);
  acc.tangent = tangent;
}

// position response at one contact: out of the overlap along the normal, split by inverse mass
EDDY_HD inline void separate(const ContactPair& c, const BodyContact& k) {
  if (!(k.depth > 0)) return;
  Real wa = inverseMassAlong(*c.a, k.normal), wb = c.b ? inverseMassAlong(*c.b, k.normal) : Real(0);
  if (!(wa + wb > 0)) return;  // held along the normal on both sides
  Real share = k.depth / (wa + wb);
  c.a->position += masked(k.normal, c.a->freeLinear) * (share / c.a->mass);
  if (c.b) c.b->position -= masked(k.normal, c.b->freeLinear) * (share / c.b->mass);
}

// one pass over every body's contacts: impulses (acc: one per contact, in the order visited) or, with
// acc null, overlaps
struct ContactPass {
  ContactImpulse* acc = nullptr;
  bool first = false;
  Real t = 0, dt = 0;
  int next = 0;  // the next contact's entry in acc
  EDDY_HD void visit(const ContactPair& c, const BodyContact& k) {
    if (!acc) return separate(c, k);
    // resting: the speed gravity gives in two substeps
    respond(c, k, acc[next++], first, 2 * length(c.a->gravity) * dt, t, dt);
  }
  // the points where two boxes touch, which share one normal: each takes its impulse; an overlap is undone
  // by the deepest alone, since moving the boxes apart along the normal by its depth clears all the others
  EDDY_HD void visitAll(const ContactPair& c, const BoxContacts& m) {
    if (acc) {
      for (int k = 0; k < m.count; ++k) visit(c, BodyContact{m.point[k], m.normal, m.depth[k]});
      return;
    }
    int deepest = -1;
    for (int k = 0; k < m.count; ++k)
      if (deepest < 0 || m.depth[k] > m.depth[deepest]) deepest = k;
    if (deepest >= 0) separate(c, BodyContact{m.point[deepest], m.normal, m.depth[deepest]});
  }
};

// most contacts a substep can visit: the candidates of every body against the walls, each collider and
// each other body
inline std::size_t mostContacts(int bodies, int colliders) {
  return std::size_t(bodies) * (48 + 9 * std::size_t(colliders)) + std::size_t(bodies) * bodies / 2 * 8;
}

// one pass in a fixed order: domain walls, colliders by index, then the pairs of bodies (i < j);
// colliders[0, colliderCount) are the scene's, slotOf[i] >= 0 marks a body's. The bodies' poses do not
// change between velocity passes, so each visits the same contacts in the same order.
EDDY_HD inline void contactPass(RigidBody* bodies, int count, const ColliderData* colliders,
                                int colliderCount, const int* slotOf, ContactPass& pass) {
  Real t = pass.t;
  for (int i = 0; i < count; ++i) {
    RigidBody& a = bodies[i];
    const ColliderData& sa = colliders[a.collider];
    ContactPair wall{&a, &sa, nullptr, nullptr, sa.restitution, a.friction};
    Real margin = 2 * length(a.gravity) * pass.dt * pass.dt;  // the widest gap respond counts
    Real reach = boundingRadius(sa) + margin;
    // a wall further from the centre than the body reaches has no contact: its candidates are skipped
    for (int wall6 = 0, perWall = wallCandidates(sa) / 6; wall6 < 6; ++wall6) {
      int axis = wall6 / 2;
      Real gap = wall6 % 2 ? (&a.domainHi.x)[axis] - (&a.position.x)[axis]
                           : (&a.position.x)[axis] - (&a.domainLo.x)[axis];
      if (gap > reach) continue;
      for (int k = wall6 * perWall; k < (wall6 + 1) * perWall; ++k) pass.visit(wall, wallContact(sa, a, k));
    }
    for (int s = 0; s < colliderCount; ++s) {
      if (slotOf[s] >= 0) continue;
      const ColliderData& cs = colliders[s];
      // nothing of the body comes within reach of a collider further from its centre than that
      if (signedDistance(cs, a.position, t, nullptr) > reach) continue;
      ContactPair pair{
          &a, &sa, nullptr, &cs, (sa.restitution + cs.restitution) / 2, (a.friction + cs.friction) / 2};
      if (sa.kind == ShapeKind::Box && cs.kind == ShapeKind::Box && !cs.container) {
        // a box collider is met as a box body is, face against face: clipped once, each point visited
        RigidBody other;
        other.position = colliderCenter(cs, t);
        other.orientation = colliderOrientation(cs, t);
        pass.visitAll(pair, boxContacts(sa, a, cs, other));
        continue;
      }
      int n = colliderCandidates(sa, cs);
      for (int k = 0; k < n; ++k) pass.visit(pair, colliderContact(sa, a, cs, t, k));
    }
  }
  for (int i = 0; i < count; ++i)
    for (int j = i + 1; j < count; ++j) {
      RigidBody &a = bodies[i], &b = bodies[j];
      const ColliderData &sa = colliders[a.collider], &sb = colliders[b.collider];
      Real margin = 2 * length(a.gravity) * pass.dt * pass.dt;
      if (length(a.position - b.position) > boundingRadius(sa) + boundingRadius(sb) + margin) continue;
      ContactPair pair{
          &a, &sa, &b, &sb, (sa.restitution + sb.restitution) / 2, (a.friction + b.friction) / 2};
      if (sa.kind == ShapeKind::Box && sb.kind == ShapeKind::Box)
        pass.visitAll(pair, boxContacts(sa, a, sb, b));  // clipped once, each point visited
      else
        pass.visit(pair, sphereContact(sa, a, sb, b));
    }
}

// every contact of the bodies at time t, the end of a substep of length dt; acc: mostContacts entries
EDDY_HD inline void resolveContacts(RigidBody* bodies, int count, const ColliderData* colliders,
                                    int colliderCount, const int* slotOf, ContactImpulse* acc, Real t,
                                    Real dt) {
  for (int p = 0; p < kVelocityPasses; ++p) {
    ContactPass pass{acc, p == 0, t, dt};
    contactPass(bodies, count, colliders, colliderCount, slotOf, pass);
  }
  for (int p = 0; p < kPositionPasses; ++p) {
    ContactPass pass{nullptr, false, t, dt};
    contactPass(bodies, count, colliders, colliderCount, slotOf, pass);
  }
}

}  // namespace eddy::EDDY_NS
