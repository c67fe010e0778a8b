// Structure-of-arrays particle storage with named attributes. Every attribute is one array of 32-bit
// elements with 1 to 16 interleaved components (a scalar, a Vec3, a Vec4, a 3x3 matrix, four Vec4...);
// solvers and exporters find them by name. Elements are Real (Float32) or std::uint32_t (UInt32, the
// particle id): the type is checked by the accessors, and the reorder moves 32-bit words without looking
// at them, so integers stay exact (a float slot would round ids above 2^24).
#pragma once

#include <eddy/simulation_state.h>

#include <string>
#include <vector>

#include "backend/parallel.h"

namespace eddy::EDDY_NS {

namespace attr {
inline constexpr const char* kPosition = "position";
inline constexpr const char* kVelocity = "velocity";
inline constexpr const char* kDensity = "density";
// UInt32: 0, 1, 2, ... in the order particles were appended over the whole run (see append)
inline constexpr const char* kId = "id";
}  // namespace attr

class ParticleSet {
 public:
  static constexpr int kMaxComponents = 16;
  static constexpr int kMaxPersistent = 12;  // persistent attributes (moved by reorder)

  // persistent attributes carry state between substeps and follow the particles when they are sorted;
  // scratch attributes are recomputed every substep and are not moved: their contents are lost (and
  // their arrays move) at each reorder
  void addAttribute(const std::string& name, int components, bool persistent = true,
                    AttributeType type = AttributeType::Float32);
  bool has(const std::string& name) const;

  View<Real> real(const std::string& name) const;
  View<Vec3> vec3(const std::string& name) const;
  View<Vec4> vec4(const std::string& name) const;
  View<std::uint32_t> uint32(const std::string& name) const;
  // any plain struct of Reals whose size is the attribute's components (Mat3: 9, Vec4[4]: 16)
  template <class T>
  View<T> array(const std::string& name) const {
    static_assert(sizeof(T) % sizeof(Real) == 0, "an attribute element is a whole number of Reals");
    const Attribute& a = find(name, int(sizeof(T) / sizeof(Real)), AttributeType::Float32);
    return {reinterpret_cast<T*>(data(a)), std::size_t(size_)};
  }
  int components(const std::string& name) const;

  struct Info {
    std::string name;
    int components = 1;
    bool persistent = true;
    AttributeType type = AttributeType::Float32;
  };
  // every attribute, in the order they were added
  std::vector<Info> attributes() const;

  Index size() const { return size_; }
  Index capacity() const { return capacity_; }
  // grows storage (keeping contents) to hold at least n particles; growth is geometric
  void reserve(Index n);
  // appends particles; with an attr::kId attribute they get the ids nextId(), nextId() + 1, ...; other
  // attributes of the new particles start at zero. Runs in the step loop (nozzles): no allocation once
  // the capacity is reserved.
  void append(const std::vector<Vec3>& position, const std::vector<Vec3>& velocity);
  // gathers every persistent attribute by order (new index i takes old particle order[i])
  void reorder(View<const std::uint32_t> order);

  // the attribute's array of 32-bit words, whatever its type (tools that hand the storage on as it is)
  void* words(const std::string& name) const { return data(find(name)); }
  // Puts the persistent attributes back at the addresses they had before the first reorder (every reorder
  // swaps the arenas' roles), the scratch attributes keeping their contents too: for callers that hand
  // out the attributes' addresses between steps. Nothing to do after an even number of reorders.
  void settle();
  // From now on storage that a growth replaces is kept, not freed, until the set is destroyed: addresses
  // handed out earlier stay readable (they show the particles as they were), never freed memory.
  void keepReplacedStorage() { keepReplaced_ = true; }

  // the id the next appended particle gets
  std::uint32_t nextId() const { return nextId_; }

  // Checkpoints (between frames, not in the step loop): the raw bytes of one attribute's first size()
  // elements, and back; restore() sets the particle count and the next id, after which every persistent
  // attribute must be uploaded (the others are scratch and start at zero).
  std::string download(const std::string& name) const;
  void upload(const std::string& name, const std::string& bytes);
  void restore(Index size, std::uint32_t nextId);

  std::size_t bytes() const;
  std::vector<std::string> names() const;

 private:
  // Storage: two arenas of max(P, S) words per particle, P and S the components of the persistent and of
  // the scratch attributes. One holds the persistent attributes, the other the scratch ones, each at a
  // fixed offset (whole arrays of capacity elements); reorder() gathers the persistent ones into the
  // other arena, where the scratch attributes held nothing worth keeping, and the two swap roles. The
  // reorder needs no scratch of its own: 2 max(P, S) words a particle instead of 2 P + S.
  struct Attribute {
    std::string name;
    int components = 1;
    bool persistent = true;
    AttributeType type = AttributeType::Float32;
    std::size_t offset = 0;  // in words per particle, within its arena
  };
  const Attribute& find(const std::string& name, int components, AttributeType type) const;
  const Attribute& find(const std::string& name) const;
  // the attribute's array of 32-bit words (UInt32 attributes are read through uint32())
  Real* data(const Attribute& a) const;
  // new arenas for `capacity` particles and the given words per particle, with the attributes' first
  // size_ elements, the rest zero
  void relayout(Index capacity, std::size_t persistentWords, std::size_t scratchWords);

  std::vector<Attribute> attributes_;
  Buffer<Real> arenas_[2];
  int persistentArena_ = 0;
  std::size_t persistentWords_ = 0, scratchWords_ = 0;
  Index size_ = 0;
  Index capacity_ = 0;
  Index arrayLength_ = 0;  // elements of each attribute's array: the capacity rounded up to 32
  std::uint32_t nextId_ = 0;
  bool keepReplaced_ = false;
  std::vector<Buffer<Real>> replaced_;  // keepReplacedStorage: the arenas growths replaced
};

}  // namespace eddy::EDDY_NS
