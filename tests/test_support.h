// Helpers shared by the physics tests.
#pragma once

#include <eddy/error.h>
#include <eddy/scene_io.h>
#include <eddy/simulation.h>
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

// A blob 16 x 8 x 16 cm, its centre 15 cm above height y, shot down at 10 m/s in a 0.4 x 0.8 x 0.4 m
// domain, with the given solver, spacing and overrides; the caller adds what it hits at y.
inline SceneDesc blobShotDownAt(const std::string& solver, const std::string& spacing, Real y,
                                const std::vector<std::string>& extra) {
  std::vector<std::string> overrides = {"solver=" + solver, "fluid.spacing=" + spacing};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  SceneDesc s = loadScene("", overrides);
  s.domain.min = {-0.2f, -0.3f, -0.2f};
  s.domain.max = {0.2f, 0.5f, 0.2f};
  EmitterDesc blob;
  blob.shape.type = "box";
  blob.shape.center = {0, y + 0.15f, 0};
  blob.shape.halfExtents = {0.08f, 0.04f, 0.08f};
  blob.velocity = {0, -10, 0};
  s.emitters = {blob};
  return s;
}

}  // namespace eddy::test
