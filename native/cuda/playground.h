// The kernel playground's native half: NVRTC's status and compilation (nvrtc.h), loading the compiled image
// (cudaLibraryLoadData), the kernel's attributes and occupancy, and its launches (kernel_launch.h). Exports
// nvrtcStatus, nvrtcCompile and loadKernel; native/kernel-playground.ts is the facade over them.
#pragma once
#include <napi.h>

namespace gpulab {

void InitCudaPlayground(Napi::Env env, Napi::Object exports);

}  // namespace gpulab
