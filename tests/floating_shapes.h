// The floating boxes' tank at 0.02 m with bodies of the other shapes in the boxes' places, each of half the
// water's density and 0.08 m high: a cylinder and a capsule lying along z, and a box made of twelve
// triangles (its distance field at 32 nodes across). Archimedes puts the centre of each at the surface.
#pragma once

#include "mesh_fixtures.h"
#include "test_support.h"

namespace eddy::test {

inline SceneDesc floatingShapes() {
  SceneDesc scene = sceneFile("scenes/floating_boxes.json", {"fluid.spacing=0.02"});
  for (ColliderDesc& c : scene.colliders) c.density = 500;
  ShapeDesc& cylinder = scene.colliders[0].shape;
  cylinder.type = "cylinder";
  cylinder.radius = 0.04f, cylinder.halfHeight = 0.1f, cylinder.rotation = {90, 0, 0};
  ShapeDesc& capsule = scene.colliders[1].shape;
  capsule.type = "capsule";
  capsule.radius = 0.04f, capsule.halfHeight = 0.07f, capsule.rotation = {90, 0, 0};
  ShapeDesc& mesh = scene.colliders[2].shape;
  mesh.type = "mesh";
  mesh.file = writeTempMesh("eddy_floating_box.obj", boxMesh({0.07f, 0.04f, 0.07f}));
  mesh.translation = mesh.center;
  mesh.center = {0, 0, 0};
  mesh.sdfResolution = 32;
  loadSceneMeshes(scene);
  return scene;
}

}  // namespace eddy::test
