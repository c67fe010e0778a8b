// Small 3-vector usable from host and device code. Y is up; SI units.
#pragma once

#include <cmath>

#if defined(__CUDACC__)
#define EDDY_HD __host__ __device__
#define EDDY_DEVICE __device__
#else
#define EDDY_HD
#define EDDY_DEVICE
#endif

namespace eddy {

// one precision for the whole engine
using Real = float;

struct Vec3 {
  Real x = 0, y = 0, z = 0;
};

EDDY_HD inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
EDDY_HD inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
EDDY_HD inline Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
EDDY_HD inline Vec3 operator*(Vec3 a, Real s) { return {a.x * s, a.y * s, a.z * s}; }
EDDY_HD inline Vec3 operator*(Real s, Vec3 a) { return {a.x * s, a.y * s, a.z * s}; }
EDDY_HD inline Vec3 operator/(Vec3 a, Real s) { return a * (Real(1) / s); }
EDDY_HD inline Vec3& operator+=(Vec3& a, Vec3 b) {
  a = a + b;
  return a;
}
EDDY_HD inline Vec3& operator-=(Vec3& a, Vec3 b) {
  a = a - b;
  return a;
}
EDDY_HD inline Vec3& operator*=(Vec3& a, Real s) {
  a = a * s;
  return a;
}
EDDY_HD inline Real dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
EDDY_HD inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
EDDY_HD inline Real lengthSquared(Vec3 a) { return dot(a, a); }
EDDY_HD inline Real length(Vec3 a) { return sqrtf(dot(a, a)); }
EDDY_HD inline Vec3 normalizeOr(Vec3 a, Vec3 fallback) {
  Real l = length(a);
  return l > Real(1e-12) ? a / l : fallback;
}
// by comparison, not fminf/fmaxf: on the CPU those are library calls (IEEE fmin and fmax pass over a NaN,
// which SSE's min and max do not), and these sit in the per-particle collider loops
EDDY_HD inline Real smallerOf(Real a, Real b) { return b < a ? b : a; }
EDDY_HD inline Real largerOf(Real a, Real b) { return a < b ? b : a; }
EDDY_HD inline Vec3 cwiseMin(Vec3 a, Vec3 b) {
  return {smallerOf(a.x, b.x), smallerOf(a.y, b.y), smallerOf(a.z, b.z)};
}
EDDY_HD inline Vec3 cwiseMax(Vec3 a, Vec3 b) {
  return {largerOf(a.x, b.x), largerOf(a.y, b.y), largerOf(a.z, b.z)};
}
EDDY_HD inline Vec3 cwiseAbs(Vec3 a) { return {fabsf(a.x), fabsf(a.y), fabsf(a.z)}; }

// four reals, 16-byte aligned: a position with one more value beside it, read in one load on the GPU
struct alignas(16) Vec4 {
  Real x = 0, y = 0, z = 0, w = 0;
};

EDDY_HD inline Vec3 xyz(const Vec4& a) { return {a.x, a.y, a.z}; }
EDDY_HD inline Vec4 withW(Vec3 a, Real w) { return {a.x, a.y, a.z, w}; }

// unit quaternion (w, x, y, z) for collider orientation
struct Quat {
  Real w = 1, x = 0, y = 0, z = 0;
};

EDDY_HD inline Quat operator*(Quat a, Quat b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
EDDY_HD inline Quat conjugate(Quat q) { return {q.w, -q.x, -q.y, -q.z}; }
EDDY_HD inline Vec3 rotate(Quat q, Vec3 v) {
  Vec3 u{q.x, q.y, q.z};
  Vec3 t = cross(u, v) * Real(2);
  return v + t * q.w + cross(u, t);
}
// rotation by the vector w*t (axis w/|w|, angle |w| t)
EDDY_HD inline Quat quatFromRotationVector(Vec3 r) {
  Real angle = length(r);
  if (angle < Real(1e-12)) return {};
  Real s = sinf(angle * Real(0.5)) / angle;
  return {cosf(angle * Real(0.5)), r.x * s, r.y * s, r.z * s};
}
// the rotation vector (axis times angle, angle in [0, pi]) of unit quaternion q: the shortest arc, the
// inverse of quatFromRotationVector
EDDY_HD inline Vec3 rotationVector(Quat q) {
  Real sign = q.w < 0 ? Real(-1) : Real(1);
  Vec3 u{q.x * sign, q.y * sign, q.z * sign};
  Real s = length(u);
  // sin(angle / 2) ~ angle / 2 below float resolution
  if (s < Real(1e-12)) return u * Real(2);
  return u * (2 * atan2f(s, q.w * sign) / s);
}
// spherical linear interpolation from a (s = 0) to b (s = 1) along the shortest arc: the rotation from a
// to b, scaled by s, applied after a
EDDY_HD inline Quat slerp(Quat a, Quat b, Real s) {
  return quatFromRotationVector(rotationVector(b * conjugate(a)) * s) * a;
}

}  // namespace eddy
