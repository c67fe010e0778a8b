// Helpers shared by the physics tests.
#pragma once

#include <eddy/scene_io.h>
#include <eddy/simulation.h>

#include <string>
#include <vector>

namespace eddy::test {

inline std::string sourceDir() { return EDDY_SOURCE_DIR; }

inline SceneDesc sceneFile(const std::string& relative, const std::vector<std::string>& overrides = {}) {
  return loadScene(sourceDir() + "/" + relative, overrides);
}

}  // namespace eddy::test
