// The memory behind a JS buffer object: where it lives, its element type and length. Shared between the JS handle
// and any job that uses it, so freeing a buffer from JS while a measurement still runs on it is safe: the memory
// goes when the last user lets go.
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include "dtype.h"

namespace gpulab {

enum class Location { Host, Pinned, Device };

inline const char* LocationName(Location l) {
  switch (l) {
    case Location::Host: return "host";
    case Location::Pinned: return "pinned";
    case Location::Device: return "device";
  }
  return "?";
}

struct Storage {
  DType dtype = DType::F32;
  size_t length = 0;
  Location location = Location::Host;
  int device = -1;  // CUDA ordinal for Device (and the context that pinned a Pinned buffer); -1 on the host
  void* data = nullptr;
  void (*release)(void* data, int device) = nullptr;

  size_t bytes() const { return length * DTypeSize(dtype); }
  template <typename T>
  T* as() const { return static_cast<T*>(data); }

  Storage() = default;
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  ~Storage() {
    if (release && data) release(data, device);
  }
};

using StoragePtr = std::shared_ptr<Storage>;

// Page-aligned pageable host memory. Throws NativeError OUT_OF_HOST_MEMORY when the system refuses.
StoragePtr AllocateHost(DType dtype, size_t length);

// Fills with the counter-based generator of random.h: floats uniform in [low, high), int8 integers in [low, high].
// Host and pinned memory only; device memory is filled by the CUDA module.
void FillHostRandom(const Storage& s, uint64_t seed, double low, double high);

// Hooks the CUDA module installs so that JS can read, write and fill device buffers through the same object.
// They stay null in a build without CUDA, where no device buffer can exist.
struct DeviceMemoryHooks {
  void (*copyToHost)(const Storage& src, size_t byteOffset, void* dst, size_t bytes) = nullptr;
  void (*copyFromHost)(const Storage& dst, size_t byteOffset, const void* src, size_t bytes) = nullptr;
  void (*fillRandom)(const Storage& s, uint64_t seed, double low, double high) = nullptr;
  // The elements at `indices` (each below src.length, checked by the caller), their bytes in that order into dst:
  // gathered on the device and brought back in one copy.
  void (*gatherToHost)(const Storage& src, const uint64_t* indices, size_t count, void* dst) = nullptr;
};
DeviceMemoryHooks& deviceMemoryHooks();

}  // namespace gpulab
