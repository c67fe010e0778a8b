// Particle caches: binary PLY and VTK XML unstructured grid (.vtu).
#include <eddy/error.h>
#include <eddy/output.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace eddy {

namespace {

void checkSizes(const HostParticles& p) {
  if (p.velocity.size() != p.size() || p.density.size() != p.size() || p.id.size() != p.size())
    throw RuntimeFailure("particle output: position, velocity, density and id arrays differ in size");
  if (!p.pressure.empty() && p.pressure.size() != p.size())
    throw RuntimeFailure("particle output: the pressure array differs in size from the positions");
  if (!p.material.empty() && p.material.size() != p.size())
    throw RuntimeFailure("particle output: the material array differs in size from the positions");
}

// explicit byte order, so the files are the same whatever the host
void putU32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(char((v >> (8 * i)) & 0xffu));
}
void putU64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(char((v >> (8 * i)) & 0xffu));
}
void putF32(std::string& out, float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  putU32(out, bits);
}
// the same into a buffer sized beforehand (a pointer that moves on; a push_back a byte made a large
// frame's encoding many times slower)
void storeU32(char*& at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) *at++ = char((v >> (8 * i)) & 0xffu);
}
void storeF32(char*& at, float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  storeU32(at, bits);
}

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void appendBase64(std::string& out, const std::string& bytes) {
  out.reserve(out.size() + (bytes.size() + 2) / 3 * 4);
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t n = bytes.size(), i = 0;
  for (; i + 3 <= n; i += 3) {
    std::uint32_t v = (std::uint32_t(b[i]) << 16) | (std::uint32_t(b[i + 1]) << 8) | b[i + 2];
    out.push_back(kBase64[(v >> 18) & 63]);
    out.push_back(kBase64[(v >> 12) & 63]);
    out.push_back(kBase64[(v >> 6) & 63]);
    out.push_back(kBase64[v & 63]);
  }
  if (n - i == 1) {
    std::uint32_t v = std::uint32_t(b[i]) << 16;
    out.push_back(kBase64[(v >> 18) & 63]);
    out.push_back(kBase64[(v >> 12) & 63]);
    out += "==";
  } else if (n - i == 2) {
    std::uint32_t v = (std::uint32_t(b[i]) << 16) | (std::uint32_t(b[i + 1]) << 8);
    out.push_back(kBase64[(v >> 18) & 63]);
    out.push_back(kBase64[(v >> 12) & 63]);
    out.push_back(kBase64[(v >> 6) & 63]);
    out.push_back('=');
  }
}

// format="binary" (uncompressed): one base64 stream of a UInt64 byte count followed by the data,
// which is how VTK itself writes it
void appendDataArray(std::string& out, const std::string& attributes, const std::string& data) {
  std::string raw;
  raw.reserve(8 + data.size());
  putU64(raw, data.size());
  raw += data;
  out += "        <DataArray " + attributes + " format=\"binary\">\n          ";
  appendBase64(out, raw);
  out += "\n        </DataArray>\n";
}

}  // namespace

std::string encodePly(const HostParticles& p) {
  checkSizes(p);
  std::string out =
      "ply\n"
      "format binary_little_endian 1.0\n"
      "comment eddy\n"
      "element vertex " +
      std::to_string(p.size()) +
      "\n"
      "property float x\n"
      "property float y\n"
      "property float z\n"
      "property float vx\n"
      "property float vy\n"
      "property float vz\n"
      "property float density\n" +
      std::string(p.pressure.empty() ? "" : "property float pressure\n") + "property uint id\n" +
      std::string(p.material.empty() ? "" : "property uint material\n") + "end_header\n";
  const std::size_t header = out.size();
  const std::size_t record = 4 * (8 + (p.pressure.empty() ? 0 : 1) + (p.material.empty() ? 0 : 1));
  out.resize(header + p.size() * record);
  char* at = out.data() + header;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3 x = p.position[i], v = p.velocity[i];
    storeF32(at, x.x);
    storeF32(at, x.y);
    storeF32(at, x.z);
    storeF32(at, v.x);
    storeF32(at, v.y);
    storeF32(at, v.z);
    storeF32(at, p.density[i]);
    if (!p.pressure.empty()) storeF32(at, p.pressure[i]);
    storeU32(at, p.id[i]);
    if (!p.material.empty()) storeU32(at, p.material[i]);
  }
  return out;
}

