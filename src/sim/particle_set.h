// Structure-of-arrays particle storage with named attributes. Every attribute is one array of Real with
// 1 to 16 interleaved components (a scalar, a Vec3, a Vec4, a 3x3 matrix, four Vec4...); solvers and
// exporters find them by name.
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
  static constexpr int kMaxComponents = 16;
  static constexpr int kMaxPersistent = 12;  // persistent attributes (moved by reorder)

  // persistent attributes carry state between substeps and follow the particles when they are sorted;
  // scratch attributes are recomputed every substep and are not moved
  void addAttribute(const std::string& name, int components, bool persistent = true);
  bool has(const std::string& name) const;

  View<Real> real(const std::string& name) const;
  View<Vec3> vec3(const std::string& name) const;
  View<Vec4> vec4(const std::string& name) const;
  // any plain struct of Reals whose size is the attribute's components (Mat3: 9, Vec4[4]: 16)
  template <class T>
  View<T> array(const std::string& name) const {
    static_assert(sizeof(T) % sizeof(Real) == 0, "an attribute element is a whole number of Reals");
    const Attribute& a = find(name, int(sizeof(T) / sizeof(Real)));
    return {reinterpret_cast<T*>(a.data.data()), std::size_t(size_)};
  }
  int components(const std::string& name) const;

  Index size() const { return size_; }
  Index capacity() const { return capacity_; }
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
  Buffer<Real> scratch_[kMaxPersistent];  // reorder scratch, one per persistent attribute
  Index size_ = 0;
  Index capacity_ = 0;
};

}  // namespace eddy::EDDY_NS
