// The JSON layer under the scene reader (scene_json.cpp). Every message starts with the source's name.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace eddy::scene_json {

using Json = nlohmann::ordered_json;

// The document of a scene's text. Throws InputError for text that is not JSON (with its line and column),
// nested deeper than a scene can be, or holding a key twice in one object (with its JSON pointer).
Json parseDocument(const std::string& text, const std::string& source);

// "key.path=value" applied to the document before validation; a value that is not JSON is taken as a
// string, so solver=wcsph needs no quotes. Returns the JSON pointer it set. Throws InputError, naming the
// override, for a malformed path, an index out of range, or a number that is not finite.
std::string applyOverride(Json& doc, const std::string& text, const std::string& source);

}  // namespace eddy::scene_json
