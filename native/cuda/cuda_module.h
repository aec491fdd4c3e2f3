// The CUDA half of the addon: registers the "cuda/<op>" TimedOps, installs the device-memory hooks, and exports
// cudaDevices, cudaTelemetry, setCudaLibraryDirs, createDeviceBuffer, createPinnedBuffer, copyBuffer and fillBytes,
// and the kernel playground's nvrtcStatus, nvrtcCompile and loadKernel.
// Compiled only where nvcc was found (GPU_LAB_WITH_CUDA); the addon still loads on machines with no driver.
#pragma once
#include <napi.h>

namespace gpulab {

void InitCuda(Napi::Env env, Napi::Object exports);

}  // namespace gpulab
