#include "render/particle_buffer.h"

#include <eddy/error.h>
#include <eddy/simulation.h>

#include <algorithm>
#include <string>

#include "render/gl.h"

#ifdef EDDY_RENDER_CUDA_INTEROP
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>
#endif

namespace eddy::render {

namespace {

#ifdef EDDY_RENDER_CUDA_INTEROP
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw RuntimeFailure(std::string("render: CUDA-OpenGL interop: ") + what + ": " + cudaGetErrorString(e) +
                         " (is the OpenGL context on the simulation's GPU?)");
}
#endif

}  // namespace

ParticleBuffer::ParticleBuffer() { glGenBuffers(1, &buffer_); }

ParticleBuffer::~ParticleBuffer() {
#ifdef EDDY_RENDER_CUDA_INTEROP
  if (cudaResource_) cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(cudaResource_));
#endif
  glDeleteBuffers(1, &buffer_);
}

void ParticleBuffer::fill(Simulation& sim) {
  count_ = std::size_t(sim.particleCount());
  const std::size_t bytes = std::max<std::size_t>(count_, 1) * sizeof(Vec3);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer_);
  if (count_ > capacity_) {  // grow by half again, so an emitter's run does not reallocate every frame
#ifdef EDDY_RENDER_CUDA_INTEROP
    if (cudaResource_) cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(cudaResource_));
    cudaResource_ = nullptr;
#endif
    capacity_ = count_ + count_ / 2;
    glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(capacity_ * sizeof(Vec3)), nullptr, GL_DYNAMIC_DRAW);
  }
  interop_ = false;
  if (count_ == 0) return;
  if (sim.backend() == Backend::Cuda) {
#ifdef EDDY_RENDER_CUDA_INTEROP
    if (!cudaResource_) {
      cudaGraphicsResource_t r = nullptr;
      check(cudaGraphicsGLRegisterBuffer(&r, buffer_, cudaGraphicsRegisterFlagsWriteDiscard),
            "registering the particle buffer");
      cudaResource_ = r;
    }
    auto r = static_cast<cudaGraphicsResource_t>(cudaResource_);
    check(cudaGraphicsMapResources(1, &r), "mapping the particle buffer");
    void* pointer = nullptr;
    std::size_t size = 0;
    check(cudaGraphicsResourceGetMappedPointer(&pointer, &size, r), "the mapped buffer's address");
    sim.copyPositions(static_cast<Vec3*>(pointer));
    check(cudaGraphicsUnmapResources(1, &r), "unmapping the particle buffer");
    interop_ = true;
    return;
#else
    throw RuntimeFailure("render: this build has no CUDA-OpenGL interop to draw a CUDA simulation from");
#endif
  }
  void* pointer = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(bytes),
                                   GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
  if (!pointer) throw RuntimeFailure("render: the GL cannot map the particle buffer");
  sim.copyPositions(static_cast<Vec3*>(pointer));
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
}

}  // namespace eddy::render
