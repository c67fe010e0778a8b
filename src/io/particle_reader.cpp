
#include <eddy/error.h>
#include <eddy/mesh.h>
#include <eddy/particle_files.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "io/vtu_reader.h"

namespace eddy {

namespace {

struct Property {
  std::string name;
  int size = 0;   // bytes
  char kind = 0;  // 'i' signed, 'u' unsigned, 'f' floating
  std::size_t offset = 0;
};

bool scalarType(const std::string& type, int& size, char& kind) {
  static const struct {
    const char* names[2];
    int size;
    char kind;
  } kTypes[] = {{{"char", "int8"}, 1, 'i'},     {{"uchar", "uint8"}, 1, 'u'},   {{"short", "int16"}, 2, 'i'},
                {{"ushort", "uint16"}, 2, 'u'}, {{"int", "int32"}, 4, 'i'},     {{"uint", "uint32"}, 4, 'u'},
                {{"float", "float32"}, 4, 'f'}, {{"double", "float64"}, 8, 'f'}};
  for (const auto& t : kTypes)
    if (type == t.names[0] || type == t.names[1]) return size = t.size, kind = t.kind, true;
  return false;
}

double readScalar(const char* at, const Property& p) {
  switch (p.kind * 16 + p.size) {
    case 'f' * 16 + 4: {
      float v;
      std::memcpy(&v, at, 4);
      return v;
    }
    case 'f' * 16 + 8: {
      double v;
      std::memcpy(&v, at, 8);
      return v;
    }
    case 'i' * 16 + 1:
      return double(std::int8_t(*at));
    case 'u' * 16 + 1:
      return double(std::uint8_t(*at));
    case 'i' * 16 + 2: {
      std::int16_t v;
      std::memcpy(&v, at, 2);
      return v;
    }
    case 'u' * 16 + 2: {
      std::uint16_t v;
      std::memcpy(&v, at, 2);
      return v;
    }
    case 'i' * 16 + 4: {
      std::int32_t v;
      std::memcpy(&v, at, 4);
      return v;
    }
    default: {
      std::uint32_t v;
      std::memcpy(&v, at, 4);
      return v;
    }
  }
}

}  // namespace

ParticleFrame readParticleFrame(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("particle file '" + path + "' cannot be opened");
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::size_t end = bytes.find("end_header\n");
  const bool ply = bytes.rfind("ply", 0) == 0 && end != std::string::npos;
  // only a binary little-endian PLY of one scalar vertex element is read here; the mesh reader takes the rest
  std::istringstream header(ply ? bytes.substr(0, end) : std::string());
  std::vector<Property> props;
  std::string line, element;
  long long count = -1;
  std::size_t stride = 0;
  bool binary = false, simple = ply;
  while (simple && std::getline(header, line)) {
    std::istringstream words(line);
    std::string word;
    words >> word;
    if (word == "format") {
      std::string format;
      words >> format;
      binary = format == "binary_little_endian";
    } else if (word == "element") {
      words >> element;
      if (element != "vertex" || count >= 0) simple = false;
      words >> count;
    } else if (word == "property") {
      Property p;
      std::string type;
      words >> type >> p.name;
      if (!scalarType(type, p.size, p.kind)) simple = false;
      p.offset = stride;
      stride += std::size_t(p.size);
      props.push_back(p);
    }
  }
  auto find = [&](const char* name) -> const Property* {
    for (const Property& p : props)
      if (p.name == name) return &p;
    return nullptr;
  };
  ParticleFrame frame;
  const Property *x = find("x"), *y = find("y"), *z = find("z");
  if (!ply && bytes.find("<VTKFile") != std::string::npos) return parseVtkParticles(path, bytes);
  if (!simple || !binary || !x || !y || !z || count < 0) {
    frame.position = loadPointCloud(path);
    return frame;
  }
  const std::size_t body = end + std::strlen("end_header\n");
  if (bytes.size() < body + std::size_t(count) * stride)
    throw InputError("particle file '" + path + "': " + std::to_string(count) + " vertices of " +
                     std::to_string(stride) + " bytes announced, the file ends after " +
                     std::to_string((bytes.size() - body) / std::max<std::size_t>(stride, 1)));
  const Property *vx = find("vx"), *vy = find("vy"), *vz = find("vz");
  const bool velocities = vx && vy && vz;
  const Property* material = find("material");
  const Property* density = find("density");
  const Property* id = find("id");
  frame.position.resize(std::size_t(count));
  if (velocities) frame.velocity.resize(std::size_t(count));
  if (material) frame.material.resize(std::size_t(count));
  if (density) frame.density.resize(std::size_t(count));
  if (id) frame.id.resize(std::size_t(count));
  for (long long i = 0; i < count; ++i) {
    const char* at = bytes.data() + body + std::size_t(i) * stride;
    const Vec3 p{Real(readScalar(at + x->offset, *x)), Real(readScalar(at + y->offset, *y)),
                 Real(readScalar(at + z->offset, *z))};
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      throw InputError("particle file '" + path + "': particle " + std::to_string(i) +
                       " has a position that is not a finite number");
    frame.position[std::size_t(i)] = p;
    if (velocities) {
      const Vec3 v{Real(readScalar(at + vx->offset, *vx)), Real(readScalar(at + vy->offset, *vy)),
                   Real(readScalar(at + vz->offset, *vz))};
      if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
        throw InputError("particle file '" + path + "': particle " + std::to_string(i) +
                         " has a velocity (vx, vy, vz) that is not a finite number");
      frame.velocity[std::size_t(i)] = v;
    }
    if (material)
      frame.material[std::size_t(i)] = std::uint32_t(readScalar(at + material->offset, *material));
    if (density) {
      frame.density[std::size_t(i)] = float(readScalar(at + density->offset, *density));
      if (!std::isfinite(frame.density[std::size_t(i)]))
        throw InputError("particle file '" + path + "': particle " + std::to_string(i) +
                         " has a density that is not a finite number");
    }
    if (id) frame.id[std::size_t(i)] = std::uint32_t(readScalar(at + id->offset, *id));
  }
  return frame;  // possibly empty: a nozzle's first frames
}

}  // namespace eddy
