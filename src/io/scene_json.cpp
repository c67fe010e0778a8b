// The JSON layer under the scene reader: the document parsed with its line and column in every message,
// duplicate keys and runaway nesting refused, and "--set key.path=value" applied to it before validation.
#include "io/scene_json.h"

#include <eddy/error.h>

#include <algorithm>
#include <charconv>
#include <string>
#include <unordered_set>
#include <vector>

#include "io/scene_messages.h"

namespace eddy::scene_json {

using namespace scene_messages;

namespace {

[[noreturn]] void failOverride(const std::string& source, const std::string& text, const std::string& what) {
  throw InputError(source + ": --set '" + text + "': " + what);
}

// nlohmann reports a byte count; people want a line and a column
void lineAndColumn(const std::string& text, std::size_t byte, std::size_t& line, std::size_t& column) {
  std::size_t at = std::min(byte == 0 ? 0 : byte - 1, text.size());
  line = 1 + std::count(text.begin(), text.begin() + at, '\n');
  std::size_t lineStart = text.rfind('\n', at == 0 ? std::string::npos : at - 1);
  lineStart = (at == 0 || lineStart == std::string::npos) ? 0 : lineStart + 1;
  column = at - lineStart + 1;
}

// Scenes nest five levels deep (/emitters/0/material, /colliders/0/shape/center). nlohmann copies values
// recursively, for instance when an ordered object grows past a deeply nested member, so a document of
// thousands of nested arrays would overflow the stack; such text is refused before it is parsed.
constexpr std::size_t kMaxNesting = 64;

// the offset of the first bracket nested deeper than kMaxNesting (brackets inside strings do not count),
// or npos
std::size_t tooDeepAt(std::string_view text) {
  std::size_t depth = 0;
  bool inString = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        inString = false;
      }
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string_view::npos;
}

}  // namespace

Json parseDocument(const std::string& text, const std::string& source) {
  if (std::size_t at = tooDeepAt(text); at != std::string_view::npos) {
    std::size_t line = 0, column = 0;
    lineAndColumn(text, at + 1, line, column);
    throw InputError(source + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                     ": invalid JSON: nested deeper than " + std::to_string(kMaxNesting) + " levels");
  }
  // nlohmann keeps the last of duplicate keys silently; find them with the parser callback instead
  struct Frame {
    bool array = false;
    std::size_t index = 0;
    std::string key{};
    std::unordered_set<std::string> keys{};
  };
  std::vector<Frame> stack;
  std::string duplicate;
  auto callback = [&](int, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
        stack.push_back(Frame{.array = false});
        break;
      case Json::parse_event_t::array_start:
        stack.push_back(Frame{.array = true});
        break;
      case Json::parse_event_t::key: {
        Frame& top = stack.back();
        top.key = parsed.get<std::string>();
        if (!top.keys.insert(top.key).second && duplicate.empty()) {
          for (const Frame& f : stack)
            duplicate = f.array ? pointerChild(duplicate, f.index) : pointerChild(duplicate, f.key);
        }
        break;
      }
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        stack.pop_back();
        if (!stack.empty() && stack.back().array) ++stack.back().index;
        break;
      case Json::parse_event_t::value:
        if (!stack.empty() && stack.back().array) ++stack.back().index;
        break;
    }
    return true;
  };

  Json doc;
  try {
    doc = Json::parse(text, callback);
  } catch (const Json::parse_error& e) {
    std::size_t line = 0, column = 0;
    lineAndColumn(text, e.byte, line, column);
    // keep the parser's reason, drop its "[json.exception...] parse error at ...:" prefix
    std::string reason = e.what();
    std::size_t at = reason.find("parse error");
    if (at != std::string::npos) at = reason.find(": ", at);
    if (at != std::string::npos) reason = reason.substr(at + 2);
    throw InputError(source + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                     ": invalid JSON: " + reason);
  } catch (const Json::exception& e) {
    // a number too large for a double (1e400) is reported without a position
    std::string reason = e.what();
    std::size_t at = reason.find("] ");
    if (at != std::string::npos) reason = reason.substr(at + 2);
    throw InputError(source + ": invalid JSON: " + reason);
  }
  if (!duplicate.empty())
    throw InputError(source + ": " + duplicate +
                     ": duplicate key; each key may appear only once in an object");
  return doc;
}

std::string applyOverride(Json& doc, const std::string& text, const std::string& source) {
  std::size_t eq = text.find('=');
  if (eq == std::string::npos)
    failOverride(source, text, "expected key.path=value, for example pbf.iterations=6");
  std::string path = trim(std::string_view(text).substr(0, eq));
  if (path.empty()) failOverride(source, text, "the key path before '=' is empty");

  std::vector<std::string> segments;
  for (std::size_t start = 0;;) {
    std::size_t dot = path.find('.', start);
    segments.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (segments.back().empty()) failOverride(source, text, "the key path '" + path + "' has an empty part");
    if (dot == std::string::npos) break;
    start = dot + 1;
  }

  // a value that is not JSON is taken as a string, so solver=wcsph needs no quotes
  std::string raw = trim(std::string_view(text).substr(eq + 1));
  if (tooDeepAt(raw) != std::string_view::npos)
    failOverride(source, text, "the value is nested deeper than " + std::to_string(kMaxNesting) + " levels");
  Json value = Json::parse(raw, nullptr, false);
  if (value.is_discarded()) {
    // nan, inf or 1e400 (alone or in a list) are no JSON and would read as text: say what they are
    const std::string bad = nonFiniteNumber(raw);
    if (!bad.empty())
      failOverride(source, text,
                   "'" + bad +
                       "' is not a finite number; numbers must be finite (a name that reads as "
                       "one goes in quotes: \"inf\")");
    value = raw;
  }

  Json* cur = &doc;
  std::string ptr;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& seg = segments[i];
    bool isIndex = std::all_of(seg.begin(), seg.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (cur->is_null()) {
      // a missing key on the way: an object can be created, an array element cannot
      if (isIndex)
        failOverride(source, text, "index " + seg + " is out of range; " + ptr + " does not exist");
      *cur = Json::object();
    }
    Json* next = nullptr;
    if (cur->is_object()) {
      next = &(*cur)[seg];
    } else if (cur->is_array()) {
      if (!isIndex)
        failOverride(source, text, (ptr.empty() ? "/" : ptr) + " is an array; '" + seg + "' is not an index");
      std::size_t index = 0;
      auto res = std::from_chars(seg.data(), seg.data() + seg.size(), index);
      if (res.ec != std::errc() || index >= cur->size()) {
        failOverride(source, text,
                     "index " + seg + " is out of range; " + ptr + " has " + std::to_string(cur->size()) +
                         (cur->size() == 1 ? " element" : " elements"));
      }
      next = &(*cur)[index];
    } else {
      failOverride(source, text, ptr + " is a " + std::string(cur->type_name()) + ", not an object or array");
    }
    ptr = isIndex && cur->is_array() ? pointerChild(ptr, std::stoul(seg)) : pointerChild(ptr, seg);
    cur = next;
  }
  *cur = std::move(value);
  return ptr;
}

}  // namespace eddy::scene_json
