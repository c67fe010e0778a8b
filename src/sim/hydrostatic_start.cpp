#include "sim/hydrostatic_start.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace eddy {

namespace {

// the column a point lies in: its lattice cell across gravity (down: unit vector along gravity)
struct Columns {
  Vec3 across1{}, across2{};
  Real spacing = 1;
  Real from1 = 0,
       from2 = 0;  // a lattice point's coordinates across: the columns' centres lie a spacing apart

  static Columns of(Vec3 down, Real spacing) {
    Columns c;
    c.spacing = spacing;
    // any axis not along gravity, made perpendicular to it; then the third by the cross product
    Vec3 axis = std::fabs(down.x) < Real(0.9) ? Vec3{1, 0, 0} : Vec3{0, 0, 1};
    c.across1 = axis - down * dot(axis, down);
    c.across1 = c.across1 * (1 / length(c.across1));
    c.across2 = cross(down, c.across1);
    return c;
  }
  // the column of x: the lattice's points lie whole spacings from the first one across gravity, so the
  // half spacing added keeps a point's column clear of the rounding at a whole number
  std::int64_t key(Vec3 x) const {
    auto index = [&](Vec3 axis, Real from) {
      return std::int64_t(std::floor((dot(x, axis) - from) / spacing + Real(0.5)));
    };
    return index(across1, from1) * (std::int64_t(1) << 32) + index(across2, from2);
  }
};

}  // namespace

void startHydrostatic(const SimulationDesc& scene, std::vector<EmittedParticles>& volumes) {
  bool asked = false;
  for (std::size_t i = 0; i < volumes.size() && i < scene.emitters.size(); ++i)
    asked |= scene.emitters[i].pressure == "hydrostatic";
  const Real g = length(scene.forces.gravity);
  if (!asked || !(g > 0)) return;
  const Vec3 down = scene.forces.gravity * (1 / g);
  Columns columns = Columns::of(down, scene.fluid.spacing);
  for (const EmittedParticles& v : volumes)
    if (!v.position.empty()) {
      columns.from1 = dot(v.position[0], columns.across1),
      columns.from2 = dot(v.position[0], columns.across2);
      break;
    }
  // the top of each column: the least depth along gravity of any volume's particle in it
  std::unordered_map<std::int64_t, Real> top;
  for (const EmittedParticles& v : volumes)
    for (Vec3 x : v.position) {
      auto [it, added] = top.emplace(columns.key(x), dot(x, down));
      if (!added) it->second = std::min(it->second, dot(x, down));
    }
  const Real weight = scene.fluid.restDensity * g;
  for (std::size_t i = 0; i < volumes.size() && i < scene.emitters.size(); ++i) {
    if (scene.emitters[i].pressure != "hydrostatic") continue;
    EmittedParticles& v = volumes[i];
    v.pressure.resize(v.position.size());
    for (std::size_t k = 0; k < v.position.size(); ++k) {
      Vec3 x = v.position[k];
      v.pressure[k] = weight * (dot(x, down) - top[columns.key(x)] + Real(0.5) * scene.fluid.spacing);
    }
  }
}

}  // namespace eddy
