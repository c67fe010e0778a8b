// Runs a scene (the built-in dam break where none is given) and prints each frame's statistics: eddy
// used as a library, through its installed headers and find_package(eddy).
#include <eddy/error.h>
#include <eddy/output.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

int main(int argc, char** argv) {
  try {
    const std::string path = argc > 1 ? argv[1] : "";  // "": the built-in dam break
    const int frames = argc > 2 ? std::atoi(argv[2]) : 5;
    eddy::SceneDesc scene = eddy::loadScene(path);
    std::unique_ptr<eddy::Simulation> sim = eddy::createSimulation(scene, eddy::Backend::Auto);
    std::printf("%s: %s on %s, %lld particles\n", scene.name.c_str(), scene.solver.c_str(),
                eddy::backendName(sim->backend()), static_cast<long long>(sim->particleCount()));
    for (int f = 0; f < frames; ++f) {
      sim->advanceFrame();
      std::printf("%s\n", eddy::statsJsonLine(sim->stats()).c_str());
    }
    return 0;
  } catch (const eddy::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
