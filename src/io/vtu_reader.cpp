// VTK XML point files: a small scanner over the tags (no general XML parser: the files are machine
// written, and only VTKFile, Piece, Points, PointData and their DataArrays matter), then the arrays decoded
// from ASCII or base64.
#include "io/vtu_reader.h"

#include <eddy/error.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

namespace eddy {

namespace {

struct Tag {
  std::string name;  // without the '/' of a closing tag
  bool closing = false, selfClosing = false;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::size_t end = 0;  // just past the '>'

  const std::string* find(std::string_view key) const {
    for (const auto& [k, v] : attributes)
      if (k == key) return &v;
    return nullptr;
  }
  std::string get(std::string_view key, std::string fallback = "") const {
    const std::string* v = find(key);
    return v ? *v : std::move(fallback);
  }
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string quote(std::string_view s) {
  std::string q(1, '\'');
  q.append(s);
  q += '\'';
  return q;
}

// base64 digit value, or -1
int base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

class VtkReader {
 public:
  VtkReader(const std::string& path, std::string_view text) : path_(path), text_(text) {}

  ParticleFrame read() {
    std::size_t pos = 0;
    Tag tag;
    if (!nextTag(pos, tag) || tag.name != "VTKFile" || tag.closing)
      fail("not a VTK XML file (its first element must be <VTKFile>)");
    readFileAttributes(tag);

    int pieces = 0;
    bool inPiece = false, inPoints = false, inPointData = false, gotPoints = false, ended = false;
    long long expected = 0;
    while (nextTag(pos, tag)) {
      // raw bytes follow: nothing after them is read (nor needed, as the points were inline)
      if (tag.name == "AppendedData") {
        ended = true;
        break;
      }
      ended = ended || (tag.name == "VTKFile" && tag.closing);
      if (tag.name == "Piece") {
        if (!tag.closing) {
          ++pieces;
          inPiece = true;
          gotPoints = false;
          expected = pointCount(tag);
        }
        if (tag.closing || tag.selfClosing) {
          if (inPiece && !gotPoints && expected > 0)
            fail("piece " + std::to_string(pieces - 1) + " has " + std::to_string(expected) +
                 " points but no Points array");
          inPiece = inPoints = false;
        }
      } else if (tag.name == "Points") {
        inPoints = inPiece && !tag.closing && !tag.selfClosing;
      } else if (tag.name == "PointData") {
        inPointData = inPiece && !tag.closing && !tag.selfClosing;
      } else if (tag.name == "DataArray" && !tag.closing && ((inPoints && !gotPoints) || inPointData)) {
        std::string_view content;
        if (!tag.selfClosing) {
          const std::size_t close = text_.find("</DataArray", tag.end);
          if (close == std::string_view::npos)
            fail("the " + (inPoints ? std::string("Points") : quote(tag.get("Name"))) +
                 " DataArray is not closed");
          content = text_.substr(tag.end, close - tag.end);
          pos = close;
        }
        if (inPoints) {
          readPoints(tag, content, expected);
          gotPoints = true;
        } else {
          readAttribute(tag, content, expected);
        }
      }
    }
    if (inPiece && !gotPoints && expected > 0)
      fail("piece " + std::to_string(pieces - 1) + " has no Points array before the file ends");
    if (!ended) fail("the file ends before </VTKFile> (cut short?)");
    if (pieces == 0) fail("no <Piece> element, so no Points");
    if (points_.empty()) throw InputError("particle file '" + path_ + "' holds no particles");
    ParticleFrame frame;
    frame.position = std::move(points_);
    // an attribute is kept where every piece had it
    const std::size_t n = frame.position.size();
    if (velocity_.size() == n) frame.velocity = std::move(velocity_);
    if (density_.size() == n) frame.density = std::move(density_);
    if (id_.size() == n) frame.id = std::move(id_);
    if (material_.size() == n) frame.material = std::move(material_);
    return frame;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError("particle file '" + path_ + "': " + what);
  }

  // the next element tag at or after pos (comments, <?xml ?> and <!...> skipped); false at the end
  bool nextTag(std::size_t& pos, Tag& tag) {
    while (true) {
      pos = text_.find('<', pos);
      if (pos == std::string_view::npos) return false;
      const std::string_view rest = text_.substr(pos);
      const char* closer = rest.starts_with("<!--") ? "-->" : rest.starts_with("<?") ? "?>" : nullptr;
      if (closer || rest.starts_with("<!")) {
        const std::size_t end = text_.find(closer ? closer : ">", pos + 2);
        if (end == std::string_view::npos) fail("malformed XML: a comment or declaration is not closed");
        pos = end + 1;
        continue;
      }
      parseTag(pos, tag);
      pos = tag.end;
      return true;
    }
  }

