// Device-tagged owning buffers (RAII, move-only, explicit copies) and the plain views kernels take.
#pragma once

#include <eddy/vec3.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/memory.h"

namespace eddy {

// what a kernel sees: a pointer and a count, nothing owned
template <class T>
struct View {
  T* data = nullptr;
  std::size_t size = 0;
  EDDY_HD T& operator[](std::size_t i) const { return data[i]; }
};

template <class T>
View<const T> asConst(View<T> v) {
  return {v.data, v.size};
}

template <class T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(Device device, std::size_t count) : device_(device) { allocate(count); }
  ~Buffer() { releaseBytes(device_, data_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept { swap(o); }
  Buffer& operator=(Buffer&& o) noexcept {
    Buffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  void swap(Buffer& o) noexcept {
    std::swap(device_, o.device_);
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
  }

  Device device() const { return device_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  T* data() const { return data_; }
  View<T> view() const { return {data_, size_}; }
  View<T> view(std::size_t count) const { return {data_, count}; }

  // new storage of this size; the old contents are dropped
  void resize(Device device, std::size_t count) {
    if (device == device_ && count == size_) return;
    releaseBytes(device_, data_);
    data_ = nullptr;
    size_ = 0;
    device_ = device;
    allocate(count);
  }
  // at least this size, keeping the first `keep` elements
  void grow(std::size_t count, std::size_t keep) {
    if (count <= size_) return;
    Buffer bigger(device_, count);
    copyBytes(device_, bigger.data_, device_, data_, std::min(keep, size_) * sizeof(T));
    swap(bigger);
  }

  void upload(const T* host, std::size_t count, std::size_t offset = 0) {
    copyBytes(device_, data_ + offset, Device::Host, host, count * sizeof(T));
  }
  void download(T* host, std::size_t count, std::size_t offset = 0) const {
    copyBytes(Device::Host, host, device_, data_ + offset, count * sizeof(T));
  }
  std::vector<T> toHost(std::size_t count) const {
    std::vector<T> out(count);
    download(out.data(), count);
    return out;
  }
  void fillZero() { fillBytes(device_, data_, 0, bytes()); }

 private:
  void allocate(std::size_t count) {
    data_ = static_cast<T*>(allocateBytes(device_, count * sizeof(T)));
    size_ = count;
  }

  Device device_ = Device::Host;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace eddy
