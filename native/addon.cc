// Registers the addon's exports; every operation lives in its own file pair under src/, cpu/ and cuda/.
#include <napi.h>

#include "cpu/elementwise.h"
#include "cpu/gemm.h"
#include "cpu/vector_function.h"
#include "src/benchmark.h"
#include "src/buffer.h"
#include "src/build_info.h"
#include "src/cpu_info.h"
#ifdef GPU_LAB_WITH_CUDA
#include "cuda/cuda_module.h"
#endif

namespace {

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  gpulab::RegisterCpuElementwise();
  gpulab::RegisterCpuVectorFunction();
  gpulab::RegisterCpuGemm();
  gpulab::BufferObject::Init(env, exports);
  gpulab::InitBenchmark(env, exports);
  gpulab::InitCpuInfo(env, exports);
  gpulab::InitBuildInfo(env, exports);
#ifdef GPU_LAB_WITH_CUDA
  gpulab::InitCuda(env, exports);
#endif
  return exports;
}

}  // namespace

NODE_API_MODULE(gpu_lab, Init)
