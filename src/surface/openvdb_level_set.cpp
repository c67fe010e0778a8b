// Optional OpenVDB support (see openvdb_level_set.h). Host-only: listed in EDDY_HOST_FILES, never compiled
// by nvcc. Without EDDY_WITH_OPENVDB the functions are stubs.
#include <eddy/error.h>
#include <eddy/vdb.h>

#include <string>

#if defined(EDDY_WITH_OPENVDB)

#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/MeshToVolume.h>
#include <openvdb/tools/ParticlesToLevelSet.h>
#include <openvdb/tools/Prune.h>
#include <openvdb/tools/SignedFloodFill.h>
#include <openvdb/tools/VolumeToMesh.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace eddy {

namespace {

// registers the grid types (needed before any file I/O); idempotent and thread-safe
void initOpenVdb() {
  static const bool once = [] {
    openvdb::initialize();
    return true;
  }();
  (void)once;
}

std::string numberText(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

openvdb::math::Transform::Ptr gridTransform(double voxelSize, Vec3 origin) {
  openvdb::math::Transform::Ptr xform = openvdb::math::Transform::createLinearTransform(voxelSize);
  xform->postTranslate(openvdb::Vec3d(origin.x, origin.y, origin.z));
  return xform;
}

// ParticlesToLevelSet's view of the particles (every one the same radius)
struct ParticleList {
  using PosType = openvdb::Vec3R;
  const std::vector<Vec3>* points = nullptr;
  openvdb::Real radius = 0;

  std::size_t size() const { return points->size(); }
  void getPos(std::size_t n, openvdb::Vec3R& xyz) const {
    const Vec3& p = (*points)[n];
    xyz = openvdb::Vec3R(p.x, p.y, p.z);
  }
  void getPosRad(std::size_t n, openvdb::Vec3R& xyz, openvdb::Real& r) const {
    getPos(n, xyz);
    r = radius;
  }
};

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

bool openVdbAvailable() { return true; }

std::string openVdbVersion() { return openvdb::getLibraryVersionString(); }

void writeVdbLevelSet(const std::string& path, const LevelSetSamples& samples) {
  const std::string what = "VDB level set '" + path + "'";
  if (!(samples.voxelSize > 0) || !std::isfinite(samples.voxelSize)) {
    throw InputError(what + ": the voxel size must be positive (got " + numberText(samples.voxelSize) + ")");
  }
  if (!(samples.halfWidth > 0) || !std::isfinite(samples.halfWidth)) {
    throw InputError(what + ": the band's half width must be positive (got " + numberText(samples.halfWidth) +
                     " voxels)");
  }
  if (!std::isfinite(samples.origin.x) || !std::isfinite(samples.origin.y) ||
      !std::isfinite(samples.origin.z)) {
    throw InputError(what + ": the origin is not finite");
  }
  if (samples.coords.size() != samples.values.size()) {
    throw InputError(what + ": " + std::to_string(samples.coords.size()) + " grid indices but " +
                     std::to_string(samples.values.size()) + " values");
  }
  initOpenVdb();

  const float background = samples.halfWidth * samples.voxelSize;
  openvdb::FloatGrid::Ptr grid = openvdb::FloatGrid::create(background);
  grid->setName("surface");
  grid->setGridClass(openvdb::GRID_LEVEL_SET);
  grid->setTransform(gridTransform(samples.voxelSize, samples.origin));
  {
    openvdb::FloatGrid::Accessor acc = grid->getAccessor();
    for (std::size_t i = 0; i < samples.values.size(); ++i) {
      const float v = samples.values[i];
      if (std::isnan(v)) throw InputError(what + ": sample " + std::to_string(i) + " is not a number");
      const std::array<int, 3>& c = samples.coords[i];
      acc.setValue(openvdb::Coord(c[0], c[1], c[2]), std::clamp(v, -background, background));  // active
    }
  }
  // the inactive voxels and tiles inside the surface become -background, as readers expect of a level set
  openvdb::tools::signedFloodFill(grid->tree());
  openvdb::tools::pruneLevelSet(grid->tree());

  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    throw InputError("cannot write " + what + ": the folder '" + folder.string() + "' does not exist");
  }
  // same folder as the target so the rename never crosses a file system (as writeFileAtomic does)
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  try {
    openvdb::io::File file(tmp);
    file.write(openvdb::GridCPtrVec{grid});
    file.close();
  } catch (const std::exception& e) {
    std::remove(tmp.c_str());
    throw InputError("cannot write " + what + ": " + e.what());
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw InputError("cannot write " + what + ": " + std::strerror(err));
  }
}

LevelSetSamples levelSetOfMesh(const TriangleMesh& mesh, Real voxelSize, Vec3 origin, float halfWidth) {
  initOpenVdb();
  if (!(voxelSize > 0) || !(halfWidth > 0))
    throw InputError("level set of a mesh: the voxel size and the half width must be positive");
  std::vector<openvdb::Vec3s> points(mesh.vertices.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    Vec3 p = mesh.vertices[i];
    points[i] = openvdb::Vec3s(p.x, p.y, p.z);
  }
  std::vector<openvdb::Vec3I> triangles(mesh.triangles.size());
  for (std::size_t i = 0; i < triangles.size(); ++i)
    triangles[i] = openvdb::Vec3I(mesh.triangles[i][0], mesh.triangles[i][1], mesh.triangles[i][2]);
  openvdb::math::Transform::Ptr xform = gridTransform(voxelSize, origin);
  openvdb::FloatGrid::Ptr grid =
      openvdb::tools::meshToLevelSet<openvdb::FloatGrid>(*xform, points, triangles, halfWidth);
  LevelSetSamples out;
  out.voxelSize = voxelSize;
  out.origin = origin;
  out.halfWidth = halfWidth;
  for (auto it = grid->cbeginValueOn(); it; ++it) {
    openvdb::Coord c = it.getCoord();
    out.coords.push_back({c.x(), c.y(), c.z()});
    out.values.push_back(*it);
  }
  return out;
}

OpenVdbSurface openVdbReferenceSurface(const std::vector<Vec3>& particles, Real particleRadius,
                                       Real voxelSize, Real meshRadius) {
  if (!(particleRadius > 0) || !std::isfinite(particleRadius)) {
    throw InputError("OpenVDB reference surface: the particle radius must be positive (got " +
                     numberText(particleRadius) + " m)");
  }
  if (!(voxelSize > 0) || !std::isfinite(voxelSize)) {
    throw InputError("OpenVDB reference surface: the voxel size must be positive (got " +
                     numberText(voxelSize) + " m)");
  }
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const Vec3& p = particles[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
      throw InputError("OpenVDB reference surface: particle " + std::to_string(i) +
                       " has a position that is not "
                       "finite");
    }
  }
  if (meshRadius == 0) meshRadius = particleRadius;
  // the level set is stored 3 voxels deep: the mesh's isovalue stays 2.5 voxels inside at most
  const Real smallest = std::max(Real(0.5) * voxelSize, particleRadius - Real(2.5) * voxelSize);
  if (!(meshRadius >= smallest && meshRadius <= particleRadius)) {
    throw InputError("OpenVDB reference surface: the mesh radius must lie between " + numberText(smallest) +
                     " m and the particle radius (" + numberText(particleRadius) + " m); got " +
                     numberText(meshRadius) + " m");
  }
  OpenVdbSurface out;
  if (particles.empty()) return out;
  initOpenVdb();

