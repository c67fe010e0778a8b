// Signed-distance colliders, analytic (plane, box, sphere, capsule, cylinder) or a triangle mesh's distance
// field (colliders/mesh_sdf.h), static, in prescribed rigid motion (constant velocities, or keyframed
// poses), with position-level and velocity-level contact response.
//
// Compiled by the C++ compiler and by nvcc: everything a kernel calls is an EDDY_HD inline function on
// the POD ColliderData; the make* builders are host-only.
//
// References:
//   R. Bridson, R. Fedkiw, J. Anderson, "Robust treatment of collisions, contact and friction for cloth
//     animation", SIGGRAPH 2002 (velocity-level Coulomb friction bounded by the normal impulse).
//   M. Macklin, M. Mueller, N. Chentanez, T.-Y. Kim, "Unified particle physics for real-time
//     applications", SIGGRAPH 2014 (position-level static/dynamic friction, section 6.1).
#pragma once

#include <eddy/error.h>
#include <eddy/simulation_desc.h>
#include <eddy/vec3.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "colliders/mesh_field.h"
#include "colliders/thin_cells.h"

namespace eddy {

enum class ShapeKind : int { Plane, Box, Sphere, Capsule, Cylinder, Mesh };

// one pose of a keyframed collider and the motion from it to the next keyframe (none from the last).
// Between two keyframes the center moves at a constant velocity and the shape turns at a constant angular
// velocity about it, the rotation from one orientation to the next along the shortest arc: the linear
// interpolation of the translation and the slerp of the rotation.
struct ColliderKeyframe {
  Real time = 0;       // s
  Vec3 center{};       // m, the shape's center (a mesh's origin)
  Quat orientation{};  // local -> world
  Vec3 velocity{};     // m/s of the center until the next keyframe
  Vec3 spin{};         // rad/s, world frame, until the next keyframe
};

// one collider (or a bare shape) in a form kernels can take by value
struct ColliderData {
  ShapeKind kind = ShapeKind::Box;
  bool container = false;     // fluid lives inside the shape
  bool turned = false;        // rotated or spinning: axis-aligned static shapes skip the quaternion work
  Vec3 center{};              // at t = 0; for a plane a point on it
  Quat orientation{};         // local -> world at t = 0
  Vec3 halfExtents{1, 1, 1};  // box
  Real radius = 0.5f;         // sphere, capsule, cylinder
  Real halfHeight = 0.5f;     // capsule segment / cylinder half length along local y
  Vec3 normal{0, 1, 0};       // plane, unit, local frame, points to the fluid side of an obstacle plane
  MeshFieldView field{};      // mesh: its distance field in the local frame (attached once built)
  Vec3 linearVelocity{};      // m/s
  Vec3 angularVelocity{};     // rad/s about center
  // keyframed motion instead of the velocities above: keyframeCount (0, or at least 2) poses in memory
  // kernels read, owned by whoever built them (makeColliderKeyframes); center and orientation hold the first
  const ColliderKeyframe* keyframes = nullptr;
  int keyframeCount = 0;
  Real restitution = 0;
  Real friction = 0;        // dynamic mu_k
  Real staticFriction = 0;  // static mu_s
};

// ---------------------------------------------------------------------------------------------------
// host-only builders

// Euler angles in degrees, applied about x, then y, then z (world axes)
inline Quat quatFromEulerDegrees(Vec3 deg) {
  const Real k = Real(3.14159265358979323846 / 180.0);
  Quat qx = quatFromRotationVector({deg.x * k, 0, 0});
  Quat qy = quatFromRotationVector({0, deg.y * k, 0});
  Quat qz = quatFromRotationVector({0, 0, deg.z * k});
  return qz * qy * qx;
}

inline ColliderData makeShapeData(const ShapeDesc& s) {
  ColliderData c;
  c.center = s.center;
  // a scene gives one of the two; the other stays the identity
  c.orientation = s.quaternion * quatFromEulerDegrees(s.rotation);
  c.turned = !(c.orientation.w == 1 && c.orientation.x == 0 && c.orientation.y == 0 && c.orientation.z == 0);
  c.halfExtents = s.halfExtents;
  c.radius = s.radius;
  c.halfHeight = s.halfHeight;
  auto bad = [&](const char* what) { return InputError("shape \"" + s.type + "\": " + what); };
  if (s.type == "plane") {
    c.kind = ShapeKind::Plane;
    if (!(length(s.normal) > Real(1e-12))) throw bad("plane normal must be non-zero");
    c.normal = s.normal / length(s.normal);
  } else if (s.type == "box") {
    c.kind = ShapeKind::Box;
    if (!(s.halfExtents.x > 0 && s.halfExtents.y > 0 && s.halfExtents.z > 0))
      throw bad("half_extents must be positive");
  } else if (s.type == "sphere") {
    c.kind = ShapeKind::Sphere;
    if (!(s.radius > 0)) throw bad("radius must be positive");
  } else if (s.type == "capsule") {
    c.kind = ShapeKind::Capsule;
    if (!(s.radius > 0)) throw bad("radius must be positive");
    if (!(s.halfHeight >= 0)) throw bad("half_height must be non-negative");
  } else if (s.type == "mesh") {
    // placed by its origin; the vertices are scaled (and a fit_into placement chosen) when the field is
    // built (colliders/mesh_shape.h)
    c.kind = ShapeKind::Mesh;
    c.center = s.translation;
  } else if (s.type == "cylinder") {
    c.kind = ShapeKind::Cylinder;
    if (!(s.radius > 0)) throw bad("radius must be positive");
    if (!(s.halfHeight > 0)) throw bad("half_height must be positive");
  } else {
    throw InputError("unknown shape type \"" + s.type +
                     "\" (expected plane, box, sphere, capsule, cylinder or mesh)");
  }
  return c;
}

// the collider's shape where it is at t = 0: a keyframed collider's at its first keyframe (which holds
// until that keyframe's time)
inline ShapeDesc shapeAtStart(const ColliderDesc& d) {
  ShapeDesc s = d.shape;
  if (!d.keyframes.empty()) {
    (s.type == "mesh" ? s.translation : s.center) = d.keyframes[0].translation;
    s.rotation = d.keyframes[0].rotation;
    s.quaternion = Quat{};
  }
  return s;
}

// d's keyframes as kernels read them (empty for a collider without): the poses, and the velocities of
// each segment worked out in double precision from the keyframes as given (so a quarter turn in 1/4 s spins
// at 2 pi rad/s to the float, as "angular_velocity": [0, 6.283185307179586, 0] would)
inline std::vector<ColliderKeyframe> makeColliderKeyframes(const ColliderDesc& d) {
  std::vector<ColliderKeyframe> out;
  if (d.keyframes.empty()) return out;
  if (d.keyframes.size() < 2) throw InputError("keyframes: a keyframed collider needs at least 2 keyframes");
  struct Rotation {
    double w = 1, x = 0, y = 0, z = 0;
  };
  auto times = [](const Rotation& a, const Rotation& b) {
    return Rotation{
        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
  };
  // quatFromEulerDegrees in double: about x, then y, then z
  auto euler = [&](Vec3 deg) {
    const double half = 3.14159265358979323846 / 360.0;
    Rotation qx{std::cos(deg.x * half), std::sin(deg.x * half), 0, 0};
    Rotation qy{std::cos(deg.y * half), 0, std::sin(deg.y * half), 0};
    Rotation qz{std::cos(deg.z * half), 0, 0, std::sin(deg.z * half)};
    return times(qz, times(qy, qx));
  };
  for (const KeyframeDesc& k : d.keyframes) {
    ColliderKeyframe f;
    f.time = k.time;
    f.center = k.translation;
    f.orientation = quatFromEulerDegrees(k.rotation);
    out.push_back(f);
  }
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    ColliderKeyframe& a = out[i];
    const ColliderKeyframe& b = out[i + 1];
    const double span = double(b.time) - double(a.time);
    if (!(a.time >= 0 && span > 0)) throw InputError("keyframes: times must be >= 0 and strictly increasing");
    // the turn from a to b, b conj(a), taken the short way round
    Rotation from = euler(d.keyframes[i].rotation);
    from.x = -from.x, from.y = -from.y, from.z = -from.z;
    Rotation turn = times(euler(d.keyframes[i + 1].rotation), from);
    if (turn.w < 0) turn = {-turn.w, -turn.x, -turn.y, -turn.z};
    const double s = std::sqrt(turn.x * turn.x + turn.y * turn.y + turn.z * turn.z);
    const double perSecond = (s > 0 ? 2 * std::atan2(s, turn.w) / s : 2.0) / span;
    a.velocity = {Real((double(b.center.x) - a.center.x) / span),
                  Real((double(b.center.y) - a.center.y) / span),
                  Real((double(b.center.z) - a.center.z) / span)};
    a.spin = {Real(turn.x * perSecond), Real(turn.y * perSecond), Real(turn.z * perSecond)};
    Vec3 v = a.velocity, r = a.spin;
    if (!(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) && std::isfinite(r.x) &&
          std::isfinite(r.y) && std::isfinite(r.z)))
      throw InputError("keyframes: two keyframes are too close in time for the motion between them");
  }
  return out;
}

