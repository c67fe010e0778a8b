// Triangle-mesh files: OBJ through tinyobjloader (header only, implemented here), PLY through our own
// reader, and a writer.
#define TINYOBJLOADER_IMPLEMENTATION
#include <eddy/error.h>
#include <eddy/mesh.h>
#include <eddy/output.h>
#include <tiny_obj_loader.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <system_error>
#include <utility>

#include "io/vtu_reader.h"

namespace eddy {
namespace {

// ---------------------------------------------------------------- shared helpers

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

[[noreturn]] void unknownFormat(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  throw InputError("mesh file '" + path + "': unknown format '" + (ext.empty() ? "(no extension)" : ext) +
                   "'; allowed: .obj, .ply");
}

// The Stanford 3D Scanning Repository's models (free for research use) are not ours to ship; scenes that read
// them name them stanford-*, and a user who lacks one learns where it comes from.
std::string whereToGet(const std::string& path, std::string_view kind) {
  if (kind != "mesh" || !std::filesystem::path(path).filename().string().starts_with("stanford-")) return "";
  return "; the Stanford models do not ship with eddy: get the model from the Stanford 3D Scanning "
         "Repository, "
         "https://graphics.stanford.edu/data/3Dscanrep/, decimate it to the triangle count in the file name "
         "and save it there as OBJ (scenes/knot_pour.json and scenes/blob_bunny_tank.json run on meshes that "
         "ship in scenes/meshes)";
}

std::string readMeshFile(const std::string& path, std::string_view kind = "mesh") {
  const std::string file = std::string(kind) + " file '";
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(st)) throw InputError(file + path + "' not found" + whereToGet(path, kind));
  if (std::filesystem::is_directory(st)) throw InputError(file + path + "' is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(file + path + "' cannot be read");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw InputError(file + path + "' cannot be read");
  return std::move(bytes).str();
}

// editors on Windows put a UTF-8 byte order mark in front; it is not part of the first keyword
std::string_view withoutBom(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  return text;
}

// A whole token as a number; '+' in front is allowed (from_chars refuses it). Out-of-range values come
// back as inf or 0 the way strtod rounds them, so the caller's finiteness check sees an overflow.
bool parseNumber(std::string_view s, double& out) {
  if (s.starts_with('+')) s.remove_prefix(1);
  if (s.empty()) return false;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), out);
  if (res.ptr != s.data() + s.size()) return false;
  if (res.ec == std::errc::result_out_of_range) out = std::strtod(std::string(s).c_str(), nullptr);
  return res.ec == std::errc() || res.ec == std::errc::result_out_of_range;
}

bool parseInteger(std::string_view s, long long& out) {
  if (s.starts_with('+')) s.remove_prefix(1);
  if (s.empty()) return false;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), out);
  return res.ec == std::errc() && res.ptr == s.data() + s.size();
}

