#include "render/interop_buffer.h"

#include <eddy/error.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <vector>

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

void InteropBuffer::reserve(std::size_t bytes, Backend backend) {
  // filled by CUDA: a copy within the GPU ("COPY"), so the driver keeps it in the GPU's memory; filled by the
  // host through a mapping ("DRAW")
  const unsigned usage = backend == Backend::Cuda ? GL_DYNAMIC_COPY : GL_DYNAMIC_DRAW;
  if (bytes <= capacity_ && capacity_ > 0 && usage == usage_) return;
  usage_ = usage;
#ifdef EDDY_RENDER_CUDA_INTEROP
  if (cudaResource_) cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(cudaResource_));
  cudaResource_ = nullptr;
#endif
  capacity_ = std::max<std::size_t>(bytes + bytes / 2, 16);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer_);
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(capacity_), nullptr, usage);
}

void* InteropBuffer::cudaResource(const char* what) {
#ifdef EDDY_RENDER_CUDA_INTEROP
  if (!cudaResource_) {
    cudaGraphicsResource_t r = nullptr;
    check(cudaGraphicsGLRegisterBuffer(&r, buffer_, cudaGraphicsRegisterFlagsWriteDiscard),
          std::string("registering the ") + what);
    cudaResource_ = r;
  }
  return cudaResource_;
#else
  throw RuntimeFailure(std::string("render: this build has no CUDA-OpenGL interop to fill the ") + what +
                       " from a CUDA simulation");
#endif
}

bool InteropBuffer::write(Backend backend, std::size_t bytes, const std::function<void(void*)>& copy,
                          const char* what) {
  return writeBuffers(
      backend, {{this, bytes}}, [&](void* const* at) { copy(at[0]); }, what);
}

namespace {

bool writeBufferList(Backend backend, std::span<const std::pair<InteropBuffer*, std::size_t>> buffers,
                     const std::function<void(void* const*)>& copy, const char* what) {
  constexpr std::size_t kMost = 8;
  if (buffers.size() > kMost) throw RuntimeFailure("render: more than 8 buffers written together");
  bool any = false;
  for (const auto& [buffer, bytes] : buffers) buffer->reserve(bytes, backend), any = any || bytes > 0;
  if (!any) return false;
  void* at[kMost] = {};
  if (backend == Backend::Cuda) {
#ifdef EDDY_RENDER_CUDA_INTEROP
    // one mapping for all of them: each mapping synchronises CUDA with the GL, and costs far more than
    // copying a million particles' attributes
    cudaGraphicsResource_t resources[kMost];
    int count = 0;
    for (const auto& entry : buffers)
      resources[count++] = static_cast<cudaGraphicsResource_t>(entry.first->cudaResource(what));
    check(cudaGraphicsMapResources(count, resources), std::string("mapping the ") + what);
    for (int k = 0; k < count; ++k) {
      std::size_t size = 0;
      check(cudaGraphicsResourceGetMappedPointer(&at[k], &size, resources[k]),
            std::string("the address of the ") + what);
    }
    copy(at);
    check(cudaGraphicsUnmapResources(count, resources), std::string("unmapping the ") + what);
    return true;
#else
    throw RuntimeFailure(std::string("render: this build has no CUDA-OpenGL interop to fill the ") + what +
                         " from a CUDA simulation");
#endif
  }
  int k = 0;
  for (const auto& [buffer, bytes] : buffers) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer->id());
    at[k] = bytes == 0 ? nullptr
                       : glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(bytes),
                                          GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (bytes > 0 && !at[k]) throw RuntimeFailure(std::string("render: the GL cannot map the ") + what);
    ++k;
  }
  copy(at);
  for (const auto& [buffer, bytes] : buffers) {
    if (bytes == 0) continue;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer->id());
    glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  }
  return false;
}

}  // namespace

bool writeBuffers(Backend backend, std::initializer_list<std::pair<InteropBuffer*, std::size_t>> buffers,
                  const std::function<void(void* const*)>& copy, const char* what) {
  return writeBufferList(backend, {buffers.begin(), buffers.size()}, copy, what);
}

bool copyIntoBuffers(Backend backend, std::initializer_list<BufferSource> sources, const char* what) {
  std::pair<InteropBuffer*, std::size_t> buffers[8];
  if (sources.size() > 8) throw RuntimeFailure("render: more than 8 buffers written together");
  std::size_t n = 0;
  for (const BufferSource& s : sources) buffers[n++] = {s.buffer, s.bytes};
  return writeBufferList(
      backend, {buffers, n},
      [&](void* const* to) {
        std::size_t k = 0;
        for (const BufferSource& s : sources) {
          if (s.bytes > 0) copyWithin(backend, to[k], s.from, s.bytes);
          ++k;
        }
      },
      what);
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

void finishDeviceWork(Backend backend) {
#ifdef EDDY_RENDER_CUDA_INTEROP
  if (backend == Backend::Cuda) check(cudaDeviceSynchronize(), "waiting for the GPU");
#else
  (void)backend;
#endif
}

}  // namespace eddy::render