// keyframes: for a keyframed collider, its makeColliderKeyframes in memory the kernels read (kept alive
// as long as the ColliderData is used); nullptr for any other
inline ColliderData makeColliderData(const ColliderDesc& d, const ColliderKeyframe* keyframes = nullptr) {
  ColliderData c = makeShapeData(shapeAtStart(d));
  c.container = d.container;
  c.linearVelocity = d.linearVelocity;
  c.angularVelocity = d.angularVelocity;
  c.restitution = d.restitution;
  c.friction = d.friction;
  c.staticFriction = d.staticFriction;
  c.turned =
      !(c.orientation.w == 1 && c.orientation.x == 0 && c.orientation.y == 0 && c.orientation.z == 0) ||
      lengthSquared(c.angularVelocity) > 0;
  if (!d.keyframes.empty()) {
    if (!keyframes)
      throw std::invalid_argument("makeColliderData: a keyframed collider needs its makeColliderKeyframes");
    c.keyframes = keyframes;
    c.keyframeCount = int(d.keyframes.size());
    for (const KeyframeDesc& k : d.keyframes) c.turned |= lengthSquared(k.rotation) > 0;
  }
  return c;
}

// a frictionless, inelastic box tank covering the domain
inline ColliderData makeDomainContainer(const DomainDesc& d) {
  if (!(d.max.x > d.min.x && d.max.y > d.min.y && d.max.z > d.min.z))
    throw InputError("domain: max must be greater than min on every axis");
  ColliderData c;
  c.kind = ShapeKind::Box;
  c.container = true;
  c.center = (d.min + d.max) * Real(0.5);
  c.halfExtents = (d.max - d.min) * Real(0.5);
  return c;
}