// splits on spaces and tabs (what OBJ and PLY call white space within a line)
std::vector<std::string_view> splitWords(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

// Walks text line by line; a line ends at "\n", "\r\n" or a lone "\r" (as tinyobjloader counts them).
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find_first_of("\r\n", pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    pos_ = end;
    if (pos_ < text_.size())
      pos_ += (text_[pos_] == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') ? 2 : 1;
    ++lineNumber_;
    return true;
  }
  std::size_t lineNumber() const { return lineNumber_; }
  std::size_t offset() const { return pos_; }  // first byte after the last line read

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t lineNumber_ = 0;
};

std::string quote(std::string_view s) {
  constexpr std::size_t kMax = 40;
  return "'" + std::string(s.substr(0, kMax)) + (s.size() > kMax ? "...'" : "'");
}

// finite and representable as a float (compared in double: converting an out-of-range double is undefined)
bool finiteAsFloat(double v) {
  return std::isfinite(v) && std::fabs(v) <= double(std::numeric_limits<float>::max());
}

// Appends the fan (v0, vi, vi+1) of one polygon after checking its corners; `where` names the polygon in
// messages ("FILE:LINE" or "FILE: face K").
template <class Where>
void appendFan(TriangleMesh& mesh, const long long* corners, std::size_t count, const Where& where,
               const char* indexRule) {
  if (count < 3)
    throw InputError(where() + ": a face has " + std::to_string(count) +
                     " vertices; a face needs at least 3");
  const auto vertexCount = static_cast<long long>(mesh.vertices.size());
  for (std::size_t k = 0; k < count; ++k)
    if (corners[k] < 0 || corners[k] >= vertexCount)
      throw InputError(where() + ": the face refers to vertex " + std::to_string(corners[k]) +
                       ", but the file has " + std::to_string(vertexCount) + " vertices; " + indexRule);
  auto at = [&](std::size_t k) { return static_cast<std::uint32_t>(corners[k]); };
  for (std::size_t k = 1; k + 1 < count; ++k) mesh.triangles.push_back({at(0), at(k), at(k + 1)});
}

void requireTriangles(const TriangleMesh& mesh, const std::string& path) {
  if (mesh.triangles.empty())
    throw InputError("mesh file '" + path +
                     "' holds no triangles; a mesh needs at least one face with 3 or more vertices");
}

// ---------------------------------------------------------------- OBJ
//
// tinyobjloader does the parsing, but it reads "nan", "inf" or a missing coordinate as 0, drops faces with
// fewer than three vertices or bad indices with a warning and no line, and does not skip a byte order
// mark. A first pass over the text therefore checks vertices and faces itself, with line numbers, and
// counts the vertices of every face (tinyobjloader keeps that count in an unsigned char).

constexpr const char* kObjIndexRule =
    "OBJ indices run from 1 to the number of vertices (negative ones count back from the latest vertex)";

struct ObjFaceRecord {
  std::size_t line = 0;
  std::size_t corners = 0;
};

struct ObjScan {
  std::size_t vertices = 0;
  std::vector<ObjFaceRecord> faces;
};

// "v", "v/vt", "v//vn" or "v/vt/vn" with non-zero integers (tinyobjloader fails on anything else without
// a clear message); index is v
bool parseFaceCorner(std::string_view corner, long long& index) {
  std::string_view parts[3];
  std::size_t n = 0;
  for (;;) {
    if (n == 3) return false;
    const std::size_t slash = corner.find('/');
    parts[n++] = corner.substr(0, slash);
    if (slash == std::string_view::npos) break;
    corner.remove_prefix(slash + 1);
  }
  long long value = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (k == 1 && n == 3 && parts[k].empty()) continue;  // v//vn
    if (!parseInteger(parts[k], value) || value == 0) return false;
    if (k == 0) index = value;
  }
  return true;
}

ObjScan scanObj(std::string_view text, const std::string& path) {
  ObjScan scan;
  LineReader lines(text);
  auto at = [&] { return path + ":" + std::to_string(lines.lineNumber()); };
  // positive indices may point past the vertices read so far; checked against the total at the end
  std::vector<std::pair<std::size_t, long long>> forward;
  std::string_view line;
  while (lines.next(line)) {
    const std::vector<std::string_view> words = splitWords(line);
    if (words.empty()) continue;
    if (words[0] == "v") {
      if (words.size() < 4)
        throw InputError(at() + ": a vertex needs three coordinates (v x y z), found " +
                         std::to_string(words.size() - 1));
      for (std::size_t k = 1; k <= 3; ++k) {
        double value = 0;
        if (!parseNumber(words[k], value))
          throw InputError(at() + ": vertex coordinate " + quote(words[k]) + " is not a number");
        if (!finiteAsFloat(value))
          throw InputError(at() + ": vertex coordinate " + quote(words[k]) +
                           " is not finite; coordinates must be finite numbers within float range");
      }
      ++scan.vertices;
    } else if (words[0] == "f") {
      const std::size_t corners = words.size() - 1;
      if (corners < 3)
        throw InputError(at() + ": a face has " + std::to_string(corners) +
                         " vertices; a face needs at least 3");
      for (std::size_t k = 1; k < words.size(); ++k) {
        long long index = 0;
        if (!parseFaceCorner(words[k], index))
          throw InputError(
              at() + ": " + quote(words[k]) +
              " is not a vertex reference; allowed: v, v/vt, v/vt/vn or v//vn with non-zero integers");
        if (index < 0 && -index > static_cast<long long>(scan.vertices))
          throw InputError(at() + ": the face refers to vertex " + std::to_string(index) + ", but only " +
                           std::to_string(scan.vertices) + " vertices come before it; " + kObjIndexRule);
        if (index > static_cast<long long>(scan.vertices)) forward.emplace_back(lines.lineNumber(), index);
      }
      scan.faces.push_back({lines.lineNumber(), corners});
    }
  }
  for (const auto& [lineNumber, index] : forward)
    if (index > static_cast<long long>(scan.vertices))
      throw InputError(path + ":" + std::to_string(lineNumber) + ": the face refers to vertex " +
                       std::to_string(index) + ", but the file has " + std::to_string(scan.vertices) +
                       " vertices; " + kObjIndexRule);
  return scan;
}

