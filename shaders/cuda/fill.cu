// Seeded random fill of a device buffer, for every dtype.
//
//   v1: a grid-stride loop; element i = low + (high − low)·u(seed, i), u from the counter-based generator of
//   src/random.h. The value depends on (seed, i) only, so a host buffer filled with the same seed holds the same
//   bits: a test can fill inputs on the device and compute its reference from a host copy filled on the CPU.
//
// The arithmetic is written with explicitly rounded operations (__fmul_rn, __fadd_rn…): left to itself nvcc would
// fuse the multiply and the add into one FMA, rounding once where the CPU rounds twice, and the last bit would
// differ from the host fill.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels.cuh"
#include "launch.cuh"
#include "src/random.h"

namespace gpulab::kernels {

namespace {

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 8;

// ---- kernels --------------------------------------------------------------------------------------------------

__global__ void FillF64Kernel(double* __restrict__ out, size_t n, uint64_t seed, double low, double span) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = __dadd_rn(low, __dmul_rn(span, RandomUnitDouble(seed, i)));
  }
}

__device__ __forceinline__ float UniformFloat(uint64_t seed, size_t i, float low, float span) {
  return __fadd_rn(low, __fmul_rn(span, RandomUnitFloat(seed, i)));
}

__global__ void FillF32Kernel(float* __restrict__ out, size_t n, uint64_t seed, float low, float span) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = UniformFloat(seed, i, low, span);
  }
}

// fp16 and bf16: the fp32 value rounded to nearest even, as dtype.h's FloatToHalf and FloatToBf16 do on the host.
__global__ void FillF16Kernel(__half* __restrict__ out, size_t n, uint64_t seed, float low, float span) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = __float2half_rn(UniformFloat(seed, i, low, span));
  }
}

__global__ void FillBf16Kernel(__nv_bfloat16* __restrict__ out, size_t n, uint64_t seed, float low, float span) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = __float2bfloat16_rn(UniformFloat(seed, i, low, span));
  }
}

// int8: integers in [low, high], low + bits mod count as on the host.
__global__ void FillI8Kernel(int8_t* __restrict__ out, size_t n, uint64_t seed, int64_t low, uint64_t count) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = static_cast<int8_t>(low + static_cast<int64_t>(RandomBits(seed, i) % count));
  }
}

}  // namespace

// ---- launcher -------------------------------------------------------------------------------------------------

cudaError_t LaunchFillRandom(void* data, DType dtype, size_t n, uint64_t seed, double low, double high,
                             cudaStream_t stream) {
  const unsigned blocks = GridStrideBlocks(n, kThreads, kBlocksPerSm);
  const float lowF = static_cast<float>(low), spanF = static_cast<float>(high - low);
  switch (dtype) {
    case DType::F64:
      FillF64Kernel<<<blocks, kThreads, 0, stream>>>(static_cast<double*>(data), n, seed, low, high - low);
      break;
    case DType::F32:
      FillF32Kernel<<<blocks, kThreads, 0, stream>>>(static_cast<float*>(data), n, seed, lowF, spanF);
      break;
    case DType::F16:
      FillF16Kernel<<<blocks, kThreads, 0, stream>>>(static_cast<__half*>(data), n, seed, lowF, spanF);
      break;
    case DType::BF16:
      FillBf16Kernel<<<blocks, kThreads, 0, stream>>>(static_cast<__nv_bfloat16*>(data), n, seed, lowF, spanF);
      break;
    case DType::I8: {
      // Same integer range as FillHostRandom: ceil(low) … floor(high).
      const int64_t lo = static_cast<int64_t>(ceil(low));
      const int64_t hi = static_cast<int64_t>(floor(high));
      // An empty range would divide by zero in the kernel; the facade refuses it before this point.
      if (hi < lo) return cudaErrorInvalidValue;
      const uint64_t count = static_cast<uint64_t>(hi - lo + 1);
      FillI8Kernel<<<blocks, kThreads, 0, stream>>>(static_cast<int8_t*>(data), n, seed, lo, count);
      break;
    }
  }
  return cudaGetLastError();
}

}  // namespace gpulab::kernels
