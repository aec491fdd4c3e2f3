// cudaDevices(): what the CUDA side of this machine is, for the device inspector and every run record.
// telemetry(device): clocks, temperature, power, utilisation and throttle reasons now (NVML).
// setCudaLibraryDirs(dirs): where else to look for cuBLAS and NVRTC, before either is first opened.
#pragma once
#include <napi.h>

namespace gpulab {

void InitCudaDevices(Napi::Env env, Napi::Object exports);

// Why CUDA cannot be used on this machine ("no CUDA device: …"), or an empty string; sets *count to the devices.
std::string CudaUnavailableReason(int* count);

// "13.0" from 13000, the encoding of cudaRuntimeGetVersion and cudaDriverGetVersion.
std::string CudaVersionString(int v);

}  // namespace gpulab
