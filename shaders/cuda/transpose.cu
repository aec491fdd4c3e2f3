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

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;  // a 32×8 block moves a 32×32 tile in 4 passes

// ---- kernel ---------------------------------------------------------------------------------------------------

__global__ void TransposeInt8Kernel(const int8_t* __restrict__ in, int8_t* __restrict__ out, int rows, int cols) {
  // One column of padding keeps the column reads of the second phase on different banks.
  __shared__ int8_t tile[kTile][kTile + 1];
  const int col0 = blockIdx.x * kTile, row0 = blockIdx.y * kTile;
  // Offsets within the tile are compared against what is left: col0 + 31 overflows an int for cols near INT_MAX.
  const int rowsLeft = rows - row0, colsLeft = cols - col0;
  const int x = threadIdx.x;
  for (int r = threadIdx.y; r < kTile; r += kRowsPerPass) {
    if (r < rowsLeft && x < colsLeft) tile[r][x] = in[(static_cast<size_t>(row0) + r) * cols + col0 + x];
  }
  __syncthreads();
  // out is cols × rows: its row c holds column c of the input.
  for (int c = threadIdx.y; c < kTile; c += kRowsPerPass) {
    if (c < colsLeft && x < rowsLeft) out[(static_cast<size_t>(col0) + c) * rows + row0 + x] = tile[x][c];
  }
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
