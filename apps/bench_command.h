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
};

// registers the subcommand; the options land in opts when it is parsed
CLI::App* addBenchCommand(CLI::App& app, BenchOptions& opts);

// 0 when every size ran, 1 when some were skipped; throws InputError / RuntimeFailure for main
int benchCommand(const BenchOptions& opts);

}  // namespace eddy::app