// ---------------------------------------------------------------------------------------------------
// distances (host and device)

// signed distance in the shape's local frame (negative inside the solid); *gradOut (may be null) gets
// the unit outward gradient, chosen analytically so it is defined everywhere (corners, centres, axes)
EDDY_HD inline Real shapeDistanceGradient(const ColliderData& c, Vec3 p, Vec3* gradOut) {
  if (c.kind == ShapeKind::Mesh) return sampleField(c.field, p, gradOut);
  Real d = 0;
  Vec3 g{0, 1, 0};
  switch (c.kind) {
    case ShapeKind::Plane: {
      d = dot(p, c.normal);
      g = c.normal;
      break;
    }
    case ShapeKind::Box: {
      Vec3 a = cwiseAbs(p);
      Vec3 q = a - c.halfExtents;
      Vec3 s{p.x < 0 ? Real(-1) : Real(1), p.y < 0 ? Real(-1) : Real(1), p.z < 0 ? Real(-1) : Real(1)};
      Vec3 o = cwiseMax(q, Vec3{0, 0, 0});
      Real lo = length(o);
      if (lo > 0) {
        // outside: toward the nearest point on a face, edge or corner
        d = lo;
        g = Vec3{s.x * o.x, s.y * o.y, s.z * o.z} / lo;
      } else {
        // inside or on the surface: the nearest face
        if (q.x >= q.y && q.x >= q.z) {
          d = q.x;
          g = {s.x, 0, 0};
        } else if (q.y >= q.z) {
          d = q.y;
          g = {0, s.y, 0};
        } else {
          d = q.z;
          g = {0, 0, s.z};
        }
      }
      break;
    }
    case ShapeKind::Sphere: {
      Real l = length(p);
      d = l - c.radius;
      g = l > Real(1e-12) ? p / l : Vec3{0, 1, 0};
      break;
    }
    case ShapeKind::Capsule: {
      Real y = fminf(fmaxf(p.y, -c.halfHeight), c.halfHeight);
      Vec3 v{p.x, p.y - y, p.z};
      Real l = length(v);
      d = l - c.radius;
      if (l > Real(1e-12)) {
        g = v / l;
      } else {
        // on the axis: any radial direction is nearest; a tip point goes along the axis
        g = fabsf(p.y) >= c.halfHeight && c.halfHeight > 0 ? Vec3{0, p.y < 0 ? Real(-1) : Real(1), 0}
                                                           : Vec3{1, 0, 0};
      }
      break;
    }
    case ShapeKind::Mesh:  // returned above
      break;
    case ShapeKind::Cylinder: {
      Real rl = sqrtf(p.x * p.x + p.z * p.z);
      Vec3 radial = rl > Real(1e-12) ? Vec3{p.x / rl, 0, p.z / rl} : Vec3{1, 0, 0};
      Vec3 axial{0, p.y < 0 ? Real(-1) : Real(1), 0};
      Real dr = rl - c.radius;
      Real dy = fabsf(p.y) - c.halfHeight;
      if (dr > 0 && dy > 0) {
        // outside, nearest to the rim
        d = sqrtf(dr * dr + dy * dy);
        g = (radial * dr + axial * dy) / d;
      } else if (dr > 0 || dy > 0) {
        d = fmaxf(dr, dy);
        g = dr > 0 ? radial : axial;
      } else {
        d = fmaxf(dr, dy);
        g = dr >= dy ? radial : axial;
      }
      break;
    }
  }
  if (gradOut) *gradOut = g;
  return d;
}

EDDY_HD inline Real shapeDistance(const ColliderData& c, Vec3 pLocal) {
  return shapeDistanceGradient(c, pLocal, nullptr);
}

