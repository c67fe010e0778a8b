#include "io/scene_probes.h"

#include <cstdio>
#include <string_view>

#include "io/scene_messages.h"

namespace eddy::scene_probes {

using namespace scene_messages;

namespace {

constexpr const char* kPtr = "/probes";

bool nameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// a probe's name prefixes its columns in probes.csv ("NAME.pressure"), so it holds no separators or quotes
void checkName(const std::string& name, const std::string& ptr, const ReaderAccess& reader) {
  const std::string allowed = "letters, digits, '_' and '-' (it prefixes the probe's columns in probes.csv)";
  if (name.empty()) reader.fail(ptr, "must not be empty; a probe name holds " + allowed);
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (nameChar(c)) continue;
    const unsigned char u = static_cast<unsigned char>(c);
    std::string what;
    if (u >= 0x20 && u < 0x7f) {
      what = "'" + name + "' ('" + std::string(1, c) + "' at position " + std::to_string(i) + ")";
    } else {
      // not printable: the name itself could break the one-line message
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", unsigned(u));
      what = "a name with the byte " + std::string(hex) + " at position " + std::to_string(i);
    }
    reader.fail(ptr, "a probe name may hold only " + allowed + ", got " + what);
  }
}

}  // namespace

std::vector<ProbeDesc> readProbes(const Json& doc, const ReaderAccess& reader) {
  std::vector<ProbeDesc> out;
  auto it = doc.find("probes");
  if (it == doc.end()) return out;
  if (!it->is_array())
    reader.fail(kPtr,
                "expected an array of probe objects {\"name\": \"p1\", \"type\": \"point\" or \"gauge\", "
                "\"position\": [x, y, z], \"every\": s}, got " +
                    describe(*it));
  for (std::size_t i = 0; i < it->size(); ++i) {
    const Json& v = (*it)[i];
    const std::string at = pointerChild(kPtr, i);
    ProbeDesc p;
    reader.readProbeObject(v, at, p);
    if (!v.contains("name"))
      reader.fail(pointerChild(at, "name"),
                  "every probe needs \"name\" (letters, digits, '_' and '-'; it prefixes the probe's columns "
                  "in probes.csv)");
    if (!v.contains("position"))
      reader.fail(pointerChild(at, "position"),
                  "every probe needs \"position\" ([x, y, z] in m, inside the domain)");
    out.push_back(std::move(p));
  }
  return out;
}

void checkProbes(const SceneDesc& s, const ReaderAccess& reader) {
  const Vec3 lo = s.domain.min, hi = s.domain.max;
  for (std::size_t i = 0; i < s.probes.size(); ++i) {
    const ProbeDesc& p = s.probes[i];
    const std::string at = pointerChild(kPtr, i);
    checkName(p.name, pointerChild(at, "name"), reader);
    for (std::size_t j = 0; j < i; ++j) {
      if (s.probes[j].name == p.name)
        reader.fail(pointerChild(at, "name"), "duplicate probe name '" + p.name + "' (also " +
                                                  pointerChild(pointerChild(kPtr, j), "name") +
                                                  "); names must be unique");
    }
    const Vec3 f = p.face;
    if (!(f.x >= 0 && f.y >= 0 && f.z >= 0))
      reader.fail(
          pointerChild(at, "face"),
          "a sensor face's extent along x, y and z must be >= 0 m (0 0 0: a point), got " + formatVec(f));
    if (p.type == "gauge" && (f.x > 0 || f.y > 0 || f.z > 0))
      reader.fail(pointerChild(at, "face"),
                  "only a point probe has a sensor face; a gauge reads the surface on its vertical line");
    const Vec3 x = p.position;
    if (!(x.x >= lo.x && x.x <= hi.x && x.y >= lo.y && x.y <= hi.y && x.z >= lo.z && x.z <= hi.z))
      reader.fail(pointerChild(at, "position"), "the probe must lie inside the domain " + formatVec(lo) +
                                                    " .. " + formatVec(hi) + ", got " + formatVec(x));
  }
}

}  // namespace eddy::scene_probes