TriangleMesh loadObj(const std::string& path, std::string_view text) {
  const ObjScan scan = scanObj(text, path);

  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warnings, errors;
  std::istringstream in{std::string(text)};
  // no material reader: mtllib lines are skipped; no triangulation: we fan the polygons ourselves
  const bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warnings, &errors, &in, nullptr,
                                   /*triangulate=*/false, /*default_vcols_fallback=*/false);
  if (!ok) {
    std::string first = errors.substr(0, errors.find('\n'));
    throw InputError("mesh file '" + path + "': " + (first.empty() ? "cannot be parsed as OBJ" : first));
  }
  if (attrib.vertices.size() != 3 * scan.vertices)
    throw InputError("mesh file '" + path + "': tinyobjloader read " +
                     std::to_string(attrib.vertices.size() / 3) + " vertices where the file has " +
                     std::to_string(scan.vertices));

  TriangleMesh mesh;
  mesh.vertices.reserve(scan.vertices);
  for (std::size_t i = 0; i < scan.vertices; ++i)
    mesh.vertices.push_back({attrib.vertices[3 * i], attrib.vertices[3 * i + 1], attrib.vertices[3 * i + 2]});

  // the faces come out of the shapes in file order, so they line up with the scan's records
  std::vector<long long> corners;
  for (const tinyobj::shape_t& shape : shapes)
    for (const tinyobj::index_t& index : shape.mesh.indices) corners.push_back(index.vertex_index);
  std::size_t cornersExpected = 0;
  for (const ObjFaceRecord& r : scan.faces) cornersExpected += r.corners;
  if (corners.size() != cornersExpected)
    throw InputError("mesh file '" + path + "': tinyobjloader read " + std::to_string(corners.size()) +
                     " face corners where the file has " + std::to_string(cornersExpected));
  std::size_t first = 0;
  for (const ObjFaceRecord& record : scan.faces) {
    auto where = [&] { return path + ":" + std::to_string(record.line); };
    appendFan(mesh, corners.data() + first, record.corners, where, kObjIndexRule);
    first += record.corners;
  }
  requireTriangles(mesh, path);
  return mesh;
}

// ---------------------------------------------------------------- PLY

enum class PlyFormat { Ascii, BinaryLittleEndian, BinaryBigEndian };

enum class PlyType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

struct PlyTypeName {
  std::string_view name;
  PlyType type;
};
constexpr PlyTypeName kPlyTypes[] = {
    {"char", PlyType::Int8},      {"int8", PlyType::Int8},       {"uchar", PlyType::UInt8},
    {"uint8", PlyType::UInt8},    {"short", PlyType::Int16},     {"int16", PlyType::Int16},
    {"ushort", PlyType::UInt16},  {"uint16", PlyType::UInt16},   {"int", PlyType::Int32},
    {"int32", PlyType::Int32},    {"uint", PlyType::UInt32},     {"uint32", PlyType::UInt32},
    {"float", PlyType::Float32},  {"float32", PlyType::Float32}, {"double", PlyType::Float64},
    {"float64", PlyType::Float64}};

