// Structure-of-arrays particle storage with named attributes. Every attribute is one array of Real with
// 1 or 3 interleaved components; solvers and exporters find them by name.
#pragma once

#include <string>
#include <vector>

#include "backend/parallel.h"

namespace eddy::EDDY_NS {

namespace attr {
inline constexpr const char* kPosition = "position";
inline constexpr const char* kVelocity = "velocity";
inline constexpr const char* kDensity = "density";
}  // namespace attr

class ParticleSet {
 public:
  // persistent attributes carry state between substeps and follow the particles when they are sorted;
  // scratch attributes are recomputed every substep and are not moved
  void addAttribute(const std::string& name, int components, bool persistent = true);
  bool has(const std::string& name) const;

  View<Real> real(const std::string& name) const;
  View<Vec3> vec3(const std::string& name) const;
  View<Vec4> vec4(const std::string& name) const;
  int components(const std::string& name) const;

  Index size() const { return size_; }
  Index capacity() const { return capacity_; }
  // attributes are 1 (Real), 3 (Vec3) or 4 (Vec4) components
  // grows storage (keeping contents) to hold at least n particles; growth is geometric
  void reserve(Index n);
  // appends particles; other attributes of the new particles start at zero
  void append(const std::vector<Vec3>& position, const std::vector<Vec3>& velocity);
  // gathers every persistent attribute by order (new index i takes old particle order[i])
  void reorder(View<const std::uint32_t> order);

  std::size_t bytes() const;
  std::vector<std::string> names() const;

 private:
  struct Attribute {
    std::string name;
    int components = 1;
    bool persistent = true;
    Buffer<Real> data;
  };
  const Attribute& find(const std::string& name, int components) const;

  std::vector<Attribute> attributes_;
  Buffer<Real> scratch_[8];  // reorder scratch, one per persistent attribute
  Index size_ = 0;
  Index capacity_ = 0;
};

}  // namespace eddy::EDDY_NS
