// `eddy bench`: time substeps of a dam break at several particle counts.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace eddy::app {

struct BenchOptions {
  std::string solver = "pbf";
  std::vector<long long> particles{65536, 262144, 1048576, 4194304};
  std::string backend = "auto";
  int substeps = 240;  // one simulated second of the dam break at 240 substeps per second (pbf)
  int warmup = 10;
  std::string json;                    // empty: no JSON file
  std::string scene;                   // empty: the embedded dam break
  std::vector<std::string> overrides;  // --set key.path=value
  // --surface: time surface reconstruction instead of substeps (apps/bench_surface.h)
  bool surface = false;
  std::vector<std::string> surfaceMethods{"zhu-bridson", "yu-turk", "sph-density"};  // --surface-methods
  double surfaceCell = 2.0 / 3.0;  // --surface-cell, in particle spacings
  int surfaceRepeats = 10;         // --surface-repeats
  bool surfaceOpenVdb = true;      // --surface-openvdb: OpenVDB's reconstruction beside (where built in)
  int settleFrames = 30;           // --settle-frames: frames the dam break runs before its surface is timed
  // --realtime: run the scene as written against the clock (apps/bench_realtime.h)
  bool realtime = false;
  // --render: time drawing the particles instead (apps/bench_render.h), at --render-size
  bool render = false;
  std::string renderSize = "1920x1080";
  std::string renderMode = "particles";  // particles or ssfr
};

// registers the subcommand; the options land in opts when it is parsed
CLI::App* addBenchCommand(CLI::App& app, BenchOptions& opts);

// 0 when every size ran, 1 when some were skipped; throws InputError / RuntimeFailure for main
int benchCommand(const BenchOptions& opts);

}  // namespace eddy::app
