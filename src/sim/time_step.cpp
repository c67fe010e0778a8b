#include "sim/time_step.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace eddy::EDDY_NS {

// A collider's surface speed is its centre speed plus its spin times its reach (a bound on a surface
// point's distance from the centre: the shape's own, or the farthest corner of the domain for a plane or
// the domain itself); every keyframe segment that overlaps the interval counts. (The times compare in the
// scene's precision: a keyframe at 0.2 s ends a segment at the frame that starts at 0.2 s.)
Real prescribedSpeed(const SimulationDesc& scene, const SceneModel& model, const NozzleEmission& nozzles,
                     double t0, double t1) {
  const Vec3 lo = scene.domain.min, hi = scene.domain.max;
  Real fastest = 0;
  for (std::size_t c = 0; c + 1 < model.hostColliders.size(); ++c) {
    const ColliderData& d = model.hostColliders[c];
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
        reach = obstacleBound(d);  // the field's box holds the mesh
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
    const ColliderKeyframe* f = model.hostKeyframes.data() + model.firstKeyframe[c];
    // segment k runs from f[k].time to f[k + 1].time; the last keyframe holds still
    for (int k = 0; k + 1 < d.keyframeCount; ++k)
      if (f[k].time < Real(t1) && f[k + 1].time > Real(t0))
        fastest = std::max(fastest, surfaceSpeed(f[k].velocity, f[k].spin));
  }
  return std::max(fastest, nozzles.fastestJet(t0, t1));
}

Real motionTimeStep(const SimulationDesc& scene, const ParticleSet& particles, Primitives& prims,
                    Buffer<Real>& scratch, Real known) {
  Index n = particles.size();
  Real vmax = known;
  if (n > 0) {
    Real* s = scratch.data();
    const Vec3* v = particles.vec3(attr::kVelocity).data;
    Real gained = length(scene.forces.gravity) / scene.time.fps;
    parallelFor(
        n, EDDY_KERNEL(Index i) { s[i] = length(v[i]) + gained; });
    vmax = std::max(vmax, prims.max(scratch.view(n), n));
  }
  if (!(vmax > 0)) return std::numeric_limits<Real>::infinity();
  return scene.time.cfl * scene.fluid.spacing / vmax;
}

}  // namespace eddy::EDDY_NS
