// `eddy surface`: liquid surfaces from particle frames written earlier (PLY or VTK XML), one mesh per frame.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace eddy::app {

// Settings left unset (0, "" or -1) come from the run's scene.json beside the frames (fluid.spacing and the
// "surface" section), else from the defaults shown.
struct SurfaceOptions {
  std::string input;   // a folder of particles_NNNNNN.ply (or .vtu) frames, or one such file
  std::string out;     // --out: the folder the surfaces go to
  double spacing = 0;  // --spacing: the particles' rest spacing, m
  double cell = 0;     // --cell: grid spacing, in particle spacings (2/3: h / 3 with h = 2 spacings)
  double radius = 0;   // --radius: the kernel radius, in particle spacings (2)
  std::string method;  // --method: zhu-bridson (default), yu-turk or sph-density
  int smooth = -1;     // --smooth: Taubin iterations (0)
  std::string format;  // --format: ply (default, binary), obj, or vdb (a level set)
  std::string groups;  // --groups: material (an MPM run's surface per material type, the default) or all
  std::string backend = "auto";  // --backend
  bool quiet = false;            // --quiet: no progress, per-frame lines or timing table
};

// registers the subcommand; the options land in opts when it is parsed
CLI::App* addSurfaceCommand(CLI::App& app, SurfaceOptions& opts);

// returns 0; throws InputError for bad input (before anything is written), for main to report
int surfaceCommand(const SurfaceOptions& opts);

}  // namespace eddy::app
