// Helpers shared by the physics tests.
#pragma once

#include <eddy/scene_io.h>
#include <eddy/simulation.h>

#include <eddy/error.h>
#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace eddy::test {

inline std::string sourceDir() { return EDDY_SOURCE_DIR; }

inline SceneDesc sceneFile(const std::string& relative, const std::vector<std::string>& overrides = {}) {
  return loadScene(sourceDir() + "/" + relative, overrides);
}

// runs f, expects an InputError whose message holds every one of parts
inline void expectInputError(const std::function<void()>& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no InputError was thrown";
  } catch (const InputError& e) {
    std::string msg = e.what();
    for (const std::string& p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
  }
}

}  // namespace eddy::test
