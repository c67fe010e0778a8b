// Reading and validating JSON scene files.
#pragma once

#include <eddy/scene.h>

#include <string>
#include <vector>

namespace eddy {

// Reads a scene file (an empty path means the embedded default dam break), applies "--set key.path=value"
// overrides to the JSON document, then validates every key. Throws InputError whose message names the file,
// the JSON path (for example "/pbf/iterations") and what is allowed.
SceneDesc loadScene(const std::string& path, const std::vector<std::string>& overrides = {});

// Same, from text; sourceName is used in messages.
SceneDesc parseScene(const std::string& jsonText, const std::string& sourceName,
                     const std::vector<std::string>& overrides = {});

// the embedded default scene (dam break), as JSON text
const char* defaultSceneJson();

// the scene as a complete JSON document (every key, defaults filled in)
std::string sceneToJson(const SceneDesc& scene);

}  // namespace eddy
