// `eddy mesh-info`: load a triangle mesh (OBJ or PLY) and report its size, bounds and whether it is closed.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace eddy::app {

struct MeshInfoOptions {
  std::string file;
};

// registers the subcommand; the options land in opts when it is parsed
CLI::App* addMeshInfoCommand(CLI::App& app, MeshInfoOptions& opts);

// returns 0; throws InputError for a file that cannot be loaded, for main to report
int meshInfoCommand(const MeshInfoOptions& opts);

}  // namespace eddy::app
