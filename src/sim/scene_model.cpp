#include "sim/scene_model.h"

#include <eddy/error.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "colliders/mesh_shape.h"
#include "colliders/thin_obstacles.h"
#include "core/memory.h"
#include "sim/hydrostatic_start.h"

namespace eddy::EDDY_NS {

namespace {

// bytes a particle may cost, with room for lists that widen: attributes in their two arenas (~110), sort
// arrays (~20), neighbour lists of 48 slots (~200) that grow by half where particles crowd; measured 350
// (PBF) and 334 (WCSPH) per particle at 1M on the GPU, 439 for PBF at 100M with 64-slot lists
constexpr std::size_t kBytesPerParticle = 768;

const char* memoryName() { return kDevice == Device::Cuda ? "GPU" : "host"; }

// mass that gives a particle inside a full cubic lattice exactly the rest density
Real latticeMass(const FluidDesc& fluid, const SphKernels& k) {
  int reach = int(std::ceil(k.h / fluid.spacing));
  double sum = 0;
  for (int z = -reach; z <= reach; ++z)
    for (int y = -reach; y <= reach; ++y)
      for (int x = -reach; x <= reach; ++x) {
        Vec3 d = Vec3{Real(x), Real(y), Real(z)} * fluid.spacing;
        sum += k.poly6(dot(d, d));
      }
  return Real(fluid.restDensity / sum);
}

// Loads, checks, scales and places a mesh shape and builds its distance field into sdf; data (made by
// makeShapeData) gets the placement and the field. `where` is the shape's JSON pointer, for messages
// (needsInside: the mesh is filled, so it must be closed; a container needs that too).
void placeMeshShape(const SimulationDesc& scene, const SceneModel& model, Primitives& prims,
                    const ShapeDesc& shape, const std::string& where, MeshSdf& sdf, ColliderData& data,
                    bool needsInside = false, ShapeMass* mass = nullptr) {
  // a tank needs an inside as a filled mesh does, and a rigid body for its mass: no open shell
  needsInside |= data.container || mass != nullptr;
  PlacedMesh placed = placeMesh(shape, data.orientation, scene.sourcePath + ": " + where, needsInside);
  if (mass) *mass = meshMass(placed.mesh);
  MeshSdfSettings settings;
  settings.resolution = shape.sdfResolution;
  settings.band = Real(1.5) * model.kernels.h;
  settings.shellThickness = shape.thickness;
  auto prefixed = [&](const InputError& e) {
    return InputError(scene.sourcePath + ": " + where + ": mesh '" + shape.file + "': " + e.what());
  };
  // the field's size from the mesh's box, checked against what can be indexed and the free memory before
  // the build allocates anything (checkMemory then checks the particles against what the fields leave)
  MeshFieldLayout layout;
  try {
    layout = meshFieldLayout(placed.mesh, settings);
  } catch (const InputError& e) {
    throw prefixed(e);
  }
  std::string refusal = meshFieldRefusal(layout, !(settings.shellThickness > 0),
                                         double(freeDeviceBytes(kDevice)), memoryName());
  if (!refusal.empty()) {
    std::string key = where + "/sdf_resolution";
    throw InputError(scene.sourcePath + ": " + key + ": mesh '" + shape.file + "': " + refusal + "; lower " +
                     key);
  }
  try {
    sdf.build(placed.mesh, settings, prims);
  } catch (const InputError& e) {
    throw prefixed(e);
  }
  data.center = placed.translation;
  data.field = sdf.view();
}

// a volume emitter's particles; a mesh (its own shape, or the collider it fills) is sampled through a host
// copy of its distance field
EmittedParticles fillVolume(const SimulationDesc& scene, const SceneModel& model, Primitives& prims,
                            const EmitterDesc& e, int index, const std::vector<ColliderData>& cs,
                            const std::vector<const MeshSdf*>& colliderMesh) {
  const std::vector<ColliderDesc>& colliders = scene.colliders;
  auto target = std::find_if(colliders.begin(), colliders.end(), [&](const ColliderDesc& c) {
    return !e.collider.empty() && c.name == e.collider;
  });
  const ShapeDesc& shape = target != colliders.end() ? target->shape : e.shape;
  if (shape.type != "mesh") return sampleVolume(e, colliders, scene.fluid.spacing);
  MeshSdf own;
  ColliderData data;
  const MeshSdf* sdf = nullptr;
  if (target != colliders.end()) {
    std::size_t i = std::size_t(target - colliders.begin());
    data = cs[i];
    sdf = colliderMesh[i];
  } else {
    data = makeShapeData(shape);
    placeMeshShape(scene, model, prims, shape, "/emitters/" + std::to_string(index) + "/shape", own, data,
                   true);
    sdf = &own;
  }
  std::vector<Real> values = sdf->download();
  data.field.values = values.data();
  return sampleVolume(e, colliders, scene.fluid.spacing, &data);
}

// A rigid body starting in the water displaces it: the lattice points inside a body are left out. Each
// point stands for the cube of one spacing around it, so over the lattice's offsets the points left out
// hold the body's own volume and the water around it starts at its level. Leaving out the points within
// half a spacing of the surface too (where a wall's first layer sits beside a flat wall the lattice is
// aligned with) took out a shell half a spacing thick on average around a curved or unaligned body: under
// WCSPH and DFSPH the water fell into that gap over the first steps and threw the body about (a sphere of
// the water's density was pushed with 0.8 to 2.2 times its weight over the first 0.1 s,
// tests/test_neutral_buoyancy.cpp); their wall terms push a point nearer the surface out gently. PBF's
// contacts move such a point out to half a spacing within the first substep, which threw the same sphere
// 30 mm up in 0.1 s (12 mm with the shell left out), and MPM was not measured: both keep the shell left out.
// A mesh body is measured through a host copy of its field.
void leaveOutBodies(const SimulationDesc& scene, std::vector<ColliderData> cs,
                    const std::vector<const MeshSdf*>& colliderMesh, EmittedParticles& out) {
  const bool shell = scene.solver == "pbf" || scene.solver == "mpm";
  const Real clearance = shell ? Real(0.4999) * scene.fluid.spacing : Real(0);
  std::vector<bool> body(scene.colliders.size());
  std::vector<std::vector<Real>> fields(scene.colliders.size());
  for (std::size_t c = 0; c < scene.colliders.size(); ++c) {
    // a shape that cannot be a body is refused with the bodies (RigidBodies::setup), not here
    body[c] = scene.colliders[c].density > 0 && cs[c].kind != ShapeKind::Plane;
    if (body[c] && colliderMesh[c]) {
      fields[c] = colliderMesh[c]->download();
      cs[c].field.values = fields[c].data();
    }
  }
  std::size_t kept = 0;
  for (std::size_t k = 0; k < out.position.size(); ++k) {
    bool clear = true;
    for (std::size_t c = 0; c < scene.colliders.size() && clear; ++c)
      clear = !body[c] || signedDistance(cs[c], out.position[k], 0, nullptr) > clearance;
    if (!clear) continue;
    out.position[kept] = out.position[k];
    out.velocity[kept] = out.velocity[k];
    if (!out.pressure.empty()) out.pressure[kept] = out.pressure[k];
    ++kept;
  }
  out.position.resize(kept);
  out.velocity.resize(kept);
  if (!out.pressure.empty()) out.pressure.resize(kept);
}

// The mesh colliders' fields were built before (placeMeshShape checked each against the memory then free),
// so the free memory here is what they leave: the particles are checked against that, and the message
// counts the fields in, since lowering their resolution makes room too.
void checkMemory(const SimulationDesc& scene, const SceneModel& model, std::int64_t particles) {
  double need = double(particles) * kBytesPerParticle + double(std::size_t(64) << 20);
  double free = double(freeDeviceBytes(kDevice));
  auto mib = [](double bytes) { return std::to_string(std::int64_t(bytes / (1024.0 * 1024.0))); };
  if (need > free) {
    std::size_t fields = model.meshBytes();
    std::string held = fields == 0
                           ? std::string()
                           : ", beside the " + mib(double(fields)) + " MiB its mesh colliders' fields hold";
    throw InputError(scene.sourcePath + ": the scene needs about " + mib(need) + " MiB of " + memoryName() +
                     " memory for " + std::to_string(particles) + " particles" + held + ", but only " +
                     mib(free) + " MiB are free; increase /fluid/spacing or reduce the emitters" +
                     (fields == 0 ? "" : ", or lower the meshes' sdf_resolution"));
  }
  if (particles > kMostParticles)
    throw InputError(scene.sourcePath + ": the emitters make " + std::to_string(particles) +
                     " particles, more than the " + std::to_string(kMostParticles) +
                     " (2^30) the engine can index; increase /fluid/spacing or reduce the emitters");
}

// the colliders: the scene's, then the domain as a container; a mesh gets its distance field, exact to
// beyond the kernel support (the wall term reads it out to h); keyframed ones read their keyframes from
// one buffer, all colliders' one after another. colliderMesh: each scene collider's field, or null.
std::vector<ColliderData> assembleColliders(const SimulationDesc& scene, Primitives& prims, SceneModel& model,
                                            std::vector<const MeshSdf*>& colliderMesh) {
  std::vector<ColliderKeyframe> frames;
  for (std::size_t i = 0; i < scene.colliders.size(); ++i) {
    model.firstKeyframe.push_back(frames.size());
    std::vector<ColliderKeyframe> own;
    try {
      own = makeColliderKeyframes(scene.colliders[i]);
    } catch (const InputError& e) {
      // a scene built in code, which the reader did not check: its messages start with "keyframes: "
      throw InputError(scene.sourcePath + ": /colliders/" + std::to_string(i) + "/" + e.what());
    }
    frames.insert(frames.end(), own.begin(), own.end());
  }
  model.keyframes = Buffer<ColliderKeyframe>(kDevice, frames.size());
  model.keyframes.upload(frames.data(), frames.size());
  model.hostKeyframes = frames;
  std::vector<ColliderData> cs;
  colliderMesh.assign(scene.colliders.size(), nullptr);
  model.shapeMasses.assign(scene.colliders.size(), ShapeMass{});
  for (std::size_t i = 0; i < scene.colliders.size(); ++i) {
    const ColliderDesc& c = scene.colliders[i];
    const bool body = c.density > 0;
    cs.push_back(
        makeColliderData(c, c.keyframes.empty() ? nullptr : model.keyframes.data() + model.firstKeyframe[i]));
    if (c.shape.type != "mesh") {
      if (body) model.shapeMasses[i] = solidMass(c.shape);
      continue;
    }
    model.meshes.push_back(std::make_unique<MeshSdf>());
    colliderMesh[i] = model.meshes.back().get();
    // a keyframed mesh starts at its first keyframe's pose
    placeMeshShape(scene, model, prims, shapeAtStart(c), "/colliders/" + std::to_string(i) + "/shape",
                   *model.meshes.back(), cs.back(), false, body ? &model.shapeMasses[i] : nullptr);
  }
  cs.push_back(makeDomainContainer(scene.domain));
  model.colliders = Buffer<ColliderData>(kDevice, cs.size());
  model.colliders.upload(cs.data(), cs.size());
  model.hostColliders = cs;
  // the obstacles thin enough for neighbours to see each other through them
  std::vector<ColliderData> thin;
  for (const ColliderData& c : cs)
    if (isBarrier(c, model.kernels.h)) thin.push_back(c);
  model.barriers = Buffer<ColliderData>(kDevice, thin.size());
  model.barriers.upload(thin.data(), thin.size());
  return cs;
}

}  // namespace

std::size_t SceneModel::meshBytes() const {
  std::size_t bytes = 0;
  for (const auto& m : meshes) bytes += m->bytes();
  return bytes;
}

std::size_t SceneModel::bytes() const {
  return colliders.bytes() + barriers.bytes() + keyframes.bytes() + meshBytes() + wallOverlaps.bytes();
}

void assembleScene(const SimulationDesc& scene, Primitives& prims, SceneModel& model,
                   InitialParticles& initial) {
  model.kernels = SphKernels::make(scene.fluid.supportRatio * scene.fluid.spacing);
  model.particleMass = latticeMass(scene.fluid, model.kernels);
  model.wall =
      WallKernel::make(model.kernels, scene.fluid.spacing, model.particleMass, scene.fluid.restDensity);
  std::vector<Real> overlaps = WallKernel::makeOverlapTables(model.kernels, scene.fluid.spacing,
                                                             model.particleMass, scene.fluid.restDensity);
  model.wallOverlaps.resize(kDevice, overlaps.size());
  model.wallOverlaps.upload(overlaps.data(), overlaps.size());
  model.wall.overlaps = model.wallOverlaps.data();

  std::vector<const MeshSdf*> colliderMesh;
  std::vector<ColliderData> cs = assembleColliders(scene, prims, model, colliderMesh);

  // one-shot volume emitters now; nozzles over time
  initial.volumes.assign(scene.emitters.size(), EmittedParticles{});
  initial.budget = 0;
  for (std::size_t i = 0; i < scene.emitters.size(); ++i) {
    const EmitterDesc& e = scene.emitters[i];
    if (e.type == "nozzle") {
      initial.budget += e.maxParticles;
      continue;
    }
    try {
      initial.volumes[i] = fillVolume(scene, model, prims, e, int(i), cs, colliderMesh);
    } catch (const InputError& err) {
      // the emitter's own messages name the shape, not the scene key; a mesh's name both already
      const std::string what = err.what();
      if (what.rfind(scene.sourcePath + ": ", 0) == 0) throw;
      throw InputError(scene.sourcePath + ": /emitters/" + std::to_string(i) + ": " + what);
    }
  }
  // the water's depth from the lattice's own top, before the bodies that pierce it take their points out
  startHydrostatic(scene, initial.volumes);
  for (std::size_t i = 0; i < scene.emitters.size(); ++i) {
    leaveOutBodies(scene, cs, colliderMesh, initial.volumes[i]);
    initial.budget += std::int64_t(initial.volumes[i].position.size());
  }
  if (initial.budget == 0)
    throw InputError(scene.sourcePath + ": /emitters: the emitters produce no particles at spacing " +
                     std::to_string(scene.fluid.spacing) +
                     " m; make the shapes larger or the spacing smaller");
  checkMemory(scene, model, initial.budget);

  // a particle this far outside the domain has blown up: the domain's walls hold every sane one inside
  Vec3 extent = scene.domain.max - scene.domain.min;
  Real reach = Real(0.5) * std::max({extent.x, extent.y, extent.z}) + 4 * model.kernels.h;
  model.blowUpLo = scene.domain.min - Vec3{reach, reach, reach};
  model.blowUpHi = scene.domain.max + Vec3{reach, reach, reach};
}

}  // namespace eddy::EDDY_NS
