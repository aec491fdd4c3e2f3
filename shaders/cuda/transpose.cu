// Transpose of an int8 matrix, for the int8 GEMM: cuBLAS runs int8 on tensor cores only when both operands are
// k-major (its "TN" layout), so B (k×n, row-major) is handed over as Bᵀ (n×k, row-major).
//
//   v1: 32×32 tiles staged in shared memory, so that both the reads of the input rows and the writes of the output
//   rows are contiguous across a warp. Each byte is read once and written once: 2·k·n bytes, 98 MB at n = k = 7000,
//   about 25 µs on an H200.
#include "kernels.cuh"
#include "launch.cuh"

namespace gpulab::kernels {

namespace {

// ---- kernel ---------------------------------------------------------------------------------------------------

// Shared with the kernel playground (whose `transpose`, on floats, the addon does not launch).
#include "transpose_tile.cuh"

__global__ void TransposeInt8Kernel(const int8_t* __restrict__ in, int8_t* __restrict__ out, int rows, int cols) {
  TransposeTile(in, out, rows, cols);
}

}  // namespace

// ---- launcher -------------------------------------------------------------------------------------------------

cudaError_t LaunchTransposeInt8(const int8_t* in, int8_t* out, int rows, int cols, cudaStream_t stream) {
  // rows > 65535 · 32 would exceed the grid's y limit; the facade refuses such a k (native/ops-cuda.ts).
  const dim3 threads(kTile, kRowsPerPass);
  const dim3 blocks(BlocksToCover(cols, kTile), BlocksToCover(rows, kTile));
  TransposeInt8Kernel<<<blocks, threads, 0, stream>>>(in, out, rows, cols);
  return cudaGetLastError();
}

}  // namespace gpulab::kernels
