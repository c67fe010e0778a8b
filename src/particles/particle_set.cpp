#include "particles/particle_set.h"

#include <algorithm>

#include "backend/primitives.h"

namespace eddy::EDDY_NS {

void ParticleSet::addAttribute(const std::string& name, int components, bool persistent, AttributeType type) {
  if (has(name)) return;
  if (components < 1 || components > kMaxComponents)
    throw RuntimeFailure("particle attribute '" + name + "': 1 to " + std::to_string(kMaxComponents) +
                         " components, not " + std::to_string(components));
  Attribute a;
  a.name = name;
  a.components = components;
  a.persistent = persistent;
  a.type = type;
  a.offset = persistent ? persistentWords_ : scratchWords_;
  relayout(capacity_, persistentWords_ + (persistent ? components : 0),
           scratchWords_ + (persistent ? 0 : components));
  attributes_.push_back(std::move(a));
}

Real* ParticleSet::data(const Attribute& a) const {
  const Buffer<Real>& arena = arenas_[a.persistent ? persistentArena_ : 1 - persistentArena_];
  return const_cast<Real*>(arena.data()) + a.offset * std::size_t(arrayLength_);
}

void ParticleSet::relayout(Index capacity, std::size_t persistentWords, std::size_t scratchWords) {
  // arrays of whole multiples of 32 particles, so that every one starts 128-byte aligned (Vec4 loads, and
  // whole cache lines)
  Index length = (std::max<Index>(capacity, 0) + 31) / 32 * 32;
  std::size_t words = std::max(persistentWords, scratchWords) * std::size_t(length);
  Buffer<Real> fresh[2] = {Buffer<Real>(kDevice, words), Buffer<Real>(kDevice, words)};
  fresh[0].fillZero();
  fresh[1].fillZero();
  if (size_ > 0) {
    for (const Attribute& a : attributes_) {
      Real* to = fresh[a.persistent ? 0 : 1].data() + a.offset * std::size_t(length);
      copyBytes(kDevice, to, kDevice, data(a), std::size_t(size_) * a.components * sizeof(Real));
    }
  }
  arenas_[0].swap(fresh[0]);
  arenas_[1].swap(fresh[1]);
  if (keepReplaced_) {
    replaced_.push_back(std::move(fresh[0]));
    replaced_.push_back(std::move(fresh[1]));
  }
  persistentArena_ = 0;
  persistentWords_ = persistentWords;
  scratchWords_ = scratchWords;
  capacity_ = std::max<Index>(capacity, 0);
  arrayLength_ = length;
}

bool ParticleSet::has(const std::string& name) const {
  return std::any_of(attributes_.begin(), attributes_.end(),
                     [&](const Attribute& a) { return a.name == name; });
}

const ParticleSet::Attribute& ParticleSet::find(const std::string& name) const {
  for (const Attribute& a : attributes_)
    if (a.name == name) return a;
  throw RuntimeFailure("no particle attribute named '" + name + "'");
}

const ParticleSet::Attribute& ParticleSet::find(const std::string& name, int components,
                                                AttributeType type) const {
  const Attribute& a = find(name);
  if (a.components != components)
    throw RuntimeFailure("particle attribute '" + name + "' has " + std::to_string(a.components) +
                         " components, not " + std::to_string(components));
  if (a.type != type)
    throw RuntimeFailure("particle attribute '" + name + "' is " +
                         (a.type == AttributeType::UInt32 ? "UInt32" : "Float32") + ", not " +
                         (type == AttributeType::UInt32 ? "UInt32" : "Float32"));
  return a;
}

View<Real> ParticleSet::real(const std::string& name) const {
  return {data(find(name, 1, AttributeType::Float32)), std::size_t(size_)};
}

View<std::uint32_t> ParticleSet::uint32(const std::string& name) const {
  const Attribute& a = find(name, 1, AttributeType::UInt32);
  static_assert(sizeof(std::uint32_t) == sizeof(Real), "UInt32 attributes share the 32-bit storage");
  return {reinterpret_cast<std::uint32_t*>(data(a)), std::size_t(size_)};
}

View<Vec4> ParticleSet::vec4(const std::string& name) const {
  const Attribute& a = find(name, 4, AttributeType::Float32);
  return {reinterpret_cast<Vec4*>(data(a)), std::size_t(size_)};
}

int ParticleSet::components(const std::string& name) const { return find(name).components; }

std::vector<ParticleSet::Info> ParticleSet::attributes() const {
  std::vector<Info> out;
  for (const Attribute& a : attributes_) out.push_back({a.name, a.components, a.persistent, a.type});
  return out;
}

View<Vec3> ParticleSet::vec3(const std::string& name) const {
  const Attribute& a = find(name, 3, AttributeType::Float32);
  return {reinterpret_cast<Vec3*>(data(a)), std::size_t(size_)};
}

void ParticleSet::reserve(Index n) {
  if (n <= capacity_) return;
  relayout(std::max<Index>(n, capacity_ + capacity_ / 2), persistentWords_, scratchWords_);
}

void ParticleSet::append(const std::vector<Vec3>& position, const std::vector<Vec3>& velocity) {
  Index add = Index(position.size());
  if (add == 0) return;
  reserve(size_ + add);
  // the arenas' tails are not zero (scratch attributes wrote into them since), so every attribute of the
  // new particles is cleared first
  for (const Attribute& a : attributes_)
    fillBytes(kDevice, data(a) + std::size_t(size_) * a.components, 0,
              std::size_t(add) * a.components * sizeof(Real));
  const Attribute& p = find(attr::kPosition, 3, AttributeType::Float32);
  const Attribute& v = find(attr::kVelocity, 3, AttributeType::Float32);
  copyBytes(kDevice, data(p) + 3 * std::size_t(size_), Device::Host, position.data(), add * sizeof(Vec3));
  copyBytes(kDevice, data(v) + 3 * std::size_t(size_), Device::Host, velocity.data(), add * sizeof(Vec3));
  Index first = size_;
  size_ += add;
  if (has(attr::kId)) {
    std::uint32_t* id = uint32(attr::kId).data;
    std::uint32_t base = nextId_;
    parallelFor(
        add, EDDY_KERNEL(Index k) { id[first + k] = base + std::uint32_t(k); });
    nextId_ += std::uint32_t(add);
  }
}

std::string ParticleSet::download(const std::string& name) const {
  const Attribute& a = find(name);
  std::string bytes(std::size_t(size_) * a.components * sizeof(Real), '\0');
  copyBytes(Device::Host, bytes.data(), kDevice, data(a), bytes.size());
  return bytes;
}

void ParticleSet::upload(const std::string& name, const std::string& bytes) {
  const Attribute& a = find(name);
  std::size_t expected = std::size_t(size_) * a.components * sizeof(Real);
  if (bytes.size() != expected)
    throw RuntimeFailure("particle attribute '" + name + "': " + std::to_string(bytes.size()) +
                         " bytes given, " + std::to_string(expected) + " expected");
  copyBytes(kDevice, data(a), Device::Host, bytes.data(), bytes.size());
}

void ParticleSet::restore(Index size, std::uint32_t nextId) {
  reserve(size);
  // every attribute starts at zero, as after append
  arenas_[0].fillZero();
  arenas_[1].fillZero();
  size_ = size;
  nextId_ = nextId;
}

void ParticleSet::settle() {
  if (persistentArena_ == 0) return;
  // the two arenas trade contents word for word: both hold whole arrays at the same offsets
  Real* first = arenas_[0].data();
  Real* second = arenas_[1].data();
  parallelFor64(
      std::int64_t(arenas_[0].size()), EDDY_KERNEL(std::int64_t i) {
        Real kept = first[i];
        first[i] = second[i];
        second[i] = kept;
      });
  persistentArena_ = 0;
}

namespace {
// every persistent attribute moved in one pass over the particles (one launch, `order` read once)
constexpr int kMaxGathered = ParticleSet::kMaxPersistent;
struct GatherSet {
  const Real* src[kMaxGathered];
  Real* dst[kMaxGathered];
  int components[kMaxGathered];
  int count = 0;
};
}  // namespace

void ParticleSet::reorder(View<const std::uint32_t> order) {
  GatherSet set{};
  Real* target = arenas_[1 - persistentArena_].data();
  for (const Attribute& a : attributes_) {
    if (!a.persistent) continue;
    if (set.count == kMaxGathered)
      throw RuntimeFailure("more than " + std::to_string(kMaxGathered) + " persistent particle attributes");
    set.src[set.count] = data(a);
    set.dst[set.count] = target + a.offset * std::size_t(arrayLength_);
    set.components[set.count] = a.components;
    ++set.count;
  }
  const std::uint32_t* o = order.data;
  parallelFor(
      size_, EDDY_KERNEL(Index i) {
        std::size_t j = o[i];
        EDDY_UNROLL
        for (int a = 0; a < kMaxGathered; ++a) {
          if (a >= set.count) break;
          const Real* src = set.src[a];
          Real* dst = set.dst[a];
          int c = set.components[a];
          if (c == 1) {
            // as 32-bit words: the bits of an integer attribute (ids) move unchanged
            reinterpret_cast<std::uint32_t*>(dst)[i] = reinterpret_cast<const std::uint32_t*>(src)[j];
          } else if (c == 3) {
            dst[3 * std::size_t(i) + 0] = src[3 * j + 0];
            dst[3 * std::size_t(i) + 1] = src[3 * j + 1];
            dst[3 * std::size_t(i) + 2] = src[3 * j + 2];
          } else if (c % 4 == 0) {
            // whole 16-byte loads: an element of 4k Reals starts 16-byte aligned
            const Vec4* s4 = reinterpret_cast<const Vec4*>(src) + j * std::size_t(c / 4);
            Vec4* d4 = reinterpret_cast<Vec4*>(dst) + std::size_t(i) * std::size_t(c / 4);
            for (int k = 0; k < c / 4; ++k) d4[k] = s4[k];
          } else {
            for (int k = 0; k < c; ++k) dst[std::size_t(c) * i + k] = src[std::size_t(c) * j + k];
          }
        }
      });
  // the persistent attributes now live in the other arena; the scratch ones take the old one
  persistentArena_ = 1 - persistentArena_;
}

std::size_t ParticleSet::bytes() const { return arenas_[0].bytes() + arenas_[1].bytes(); }

std::vector<std::string> ParticleSet::names() const {
  std::vector<std::string> n;
  for (const Attribute& a : attributes_) n.push_back(a.name);
  return n;
}

}  // namespace eddy::EDDY_NS
