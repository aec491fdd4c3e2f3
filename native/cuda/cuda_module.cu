#include "cuda_module.h"

#include "cuda_ops.h"
#include "devices.h"
#include "memory.h"
#include "playground.h"

namespace gpulab {
// native/cuda/verify_output.cu: the playground's check on the GPU.
void InitVerifyOutput(Napi::Env env, Napi::Object exports);
}  // namespace gpulab

namespace gpulab {

void InitCuda(Napi::Env env, Napi::Object exports) {
  // Registering ops and hooks touches no CUDA API: loading the addon never needs a driver.
  RegisterCudaElementwise();
  RegisterCudaVectorFunction();
  RegisterCudaSgemm();
  RegisterCudaGemm();
  RegisterCudaBlas1();
  RegisterCudaCopy();
  InstallDeviceMemoryHooks();
  InitCudaDevices(env, exports);
  InitCudaMemory(env, exports);
  InitCudaPlayground(env, exports);
  InitVerifyOutput(env, exports);
}

}  // namespace gpulab
