// The text of scene-file messages: numbers as short as they read back exactly, vectors, lists, what a
// JSON value is, ranges, JSON pointers, and the edit distance behind "did you mean".
#pragma once

#include <eddy/vec3.h>

#include <cstddef>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "io/scene_keys.h"

namespace eddy::scene_messages {

using Json = nlohmann::ordered_json;

std::string formatNumber(double v);
std::string formatReal(Real v);
std::string formatVec(Vec3 v);
std::string joinList(std::span<const std::string_view> items);
// what a value is, for "expected X, got Y": numbers show themselves, everything else its type
std::string describe(const Json& v);
std::string rangeText(const scene_keys::Range& r);
bool inRange(double v, const scene_keys::Range& r);
// "must be > 0, got -0.1" for a number as written in the file; the value stored in single precision is added
// only where the rounding to it is what puts the number out of range ("got 1e-50 (0 in single precision)")
std::string outOfRange(const scene_keys::Range& r, const Json& written, double stored);
// json pointer escaping (RFC 6901)
std::string pointerChild(const std::string& ptr, std::string_view key);
std::string pointerChild(const std::string& ptr, std::size_t index);
std::size_t editDistance(std::string_view a, std::string_view b);
std::string trim(std::string_view s);
// the first word of an override's value (split at brackets, commas and spaces) that reads whole as a number
// that is not finite ("nan", "inf", "1e400"), or ""
std::string nonFiniteNumber(const std::string& value);

}  // namespace eddy::scene_messages
