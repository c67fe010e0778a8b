// `eddy run`: simulate a scene and write particle caches, statistics and a timing profile.
#pragma once

#include <eddy/backend.h>

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace eddy::app {

struct RunOptions {
  std::string scene;  // empty: the embedded dam break
  int frames = 0;     // used only when framesSet
  bool framesSet = false;
  std::string out = "output";
  std::string backend = "auto";
  std::string format;             // empty: the scene's output.format
  std::vector<std::string> sets;  // "key.path=value"
  bool quiet = false;
  bool surface = false;  // --surface: surfaces too (surface.enabled)
  bool render = false;   // --render: pictures too (render/frame_NNNNNN.png), as the scene's "render" says
  std::string renderSize = "1280x720";  // --render-size
  int checkpointEvery = 0;              // frames between checkpoints; 0: none
  std::string resume;  // output folder of a run to continue from its latest checkpoint; empty: a new run
};

// registers the subcommand; the options land in opts when it is parsed
CLI::App* addRunCommand(CLI::App& app, RunOptions& opts);

// returns the exit code; throws InputError / RuntimeFailure for main to report
int runCommand(const RunOptions& opts);

// shared by run and bench

// "auto" | "cpu" | "cuda" -> the backend to use; cuda without a GPU is an InputError
Backend chooseBackend(const std::string& requested);

// "cpu" or "cpu, cuda"
std::string builtBackends();

// the GPU name for cuda, "CPU, N threads" for cpu
std::string deviceDescription(Backend backend);

}  // namespace eddy::app
