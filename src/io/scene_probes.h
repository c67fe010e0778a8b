// The scene's "probes" list (docs/scene-format.md, section "probes"): read element by element through the
// scene reader's field tables (kProbeFields), then checked against the rest of the scene.
#pragma once

#include <eddy/scene.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace eddy::scene_probes {

using Json = nlohmann::ordered_json;

// what the probes reader borrows from the scene reader (src/io/scene_reader.cpp), so its messages read
// like every other: "<source>: <json pointer>: <what is wrong and what is allowed>", with the "--set" that
// gave the value
class ReaderAccess {
 public:
  [[noreturn]] virtual void fail(const std::string& ptr, const std::string& what) const = 0;
  // an object whose keys are those of kProbeFields (others are refused, listing the allowed ones)
  virtual void readProbeObject(const Json& v, const std::string& ptr, ProbeDesc& out) const = 0;

 protected:
  ~ReaderAccess() = default;
};

// the "probes" list of doc (none when the key is absent); "name" and "position" are required
std::vector<ProbeDesc> readProbes(const Json& doc, const ReaderAccess& reader);

// names (non-empty, letters, digits, '_' and '-', unique) and positions (inside the domain box)
void checkProbes(const SceneDesc& scene, const ReaderAccess& reader);

}  // namespace eddy::scene_probes
