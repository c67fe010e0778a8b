// The meshes a scene names, read on the client's side of the engine: the engine builds its distance
// fields from the TriangleMesh data the scene carries and reads no files itself.
#include <eddy/error.h>
#include <eddy/mesh.h>
#include <eddy/scene_io.h>

#include <map>
#include <memory>
#include <string>
#include <utility>

namespace eddy {

void loadSceneMeshes(SceneDesc& scene) {
  // a file two shapes name is read once; a failed read is remembered as its message
  std::map<std::string, std::pair<std::shared_ptr<const TriangleMesh>, std::string>> read;
  auto load = [&](ShapeDesc& shape) {
    shape.mesh.reset();
    shape.meshError.clear();
    if (shape.type != "mesh" || shape.file.empty()) return;
    auto [it, fresh] = read.try_emplace(shape.file);
    if (fresh) {
      try {
        it->second.first = std::make_shared<const TriangleMesh>(loadTriangleMesh(shape.file));
      } catch (const InputError& e) {
        it->second.second = e.what();
      }
    }
    shape.mesh = it->second.first;
    shape.meshError = it->second.second;
  };
  for (ColliderDesc& c : scene.colliders) load(c.shape);
  for (EmitterDesc& e : scene.emitters) load(e.shape);
}

}  // namespace eddy