std::string encodeVtu(const HostParticles& p) {
  checkSizes(p);
  const std::size_t n = p.size();
  const std::string count = std::to_string(n);

  std::string points, velocity, density, pressure, id, material, connectivity, offsets, types;
  points.reserve(n * 12);
  velocity.reserve(n * 12);
  density.reserve(n * 4);
  id.reserve(n * 4);
  connectivity.reserve(n * 8);
  offsets.reserve(n * 8);
  types.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 x = p.position[i], v = p.velocity[i];
    putF32(points, x.x);
    putF32(points, x.y);
    putF32(points, x.z);
    putF32(velocity, v.x);
    putF32(velocity, v.y);
    putF32(velocity, v.z);
    putF32(density, p.density[i]);
    if (!p.pressure.empty()) putF32(pressure, p.pressure[i]);
    putU32(id, p.id[i]);
    if (!p.material.empty()) putU32(material, p.material[i]);
    // one VTK_VERTEX cell per particle: without cells ParaView shows nothing
    putU64(connectivity, i);
    putU64(offsets, i + 1);
    types.push_back(char(1));  // VTK_VERTEX
  }

  std::string out;
  out.reserve(512 + (n * 49 + 7 * 8) * 4 / 3 + 64);
  out +=
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\" "
      "header_type=\"UInt64\">\n"
      "  <UnstructuredGrid>\n"
      "    <Piece NumberOfPoints=\"" +
      count + "\" NumberOfCells=\"" + count +
      "\">\n"
      "      <PointData Scalars=\"density\" Vectors=\"velocity\">\n";
  appendDataArray(out, "type=\"Float32\" Name=\"velocity\" NumberOfComponents=\"3\"", velocity);
  appendDataArray(out, "type=\"Float32\" Name=\"density\" NumberOfComponents=\"1\"", density);
  if (!p.pressure.empty())
    appendDataArray(out, "type=\"Float32\" Name=\"pressure\" NumberOfComponents=\"1\"", pressure);
  appendDataArray(out, "type=\"UInt32\" Name=\"id\" NumberOfComponents=\"1\"", id);
  if (!p.material.empty())
    appendDataArray(out, "type=\"UInt32\" Name=\"material\" NumberOfComponents=\"1\"", material);
  out +=
      "      </PointData>\n"
      "      <Points>\n";
  appendDataArray(out, "type=\"Float32\" Name=\"Points\" NumberOfComponents=\"3\"", points);
  out +=
      "      </Points>\n"
      "      <Cells>\n";
  appendDataArray(out, "type=\"Int64\" Name=\"connectivity\"", connectivity);
  appendDataArray(out, "type=\"Int64\" Name=\"offsets\"", offsets);
  appendDataArray(out, "type=\"UInt8\" Name=\"types\"", types);
  out +=
      "      </Cells>\n"
      "    </Piece>\n"
      "  </UnstructuredGrid>\n"
      "</VTKFile>\n";
  return out;
}

std::string encodePvd(const std::vector<CollectionEntry>& entries) {
  std::string out =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "  <Collection>\n";
  for (const CollectionEntry& e : entries) {
    // 17 significant digits: times read back as the doubles the run had
    char time[40];
    std::snprintf(time, sizeof time, "%.17g", e.time);
    out += "    <DataSet timestep=\"" + std::string(time) + "\" group=\"\" part=\"0\" file=\"" + e.file +
           "\"/>\n";
  }
  out +=
      "  </Collection>\n"
      "</VTKFile>\n";
  return out;
}

std::string particleFileName(int frame, const std::string& format) {
  const char* ext = nullptr;
  if (format == "ply")
    ext = "ply";
  else if (format == "vtk")
    ext = "vtu";
  else
    throw InputError("unknown particle output format '" + format + "' (expected \"ply\" or \"vtk\")");
  if (frame < 0) throw InputError("negative frame number " + std::to_string(frame));
  char buf[64];
  std::snprintf(buf, sizeof buf, "particles_%06d.%s", frame, ext);
  return buf;
}

std::string surfaceFileName(int frame, const std::string& format, const std::string& group) {
  if (format != "ply" && format != "obj")
    throw InputError("unknown surface format '" + format + "' (expected \"ply\" or \"obj\")");
  if (frame < 0) throw InputError("negative frame number " + std::to_string(frame));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%06d.%s", frame, format.c_str());
  return (group.empty() ? "surface_" : "surface_" + group + "_") + buf;
}

}  // namespace eddy
