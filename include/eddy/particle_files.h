// Particle frames read back from the files `eddy run` writes (and other PLY point clouds): positions, and
// velocities, densities, ids and materials where the file has them. Implemented in src/io.
#pragma once

#include <eddy/vec3.h>

#include <cstdint>
#include <string>
#include <vector>

namespace eddy {

struct ParticleFrame {
  std::vector<Vec3> position;
  std::vector<Vec3> velocity;  // empty where the file has none
  // MPM: each particle's emitter index, from a "material" property (HostParticles::material); else empty
  std::vector<std::uint32_t> material;
  std::vector<float> density;     // kg/m^3, from a "density" property; else empty
  std::vector<std::uint32_t> id;  // from an "id" property; else empty
};

// A binary little-endian PLY whose vertices have x, y, z (and vx, vy, vz, density, id, material where
// written) as scalar properties of any PLY type; a VTK XML file with the same attributes as point data
// (io/vtu_reader.h); any other PLY through loadPointCloud, positions only. Throws InputError naming the file
// for a frame that cannot be read or holds a position, velocity or density that is not finite.
ParticleFrame readParticleFrame(const std::string& path);

}  // namespace eddy