// where a keyframed collider is in its motion at time t: the keyframe that starts the segment holding t,
// the time since that keyframe, and whether the collider moves then (it rests at its first pose before the
// first keyframe and at its last pose from the last one on). A linear scan: colliders have a few keyframes.
struct KeyframeAt {
  const ColliderKeyframe* frame;
  Real elapsed;
  bool moving;
};
EDDY_HD inline KeyframeAt keyframeAt(const ColliderData& c, Real t) {
  const ColliderKeyframe* f = c.keyframes;
  if (t < f[0].time) return {f, 0, false};
  int k = 0;
  while (k + 2 < c.keyframeCount && t >= f[k + 1].time) ++k;
  if (t >= f[k + 1].time) return {f + k + 1, 0, false};  // at or after the last keyframe
  return {f + k, t - f[k].time, true};
}
EDDY_HD inline Vec3 keyframeCenter(KeyframeAt a) { return a.frame->center + a.frame->velocity * a.elapsed; }
EDDY_HD inline Quat keyframeOrientation(KeyframeAt a) {
  return quatFromRotationVector(a.frame->spin * a.elapsed) * a.frame->orientation;
}

// pose at time t: the center moves with linearVelocity, the shape spins about its center (or both follow
// the keyframes)
EDDY_HD inline Vec3 colliderCenter(const ColliderData& c, Real t) {
  if (c.keyframeCount > 0) return keyframeCenter(keyframeAt(c, t));
  return c.center + c.linearVelocity * t;
}
EDDY_HD inline Quat colliderOrientation(const ColliderData& c, Real t) {
  if (!c.turned) return {};
  if (c.keyframeCount > 0) return keyframeOrientation(keyframeAt(c, t));
  return quatFromRotationVector(c.angularVelocity * t) * c.orientation;
}
// world -> local and local -> world directions at orientation q
EDDY_HD inline Vec3 toLocal(const ColliderData& c, Quat q, Vec3 v) {
  return c.turned ? rotate(conjugate(q), v) : v;
}
EDDY_HD inline Vec3 toWorld(const ColliderData& c, Quat q, Vec3 v) { return c.turned ? rotate(q, v) : v; }

EDDY_HD inline bool colliderMoves(const ColliderData& c) {
  return c.keyframeCount > 0 || lengthSquared(c.linearVelocity) > 0 || lengthSquared(c.angularVelocity) > 0;
}

// world-space signed distance, positive on the fluid side (outside an obstacle, inside a container);
// *normalOut (may be null) gets the unit normal pointing to the fluid side
EDDY_HD inline Real signedDistance(const ColliderData& c, Vec3 p, Real t, Vec3* normalOut) {
  Quat q = colliderOrientation(c, t);
  Vec3 local = toLocal(c, q, p - colliderCenter(c, t));
  Vec3 g;
  Real d = shapeDistanceGradient(c, local, &g);
  Real sign = c.container ? Real(-1) : Real(1);
  if (normalOut) *normalOut = toWorld(c, q, g) * sign;
  return d * sign;
}

// Per-particle loops skip a collider far from the particle without its rotation (a sine and cosine for a
// spinning one) or distance, exactly as the loop would have: only where the distance is provably >= reach.
// Only shapes whose distance outside is >= |p - center| - bound (a ball of that radius holds them) take
// part: obstacle boxes, spheres, capsules, cylinders, and meshes, whose distance beyond their field's box
// is at least the way to the box less half a shell's thickness (sampleField). Planes and containers:
// bound < 0, never.
EDDY_HD inline Real obstacleBound(const ColliderData& c) {
  if (c.container) return Real(-1);
  switch (c.kind) {
    case ShapeKind::Box:
      return length(c.halfExtents);
    case ShapeKind::Sphere:
      return c.radius;
    case ShapeKind::Capsule:
      return c.halfHeight + c.radius;
    case ShapeKind::Cylinder:
      return sqrtf(c.radius * c.radius + c.halfHeight * c.halfHeight);
    case ShapeKind::Mesh:
      return length(cwiseMax(cwiseAbs(c.field.origin), cwiseAbs(c.field.upper()))) +
             Real(0.5) * c.field.shell;
    default:
      return Real(-1);
  }
}

// the slack for round-off: the distance is computed from p - center turned by a unit quaternion and the
// shape's formula, each a few float ulps of the magnitudes involved off; 1e-4 of their sum is hundreds
EDDY_HD inline Real clearanceSlack(Vec3 p, Vec3 center, Real extent) {
  Vec3 a = cwiseAbs(p), b = cwiseAbs(center);
  return Real(1e-4) * (a.x + a.y + a.z + b.x + b.y + b.z + extent);
}

// true where obstacle c is certainly further than reach (>= 0) from p at time t: signedDistance(c, p, t)
// >= reach. False says nothing.
EDDY_HD inline bool clearOf(const ColliderData& c, Vec3 p, Real t, Real reach) {
  Real bound = obstacleBound(c);
  if (bound < 0) return false;
  Vec3 center = colliderCenter(c, t);
  Real far = bound + reach;
  far += clearanceSlack(p, center, far);
  return lengthSquared(p - center) > far * far;
}

