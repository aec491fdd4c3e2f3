#include "cuda_module.h"

#include "cuda_ops.h"
#include "devices.h"
#include "memory.h"
#include "playground.h"

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
}

}  // namespace gpulab
