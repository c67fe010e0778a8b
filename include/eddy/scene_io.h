// Reading and validating JSON scene files.
#pragma once

#include <eddy/scene.h>

#include <string>
#include <vector>

namespace eddy {

// Reads a scene file (an empty path means the embedded default dam break), applies "--set key.path=value"
// overrides to the JSON document, then validates every key and reads the meshes it names
// (loadSceneMeshes). Throws InputError whose message names the file, the JSON path (for example
// "/pbf/iterations") and what is allowed.
SceneDesc loadScene(const std::string& path, const std::vector<std::string>& overrides = {});

// Same, from text; sourceName is used in messages.
SceneDesc parseScene(const std::string& jsonText, const std::string& sourceName,
                     const std::vector<std::string>& overrides = {});

// Reads the mesh file of every mesh shape (colliders' and emitters') into the shape (ShapeDesc::mesh), each
// file once; loadScene and parseScene do it, a scene made or changed in code calls it before
// createSimulation. A file that cannot be read leaves its message in ShapeDesc::meshError instead of
// throwing: a scene read for its settings alone (a run's scene.json, to render it) needs no meshes, and a
// simulation of the scene refuses it, naming the scene, the key and the file.
void loadSceneMeshes(SceneDesc& scene);

// the embedded default scene (dam break), as JSON text
const char* defaultSceneJson();

// the scene as a complete JSON document (every key, defaults filled in)
std::string sceneToJson(const SceneDesc& scene);

}  // namespace eddy