// velocity of the collider's material point at p, time t (a keyframed collider's is constant over each
// segment between keyframes, and zero before the first and from the last on)
EDDY_HD inline Vec3 colliderVelocityAt(const ColliderData& c, Vec3 p, Real t) {
  if (c.keyframeCount > 0) {
    KeyframeAt a = keyframeAt(c, t);
    if (!a.moving) return {0, 0, 0};
    return a.frame->velocity + cross(a.frame->spin, p - keyframeCenter(a));
  }
  return c.linearVelocity + cross(c.angularVelocity, p - colliderCenter(c, t));
}

// exact rigid displacement over [t - dt, t] of the collider point that sat at x at time t - dt;
// exactly zero for a static collider
EDDY_HD inline Vec3 colliderDisplacement(const ColliderData& c, Vec3 x, Real t, Real dt) {
  if (c.keyframeCount > 0) {
    KeyframeAt from = keyframeAt(c, t - dt), to = keyframeAt(c, t);
    if (from.frame == to.frame && from.moving == to.moving) {
      // within one segment (or resting at one end): a constant screw motion, as below
      if (!from.moving) return {0, 0, 0};
      Vec3 moved = from.frame->velocity * dt;
      if (lengthSquared(from.frame->spin) == 0) return moved;
      Vec3 rel = x - keyframeCenter(from);
      return moved + (rotate(quatFromRotationVector(from.frame->spin * dt), rel) - rel);
    }
    // across keyframes: the pose at t after the inverse of the pose at t - dt
    Vec3 local = toLocal(c, keyframeOrientation(from), x - keyframeCenter(from));
    return keyframeCenter(to) + toWorld(c, keyframeOrientation(to), local) - x;
  }
  if (lengthSquared(c.angularVelocity) == 0) return c.linearVelocity * dt;
  Vec3 rel = x - colliderCenter(c, t - dt);
  Vec3 spun = rotate(quatFromRotationVector(c.angularVelocity * dt), rel);
  return c.linearVelocity * dt + (spun - rel);
}

// ---------------------------------------------------------------------------------------------------
// contact response (host and device)

// a few pushes per collider so a particle outside a corner of a box container (one diagonal push, then
// one per face) or a cylinder rim ends up clear of every face; later pushes ignore round-off
constexpr int kContactPushes = 4;
constexpr Real kContactSlack = Real(1e-5);

// PBF position-level contact at time t for a particle of radius r moving from xPrev (time t - dt) to x:
// push x out to distance r, then apply static/dynamic friction (Macklin et al. 2014) to the tangential
// displacement relative to the collider. Returns true on contact.
EDDY_HD inline bool projectPosition(const ColliderData& c, Vec3& x, Vec3 xPrev, Real r, Real t, Real dt) {
  if (clearOf(c, x, t, r)) return false;  // the first push would find phi >= r
  bool hit = false;
  Vec3 disp = colliderMoves(c) ? colliderDisplacement(c, xPrev, t, dt) : Vec3{0, 0, 0};
  for (int k = 0; k < kContactPushes; ++k) {
    Vec3 n;
    Real phi = signedDistance(c, x, t, &n);
    if (phi >= (k == 0 ? r : r * (1 - kContactSlack))) break;
    Real depth = r - phi;
    x += n * depth;
    hit = true;
    Vec3 rel = x - xPrev - disp;
    Vec3 tan = rel - n * dot(rel, n);
    Real lt = length(tan);
    if (lt < c.staticFriction * depth) {
      x -= tan;
    } else if (lt > 0) {
      x -= tan * fminf(Real(1), c.friction * depth / lt);
    }
  }
  return hit;
}

// the velocity relative to a surface (unit normal n toward the fluid) after contact: an approaching vrel
// leaves with -e times its normal part; its tangential part sticks where the normal velocity change can
// cancel it (static friction mu_s) and otherwise loses mu_k times that change (Coulomb friction bounded
// by the normal impulse, Bridson et al. 2002)
EDDY_HD inline Vec3 contactVelocity(Vec3 vrel, Vec3 n, Real restitution, Real friction, Real staticFriction) {
  Real vn = dot(vrel, n);
  if (vn >= 0) return vrel;
  Real dvn = -(1 + restitution) * vn;
  Vec3 vt = vrel - n * vn;
  Real lt = length(vt);
  if (lt <= staticFriction * dvn)
    vt = Vec3{0, 0, 0};
  else
    vt *= fmaxf(Real(0), 1 - friction * dvn / lt);
  return vt - n * (restitution * vn);
}

// velocity-level contact at time t: push x out to distance r; an approaching particle takes the contact
// velocity above (restitution, static and dynamic friction). Returns true on contact.
EDDY_HD inline bool collideVelocity(const ColliderData& c, Vec3& x, Vec3& v, Real r, Real t) {
  if (clearOf(c, x, t, r)) return false;  // the first push would find phi >= r
  bool hit = false;
  for (int k = 0; k < kContactPushes; ++k) {
    Vec3 n;
    Real phi = signedDistance(c, x, t, &n);
    if (phi >= (k == 0 ? r : r * (1 - kContactSlack))) break;
    x += n * (r - phi);
    hit = true;
    Vec3 vc = colliderVelocityAt(c, x, t);
    v = vc + contactVelocity(v - vc, n, c.restitution, c.friction, c.staticFriction);
  }
  return hit;
}

