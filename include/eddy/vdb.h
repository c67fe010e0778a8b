// Optional OpenVDB support: narrow-band level sets written as .vdb files (Houdini, Blender and other
// OpenVDB readers open them), and OpenVDB's own surface reconstruction of a particle set
// (ParticlesToLevelSet + volumeToMesh), timed, as a reference for eddy's surface reconstruction in
// benchmarks.
//
// Host-only: compiled once, into namespace eddy (see EDDY_HOST_FILES in src/CMakeLists.txt); OpenVDB's
// headers appear only in the .cpp, never in this header, and never reach nvcc. Builds without OpenVDB
// (EDDY_OPENVDB=OFF, or AUTO where libopenvdb-dev is missing) compile the .cpp to stubs: openVdbAvailable()
// is false and the other functions throw InputError.
#pragma once

#include <eddy/mesh.h>
#include <eddy/vec3.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace eddy {

// a narrow band of signed distances on a grid, on the host
struct LevelSetSamples {
  Real voxelSize = 0;                      // m
  Vec3 origin{};                           // world position of grid index (0, 0, 0)
  std::vector<std::array<int, 3>> coords;  // grid indices of the samples
  std::vector<float> values;               // signed distance at each, m, negative inside the liquid
  float halfWidth = 3;  // the band's half width, in voxels (the background value is halfWidth * voxelSize)
};

// whether this build has OpenVDB
bool openVdbAvailable();
// the OpenVDB library's version ("10.0.1"); "" without OpenVDB
std::string openVdbVersion();

// Writes a FloatGrid of class GRID_LEVEL_SET named "surface", with the transform voxelSize + origin (voxel
// (i, j, k) is centred at origin + voxelSize * (i, j, k)), to path, atomically (a temporary file beside it,
// then a rename). Every sample becomes an active voxel, its value clamped to +-background; the inactive
// voxels inside the surface read -background, the rest +background (OpenVDB's signed flood fill). Throws
// InputError for inconsistent samples (sizes differ, a voxel size or half width that is not positive, a
// value that is not a number) and, naming the file, when it cannot be written.
void writeVdbLevelSet(const std::string& path, const LevelSetSamples& samples);

// The narrow-band signed distance (halfWidth voxels each side) to a closed mesh whose triangles face out
// of the liquid, by OpenVDB's meshToLevelSet, as samples for writeVdbLevelSet: the exact distance to the
// surface eddy wrote, whatever the method's own field measures. Throws InputError without OpenVDB.
LevelSetSamples levelSetOfMesh(const TriangleMesh& mesh, Real voxelSize, Vec3 origin, float halfWidth = 3);

struct OpenVdbSurface {
  TriangleMesh mesh;  // no normals
  double levelSetMilliseconds = 0, meshMilliseconds = 0;
  std::size_t activeVoxels = 0;  // of the level set
};

// OpenVDB's own reconstruction of the particles: ParticlesToLevelSet::rasterizeSpheres with every particle
// a sphere of radius particleRadius (m), into a level set of voxel size voxelSize (m) and half width 3
// voxels, then volumeToMesh (quads split into two triangles each; triangles wound
// counter-clockwise seen from outside, so normals by the right-hand rule face out of the liquid).
// levelSetMilliseconds times the rasterisation (with the grid's creation and pruning), meshMilliseconds
// volumeToMesh and the copy into the TriangleMesh; both run on OpenVDB's TBB threads (all cores). No
// particles: an empty mesh. Throws InputError for a radius or voxel size that is not positive and finite,
// a particle position that is not finite, and when OpenVDB would ignore the particles: it rasterises
// spheres with radius / voxel size between 1.5 and 100 only (the message gives the ratio and the bounds).
// meshRadius (0: particleRadius) meshes the level set at isovalue meshRadius - particleRadius: the union of
// spheres of that smaller radius (the level set is the minimum of the spheres' distances), so spheres
// under OpenVDB's 1.5 voxels can be compared too; it must lie within the band stored (2.5 voxels below the
// radius at most) and be at least half a voxel.
OpenVdbSurface openVdbReferenceSurface(const std::vector<Vec3>& particles, Real particleRadius,
                                       Real voxelSize, Real meshRadius = 0);

}  // namespace eddy
