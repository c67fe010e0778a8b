// Volume emitter: fills a shape (or the inside of a named collider) with particles on a cubic or
// body-centred cubic lattice at the rest spacing, with optional deterministic jitter.
#pragma once

#include <eddy/simulation_desc.h>
#include <eddy/vec3.h>

#include <vector>

namespace eddy {

struct ColliderData;

// particles produced by an emitter (host arrays, same length)
struct EmittedParticles {
  std::vector<Vec3> position;
  std::vector<Vec3> velocity;
  std::vector<Real> pressure;  // Pa, each particle's at the start; empty: zero (sim/hydrostatic_start.h)
};

// Lattice points are anchored at min + spacing/2 + k spacing of the shape's world bounding box ("bcc":
// two interleaved cubic lattices of edge spacing 2^(1/3), offset by a quarter and three quarters of an
// edge, so the number density is 1/spacing^3). A point is kept when the shape's signed distance there
// is negative (strictly inside); jitter then moves it by up to jitter*spacing per axis, so the count
// does not depend on jitter. Velocity = velocity + angularVelocity x (p - shape center).
// Throws InputError for an unknown collider name, a plane, a bad lattice or jitter, or more than
// 50 million lattice points in the bounding box. A mesh shape is filled through `placedMesh`, the shape
// with its distance field readable on the host (the caller builds it: colliders/mesh_shape.h).
EmittedParticles sampleVolume(const EmitterDesc& e, const std::vector<ColliderDesc>& colliders, Real spacing,
                              const ColliderData* placedMesh = nullptr);

}  // namespace eddy