// ---------------------------------------------------------------------------------------------------
// swept contact (host and device)
//
// The projections above look only at where a particle ends its substep, so a plate thinner than a
// substep's travel is tunnelled. sweepToContact walks the particle's path instead. A mesh is walked by
// plain conservative advancement (steps of the distance itself). Every analytic shape is convex,
// so its signed distance is a convex function along any line: the tangent line f(s0) + f'(s0)(s - s0) of
// f(s) = phi(s) - r lies below f, which gives three cheap facts. (1) f(0) + f'(0) L > 0 proves that the
// whole segment of length L stays clear (one distance evaluation for a particle far from the collider or
// moving away from it). (2) A Newton step from a clear point never passes the first contact, and is at
// least the plain conservative-advancement step f / 1, since |f'| <= 1. (3) Where f' >= 0 the path
// never comes closer again.

constexpr int kSweepSteps = 16;
constexpr int kMeshSweepSteps = 48;           // conservative advancement converges more slowly near grazing
constexpr Real kSweepTolerance = Real(1e-4);  // of r + L: a point this close to contact counts as contact
constexpr Real kSweepFloor = Real(1e-6);      // m: the tolerance's floor, above float round-off near 1 m

// the point p given in the collider's local frame at time t, in world space
EDDY_HD inline Vec3 colliderToWorld(const ColliderData& c, Vec3 p, Real t) {
  return colliderCenter(c, t) + toWorld(c, colliderOrientation(c, t), p);
}
EDDY_HD inline Vec3 colliderToLocal(const ColliderData& c, Vec3 p, Real t) {
  return toLocal(c, colliderOrientation(c, t), p - colliderCenter(c, t));
}

// First contact of a path with obstacle c, both in the collider's local frame: the first point of the
// segment a -> b where the distance to the surface falls to r (within a tolerance), found by the Newton
// march that facts (1)-(3) allow. Returns false where the segment stays clear.
struct PathContact {
  Real s = 0;          // distance along the segment from a
  Real gap = 0;        // distance to the contact surface there, between 0 and tol
  Real tol = 0;        // how close counts as contact
  Vec3 normal{};       // outward unit normal there
  Vec3 dir{};          // unit direction a -> b
  bool exact = false;  // a triangle of a thin cell, which the field does not see (colliders/thin_cells.h)
};

// the distance to the fluid side's boundary in the local frame (the shape's own for an obstacle, negated
// for a container), with *gradOut (may be null) its gradient, pointing into the fluid
EDDY_HD inline Real fluidSideDistance(const ColliderData& c, Vec3 p, Vec3* gradOut) {
  Real d = shapeDistanceGradient(c, p, gradOut);
  if (!c.container) return d;
  if (gradOut) *gradOut = -*gradOut;
  return -d;
}

// Conservative advancement along a + dir s, each step the distance itself (|grad phi| <= 1), while the
// distance less r (f, given at s) exceeds tol; false where the path ends first. A mesh is not convex, so
// it is walked this way; at the step bound the point reached counts as the contact.
EDDY_HD inline bool marchToContact(const ColliderData& c, Vec3 a, Vec3 dir, Real len, Real r, Real tol,
                                   Real& s, Real& f) {
  for (int k = 0; k < kMeshSweepSteps && f > tol; ++k) {
    s += f;
    if (s >= len) return false;
    f = fluidSideDistance(c, a + dir * s, nullptr) - r;
  }
  return true;
}

// the contact at s that a march found
EDDY_HD inline PathContact fieldContact(const ColliderData& c, Vec3 a, Vec3 dir, Real s, Real f, Real tol) {
  Vec3 g;
  fluidSideDistance(c, a + dir * s, &g);
  return PathContact{s, fmaxf(f, Real(0)), tol, g, dir};
}

// the contact with a triangle of a thin cell crossed at `hit` (normal n facing a): r short of the
// triangle's plane along the path (at the start, if that is already closer); the gap then keeps the slid
// end point at least 2 tol on the start's side of the plane
EDDY_HD inline PathContact exactContact(Vec3 dir, Real hit, Vec3 n, Real r, Real tol) {
  Real approach = fmaxf(-dot(dir, n), Real(1e-3));
  Real at = fmaxf(hit - r / approach, Real(0));
  Real clearance = (hit - at) * approach;
  return PathContact{at, fminf(Real(0), clearance - 4 * tol), tol, n, dir, true};
}

