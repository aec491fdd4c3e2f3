// Device memory and pinned host memory behind the same buffer objects as host memory, the hooks that let JS read,
// write and fill device buffers, and buffer-to-buffer copies.
#pragma once
#include <napi.h>

#include <cstddef>

#include "src/storage.h"

namespace gpulab {

// Throws CUDA_UNAVAILABLE when there is no usable device, INVALID_ARGUMENT when `device` is not an ordinal of one.
void CheckDeviceOrdinal(int device);

// cudaMalloc'd memory on `device`. Throws CUDA_ERROR_OUT_OF_MEMORY with the bytes asked for and the bytes free.
StoragePtr AllocateDevice(DType dtype, size_t length, int device);

// Page-locked host memory (cudaHostAlloc, portable to every device). Throws OUT_OF_HOST_MEMORY when the system
// refuses to pin that much.
StoragePtr AllocatePinned(DType dtype, size_t length);

// Scratch device memory an operation owns for its lifetime (staging copies, rotated inputs, workspaces).
class DeviceAllocation {
 public:
  DeviceAllocation() = default;
  DeviceAllocation(size_t bytes, int device, const char* what);
  DeviceAllocation(DeviceAllocation&& other) noexcept;
  DeviceAllocation& operator=(DeviceAllocation&& other) noexcept;
  DeviceAllocation(const DeviceAllocation&) = delete;
  DeviceAllocation& operator=(const DeviceAllocation&) = delete;
  ~DeviceAllocation();

  void* get() const { return ptr_; }
  template <typename T>
  T* as() const { return static_cast<T*>(ptr_); }

 private:
  void* ptr_ = nullptr;
  int device_ = -1;
};

// Sets deviceMemoryHooks() so that BufferObject can read, write and fill device buffers.
void InstallDeviceMemoryHooks();

// createDeviceBuffer, createPinnedBuffer, copyBuffer, fillBytes.
void InitCudaMemory(Napi::Env env, Napi::Object exports);

}  // namespace gpulab