  constexpr float kHalfWidth = 3;  // voxels
  const double radius = particleRadius, dx = voxelSize;
  auto start = std::chrono::steady_clock::now();
  openvdb::FloatGrid::Ptr grid = openvdb::FloatGrid::create(float(kHalfWidth * dx));
  grid->setName("surface");
  grid->setGridClass(openvdb::GRID_LEVEL_SET);
  grid->setTransform(openvdb::math::Transform::createLinearTransform(dx));
  openvdb::tools::ParticlesToLevelSet<openvdb::FloatGrid> raster(*grid);
  raster.rasterizeSpheres(ParticleList{&particles, radius}, radius);
  raster.finalize(/*prune=*/true);
  out.levelSetMilliseconds = millisecondsSince(start);
  if (raster.ignoredParticles()) {
    const double ratio = radius / dx;
    const bool small = raster.getMinCount() > 0;
    const double bound = small ? raster.getRmin() : raster.getRmax();
    throw InputError("OpenVDB reference surface: ParticlesToLevelSet ignored " +
                     std::to_string(small ? raster.getMinCount() : raster.getMaxCount()) + " of " +
                     std::to_string(particles.size()) + " particles: particle radius / voxel size = " +
                     numberText(ratio) + " (" + numberText(radius) + " m / " + numberText(dx) + " m) is " +
                     (small ? "below its minimum " : "above its maximum ") + numberText(bound) +
                     "; use a voxel size of at " + (small ? "most " : "least ") + numberText(radius / bound) +
                     " m (the radius / " + numberText(bound) + ")");
  }
  out.activeVoxels = grid->activeVoxelCount();

  start = std::chrono::steady_clock::now();
  std::vector<openvdb::Vec3s> points;
  std::vector<openvdb::Vec4I> quads;
  openvdb::tools::volumeToMesh(*grid, points, quads, double(meshRadius) - radius);
  TriangleMesh& mesh = out.mesh;
  mesh.vertices.resize(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    mesh.vertices[i] = {points[i].x(), points[i].y(), points[i].z()};
  // volumeToMesh winds its quads clockwise seen from outside (the signed volume of a ball's mesh comes out
  // negative, see tests/test_openvdb.cpp); each quad becomes two triangles wound the other way
  mesh.triangles.resize(2 * quads.size());
  for (std::size_t q = 0; q < quads.size(); ++q) {
    const openvdb::Vec4I& v = quads[q];
    mesh.triangles[2 * q] = {std::uint32_t(v[0]), std::uint32_t(v[2]), std::uint32_t(v[1])};
    mesh.triangles[2 * q + 1] = {std::uint32_t(v[0]), std::uint32_t(v[3]), std::uint32_t(v[2])};
  }
  out.meshMilliseconds = millisecondsSince(start);
  return out;
}

}  // namespace eddy

#else  // no OpenVDB in this build

namespace eddy {

namespace {

[[noreturn]] void noOpenVdb() {
  throw InputError("this build of eddy has no OpenVDB (install libopenvdb-dev and rebuild)");
}

}  // namespace

bool openVdbAvailable() { return false; }

std::string openVdbVersion() { return ""; }

void writeVdbLevelSet(const std::string&, const LevelSetSamples&) { noOpenVdb(); }

LevelSetSamples levelSetOfMesh(const TriangleMesh&, Real, Vec3, float) { noOpenVdb(); }

OpenVdbSurface openVdbReferenceSurface(const std::vector<Vec3>&, Real, Real, Real) { noOpenVdb(); }

}  // namespace eddy

#endif
