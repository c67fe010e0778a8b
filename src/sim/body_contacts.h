// Contacts of rigid bodies (sim/rigid_bodies.h) with the domain's walls, with the other colliders (static,
// or moving as the scene prescribes) and with each other, resolved after each substep's integration.
//
// Detection (sim/body_contact_detection.h) runs once a substep, one thread a candidate pair, each pair
// writing its contacts into slots of its own; then one thread solves them all in the pairs' fixed order
// (Gauss-Seidel), so a CPU run repeats and resumes to the bit and the GPU runs the same code.
//
// Response, in the order of Guendelman, Bridson & Fedkiw, "Nonconvex rigid bodies with stacking",
// SIGGRAPH 2003: velocities first (sequential impulses with speculative contacts, see respond;
// restitution only on normal speeds above the speed gravity gives in two substeps, so a resting contact
// does not bounce), then positions (overlaps undone without touching the velocities, so undoing one adds
// no energy). An impulse at contact point p along the normal n has the effective mass
// 1 / (1/m_a + (r_a x n) . I_a^-1 (r_a x n) + the same of b) (Mirtich, "Impulse-based dynamic simulation
// of rigid body systems", PhD thesis, Berkeley 1996), so it turns the body too (a box dropped on its edge
// lands on a face); the tangential impulse stops the sliding at p as far as Coulomb's law allows, mu
// times the normal impulse (Bridson, Fedkiw & Anderson 2002). The velocity passes move nothing, so the
// contacts found before them hold for every one of them. The position passes move each overlapping body
// out along the normal by the overlap, split between two bodies in proportion to their inverse masses,
// all to a body against a collider; a contact's overlap as they move the bodies is measured, not detected
// again, from its anchors, the contact point fixed in each side's frame (the position solver of Catto's
// Box2D): depth = offset + n . (p_b - p_a), offset the depth found less n . (p_b - p_a) then. Contacts
// that share one normal (two boxes' clipped faces, a box's corners on a wall) are undone by the deepest
// alone, since moving the bodies apart along the normal by its depth clears all the others.
//
// A pair's coefficients are the means of its two sides' "restitution" and "friction"; a domain wall
// takes the body's own.
#pragma once

#include "sim/body_contact_detection.h"