  void parseTag(std::size_t pos, Tag& tag) {
    tag = Tag{};
    std::size_t i = pos + 1;
    auto unclosed = [&] { fail("malformed XML: the tag at byte " + std::to_string(pos) + " is not closed"); };
    if (i < text_.size() && text_[i] == '/') tag.closing = true, ++i;
    const std::size_t nameStart = i;
    while (i < text_.size() && !isSpace(text_[i]) && text_[i] != '>' && text_[i] != '/') ++i;
    tag.name = std::string(text_.substr(nameStart, i - nameStart));
    while (true) {
      while (i < text_.size() && isSpace(text_[i])) ++i;
      if (i >= text_.size()) unclosed();
      if (text_[i] == '>') break;
      if (text_.substr(i, 2) == "/>") {
        tag.selfClosing = true;
        ++i;
        break;
      }
      const std::size_t keyStart = i;
      while (i < text_.size() && !isSpace(text_[i]) && text_[i] != '=' && text_[i] != '>') ++i;
      std::string key(text_.substr(keyStart, i - keyStart));
      while (i < text_.size() && isSpace(text_[i])) ++i;
      if (i >= text_.size() || text_[i] != '=')
        fail("malformed XML: attribute " + quote(key) + " of <" + tag.name + "> has no value");
      ++i;
      while (i < text_.size() && isSpace(text_[i])) ++i;
      if (i >= text_.size() || (text_[i] != '"' && text_[i] != '\'')) unclosed();
      const std::size_t valueEnd = text_.find(text_[i], i + 1);
      if (valueEnd == std::string_view::npos) unclosed();
      tag.attributes.emplace_back(std::move(key), std::string(text_.substr(i + 1, valueEnd - i - 1)));
      i = valueEnd + 1;
    }
    tag.end = i + 1;
  }

  void readFileAttributes(const Tag& root) {
    const std::string type = root.get("type");
    if (type != "UnstructuredGrid" && type != "PolyData")
      fail("VTK dataset type " + quote(type) +
           " is not read; allowed: UnstructuredGrid (.vtu), PolyData (.vtp)");
    const std::string order = root.get("byte_order", "LittleEndian");
    if (order != "LittleEndian" && order != "BigEndian")
      fail("unknown byte_order " + quote(order) + "; allowed: LittleEndian, BigEndian");
    bigEndian_ = order == "BigEndian";
    // VTK's files before header_type existed used 32-bit byte counts
    const std::string header = root.get("header_type", "UInt32");
    if (header != "UInt32" && header != "UInt64")
      fail("unknown header_type " + quote(header) + "; allowed: UInt32, UInt64");
    headerBytes_ = header == "UInt64" ? 8 : 4;
    compressor_ = root.get("compressor");
  }

  long long pointCount(const Tag& piece) const {
    const std::string n = piece.get("NumberOfPoints");
    long long count = -1;
    const auto res = std::from_chars(n.data(), n.data() + n.size(), count);
    if (res.ec != std::errc() || res.ptr != n.data() + n.size() || count < 0)
      fail("<Piece> needs NumberOfPoints, a whole number >= 0 (found " + quote(n) + ")");
    return count;
  }

  // little or big endian, as the file says, whatever the host
  std::uint64_t unsignedAt(const std::string& bytes, std::size_t at, int size) const {
    std::uint64_t v = 0;
    for (int k = 0; k < size; ++k) {
      const int shift = bigEndian_ ? 8 * (size - 1 - k) : 8 * k;
      v |= std::uint64_t(static_cast<unsigned char>(bytes[at + k])) << shift;
    }
    return v;
  }