// bytes per value, in the order of PlyType
constexpr std::size_t kPlySizes[] = {1, 1, 2, 2, 4, 4, 4, 8};
std::size_t sizeOf(PlyType t) { return kPlySizes[static_cast<int>(t)]; }

bool isFloat(PlyType t) { return t == PlyType::Float32 || t == PlyType::Float64; }

// what a property means to us; everything else (normals, colours, flags) is read and dropped
enum class PlyRole { Other, X, Y, Z, VertexIndices };

struct PlyProperty {
  std::string name;
  bool isList = false;
  PlyType type = PlyType::Float32;  // the value type (list items for a list)
  PlyType countType = PlyType::UInt8;
  PlyRole role = PlyRole::Other;
};

struct PlyElement {
  std::string name;
  std::uint64_t count = 0;
  std::vector<PlyProperty> properties;
};

struct PlyHeader {
  PlyFormat format = PlyFormat::Ascii;
  std::vector<PlyElement> elements;
  std::size_t bodyOffset = 0;  // first byte after the end_header line
  std::size_t bodyLine = 0;    // line number of the first body line (ASCII)
};

// kind: what the file is, for messages ("mesh", "particle"); a point cloud (withFaces false) needs no faces
PlyHeader parsePlyHeader(std::string_view text, const std::string& path, std::string_view kind = "mesh",
                         bool withFaces = true) {
  const std::string file = std::string(kind) + " file '";
  PlyHeader header;
  LineReader lines(text);
  auto at = [&] { return path + ":" + std::to_string(lines.lineNumber()); };
  std::string_view line;
  if (!lines.next(line) || splitWords(line) != std::vector<std::string_view>{"ply"})
    throw InputError(file + path + "' is not a PLY file: its first line must be 'ply'");
  bool formatSeen = false;
  bool ended = false;
  while (!ended && lines.next(line)) {
    const std::vector<std::string_view> w = splitWords(line);
    if (w.empty() || w[0] == "comment" || w[0] == "obj_info") continue;
    if (w[0] == "end_header") {
      ended = true;
    } else if (w[0] == "format") {
      if (w.size() != 3)
        throw InputError(at() +
                         ": malformed format line; expected 'format ascii|binary_little_endian|"
                         "binary_big_endian 1.0'");
      if (w[1] == "ascii") {
        header.format = PlyFormat::Ascii;
      } else if (w[1] == "binary_little_endian") {
        header.format = PlyFormat::BinaryLittleEndian;
      } else if (w[1] == "binary_big_endian") {
        header.format = PlyFormat::BinaryBigEndian;
      } else {
        throw InputError(at() + ": unknown PLY format " + quote(w[1]) +
                         "; allowed: ascii, binary_little_endian, binary_big_endian");
      }
      formatSeen = true;
    } else if (w[0] == "element") {
      long long count = -1;
      if (w.size() != 3 || !parseInteger(w[2], count) || count < 0)
        throw InputError(at() + ": malformed element line; expected 'element NAME COUNT' with COUNT >= 0");
      for (const PlyElement& e : header.elements)
        if (e.name == w[1]) throw InputError(at() + ": element " + quote(w[1]) + " is declared twice");
      header.elements.push_back({std::string(w[1]), static_cast<std::uint64_t>(count), {}});
    } else if (w[0] == "property") {
      if (header.elements.empty()) throw InputError(at() + ": a property before any element");
      auto typeOf = [&](std::string_view name) {
        for (const PlyTypeName& t : kPlyTypes)
          if (t.name == name) return t.type;
        throw InputError(
            at() + ": unknown property type " + quote(name) +
            "; allowed: char uchar short ushort int uint float double (or int8 uint8 int16 uint16 "
            "int32 uint32 float32 float64)");
      };
      PlyProperty p;
      if (w.size() == 5 && w[1] == "list") {
        p.isList = true;
        p.countType = typeOf(w[2]);
        p.type = typeOf(w[3]);
        p.name = w[4];
        if (isFloat(p.countType))
          throw InputError(at() + ": list " + quote(w[4]) + " has a " + std::string(w[2]) +
                           " count; list counts must be integer types");
      } else if (w.size() == 3 && w[1] != "list") {
        p.type = typeOf(w[1]);
        p.name = w[2];
      } else {
        throw InputError(at() +
                         ": malformed property line; expected 'property TYPE NAME' or "
                         "'property list COUNT_TYPE ITEM_TYPE NAME'");
      }
      PlyElement& element = header.elements.back();
      for (const PlyProperty& q : element.properties)
        if (q.name == p.name) throw InputError(at() + ": property " + quote(p.name) + " is declared twice");
      if (element.name == "vertex" && (p.name == "x" || p.name == "y" || p.name == "z")) {
        if (p.isList || !isFloat(p.type))
          throw InputError(at() + ": vertex coordinate " + quote(p.name) +
                           " must be a float or double (float32, float64) property");
        p.role = p.name == "x" ? PlyRole::X : p.name == "y" ? PlyRole::Y : PlyRole::Z;
      }
      // the first of vertex_indices / vertex_index is the one read
      const bool indicesSeen =
          std::any_of(element.properties.begin(), element.properties.end(),
                      [](const PlyProperty& q) { return q.role == PlyRole::VertexIndices; });
      if (element.name == "face" && !indicesSeen &&
          (p.name == "vertex_indices" || p.name == "vertex_index")) {
        if (!p.isList || isFloat(p.type))
          throw InputError(at() + ": face property " + quote(p.name) +
                           " must be a list of integers, e.g. 'property list uchar int " + p.name + "'");
        p.role = PlyRole::VertexIndices;
      }
      element.properties.push_back(std::move(p));
    } else {
      throw InputError(at() + ": unknown header line " + quote(w[0]) +
                       "; allowed: format, element, property, comment, obj_info, end_header");
    }
  }
  if (!ended) throw InputError(file + path + "': malformed PLY header: no end_header line");
  if (!formatSeen) throw InputError(file + path + "': malformed PLY header: no format line");
  header.bodyOffset = lines.offset();
  header.bodyLine = lines.lineNumber() + 1;

  auto find = [&](std::string_view name) -> const PlyElement* {
    for (const PlyElement& e : header.elements)
      if (e.name == name) return &e;
    return nullptr;
  };
  auto has = [](const PlyElement& e, PlyRole role) {
    return std::any_of(e.properties.begin(), e.properties.end(),
                       [&](const PlyProperty& p) { return p.role == role; });
  };
  const PlyElement* vertex = find("vertex");
  if (!vertex || !has(*vertex, PlyRole::X) || !has(*vertex, PlyRole::Y) || !has(*vertex, PlyRole::Z))
    throw InputError(file + path + "': the PLY header needs 'element vertex' with properties x, y and z");
  if (vertex->count > std::numeric_limits<std::uint32_t>::max())
    throw InputError(file + path + "': " + std::to_string(vertex->count) +
                     " vertices; at most 4294967295 are allowed");
  const PlyElement* face = find("face");
  if (withFaces && (!face || !has(*face, PlyRole::VertexIndices)))
    throw InputError(file + path +
                     "': the PLY header needs 'element face' with a list property vertex_indices "
                     "(or vertex_index); a point cloud is not a mesh");
  return header;
}

