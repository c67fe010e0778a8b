// Picks the backend's implementation of the one engine source (host-only: it calls both namespaces).
#include <eddy/error.h>
#include <eddy/scene.h>
#include <eddy/simulation.h>
#include <eddy/surface.h>

#include "colliders/mesh_field.h"
#include "surface/particle_ellipsoids.h"

namespace eddy {
namespace cpu {
std::unique_ptr<Simulation> makeSimulation(std::shared_ptr<const SceneDesc> scene,
                                           const SimulationDesc& physics);
std::vector<std::string> solverNames();
MeshSdfStats timeMeshSdfBuild(const TriangleMesh& mesh, const MeshSdfSettings& settings, int repeats);
MeshSdfStats buildMeshField(const TriangleMesh& mesh, const MeshSdfSettings& settings,
                            std::vector<Real>& values);
TriangleMesh reconstructSurface(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                SurfaceStats* stats);
HostEllipsoids particleEllipsoids(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                  Real radius);
}  // namespace cpu
#if EDDY_WITH_CUDA
namespace cuda {
std::unique_ptr<Simulation> makeSimulation(std::shared_ptr<const SceneDesc> scene,
                                           const SimulationDesc& physics);
MeshSdfStats timeMeshSdfBuild(const TriangleMesh& mesh, const MeshSdfSettings& settings, int repeats);
MeshSdfStats buildMeshField(const TriangleMesh& mesh, const MeshSdfSettings& settings,
                            std::vector<Real>& values);
TriangleMesh reconstructSurface(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                SurfaceStats* stats);
HostEllipsoids particleEllipsoids(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                  Real radius);
}  // namespace cuda
#endif

std::unique_ptr<Simulation> createSimulation(const SceneDesc& scene, Backend backend) {
  backend = resolveBackend(backend);
  // the engine reads the physics; the facade keeps the whole scene on the host for scene()
  auto whole = std::make_shared<const SceneDesc>(scene);
  const SimulationDesc& physics = *whole;
  if (backend == Backend::Cuda) {
#if EDDY_WITH_CUDA
    if (!cudaAvailable()) throw InputError("--backend cuda: no CUDA GPU is available on this machine");
    return cuda::makeSimulation(whole, physics);
#else
    throw InputError("--backend cuda: this build of eddy has no CUDA backend (rebuild with -DEDDY_CUDA=ON)");
#endif
  }
  return cpu::makeSimulation(whole, physics);
}

std::vector<std::string> solverNames() { return cpu::solverNames(); }

MeshSdfStats timeMeshSdfBuild(const TriangleMesh& mesh, const MeshSdfSettings& settings, int repeats,
                              Backend backend) {
  if (resolveBackend(backend) == Backend::Cuda) {
#if EDDY_WITH_CUDA
    if (!cudaAvailable()) throw InputError("--backend cuda: no CUDA GPU is available on this machine");
    return cuda::timeMeshSdfBuild(mesh, settings, repeats);
#else
    throw InputError("--backend cuda: this build of eddy has no CUDA backend (rebuild with -DEDDY_CUDA=ON)");
#endif
  }
  return cpu::timeMeshSdfBuild(mesh, settings, repeats);
}

MeshSdfStats buildMeshField(const TriangleMesh& mesh, const MeshSdfSettings& settings, Backend backend,
                            std::vector<Real>& values) {
  if (resolveBackend(backend) == Backend::Cuda) {
#if EDDY_WITH_CUDA
    if (!cudaAvailable()) throw InputError("--backend cuda: no CUDA GPU is available on this machine");
    return cuda::buildMeshField(mesh, settings, values);
#else
    throw InputError("--backend cuda: this build of eddy has no CUDA backend (rebuild with -DEDDY_CUDA=ON)");
#endif
  }
  return cpu::buildMeshField(mesh, settings, values);
}

TriangleMesh reconstructSurface(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                Backend backend, SurfaceStats* stats) {
  if (resolveBackend(backend) == Backend::Cuda) {
#if EDDY_WITH_CUDA
    if (!cudaAvailable()) throw InputError("--backend cuda: no CUDA GPU is available on this machine");
    return cuda::reconstructSurface(particles, settings, stats);
#else
    throw InputError("--backend cuda: this build of eddy has no CUDA backend (rebuild with -DEDDY_CUDA=ON)");
#endif
  }
  return cpu::reconstructSurface(particles, settings, stats);
}

HostEllipsoids particleEllipsoids(const std::vector<Vec3>& particles, const SurfaceSettings& settings,
                                  Real radius, Backend backend) {
  if (resolveBackend(backend) == Backend::Cuda) {
#if EDDY_WITH_CUDA
    if (!cudaAvailable()) throw InputError("--backend cuda: no CUDA GPU is available on this machine");
    return cuda::particleEllipsoids(particles, settings, radius);
#else
    throw InputError("--backend cuda: this build of eddy has no CUDA backend (rebuild with -DEDDY_CUDA=ON)");
#endif
  }
  return cpu::particleEllipsoids(particles, settings, radius);
}

}  // namespace eddy
