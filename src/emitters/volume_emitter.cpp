#include "emitters/volume_emitter.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <string>

#include "colliders/collider.h"
#include "colliders/shape_bounds.h"

namespace eddy {

namespace {

// particle indices are 32-bit signed (up to 2^31): a billion lattice points leaves room for emitters beside
// it, and needs about 24 GB of host memory for positions and velocities while the scene is built
constexpr double kMaxLatticePoints = 1e9;

std::string describe(const EmitterDesc& e, const ShapeDesc& s) {
  std::ostringstream os;
  if (!e.collider.empty()) {
    os << "volume emitter filling collider \"" << e.collider << "\"";
  } else {
    os << "volume emitter (" << s.type << " at " << s.center.x << ", " << s.center.y << ", " << s.center.z
       << ")";
  }
  return os.str();
}

// uniform in (-1, 1) from raw 32-bit draws, identical on every standard library
double symmetricUniform(std::mt19937& rng) { return 2.0 * ((double(rng()) + 0.5) / 4294967296.0) - 1.0; }

}  // namespace

EmittedParticles sampleVolume(const EmitterDesc& e, const std::vector<ColliderDesc>& colliders, Real spacing,
                              const ColliderData* placedMesh) {
  const ShapeDesc* shape = &e.shape;
  ShapeDesc placed;  // a collider's shape where the collider is at t = 0 (a keyframed one's first pose)
  if (!e.collider.empty()) {
    shape = nullptr;
    for (const ColliderDesc& c : colliders) {
      if (c.name == e.collider) {
        placed = shapeAtStart(c);
        shape = &placed;
        break;
      }
    }
    if (!shape) throw InputError("volume emitter: no collider named \"" + e.collider + "\"");
  }
  const std::string who = describe(e, *shape);
  if (!(spacing > 0)) throw InputError(who + ": spacing must be positive");
  if (!(e.jitter >= 0 && e.jitter <= 0.5f)) throw InputError(who + ": jitter must be in [0, 0.5]");

  // a container collider is filled on the inside, which is the shape's own interior
  ColliderData data;
  try {
    data = placedMesh ? *placedMesh : makeShapeData(*shape);
  } catch (const InputError& err) {
    throw InputError(who + ": " + err.what());
  }
  if (data.kind == ShapeKind::Mesh && !data.field.values)
    throw InputError(who + ": the mesh's distance field was not built");
  Vec3 lo, hi;
  if (!shapeBounds(data, &lo, &hi)) throw InputError(who + ": a plane has no inside to fill");

  // sublattice origins relative to the bounding box corner, in units of the cell edge
  double edge = spacing;
  std::vector<double> offsets;
  if (e.lattice == "cubic") {
    offsets = {0.5};
  } else if (e.lattice == "bcc") {
    edge = spacing * std::cbrt(2.0);
    offsets = {0.25, 0.75};
  } else {
    throw InputError(who + ": unknown lattice \"" + e.lattice + "\" (expected cubic or bcc)");
  }
  double perAxis[3];
  double size[3] = {double(hi.x) - lo.x, double(hi.y) - lo.y, double(hi.z) - lo.z};
  double total = double(offsets.size());
  for (int a = 0; a < 3; ++a) {
    perAxis[a] = std::ceil(size[a] / edge) + 1;
    total *= perAxis[a];
  }
  // checked in floating point before the counts become integers: a tiny spacing or a huge shape makes
  // them overflow long long (undefined behaviour, found by fuzzing); !(<=) also refuses NaN
  if (!(total <= kMaxLatticePoints)) {
    std::ostringstream os;
    os << who << ": its bounding box holds about " << total << " lattice points at spacing " << spacing
       << " (limit " << kMaxLatticePoints << "); use a larger spacing or a smaller shape";
    throw InputError(os.str());
  }
  const long long n[3] = {static_cast<long long>(perAxis[0]), static_cast<long long>(perAxis[1]),
                          static_cast<long long>(perAxis[2])};

  // A point keeps as far from the bounding box's upper faces as the lattice starts from its lower ones
  // (half a spacing on the cubic lattice): a box 114.5 spacings wide (the dam break at 1M particles) got a
  // last layer 0.02 mm from its far face, inside the wall's reach and 30 % over the rest density, and
  // DFSPH's first pressure solve threw particles off at 30 m/s. (A tiny share of the edge forgives
  // round-off where the box is a whole number of cells.)
  const double margin = (*std::min_element(offsets.begin(), offsets.end()) - 1e-4) * edge;
  const Vec3 top{Real(hi.x - margin), Real(hi.y - margin), Real(hi.z - margin)};
  EmittedParticles out;
  const Quat toLocal = conjugate(data.orientation);
  for (double off : offsets) {
    for (long long k = 0; k < n[2]; ++k) {
      for (long long j = 0; j < n[1]; ++j) {
        for (long long i = 0; i < n[0]; ++i) {
          Vec3 p{Real(lo.x + (off + double(i)) * edge), Real(lo.y + (off + double(j)) * edge),
                 Real(lo.z + (off + double(k)) * edge)};
          if (p.x > top.x || p.y > top.y || p.z > top.z) continue;
          if (shapeDistance(data, rotate(toLocal, p - data.center)) < 0) out.position.push_back(p);
        }
      }
    }
  }

  if (e.jitter > 0) {
    std::mt19937 rng(e.seed);
    const double amp = double(e.jitter) * spacing;
    for (Vec3& p : out.position) {
      double dx = symmetricUniform(rng), dy = symmetricUniform(rng), dz = symmetricUniform(rng);
      p = p + Vec3{Real(dx * amp), Real(dy * amp), Real(dz * amp)};
    }
  }

  out.velocity.resize(out.position.size());
  for (std::size_t i = 0; i < out.position.size(); ++i)
    out.velocity[i] = e.velocity + cross(e.angularVelocity, out.position[i] - data.center);
  return out;
}

}  // namespace eddy
