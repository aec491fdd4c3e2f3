// z = a·x² + b·y + c over fp64 vectors (the vector-function lab: 5 000 000 elements, a = 3.5, b = 2.8, c = 10).
//
//   v1 unfused: three passes, as a chain of array operations runs them (t = a·x·x; t = t + b·y; z = t + c).
//      Bytes: 16 + 24 + 16 = 56 per element, so 280 MB at 5 M elements.
//   v2 fused: one kernel. Bytes: read x and y, write z = 24 per element, 120 MB at 5 M: about 25 µs at the
//      H200's 4.8 TB/s. Each thread loads one double2 of x and one of y (16-byte loads) and stores one double2 of
//      z; the grid covers the vector, so 2048 resident threads per multiprocessor keep 64 KB of loads in flight,
//      more than the ~25 KB per multiprocessor that 4.8 TB/s × ~0.7 µs of latency needs. Measured on an H200 at
//      5 M (scripts/experiments/vector_function_variants.cu): this shape, a grid-stride loop over one wave with 1, 2
//      or 4 pairs per pass, streaming cache hints and L2 prefetch hints all land within 4 % of each other
//      (34.9–36.9 µs including ~5 µs of launch); this is the simplest of the fastest.
//
// The CPU reference is the plain loop of native/cpu/vector_function.cc. The fused kernel computes a·x·x as
// (a·x)·x and lets the compiler fuse multiply-adds, so results differ from the CPU's in the last bits (relative
// error near 1e-16).
#include "kernels.cuh"
#include "launch.cuh"

namespace gpulab::kernels {

namespace {

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 8;

// ---- kernels --------------------------------------------------------------------------------------------------

// Pass 1 of the unfused version: t = a·x·x.
__global__ void ScaledSquareKernel(const double* __restrict__ x, double* __restrict__ t, double a, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    t[i] = a * x[i] * x[i];
  }
}

// Pass 2: t = t + b·y.
__global__ void AddScaledKernel(double* __restrict__ t, const double* __restrict__ y, double b, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    t[i] = t[i] + b * y[i];
  }
}

// Pass 3: z = t + c.
__global__ void AddConstantKernel(const double* __restrict__ t, double* __restrict__ z, double c, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    z[i] = t[i] + c;
  }
}

// v2, the fused kernel, is shared with the kernel playground, under the fp64 polynomial exercise's name.
#include "vector_function_fused.cuh"

}  // namespace

// ---- launchers ------------------------------------------------------------------------------------------------

cudaError_t LaunchVectorFunctionUnfused(const double* x, const double* y, double* t, double* z, double a, double b,
                                        double c, size_t n, cudaStream_t stream) {
  const unsigned blocks = GridStrideBlocks(n, kThreads, kBlocksPerSm);
  ScaledSquareKernel<<<blocks, kThreads, 0, stream>>>(x, t, a, n);
  AddScaledKernel<<<blocks, kThreads, 0, stream>>>(t, y, b, n);
  AddConstantKernel<<<blocks, kThreads, 0, stream>>>(t, z, c, n);
  return cudaGetLastError();
}

cudaError_t LaunchVectorFunctionFused(const double* x, const double* y, double* z, double a, double b, double c,
                                      size_t n, cudaStream_t stream) {
  if (!Aligned16(x) || !Aligned16(y) || !Aligned16(z)) return cudaErrorMisalignedAddress;
  // One thread per pair, plus one for the odd element.
  const size_t threads = n / 2 + (n & 1);
  const size_t blocks = (threads + kThreads - 1) / kThreads;
  polynomial<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(x, y, z, a, b, c, n);
  return cudaGetLastError();
}

}  // namespace gpulab::kernels
