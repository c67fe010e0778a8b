// The speeds the scene prescribes, which the substep limits count before any particle has them (the CFL
// maxima are read back one substep late): see FluidSimulation::advanceFrame.
#include <algorithm>
#include <cmath>

#include "sim/fluid_simulation.h"

namespace eddy::EDDY_NS {

// The fastest a collider's surface or a nozzle's jet moves at some time in [t0, t1], from the scene alone
// (no read-back): a collider's centre speed plus its spin times its reach (a bound on a surface point's
// distance from the centre: the shape's own, or the farthest corner of the domain for a plane or the
// domain itself); every keyframe segment that overlaps the interval counts. A nozzle counts while it is
// active, has particles left to emit and its emission window overlaps the interval. (The times compare in the
// scene's precision: a keyframe at 0.2 s ends a segment at the frame that starts at 0.2 s.)
Real FluidSimulation::prescribedSpeed(double t0, double t1) const {
  const Vec3 lo = scene_.domain.min, hi = scene_.domain.max;
  Real fastest = 0;
  for (std::size_t c = 0; c + 1 < hostColliders_.size(); ++c) {
    const ColliderData& d = hostColliders_[c];
    Real reach = 0;
    switch (d.kind) {
      case ShapeKind::Box:
        reach = length(d.halfExtents);
        break;
      case ShapeKind::Sphere:
        reach = d.radius;
        break;
      case ShapeKind::Capsule:
        reach = d.radius + d.halfHeight;
        break;
      case ShapeKind::Cylinder:
        reach = std::sqrt(d.radius * d.radius + d.halfHeight * d.halfHeight);
        break;
      case ShapeKind::Mesh:
        for (int k = 0; k < 8; ++k) {
          Vec3 a = d.field.origin, b = d.field.upper();
          reach = std::max(reach, length(Vec3{k & 1 ? b.x : a.x, k & 2 ? b.y : a.y, k & 4 ? b.z : a.z}));
        }
        break;
      default:
        for (int k = 0; k < 8; ++k)
          reach = std::max(
              reach, length(Vec3{k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z} - d.center));
    }
    auto surfaceSpeed = [&](Vec3 v, Vec3 w) { return length(v) + length(w) * reach; };
    if (d.keyframeCount == 0) {
      fastest = std::max(fastest, surfaceSpeed(d.linearVelocity, d.angularVelocity));
      continue;
    }
    const ColliderKeyframe* f = hostKeyframes_.data() + firstKeyframe_[c];
    // segment k runs from f[k].time to f[k + 1].time; the last keyframe holds still
    for (int k = 0; k + 1 < d.keyframeCount; ++k)
      if (f[k].time < Real(t1) && f[k + 1].time > Real(t0))
        fastest = std::max(fastest, surfaceSpeed(f[k].velocity, f[k].spin));
  }
  for (std::size_t k = 0; k < nozzles_.size(); ++k) {
    const EmitterDesc& e = scene_.emitters[std::size_t(nozzleEmitter_[k])];
    bool emitting = nozzleActive_[k] && nozzles_[k].emitted() < e.maxParticles;
    if (emitting && e.start < Real(t1) && e.stop > Real(t0)) fastest = std::max(fastest, e.speed);
  }
  return fastest;
}

}  // namespace eddy::EDDY_NS