std::string formatDouble(double v) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// Reads values from the PLY body: white-space separated words (ASCII) or packed bytes (binary).
class PlyBody {
 public:
  PlyBody(std::string_view text, const PlyHeader& header, const std::string& path)
      : text_(text), pos_(header.bodyOffset), line_(header.bodyLine), format_(header.format), path_(path) {}

  // moves to the first word of the next element instance and returns its line (ASCII)
  std::size_t beginInstance() {
    if (format_ == PlyFormat::Ascii) skipSpace();
    return line_;
  }

  // "FILE:LINE: face K" (ASCII) or "FILE: face K" (binary)
  std::string where(const PlyElement& element, std::uint64_t index) const {
    return (format_ == PlyFormat::Ascii ? path_ + ":" + std::to_string(line_) : path_) + ": " + element.name +
           " " + std::to_string(index);
  }

  // one value of property p (its count when count is set) of instance `index`; integers come back exact
  double read(const PlyElement& element, std::uint64_t index, const PlyProperty& p, bool count = false) {
    const PlyType type = count ? p.countType : p.type;
    return format_ == PlyFormat::Ascii ? readWord(type, element, index, p) : readBytes(type, element, index);
  }

  // only white space may follow the last element in ASCII (a count that is too small would go unnoticed
  // otherwise); binary writers sometimes pad, so extra bytes are ignored
  void finish() {
    if (format_ != PlyFormat::Ascii) return;
    skipSpace();
    if (pos_ < text_.size())
      throw InputError(path_ + ":" + std::to_string(line_) +
                       ": data after the last element; the header's element counts are too small");
  }

