// eddy: the command-line program. Parses arguments, dispatches to its commands (run, bench, render, view,
// ...), maps errors to exit codes: 0 success, 1 runtime failure (or a skipped bench size), 2 bad input or
// usage, 3 the simulation blew up.
#include <eddy/backend.h>
#include <eddy/error.h>
#include <eddy/vdb.h>
#include <eddy/version.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include "bench_command.h"
#include "mesh_info_command.h"
#include "render_command.h"
#include "run_command.h"
#include "surface_command.h"
#include "view_command.h"

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitBlowUp = 3;

std::string versionText() {
  const std::string gpu = eddy::cudaDeviceName();
  const std::string openVdb =
      eddy::openVdbAvailable() ? eddy::openVdbVersion() : std::string("not built (install libopenvdb-dev)");
  return std::string("eddy ") + eddy::kVersion + "\nbackends: " + eddy::app::builtBackends() +
         "\nOpenVDB: " + openVdb + "\nrenderer: " + eddy::app::rendererDescription() +
         "\nviewer: " + eddy::app::viewerDescription() + "\nPython module: " +
#ifdef EDDY_WITH_PYTHON
         "built (import eddy with PYTHONPATH=<build>/python; docs/python.md)" +
#else
         "not built (install python3-dev and pybind11-dev)" +
#endif
         "\n" + (gpu.empty() ? std::string("no GPU") : "GPU: " + gpu);
}

// same prefix as the engine's own errors, and one line as they are, so every failure reads alike (an empty
// --set= from the fuzz corpus once printed the hint on a second line)
std::string usageFailure(const CLI::App*, const CLI::Error& e) {
  return std::string("eddy: error: ") + e.what() +
         " (run 'eddy --help' or 'eddy <command> --help' for usage)\n";
}

// One line whatever the message holds: messages quote keys and values from the input (a JSON key may
// contain "\n"), so control characters are written as escapes.
void reportError(const char* message) {
  std::string line;
  for (const char* p = message; *p; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '\n') {
      line += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      line += escaped;
    } else {
      line += char(c);
    }
  }
  std::fprintf(stderr, "eddy: error: %s\n", line.c_str());
}

// engine errors become one line on stderr and an exit code
template <class Command>
int guarded(Command&& command) {
  try {
    return command();
  } catch (const eddy::InputError& e) {
    reportError(e.what());
    return kExitUsage;
  } catch (const eddy::SimulationBlowUp& e) {
    reportError(e.what());
    return kExitBlowUp;
  } catch (const eddy::RuntimeFailure& e) {
    reportError(e.what());
    return kExitFailure;
  } catch (const std::bad_alloc&) {
    reportError("out of host memory");
    return kExitFailure;
  } catch (const std::exception& e) {
    reportError(e.what());
    return kExitFailure;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "eddy: particle fluid simulation on the CPU or a CUDA GPU: Position Based Fluids (PBF), weakly "
      "compressible SPH (WCSPH), divergence-free SPH (DFSPH) and the Moving Least Squares Material Point "
      "Method (MPM: water, elastic solids, snow, sand). Scenes are JSON files (docs/scene-format.md).",
      "eddy"};
  app.set_version_flag("--version", versionText,
                       "Print the version, the backends built and the GPU, then exit.");
  app.require_subcommand(1);
  app.failure_message(usageFailure);

  eddy::app::RunOptions runOptions;
  CLI::App* run = eddy::app::addRunCommand(app, runOptions);
  eddy::app::BenchOptions benchOptions;
  CLI::App* bench = eddy::app::addBenchCommand(app, benchOptions);
  eddy::app::MeshInfoOptions meshInfoOptions;
  CLI::App* meshInfo = eddy::app::addMeshInfoCommand(app, meshInfoOptions);
  eddy::app::SurfaceOptions surfaceOptions;
  CLI::App* surface = eddy::app::addSurfaceCommand(app, surfaceOptions);
  eddy::app::RenderOptions renderOptions;
  CLI::App* render = eddy::app::addRenderCommand(app, renderOptions);
  eddy::app::ViewOptions viewOptions;
  CLI::App* view = eddy::app::addViewCommand(app, viewOptions);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 uses codes 100+ for usage errors; help and version exit 0
    return app.exit(e) == 0 ? 0 : kExitUsage;
  }

  if (run->parsed()) return guarded([&] { return eddy::app::runCommand(runOptions); });
  if (bench->parsed()) return guarded([&] { return eddy::app::benchCommand(benchOptions); });
  if (meshInfo->parsed()) return guarded([&] { return eddy::app::meshInfoCommand(meshInfoOptions); });
  if (surface->parsed()) return guarded([&] { return eddy::app::surfaceCommand(surfaceOptions); });
  if (render->parsed()) return guarded([&] { return eddy::app::renderCommand(renderOptions); });
  if (view->parsed()) return guarded([&] { return eddy::app::viewCommand(viewOptions); });
  return kExitUsage;  // unreachable: a subcommand is required
}