// The field's contact by conservative advancement; where the path's box touches a brick with thin cells,
// also the first crossing with a thin cell's triangles up to that contact (or the end), which wins if it
// comes first. The field may read a thin part up to sqrt(3) cells away, so such a path is walked even
// where the field says it stays clear.
EDDY_HD inline bool firstMeshContact(const ColliderData& c, Vec3 a, Vec3 seg, Real len2, Real r,
                                     PathContact& out, bool withThinCells) {
  if (!(len2 > 0)) return false;
  bool thin = withThinCells && c.field.thin.count > 0 && segmentNearThinCells(c.field, a, a + seg);
  Real f = fluidSideDistance(c, a, nullptr) - r;
  // a point further from the surface than the whole segment, the common case, is done
  bool clear = f > 0 && f * f >= len2;
  if (clear && !thin) return false;
  Real len = sqrtf(len2);
  Vec3 dir = seg / len;
  Real tol = kSweepTolerance * (r + len) + kSweepFloor;
  Real s = 0;
  bool fieldHit = !clear && marchToContact(c, a, dir, len, r, tol, s, f);
  Real hit;
  Vec3 n;
  if (thin && firstThinCrossing(c.field, a, dir, 0, fieldHit ? s : len, &hit, &n)) {
    out = exactContact(dir, hit, n, r, tol);
    return true;
  }
  if (!fieldHit) return false;
  out = fieldContact(c, a, dir, s, f, tol);
  return true;
}

// withThinCells: a mesh's thin cells are tested too (colliders/thin_cells.h); a solver that sweeps again
// later in the substep, from the same start, may leave them to that last sweep
EDDY_HD inline bool firstContact(const ColliderData& c, Vec3 a, Vec3 b, Real r, PathContact& out,
                                 bool withThinCells = true) {
  Vec3 seg = b - a;
  Real len2 = lengthSquared(seg);
  if (c.kind == ShapeKind::Mesh) return firstMeshContact(c, a, seg, len2, r, out, withThinCells);
  // the distance alone first (no gradient, no square root): a point further from the surface than the
  // whole segment, the common case, is done (|grad phi| <= 1)
  Real f = fluidSideDistance(c, a, nullptr) - r;
  if (!(len2 > 0) || (f > 0 && f * f >= len2)) return false;
  Real len = sqrtf(len2);
  Vec3 dir = seg / len;
  Vec3 g;
  // an analytic shape is swept only as an obstacle (see sweepToContact), so its side is its outside
  shapeDistanceGradient(c, a, &g);
  Real slope = dot(g, dir);
  // fact (1), and fact (3) at the start: moving away or along the surface, or clear of it all the way
  if (slope >= 0 || f + slope * len > 0) return false;
  Real tol = kSweepTolerance * (r + len) + kSweepFloor;
  Real s = 0;
  for (int k = 0; k < kSweepSteps && f > tol; ++k) {
    if (slope >= 0) return false;  // fact (3)
    s += f / -slope;               // fact (2)
    if (s >= len) return false;
    f = shapeDistanceGradient(c, a + dir * s, &g) - r;
    slope = dot(g, dir);
  }
  out = PathContact{s, fmaxf(f, Real(0)), tol, g, dir};
  return true;
}

// A contact with a triangle of a thin cell: the field's contact response will not see that triangle
// either, so a velocity-level solver's velocity takes the contact's response here (normal local).
EDDY_HD EDDY_NOINLINE inline void exactContactResponse(const ColliderData& c, Vec3 x, Vec3 normal, Real t,
                                                       Vec3& v) {
  Vec3 n = toWorld(c, colliderOrientation(c, t), normal);
  Vec3 vc = colliderVelocityAt(c, x, t);
  v = vc + contactVelocity(v - vc, n, c.restitution, c.friction, c.staticFriction);
}

// true where the sweep below certainly finds no contact (firstContact stops at once: the start's distance
// less r is at least the local path's length), without turning the path into the collider's frame. The
// start's distance is >= |u| - bound, u = from - center(t0), t0 = t - dt for a moving collider; the local
// path b - a = Q(t)^T (to - center(t)) - Q(t0)^T u is no longer than |to - center(t) - u| + theta |u|, theta
// = |omega| (t - t0) the angle turned (a chord is at most the arc). Not for keyframed colliders.
EDDY_HD inline bool pathClearOf(const ColliderData& c, Vec3 from, Vec3 to, Real r, Real t, Real dt) {
  if (c.keyframeCount > 0) return false;
  Real bound = obstacleBound(c);
  if (bound < 0) return false;
  Real t0 = colliderMoves(c) ? t - dt : t;
  Vec3 c0 = colliderCenter(c, t0), c1 = colliderCenter(c, t);
  Vec3 u = from - c0;
  Real ul = length(u);
  // the angle with a slack for the round-off of the two turns (angles |omega| t computed in floats)
  Real w = length(c.angularVelocity);
  Real theta = w * (t - t0) + Real(1e-4) * (1 + w * fabsf(t));
  Real path = length((to - c1) - u) + theta * ul;
  Real far = bound + r + path;
  far += clearanceSlack(from, c0, far) + clearanceSlack(to, c1, far);
  return ul > far;
}