 private:
  void skipSpace() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\f' && c != '\v') break;
      if (c == '\n' || (c == '\r' && !(pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n'))) ++line_;
      ++pos_;
    }
  }

  [[noreturn]] void truncated(const PlyElement& element, std::uint64_t index) const {
    // in ASCII, cite the line of the last word rather than the empty end of the file
    const std::string at = format_ == PlyFormat::Ascii ? path_ + ":" + std::to_string(lastWordLine_) : path_;
    throw InputError(at + ": " + element.name + " " + std::to_string(index) +
                     ": the file ends inside this element (truncated? the header announces 'element " +
                     element.name + " " + std::to_string(element.count) + "')");
  }

  double readWord(PlyType type, const PlyElement& element, std::uint64_t index, const PlyProperty& p) {
    skipSpace();
    if (pos_ >= text_.size()) truncated(element, index);
    lastWordLine_ = line_;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    const std::string_view word = text_.substr(start, pos_ - start);
    if (isFloat(type)) {
      double v = 0;
      if (!parseNumber(word, v))
        throw InputError(where(element, index) + ": " + quote(word) + " is not a number (property " + p.name +
                         ")");
      return v;
    }
    long long v = 0;
    if (!parseInteger(word, v))
      throw InputError(where(element, index) + ": " + quote(word) + " is not an integer (property " + p.name +
                       ")");
    return static_cast<double>(v);
  }

  double readBytes(PlyType type, const PlyElement& element, std::uint64_t index) {
    const std::size_t n = sizeOf(type);
    if (text_.size() - pos_ < n) truncated(element, index);
    unsigned char b[8];
    std::memcpy(b, text_.data() + pos_, n);
    pos_ += n;
    const bool fileIsBig = format_ == PlyFormat::BinaryBigEndian;
    if (fileIsBig != (std::endian::native == std::endian::big)) std::reverse(b, b + n);
    switch (type) {
      case PlyType::Int8:
        return static_cast<double>(static_cast<std::int8_t>(b[0]));
      case PlyType::UInt8:
        return static_cast<double>(b[0]);
      case PlyType::Int16:
        return static_cast<double>(load<std::int16_t>(b));
      case PlyType::UInt16:
        return static_cast<double>(load<std::uint16_t>(b));
      case PlyType::Int32:
        return static_cast<double>(load<std::int32_t>(b));
      case PlyType::UInt32:
        return static_cast<double>(load<std::uint32_t>(b));
      case PlyType::Float32:
        return static_cast<double>(load<float>(b));
      case PlyType::Float64:
        return load<double>(b);
    }
    return 0;
  }

  template <class T>
  static T load(const unsigned char* b) {
    T v;
    std::memcpy(&v, b, sizeof v);
    return v;
  }

  std::string_view text_;
  std::size_t pos_;
  std::size_t line_;
  std::size_t lastWordLine_ = 0;
  PlyFormat format_;
  const std::string& path_;
};

TriangleMesh loadPly(const std::string& path, std::string_view text, std::string_view kind = "mesh",
                     bool withFaces = true) {
  const PlyHeader header = parsePlyHeader(text, path, kind, withFaces);
  PlyBody body(text, header, path);
  const bool ascii = header.format == PlyFormat::Ascii;

  TriangleMesh mesh;
  // polygons are kept until every element is read: the face element may come before the vertices
  std::vector<long long> corners;
  std::vector<std::size_t> polygonStart;
  std::vector<std::size_t> polygonLine;  // ASCII only
  // never reserve more than the file could hold (a corrupt count must not allocate gigabytes)
  const std::size_t bodyBytes = text.size() - std::min(text.size(), header.bodyOffset);

  for (const PlyElement& element : header.elements) {
    if (element.properties.empty()) continue;  // nothing to read, however large the count
    const bool isVertex = element.name == "vertex";
    if (isVertex) mesh.vertices.reserve(std::min<std::uint64_t>(element.count, bodyBytes / 12));
    if (element.name == "face") polygonStart.reserve(std::min<std::uint64_t>(element.count, bodyBytes / 4));
    for (std::uint64_t i = 0; i < element.count; ++i) {
      const std::size_t firstLine = body.beginInstance();
      double xyz[3] = {0, 0, 0};
      for (const PlyProperty& p : element.properties) {
        if (!p.isList) {
          const double v = body.read(element, i, p);
          if (p.role == PlyRole::X || p.role == PlyRole::Y || p.role == PlyRole::Z) {
            if (!finiteAsFloat(v))
              throw InputError(body.where(element, i) + ": coordinate " + p.name + " is " + formatDouble(v) +
                               "; coordinates must be finite numbers within float range");
            xyz[int(p.role) - int(PlyRole::X)] = v;
          }
          continue;
        }
        const double n = body.read(element, i, p, /*count=*/true);
        if (n < 0) throw InputError(body.where(element, i) + ": list " + p.name + " has a negative length");
        const bool keep = p.role == PlyRole::VertexIndices;
        if (keep) {
          polygonStart.push_back(corners.size());
          if (ascii) polygonLine.push_back(firstLine);
        }
        for (std::uint64_t k = 0; k < static_cast<std::uint64_t>(n); ++k) {
          const double v = body.read(element, i, p);
          if (keep) corners.push_back(static_cast<long long>(v));
        }
      }
      if (isVertex) mesh.vertices.push_back({float(xyz[0]), float(xyz[1]), float(xyz[2])});
    }
  }
  body.finish();

  constexpr const char* kPlyIndexRule = "PLY indices run from 0 to the number of vertices - 1";
  polygonStart.push_back(corners.size());
  for (std::size_t f = 0; f + 1 < polygonStart.size(); ++f) {
    auto where = [&] {
      return (ascii ? path + ":" + std::to_string(polygonLine[f]) : path) + ": face " + std::to_string(f);
    };
    appendFan(mesh, corners.data() + polygonStart[f], polygonStart[f + 1] - polygonStart[f], where,
              kPlyIndexRule);
  }
  if (withFaces) requireTriangles(mesh, path);
  return mesh;
}

// ---------------------------------------------------------------- writing

std::string formatFloat(float v) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back exactly
  return std::string(buf, res.ptr);
}

