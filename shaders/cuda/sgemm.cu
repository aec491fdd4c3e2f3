// SGEMM: C = A·B in fp32, row-major; A is m×k, B is k×n, C is m×n. 2·m·n·k floating-point operations
// (137 GFLOP at m = n = k = 4096).
//
//   v1 naive: one thread per element of C, a loop over k. threadIdx.x runs along a row of C, so a warp reads 32
//      consecutive floats of B (one 128-byte line) and one float of A (broadcast) per step. Every step is two loads
//      for one fused multiply-add: the loads, not the arithmetic units, set the pace.
//   v2 tiled: each block computes a 128×128 tile of C from 128×16 slabs of A and 16×128 slabs of B staged in shared
//      memory; each thread keeps an 8×8 piece of C in registers, so one pair of shared-memory reads of 8 values of
//      A and 8 of B feeds 64 multiply-adds. The next slabs are loaded from global memory into registers while the
//      current ones are used (double-buffered shared memory, one barrier per slab).
//      Two blocks share a multiprocessor (at most 128 registers a thread): 1.18× cuBLAS's time at 4096² on an H100.
//
// The CPU reference is the blocked GEMM of native/cpu/gemm.cc (and the tests' fp64 loop).
#include "kernels.cuh"
#include "launch.cuh"

namespace gpulab::kernels {

namespace {

// ---- kernels --------------------------------------------------------------------------------------------------

__global__ void SgemmNaiveKernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                 int m, int n, int k) {
  // In 64 bits: the threads of the last block run past n, which may be within 31 of INT_MAX.
  const long long col = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long row = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p) sum += a[row * k + p] * b[static_cast<long long>(p) * n + col];
  c[row * n + col] = sum;
}

// v2, the tiled kernel, is shared with the kernel playground, under the SGEMM exercise's name.
#include "sgemm_tiled.cuh"

}  // namespace

// ---- launchers ------------------------------------------------------------------------------------------------

cudaError_t LaunchSgemmNaive(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  // m > 65535 · 8 would exceed the grid's y limit; the facade refuses it (native/ops-cuda.ts).
  const dim3 threads(32, 8);
  const dim3 blocks(BlocksToCover(n, 32), BlocksToCover(m, 8));
  SgemmNaiveKernel<<<blocks, threads, 0, stream>>>(a, b, c, m, n, k);
  return cudaGetLastError();
}

cudaError_t LaunchSgemmTiled(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  // m > 65535 · 128 would exceed the grid's y limit; the facade refuses it (native/ops-cuda.ts).
  const dim3 blocks(BlocksToCover(n, kTile), BlocksToCover(m, kTile));
  sgemm<<<blocks, kThreads, 0, stream>>>(a, b, c, m, n, k);
  return cudaGetLastError();
}

}  // namespace gpulab::kernels
