#include "io/scene_messages.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace eddy::scene_messages {

using scene_keys::Range;

std::string formatNumber(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

std::string formatReal(Real v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

std::string formatVec(Vec3 v) {
  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) about "[" + std::string&& once inlined
  std::string out = "[";
  out += formatReal(v.x);
  out += ", ";
  out += formatReal(v.y);
  out += ", ";
  out += formatReal(v.z);
  out += "]";
  return out;
}

std::string joinList(std::span<const std::string_view> items) {
  std::string out;
  for (std::string_view s : items) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

// what a value is, for "expected X, got Y": numbers show themselves, everything else its type
std::string describe(const Json& v) {
  if (v.is_number()) return v.dump();
  if (v.is_array())
    return "an array of " + std::to_string(v.size()) + (v.size() == 1 ? " element" : " elements");
  return v.type_name();
}

std::string rangeText(const Range& r) {
  bool hasLo = std::isfinite(r.lo), hasHi = std::isfinite(r.hi);
  if (hasLo && hasHi) {
    return std::string("in ") + (r.loOpen ? "(" : "[") + formatNumber(r.lo) + ", " + formatNumber(r.hi) +
           (r.hiOpen ? ")" : "]");
  }
  if (hasLo) return std::string(r.loOpen ? "> " : ">= ") + formatNumber(r.lo);
  if (hasHi) return std::string(r.hiOpen ? "< " : "<= ") + formatNumber(r.hi);
  return "any number";
}

bool inRange(double v, const Range& r) {
  if (r.loOpen ? !(v > r.lo) : !(v >= r.lo)) return false;
  if (r.hiOpen ? !(v < r.hi) : !(v <= r.hi)) return false;
  return true;
}

std::string outOfRange(const Range& r, const Json& written, double stored) {
  std::string msg = "must be " + rangeText(r) + ", got " + written.dump();
  // most decimals (-0.1) are not exact in single precision either, but only where the rounding is what puts
  // the number out of range (1e-50 becomes 0) does the stored value explain the refusal
  if (inRange(written.get<double>(), r)) msg += " (" + formatReal(Real(stored)) + " in single precision)";
  return msg;
}

// json pointer escaping (RFC 6901)
std::string pointerChild(const std::string& ptr, std::string_view key) {
  std::string out = ptr + "/";
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string pointerChild(const std::string& ptr, std::size_t index) {
  return ptr + "/" + std::to_string(index);
}

std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string trim(std::string_view s) {
  auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return std::string(s);
}

std::string nonFiniteNumber(const std::string& value) {
  std::string token;
  for (std::size_t i = 0; i <= value.size(); ++i) {
    if (i < value.size() && value[i] != '[' && value[i] != ']' && value[i] != ',' && value[i] != ' ') {
      token += value[i];
      continue;
    }
    char* end = nullptr;
    const double d = token.empty() ? 0 : std::strtod(token.c_str(), &end);
    if (!token.empty() && end == token.c_str() + token.size() && !std::isfinite(d)) return token;
    token.clear();
  }
  return "";
}

}  // namespace eddy::scene_messages