std::string encodeObj(const TriangleMesh& mesh) {
  std::string out = "# eddy triangle mesh: " + std::to_string(mesh.vertices.size()) + " vertices, " +
                    std::to_string(mesh.triangles.size()) + " triangles\n";
  auto line = [&](const char* key, Vec3 v) {
    out += key + formatFloat(v.x) + " " + formatFloat(v.y) + " " + formatFloat(v.z) + "\n";
  };
  for (const Vec3& v : mesh.vertices) line("v ", v);
  for (const Vec3& n : mesh.normals) line("vn ", n);
  // "a//a": vertex a with normal a
  const bool normals = !mesh.normals.empty();
  auto corner = [&](std::uint32_t i) {
    return std::to_string(i + 1) + (normals ? "//" + std::to_string(i + 1) : std::string());
  };
  for (const auto& t : mesh.triangles)
    out += "f " + corner(t[0]) + " " + corner(t[1]) + " " + corner(t[2]) + "\n";
  return out;
}

std::string plyHeader(const TriangleMesh& mesh, bool binary) {
  return std::string("ply\nformat ") + (binary ? "binary_little_endian" : "ascii") +
         " 1.0\ncomment eddy triangle mesh\nelement vertex " + std::to_string(mesh.vertices.size()) +
         "\nproperty float x\nproperty float y\nproperty float z\n" +
         (mesh.normals.empty() ? "" : "property float nx\nproperty float ny\nproperty float nz\n") +
         "element face " + std::to_string(mesh.triangles.size()) +
         "\nproperty list uchar uint vertex_indices\nend_header\n";
}

