#include "render/interop_buffer.h"

#include <eddy/error.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "render/gl.h"

#ifdef EDDY_RENDER_CUDA_INTEROP
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>
#endif

namespace eddy::render {

namespace {

#ifdef EDDY_RENDER_CUDA_INTEROP
void check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess)
    throw RuntimeFailure("render: CUDA-OpenGL interop: " + what + ": " + cudaGetErrorString(e) +
                         " (is the OpenGL context on the simulation's GPU?)");
}
#endif

}  // namespace

InteropBuffer::InteropBuffer() { glGenBuffers(1, &buffer_); }

InteropBuffer::~InteropBuffer() {
#ifdef EDDY_RENDER_CUDA_INTEROP
  if (cudaResource_) cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(cudaResource_));
#endif
  glDeleteBuffers(1, &buffer_);
}

bool InteropBuffer::write(Backend backend, std::size_t bytes, const std::function<void(void*)>& copy,
                          const char* what) {
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer_);
  if (bytes > capacity_ || capacity_ == 0) {
#ifdef EDDY_RENDER_CUDA_INTEROP
    if (cudaResource_) cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(cudaResource_));
    cudaResource_ = nullptr;
#endif
    capacity_ = std::max<std::size_t>(bytes + bytes / 2, 16);
    glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(capacity_), nullptr, GL_DYNAMIC_DRAW);
  }
  if (bytes == 0) return false;
  if (backend == Backend::Cuda) {
#ifdef EDDY_RENDER_CUDA_INTEROP
    if (!cudaResource_) {
      cudaGraphicsResource_t r = nullptr;
      check(cudaGraphicsGLRegisterBuffer(&r, buffer_, cudaGraphicsRegisterFlagsWriteDiscard),
            std::string("registering the ") + what);
      cudaResource_ = r;
    }
    auto r = static_cast<cudaGraphicsResource_t>(cudaResource_);
    check(cudaGraphicsMapResources(1, &r), std::string("mapping the ") + what);
    void* pointer = nullptr;
    std::size_t size = 0;
    check(cudaGraphicsResourceGetMappedPointer(&pointer, &size, r),
          std::string("the address of the ") + what);
    copy(pointer);
    check(cudaGraphicsUnmapResources(1, &r), std::string("unmapping the ") + what);
    return true;
#else
    throw RuntimeFailure(std::string("render: this build has no CUDA-OpenGL interop to fill the ") + what +
                         " from a CUDA simulation");
#endif
  }
  void* pointer = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(bytes),
                                   GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
  if (!pointer) throw RuntimeFailure(std::string("render: the GL cannot map the ") + what);
  copy(pointer);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  return false;
}

void copyWithin(Backend backend, void* to, const void* from, std::size_t bytes) {
  if (backend == Backend::Cuda) {
#ifdef EDDY_RENDER_CUDA_INTEROP
    check(cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToDevice), "copying device memory into the GL");
    return;
#else
    throw RuntimeFailure("render: this build has no CUDA runtime to copy device memory");
#endif
  }
  std::memcpy(to, from, bytes);
}

}  // namespace eddy::render
