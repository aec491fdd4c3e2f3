// z = a·x² + b·y + c over fp64 vectors (the vector-function lab: 5 000 000 elements, a = 3.5, b = 2.8, c = 10).
//
//   v1 unfused: three passes, as a chain of array operations runs them (t = a·x·x; t = t + b·y; z = t + c).
//      Bytes: 16 + 24 + 16 = 56 per element, so 280 MB at 5 M elements.
//   v2 fused: one kernel. Bytes: read x and y, write z = 24 per element, 120 MB at 5 M: about 25 µs at the
//      H200's 4.8 TB/s. Each thread moves two double2 of x and two of y per pass (64 bytes of loads issued before
//      any arithmetic), so that enough bytes are in flight to cover the memory latency; the grid is one wave of
//      resident blocks striding over the vector.
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

__device__ __forceinline__ double2 Polynomial(double2 x, double2 y, double a, double b, double c) {
  return make_double2(a * x.x * x.x + b * y.x + c, a * x.y * x.y + b * y.y + c);
}

// One pass = kPairs double2 of x and of y per thread; the loads of a pass are all issued before its arithmetic.
constexpr int kPairs = 2;

__global__ void FusedKernel(const double* __restrict__ x, const double* __restrict__ y, double* __restrict__ z,
                            double a, double b, double c, size_t n) {
  const double2* x2 = reinterpret_cast<const double2*>(x);
  const double2* y2 = reinterpret_cast<const double2*>(y);
  double2* z2 = reinterpret_cast<double2*>(z);
  const size_t pairs = n / 2;
  const size_t threads = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  // Within a pass, thread t handles pairs t and t + threads: consecutive threads touch consecutive 16-byte pairs,
  // so every warp load is 512 contiguous bytes.
  size_t i = first;
  for (; i + (kPairs - 1) * threads < pairs; i += kPairs * threads) {
    double2 xv[kPairs], yv[kPairs];
#pragma unroll
    for (int u = 0; u < kPairs; ++u) {
      xv[u] = x2[i + u * threads];
      yv[u] = y2[i + u * threads];
    }
#pragma unroll
    for (int u = 0; u < kPairs; ++u) z2[i + u * threads] = Polynomial(xv[u], yv[u], a, b, c);
  }
  for (; i < pairs; i += threads) z2[i] = Polynomial(x2[i], y2[i], a, b, c);
  // An odd n leaves one element after the pairs.
  if (first == 0 && (n & 1)) z[n - 1] = a * x[n - 1] * x[n - 1] + b * y[n - 1] + c;
}

// ---- launchers ------------------------------------------------------------------------------------------------

bool Aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

}  // namespace

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
  const unsigned blocks = GridStrideBlocks((n / 2 + kPairs - 1) / kPairs, kThreads, kBlocksPerSm);
  FusedKernel<<<blocks, kThreads, 0, stream>>>(x, y, z, a, b, c, n);
  return cudaGetLastError();
}

}  // namespace gpulab::kernels
