// Particles from VTK XML files: the Points array of an UnstructuredGrid (.vtu, as `eddy run --format vtk`
// writes it) or a PolyData (.vtp) file, from any writer, and the point data eddy writes: velocity (3
// floats), density (float), id and material (whole numbers). Other arrays and cells are skipped.
//
// Read: Float32 or Float64 points with 3 components, inline, format "ascii" or "binary" (base64 with a
// UInt32 or UInt64 byte-count header, little or big endian), every Piece of the file in order. Refused,
// with a message saying what is allowed: "appended" data and compressed files (a compressor attribute).
#pragma once

#include <eddy/particle_files.h>
#include <eddy/vec3.h>

#include <string>
#include <string_view>
#include <vector>

namespace eddy {

// The points of one file's text (path only names the file in messages). Throws InputError with one line,
// "particle file 'PATH': ...", for a file that is not VTK XML, another dataset type, no Points array, a
// component count other than 3, another value type, truncated or malformed data, a coordinate that is not
// a finite number, or no points at all.
std::vector<Vec3> parseVtkPoints(const std::string& path, std::string_view text);

// The points and their velocity, density, id and material where every piece has them (an attribute that
// some piece lacks is left empty). Throws as parseVtkPoints does, and for one of those arrays that is
// malformed, a velocity or density that is not finite, or an id or material that is not a whole number
// from 0 to 2^32 - 1.
ParticleFrame parseVtkParticles(const std::string& path, std::string_view text);

}  // namespace eddy