template <class T>
void appendLittleEndian(std::string& out, T value) {
  char b[sizeof(T)];
  std::memcpy(b, &value, sizeof b);
  if constexpr (std::endian::native == std::endian::big) std::reverse(b, b + sizeof b);
  out.append(b, sizeof b);
}

std::string encodePlyMesh(const TriangleMesh& mesh, bool binary) {
  std::string out = plyHeader(mesh, binary);
  if (binary) {
    out.reserve(out.size() + mesh.vertices.size() * 12 + mesh.triangles.size() * 13);
    for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
      for (const Vec3* v : {&mesh.vertices[i], mesh.normals.empty() ? nullptr : &mesh.normals[i]})
        if (v) {
          appendLittleEndian(out, v->x);
          appendLittleEndian(out, v->y);
          appendLittleEndian(out, v->z);
        }
    for (const auto& t : mesh.triangles) {
      out += char(3);
      for (std::uint32_t index : t) appendLittleEndian(out, index);
    }
    return out;
  }
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3 v = mesh.vertices[i];
    out += formatFloat(v.x) + " " + formatFloat(v.y) + " " + formatFloat(v.z);
    if (!mesh.normals.empty()) {
      const Vec3 n = mesh.normals[i];
      out += " " + formatFloat(n.x) + " " + formatFloat(n.y) + " " + formatFloat(n.z);
    }
    out += "\n";
  }
  for (const auto& t : mesh.triangles)
    out += "3 " + std::to_string(t[0]) + " " + std::to_string(t[1]) + " " + std::to_string(t[2]) + "\n";
  return out;
}

}  // namespace

TriangleMesh loadTriangleMesh(const std::string& path) {
  const std::string ext = lowerExtension(path);
  if (ext != ".obj" && ext != ".ply") unknownFormat(path);
  const std::string bytes = readMeshFile(path);
  const std::string_view text = withoutBom(bytes);
  return ext == ".obj" ? loadObj(path, text) : loadPly(path, text);
}

std::vector<Vec3> loadPointCloud(const std::string& path) {
  const std::string ext = lowerExtension(path);
  if (ext != ".ply" && ext != ".vtu" && ext != ".vtp")
    throw InputError("particle file '" + path +
                     "': unknown format; allowed: .ply (with x, y, z per vertex), .vtu or .vtp (VTK XML)");
  const std::string bytes = readMeshFile(path, "particle");
  if (ext != ".ply") return parseVtkPoints(path, bytes);
  std::vector<Vec3> points = loadPly(path, withoutBom(bytes), "particle", false).vertices;
  if (points.empty()) throw InputError("particle file '" + path + "' holds no particles");
  return points;
}

void writeTriangleMesh(const std::string& path, const TriangleMesh& mesh, bool binaryPly) {
  const std::string ext = lowerExtension(path);
  if (ext != ".obj" && ext != ".ply") unknownFormat(path);
  if (!mesh.normals.empty() && mesh.normals.size() != mesh.vertices.size())
    throw InputError("cannot write mesh file '" + path + "': " + std::to_string(mesh.normals.size()) +
                     " normals for " + std::to_string(mesh.vertices.size()) + " vertices");
  for (std::size_t i = 0; i < mesh.triangles.size(); ++i)
    for (std::uint32_t v : mesh.triangles[i])
      if (v >= mesh.vertices.size())
        throw InputError("cannot write mesh file '" + path + "': triangle " + std::to_string(i) +
                         " refers to vertex " + std::to_string(v) + ", but the mesh has " +
                         std::to_string(mesh.vertices.size()));
  writeFileAtomic(path, ext == ".obj" ? encodeObj(mesh) : encodePlyMesh(mesh, binaryPly));
}

}  // namespace eddy