// Sweeps a particle of radius r moving over [t - dt, t] from `from` to `to` against obstacle c. A moving
// collider is swept in its own frame: the start point in the frame at t - dt, the end point in the frame
// at t, joined by a straight line (exact for a translation, a chord of the true path for a spin).
// Where the path crosses into contact and the end point alone would not bring the particle back to the
// side it came from (it ended clear beyond the collider, or nearer the far side), `to` becomes the contact
// point plus the rest of the motion slid along the tangent plane there, a hair (2 tolerances) inside the
// contact distance, so the usual projection or velocity response still runs (restitution, friction, and
// for a velocity-level solver the approaching velocity is removed). Elsewhere `to` is left as it is, so
// ordinary contacts keep exactly their old response. Returns true where `to` was changed.
//
// An analytic container is skipped: its fluid side is the inside of a convex shape, so a segment between
// two points on that side never leaves it, and an end point outside is already caught by the end-point
// projection. A mesh container (a bowl, a tank with a step) is not convex and is swept on its inside.
//
// At the step bound (a path that creeps along a curved surface without converging) the last point reached
// counts as the contact and is pushed along its normal by its distance onto the contact surface (exact
// outside a convex shape): the particle still never passes through; it loses the unresolved part of the
// motion into the surface for this substep, and keeps the tangential rest as at any contact.
EDDY_HD inline bool sweepToContact(const ColliderData& c, Vec3 from, Vec3& to, Real r, Real t, Real dt,
                                   Vec3* v = nullptr, bool withThinCells = true) {
  if (c.container && c.kind != ShapeKind::Mesh) return false;
  if (pathClearOf(c, from, to, r, t, dt)) return false;
  Vec3 a = colliderToLocal(c, from, colliderMoves(c) ? t - dt : t);
  Vec3 b = colliderToLocal(c, to, t);
  PathContact hit;
  if (!firstContact(c, a, b, r, hit, withThinCells)) return false;
  // contact (or the bound) at s: is the end point's own projection good enough? (never for a triangle
  // the field does not see)
  Vec3 contact = a + hit.dir * hit.s;
  Vec3 gEnd;
  Real fEnd = fluidSideDistance(c, b, &gEnd) - r;
  if (!hit.exact && fEnd < 0 && dot(gEnd, hit.normal) >= 0) return false;
  Vec3 rest = b - contact;
  Real inward = fminf(dot(rest, hit.normal), Real(0));
  Vec3 slid = contact + rest - hit.normal * (inward + hit.gap + 2 * hit.tol);
  to = colliderToWorld(c, slid, t);
  if (hit.exact && v) exactContactResponse(c, to, hit.normal, t, *v);
  return true;
}

// The colliders a per-particle loop visits, as bits of the first 32 (colliders/collider_reach.h finds the
// ones near a particle); any collider beyond the 32nd is always visited.
constexpr std::uint32_t kEveryCollider = ~std::uint32_t(0);
EDDY_HD inline bool colliderVisited(std::uint32_t near, int c) { return c >= 32 || ((near >> c) & 1u); }

// the sweep against every obstacle in turn, each on the path the previous ones left; v (may be null): a
// velocity-level solver's velocity, for the contacts the end-point response cannot see
// returns the last collider whose contact moved `to`, -1 for none. near: the colliders that may come within
// r of the path from `from` to `to`; once a contact moved `to`, every later collider is visited.
EDDY_HD inline int sweepAll(const ColliderData* cs, int n, Vec3 from, Vec3& to, Real r, Real t, Real dt,
                            Vec3* v = nullptr, bool withThinCells = true,
                            std::uint32_t near = kEveryCollider) {
  int by = -1;
  for (int i = 0; i < n; ++i)
    if (colliderVisited(near, i) && sweepToContact(cs[i], from, to, r, t, dt, v, withThinCells)) {
      by = i;
      near = kEveryCollider;
    }
  return by;
}

// all colliders, two passes so a particle wedged between two colliders settles against both. near: the
// colliders that may come within r of x; once a contact moved x, every later collider is visited.
EDDY_HD inline void collideAll(const ColliderData* cs, int n, Vec3& x, Vec3& v, Real r, Real t,
                               std::uint32_t near = kEveryCollider) {
  for (int pass = 0; pass < 2; ++pass) {
    bool any = false;
    for (int i = 0; i < n; ++i)
      if (colliderVisited(near, i) && collideVelocity(cs[i], x, v, r, t)) {
        any = true;
        near = kEveryCollider;
      }
    if (!any) break;
  }
}

// xPrev is the position at t - dt: the path from it to x is swept first, so a thin obstacle is not
// tunnelled. Returns the last collider that moved x, -1 for none (whose reaction the wall forces count).
EDDY_HD inline int projectAll(const ColliderData* cs, int n, Vec3& x, Vec3 xPrev, Real r, Real t, Real dt,
                              bool withThinCells = true) {
  int by = sweepAll(cs, n, xPrev, x, r, t, dt, nullptr, withThinCells);
  for (int pass = 0; pass < 2; ++pass) {
    bool any = false;
    for (int i = 0; i < n; ++i)
      if (projectPosition(cs[i], x, xPrev, r, t, dt)) {
        any = true;
        by = i;
      }
    if (!any) break;
  }
  return by;
}

}  // namespace eddy
