// A kernel of the playground, loaded from the image NVRTC made (cudaLibraryLoadData), and its timed launches off
// the JS thread. Each sample: the zeroed buffers are cleared, then the start event, the kernel and the stop event are
// queued behind the hold kernel (shaders/cuda/hold.cu, so that the window holds only the device's time) and the
// host waits for the stop event with a deadline: a kernel still running after watchdogMs is reported as TIMEOUT,
// since nothing can stop it short of destroying the context, and the device is marked wedged for this process.
#pragma once
#include <cuda_runtime.h>
#include <napi.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "src/storage.h"

namespace gpulab {

struct LoadedLibrary {
  int device = 0;
  std::string loweredName;
  // Kept for the library's lifetime: with lazy loading the driver may read it again for another context.
  std::string image;
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
  // Set once a launch of it completed: its code is loaded, and a launch behind the hold kernel no longer waits
  // for the lazy load, which would itself wait for the hold.
  std::atomic<bool> warmed{false};
  // Set after a timeout or a sticky error: unloading would wait for a kernel that never ends, or fail.
  std::atomic<bool> abandoned{false};

  const void* fn() const { return reinterpret_cast<const void*>(kernel); }
  LoadedLibrary() = default;
  LoadedLibrary(const LoadedLibrary&) = delete;
  LoadedLibrary& operator=(const LoadedLibrary&) = delete;
  ~LoadedLibrary();
};

// A kernel ran past its watchdog on this device: every later launch would queue behind it.
bool DeviceWedged(int device);
// Throws DEVICE_LOST when DeviceWedged(device).
void RefuseWedgedDevice(int device);

// launch(spec) of a loaded kernel: copies the spec (grid, block, dynamicSharedBytes, args, warmup, repeats,
// watchdogMs, zero) into a plain request and queues it. Resolves { samplesMs }; rejects with a JS error whose
// `details` holds { sticky } (and watchdogMs for a TIMEOUT).
Napi::Value StartKernelLaunch(Napi::Env env, std::shared_ptr<LoadedLibrary> library, Napi::Object spec);

}  // namespace gpulab