  // an array's n * components values, checked against what the array says of itself; `what` names it in
  // messages ("the Points array")
  std::vector<double> readArray(const Tag& array, std::string_view content, long long n, int components,
                                const std::string& what, bool floatsOnly) {
    const std::string type = array.get("type");
    static const struct {
      const char* name;
      int size;
      char kind;
    } kTypes[] = {{"Float32", 4, 'f'}, {"Float64", 8, 'f'}, {"Int8", 1, 'i'},  {"UInt8", 1, 'u'},
                  {"Int16", 2, 'i'},   {"UInt16", 2, 'u'},  {"Int32", 4, 'i'}, {"UInt32", 4, 'u'},
                  {"Int64", 8, 'i'},   {"UInt64", 8, 'u'}};
    int size = 0;
    char kind = 0;
    for (const auto& t : kTypes)
      if (type == t.name && (!floatsOnly || t.kind == 'f')) size = t.size, kind = t.kind;
    if (size == 0)
      fail(what + " has type " + quote(type) + "; allowed: Float32, Float64" +
           (floatsOnly ? "" : ", or (U)Int8, 16, 32, 64"));
    const std::string count = array.get("NumberOfComponents", "1");
    if (count != std::to_string(components))
      fail(what + " has " + count + " component(s) per point; it needs " + std::to_string(components) +
           (components == 3 ? " (x, y, z)" : ""));
    const std::string format = array.get("format");
    if (format == "appended")
      fail(what +
           " is \"appended\" data, which is not read; allowed: format \"binary\" "
           "(uncompressed) or \"ascii\", as `eddy run --format vtk` writes");
    if (format != "ascii" && format != "binary")
      fail(what + " has format " + quote(format) + "; allowed: ascii, binary");
    if (format == "binary" && !compressor_.empty())
      fail("compressed data (" + compressor_ +
           ") is not read; allowed: uncompressed \"binary\" or \"ascii\" arrays, as `eddy run --format vtk` "
           "writes");
    if (n == 0) return {};  // an empty piece's array may be empty too, header and all
    // every value takes at least one character, so a bigger count is a file cut short (or a header that
    // would have us allocate without end)
    if (std::size_t(n) > content.size())
      fail(what + " is truncated: too short for the piece's " + std::to_string(n) + " points");
    const std::size_t values = std::size_t(n) * std::size_t(components);
    std::vector<double> out;
    out.reserve(values);
    if (format == "ascii")
      readAscii(content, values, components, what, out);
    else
      readBinary(content, values, components, size, kind, what, out);
    return out;
  }

  // velocity, density, id and material (as `eddy run --format vtk` writes them); other arrays are skipped
  void readAttribute(const Tag& array, std::string_view content, long long n) {
    const std::string name = array.get("Name");
    const bool vector = name == "velocity";
    if (!vector && name != "density" && name != "id" && name != "material") return;
    const std::string what = "the " + quote(name) + " array";
    const std::vector<double> v =
        readArray(array, content, n, vector ? 3 : 1, what, vector || name == "density");
    for (std::size_t p = 0; p < std::size_t(n); ++p) {
      if (vector) {
        const Vec3 u{Real(v[3 * p]), Real(v[3 * p + 1]), Real(v[3 * p + 2])};
        if (!std::isfinite(u.x) || !std::isfinite(u.y) || !std::isfinite(u.z))
          fail("point " + std::to_string(velocity_.size()) + " has a velocity that is not a finite number");
        velocity_.push_back(u);
      } else if (name == "density") {
        if (!std::isfinite(float(v[p])))
          fail("point " + std::to_string(density_.size()) + " has a density that is not a finite number");
        density_.push_back(float(v[p]));
      } else {
        if (!(v[p] >= 0 && v[p] <= 4294967295.0))
          fail("point " + std::to_string(name == "id" ? id_.size() : material_.size()) + " has " + name +
               " " + std::to_string(v[p]) + "; allowed: 0 to 4294967295");
        (name == "id" ? id_ : material_).push_back(std::uint32_t(v[p]));
      }
    }
  }

  void readPoints(const Tag& array, std::string_view content, long long n) {
    const std::vector<double> coords = readArray(array, content, n, 3, "the Points array", true);
    if (n == 0) return;
    const std::size_t first = points_.size();
    for (std::size_t p = 0; p < std::size_t(n); ++p) {
      const double x = coords[3 * p], y = coords[3 * p + 1], z = coords[3 * p + 2];
      const Vec3 v{Real(x), Real(y), Real(z)};
      // checked after the cast: a double beyond float's range is no more usable than a NaN
      if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "point %zu (%g, %g, %g) is not a finite position", first + p, x, y, z);
        fail(buf);
      }
      points_.push_back(v);
    }
  }

