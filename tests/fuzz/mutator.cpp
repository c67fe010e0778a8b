// See mutator.h.
#include "fuzz/mutator.h"

#include <array>
#include <string_view>

namespace eddy::fuzz {

namespace {

using Json = nlohmann::ordered_json;

// numbers and values that have broken parsers before: overflow to float or int, NaN text, signed zero,
// denormals, values at and just past range ends, wrong types, odd strings
constexpr std::array<std::string_view, 52> kHostile{"0",
                                                    "-1",
                                                    "1",
                                                    "-0",
                                                    "1e39",
                                                    "-1e39",
                                                    "3.4028235e38",
                                                    "3.5e38",
                                                    "1e400",
                                                    "-1e400",
                                                    "1e-50",
                                                    "1e-45",
                                                    "NaN",
                                                    "nan",
                                                    "-nan",
                                                    "Infinity",
                                                    "-Infinity",
                                                    "inf",
                                                    "2147483647",
                                                    "2147483648",
                                                    "-2147483649",
                                                    "4294967295",
                                                    "4294967296",
                                                    "9007199254740993",
                                                    "9223372036854775807",
                                                    "9223372036854775808",
                                                    "-9223372036854775809",
                                                    "18446744073709551616",
                                                    "123456789012345678901234567890",
                                                    "0.49999999",
                                                    "0.99999999",
                                                    "1.0000001",
                                                    "4.0000001",
                                                    "89.999999",
                                                    "1e12",
                                                    "0.5",
                                                    "4",
                                                    "true",
                                                    "null",
                                                    "\"\"",
                                                    "\"x\"",
                                                    "\"\\u0000\"",
                                                    "\"a\\nb\"",
                                                    "[]",
                                                    "{}",
                                                    "[1,2]",
                                                    "[1,2,3,4]",
                                                    "[null,1,2]",
                                                    "[1e39,0,0]",
                                                    "[0,0,0]",
                                                    "[-1,-1,-1]",
                                                    "{\"type\":\"box\"}"};

// enum values of the schema and names used by the seeds: a string swapped for another valid one reaches
// combinations that random bytes rarely do
constexpr std::array<std::string_view, 31> kWords{
    "pbf",    "wcsph",    "mpm",   "box",   "plane", "sphere", "capsule", "cylinder",
    "volume", "nozzle",   "cubic", "bcc",   "water", "snow",   "sand",    "elastic",
    "ply",    "vtk",      "apic",  "pic",   "flip",  "tait",   "linear",  "slip",
    "sticky", "separate", "tank",  "floor", "ball",  "mesh",   ""};

constexpr std::array<std::string_view, 21> kKeys{
    "shape",  "material",     "type",          "collider",        "name",      "container",     "normal",
    "radius", "half_extents", "max_particles", "grid_resolution", "spacing",   "support_ratio", "rotation",
    "stop",   "keyframes",    "quaternion",    "fit_into",        "thickness", "time",          "x"};

constexpr std::array<std::string_view, 24> kBadPaths{"colliders.99.friction",
                                                     "emitters.18446744073709551616.radius",
                                                     "emitters.-1.radius",
                                                     "emitters.0.shape.center.3",
                                                     "emitters.0.shape.center.0.x",
                                                     "pbf..iterations",
                                                     ".pbf",
                                                     "pbf.",
                                                     "",
                                                     "pbf.iterations.deep",
                                                     "emitters.00.radius",
                                                     "emitters.0000000000000000000001.radius",
                                                     "domain.min.1",
                                                     "emitters.0",
                                                     "emitters",
                                                     "colliders.0",
                                                     "a b",
                                                     "emitters.4294967296.radius",
                                                     "fluid.spacing.0",
                                                     "time",
                                                     "output.format.x",
                                                     "~0/1",
                                                     "emitters.0.material",
                                                     "colliders.0.shape.type"};

constexpr std::string_view kTextTokens[] = {
    "{",    "}",    "[",   "]",         "\"",         ",",  ":",  "-",  "1e39", "\\u0000", "\xff",
    "\xc3", "null", "NaN", "\n@@set\n", "\n@@mesh\n", "//", "/*", "\\", "0x10", "\t",      " "};

// nlohmann's tree copy and the path walk recurse; the mutator leaves deeply nested text (which it makes
// itself) to the byte-level mutations. Brackets inside strings count too: an overestimate is harmless.
bool shallow(std::string_view text) {
  int depth = 0;
  for (char c : text) {
    depth += (c == '[' || c == '{') - (c == ']' || c == '}');
    if (depth > 256) return false;
  }
  return true;
}

// the node a random walk of up to a few levels ends at
Json* randomNode(Json& root, Mutator& rng, bool objectsOnly) {
  Json* node = &root;
  for (int depth = 0; depth < 6; ++depth) {
    if (!node->is_structured() || node->empty()) break;
    if (objectsOnly && !node->is_object() && !node->is_array()) break;
    Json* child = nullptr;
    std::size_t pick = rng.below(node->size());
    if (node->is_object()) {
      auto it = node->begin();
      std::advance(it, pick);
      child = &*it;
    } else {
      child = &(*node)[pick];
    }
    if (objectsOnly && !child->is_structured()) break;
    node = child;
    if (rng.chance(30)) break;
  }
  if (objectsOnly && !node->is_object()) return nullptr;
  return node;
}

void replaceFirst(std::string& text, std::string_view what, std::string_view with) {
  const std::size_t at = text.find(what);
  if (at != std::string::npos) text.replace(at, what.size(), with);
}

void collectPaths(const Json& node, const std::string& prefix, std::vector<std::string>& out) {
  if (node.is_object()) {
    for (const auto& item : node.items()) {
      std::string path = prefix.empty() ? item.key() : prefix + "." + item.key();
      out.push_back(path);
      collectPaths(item.value(), path, out);
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      std::string path = prefix + "." + std::to_string(i);
      out.push_back(path);
      collectPaths(node[i], path, out);
    }
  }
}

}  // namespace

std::uint64_t Mutator::next() {
  // splitmix64: tiny, fast, and the same everywhere
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<std::string> dottedPaths(const Json& doc) {
  std::vector<std::string> out;
  collectPaths(doc, "", out);
  return out;
}

std::string Mutator::hostileValue() {
  switch (below(10)) {
    case 0: {
      // deep nesting: parsers that recurse overflow the stack
      const std::size_t depth = 1 + below(20000);
      return std::string(depth, '[') + "1" + std::string(depth, ']');
    }
    case 1:
      return "\"" + std::string(1 + below(5000), 'x') + "\"";
    case 2:
      return std::string("\"") + std::string(kWords[below(kWords.size())]) + "\"";
    default:
      return std::string(kHostile[below(kHostile.size())]);
  }
}

void Mutator::mutateText(std::string& text) {
  const std::size_t at = below(text.size() + 1);
  switch (below(6)) {
    case 0:  // flip a bit
      if (at < text.size()) text[at] = char(text[at] ^ (1 << below(8)));
      break;
    case 1:  // truncate
      text.resize(at);
      break;
    case 2:  // insert a token
      text.insert(at, kTextTokens[below(std::size(kTextTokens))]);
      break;
    case 3:  // erase a short range
      text.erase(at, 1 + below(16));
      break;
    case 4: {  // copy a range elsewhere
      const std::string piece = text.substr(at, 1 + below(64));
      text.insert(below(text.size() + 1), piece);
      break;
    }
    default:  // swap a byte for a random one
      if (at < text.size()) text[at] = char(next());
      break;
  }
}

bool Mutator::mutateTree(std::string& text) {
  if (!shallow(text)) return false;
  Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded()) return false;
  // raw text that the tree cannot hold (NaN, 1e400, duplicate keys) goes in through markers
  constexpr std::string_view kValueMark = "\"@@eddy-value@@\"";
  constexpr std::string_view kKeyMark = "\"@@eddy-key@@\"";
  std::string raw, rawKey;
  switch (below(6)) {
    case 0: {  // delete a key or an array element
      Json* node = randomNode(doc, *this, true);
      if (!node || node->empty()) break;
      if (node->is_object()) {
        auto it = node->begin();
        std::advance(it, below(node->size()));
        node->erase(it);
      }
      break;
    }
    case 1: {  // duplicate a key, with the same value or a hostile one
      Json* node = randomNode(doc, *this, true);
      if (!node || node->empty()) break;
      auto it = node->begin();
      std::advance(it, below(node->size()));
      rawKey = Json(it.key()).dump();
      Json value = chance(50) ? it.value() : Json("@@eddy-value@@");  // copied: the insert below moves it
      if (value == "@@eddy-value@@") raw = hostileValue();
      (*node)["@@eddy-key@@"] = std::move(value);
      break;
    }
    case 2: {  // replace a value with a hostile one
      Json* node = randomNode(doc, *this, false);
      *node = "@@eddy-value@@";
      raw = hostileValue();
      break;
    }
    case 3: {  // add a key, known or not
      Json* node = randomNode(doc, *this, true);
      if (!node) break;
      (*node)[std::string(kKeys[below(kKeys.size())])] = "@@eddy-value@@";
      raw = hostileValue();
      break;
    }
    case 4: {  // repeat an array element (many emitters or colliders)
      Json* node = randomNode(doc, *this, false);
      if (!node->is_array() || node->empty()) break;
      const Json element = (*node)[below(node->size())];
      const std::size_t copies = chance(10) ? 200 : 1 + below(4);
      for (std::size_t i = 0; i < copies; ++i) node->push_back(element);
      break;
    }
    default: {  // swap a string for a schema word
      Json* node = randomNode(doc, *this, false);
      if (node->is_string() || chance(20)) *node = std::string(kWords[below(kWords.size())]);
      break;
    }
  }
  text = doc.dump(chance(50) ? -1 : 1);
  if (!rawKey.empty()) replaceFirst(text, kKeyMark, rawKey);
  if (!raw.empty()) replaceFirst(text, kValueMark, raw);
  return true;
}

void Mutator::mutateSets(std::vector<std::string>& sets, const std::string& sceneText) {
  switch (below(4)) {
    case 0: {  // a real key path with a hostile value
      const Json doc = shallow(sceneText) ? Json::parse(sceneText, nullptr, false) : Json();
      const std::vector<std::string> paths =
          doc.is_structured() ? dottedPaths(doc) : std::vector<std::string>{};
      const std::string path = paths.empty() ? std::string("pbf.iterations") : paths[below(paths.size())];
      std::string value = hostileValue();
      // '\n' separates overrides in the input format; a value that spans lines is two overrides
      for (char& c : value)
        if (c == '\n') c = ' ';
      sets.push_back(path + "=" + value);
      break;
    }
    case 1:  // a path that does not exist or cannot be indexed
      sets.push_back(std::string(kBadPaths[below(kBadPaths.size())]) + (chance(80) ? "=" : "") +
                     std::string(kHostile[below(kHostile.size())]));
      break;
    case 2:  // a schema word as value
      sets.push_back("solver=" + std::string(kWords[below(kWords.size())]));
      break;
    default:  // bytes of an existing override
      if (sets.empty()) {
        sets.push_back("=");
      } else {
        std::string& s = sets[below(sets.size())];
        mutateText(s);
        for (char& c : s)
          if (c == '\n') c = ' ';
      }
      break;
  }
}

FuzzInput Mutator::mutate(const FuzzInput& seed) {
  FuzzInput out = seed;
  const std::size_t count = 1 + below(3);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t kind = below(10);
    if (kind < 5) {
      if (!mutateTree(out.scene)) mutateText(out.scene);
    } else if (kind < 7) {
      mutateText(out.scene);
    } else {
      mutateSets(out.sets, out.scene);
    }
  }
  return out;
}

}  // namespace eddy::fuzz
