// `eddy mesh-info`: load a triangle mesh (OBJ or PLY) and report its size, bounds and whether it is closed.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace eddy::app {

struct MeshInfoOptions {
  std::string file;
  std::vector<int> sdfResolutions;  // --sdf-resolution: build the distance field at each and time it
  double sdfBand = 0;               // --sdf-band: exact distances this far out, m (0: 3 cells)
  double sdfThickness = 0;          // > 0: build the field of a thin shell of this thickness
  std::string backend = "auto";     // --backend
};

// registers the subcommand; the options land in opts when it is parsed
CLI::App* addMeshInfoCommand(CLI::App& app, MeshInfoOptions& opts);

// returns 0; throws InputError for a file that cannot be loaded, for main to report
int meshInfoCommand(const MeshInfoOptions& opts);

}  // namespace eddy::app