  void readAscii(std::string_view content, std::size_t values, int components, const std::string& what,
                 std::vector<double>& out) const {
    std::size_t i = 0;
    while (true) {
      while (i < content.size() && isSpace(content[i])) ++i;
      if (i >= content.size()) break;
      std::size_t j = i;
      while (j < content.size() && !isSpace(content[j])) ++j;
      std::string_view word = content.substr(i, j - i);
      if (word.size() > 1 && word[0] == '+') word.remove_prefix(1);  // from_chars refuses the '+'
      double v = 0;
      const auto res = std::from_chars(word.data(), word.data() + word.size(), v);
      if (res.ptr != word.data() + word.size() ||
          (res.ec != std::errc() && res.ec != std::errc::result_out_of_range))
        fail(what + ": " + quote(word) + " is not a number (value " + std::to_string(out.size()) + ")");
      if (res.ec == std::errc::result_out_of_range) v = HUGE_VAL;  // caught by the finiteness check
      if (out.size() == values)
        fail(what + " holds more than " + std::to_string(values) + " values (" + std::to_string(components) +
             " per point)");
      out.push_back(v);
      i = j;
    }
    if (out.size() != values)
      fail(what + " holds " + std::to_string(out.size()) + " values; " +
           std::to_string(values / std::size_t(components)) + " points need " + std::to_string(values));
  }

  // Groups of 4 digits, each decoded on its own: VTK writes the header and the data as one base64 stream
  // or as two (the header padded), and both read the same way.
  std::string decodeBase64(std::string_view content, const std::string& what) const {
    std::string bytes;
    bytes.reserve(content.size() / 4 * 3);
    char group[4];
    int filled = 0;
    for (char c : content) {
      if (isSpace(c)) continue;
      if (c != '=' && base64Value(c) < 0)
        fail(what + " is not valid base64 (character " + quote(std::string(1, c)) + ")");
      group[filled++] = c;
      if (filled < 4) continue;
      filled = 0;
      const int pad = (group[3] == '=') + (group[2] == '=');
      if (group[0] == '=' || group[1] == '=' || (group[2] == '=' && group[3] != '='))
        fail(what + " is not valid base64 (misplaced '=')");
      std::uint32_t v = 0;
      for (int k = 0; k < 4; ++k) v = v << 6 | std::uint32_t(group[k] == '=' ? 0 : base64Value(group[k]));
      bytes.push_back(char(v >> 16));
      if (pad < 2) bytes.push_back(char(v >> 8 & 0xffu));
      if (pad < 1) bytes.push_back(char(v & 0xffu));
    }
    if (filled != 0) fail(what + "'s base64 data is truncated (its length is not a multiple of 4)");
    return bytes;
  }

  void readBinary(std::string_view content, std::size_t values, int components, int size, char kind,
                  const std::string& what, std::vector<double>& out) const {
    const std::string bytes = decodeBase64(content, what);
    const std::size_t need = values * std::size_t(size);
    if (bytes.size() < std::size_t(headerBytes_))
      fail(what + "'s binary data is truncated (no " + std::to_string(headerBytes_ * 8) +
           "-bit byte count in front)");
    const std::uint64_t declared = unsignedAt(bytes, 0, headerBytes_);
    if (declared != need)
      fail(what + "'s header gives " + std::to_string(declared) + " bytes; " +
           std::to_string(values / std::size_t(components)) + " points need " + std::to_string(need));
    const std::size_t have = bytes.size() - std::size_t(headerBytes_);
    if (have < need)
      fail(what + "'s binary data is truncated: " + std::to_string(have) + " of " + std::to_string(need) +
           " bytes");
    for (std::size_t k = 0; k < values; ++k) {
      const std::uint64_t bits = unsignedAt(bytes, std::size_t(headerBytes_) + k * std::size_t(size), size);
      if (kind == 'u') {
        out.push_back(double(bits));
      } else if (kind == 'i') {
        const int shift = 64 - 8 * size;  // sign-extended from the value's own width
        out.push_back(double(std::int64_t(bits << shift) >> shift));
      } else if (size == 4) {
        float f;
        const std::uint32_t b32 = std::uint32_t(bits);
        std::memcpy(&f, &b32, sizeof f);
        out.push_back(f);
      } else {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        out.push_back(d);
      }
    }
  }

  const std::string& path_;
  std::string_view text_;
  bool bigEndian_ = false;
  int headerBytes_ = 4;
  std::string compressor_;
  std::vector<Vec3> points_;
  std::vector<Vec3> velocity_;
  std::vector<float> density_;
  std::vector<std::uint32_t> id_, material_;
};

}  // namespace

std::vector<Vec3> parseVtkPoints(const std::string& path, std::string_view text) {
  return VtkReader(path, text).read().position;
}

ParticleFrame parseVtkParticles(const std::string& path, std::string_view text) {
  return VtkReader(path, text).read();
}

}  // namespace eddy