namespace eddy::EDDY_NS {

// Gauss-Seidel passes a substep: enough for three boxes stacked to rest within 0.2 mm/s of still and
// 0.01 mm of their heights (tests/test_body_contacts.cpp); a velocity pass visits every contact found
// near enough once, a position pass every pair's deepest (or each contact, where their normals differ)
constexpr int kVelocityPasses = 10;
constexpr int kPositionPasses = 10;

// the bodies and their inverse inertias (world frame) as the solve changes them
struct ContactBodies {
  RigidBody* bodies = nullptr;
  const Sym3* inverseInertia = nullptr;
};

// a's velocity at contact k relative to the other side's
EDDY_HD inline Vec3 relativeVelocity(const ContactBodies& in, const ContactSet& s, const StoredContact& k) {
  const RigidBody& a = in.bodies[s.a];
  Vec3 v = a.linearVelocity + cross(a.angularVelocity, k.armA);
  if (s.b < 0) return v - k.surfaceVelocity;
  const RigidBody& b = in.bodies[s.b];
  return v - (b.linearVelocity + cross(b.angularVelocity, k.armB));
}

// impulse j on body b at the arm r from its centre of mass: a hinged body only turns about its axis, by
// the impulse's moment about it over its moment of inertia there
EDDY_HD inline void impulseOn(RigidBody& b, const Sym3& inverseInertia, Vec3 r, Vec3 j) {
  if (b.hinged) {
    Real moment = dot(cross(r + b.position - b.pivot, j), b.hingeAxis);
    spinAboutHinge(b, dot(b.angularVelocity, b.hingeAxis) + moment / hingeInertia(b));
    return;
  }
  b.linearVelocity += masked(j, b.freeLinear) * (1 / b.mass);
  b.angularVelocity += inverseInertia * cross(r, j);
}

// impulse j on a at contact k, -j on b
EDDY_HD inline void applyImpulse(const ContactBodies& in, const ContactSet& s, const StoredContact& k,
                                 Vec3 j) {
  impulseOn(in.bodies[s.a], in.inverseInertia[s.a], k.armA, j);
  if (s.b >= 0) impulseOn(in.bodies[s.b], in.inverseInertia[s.b], k.armB, j * Real(-1));
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
EDDY_HD inline void respond(const ContactBodies& in, const ContactSet& s, const StoredContact& k,
                            ContactImpulse& acc, bool first, Real dt) {
  if (first) acc = ContactImpulse{};
  // a gap a resting speed closes within the substep counts too (a speculative contact, Catto 2013)
  Real gap = -k.depth;
  if (!(gap < s.restingSpeed * dt)) return;
  Vec3 n = k.normal;
  Real vn = dot(relativeVelocity(in, s, k), n);
  if (first) {
    if (gap > 0)
      acc.target = -vn > s.restingSpeed ? Real(-1e30) : -gap / dt;
    else
      acc.target = -vn > s.restingSpeed ? -s.restitution * vn : Real(0);
  }
  // a pair the locks hold along the normal on both sides takes no impulse along it
  if (!(k.along > 0)) return;
  Real total = fmaxf(acc.normal + (acc.target - vn) / k.along, Real(0));
  applyImpulse(in, s, k, n * (total - acc.normal));
  acc.normal = total;
  Vec3 v = relativeVelocity(in, s, k);
  Vec3 vt = v - n * dot(v, n);
  Real slide = length(vt);
  Vec3 tangent = acc.tangent;
  if (slide > 0) {
    Vec3 u = vt / slide;
    Real across = dot(u, k.inverseMass * u);
    if (across > 0) tangent -= vt / across;
  }
  Real limit = s.friction * acc.normal, held = length(tangent);
  if (held > limit) tangent *= limit / held;
  applyImpulse(in, s, k, tangent - acc.tangent);
  acc.tangent = tangent;
}

// contact k's depth with the bodies where they are now, from its anchors
EDDY_HD inline Real currentDepth(const ContactBodies& in, const ContactSet& s, const StoredContact& k) {
  const RigidBody& a = in.bodies[s.a];
  Vec3 pa = a.position + rotate(a.orientation, k.anchorA), pb = k.anchorB;
  if (s.b >= 0) pb = in.bodies[s.b].position + rotate(in.bodies[s.b].orientation, k.anchorB);
  return k.offset + dot(k.normal, pb - pa);
}

// How far a body moves per unit of "share" to undo an overlap along n (unit) at the point anchored at
// `anchor` (its frame): a free body moves along n by share / m, all of it at the point (so its weight
// there is 1 / m, what the locks let move); a hinged one turns by share (u . n) / I about its axis, u = a x
// s, which moves the point along n by share (u . n)^2 / I.
EDDY_HD inline Real separationWeight(const RigidBody& b, Vec3 anchor, Vec3 n) {
  if (!b.hinged) return inverseMassAlong(b, n);
  Real un = dot(cross(b.hingeAxis, b.position + rotate(b.orientation, anchor) - b.pivot), n);
  return un * un / hingeInertia(b);
}
EDDY_HD inline void moveApart(RigidBody& b, Vec3 anchor, Vec3 n, Real share) {
  if (!b.hinged) {
    b.position += masked(n, b.freeLinear) * (share / b.mass);
    return;
  }
  Real un = dot(cross(b.hingeAxis, b.position + rotate(b.orientation, anchor) - b.pivot), n);
  turnAboutHinge(b, share * un / hingeInertia(b));
}

// position response at one contact: out of the overlap along the normal, split by inverse mass; true
// where it moved a body
EDDY_HD inline bool separate(const ContactBodies& in, const ContactSet& s, const StoredContact& k) {
  Real depth = currentDepth(in, s, k);
  if (!(depth > 0)) return false;
  RigidBody& a = in.bodies[s.a];
  RigidBody* b = s.b >= 0 ? &in.bodies[s.b] : nullptr;
  Real wa = separationWeight(a, k.anchorA, k.normal);
  Real wb = b ? separationWeight(*b, k.anchorB, k.normal * Real(-1)) : Real(0);
  if (!(wa + wb > 0)) return false;  // held along the normal on both sides
  Real share = depth / (wa + wb);
  moveApart(a, k.anchorA, k.normal, share);
  if (b) moveApart(*b, k.anchorB, k.normal * Real(-1), share);
  return true;
}

// the velocity passes, then the position passes, over the contacts that detectPair stored for each of the
// `pairs` candidate pairs, in the pairs' order; lists: room for two lists of pairs, impulses: one a slot.
// The velocity passes visit only the contacts near enough to count; a position pass that moves nothing
// leaves the next one nothing to do, so the passes stop there.
EDDY_HD inline void solveContacts(const ContactBodies& in, const ContactSet* sets,
                                  const StoredContact* contacts, int pairs, int* lists,
                                  ContactImpulse* impulses, Real dt) {
  // the pairs with contacts, and those with contacts the velocity passes count, each in order (no
  // branch on the loads, so they need not wait on each other)
  int* touching = lists;
  int* pushing = lists + pairs;
  int n = 0, m = 0;
  for (int p = 0; p < pairs; ++p) {
    const ContactSet& s = sets[p];
    touching[n] = p, pushing[m] = p;
    n += s.count > 0, m += s.pushing != 0;
  }
  for (int pass = 0; pass < kVelocityPasses; ++pass)
    for (int i = 0; i < m; ++i) {
      const int p = pushing[i];
      const ContactSet s = sets[p];
      for (int k = 0; k < s.count; ++k)
        if (s.pushing >> k & 1)
          respond(in, s, contacts[contactSlot(p) + k], impulses[contactSlot(p) + k], pass == 0, dt);
    }
  for (int pass = 0; pass < kPositionPasses; ++pass) {
    bool moved = false;
    for (int i = 0; i < n; ++i) {
      const int p = touching[i];
      const ContactSet s = sets[p];
      if (s.deepest >= 0)
        moved |= separate(in, s, contacts[contactSlot(p) + s.deepest]);
      else
        for (int k = 0; k < s.count; ++k) moved |= separate(in, s, contacts[contactSlot(p) + k]);
    }
    if (!moved) break;
  }
}

}  // namespace eddy::EDDY_NS
