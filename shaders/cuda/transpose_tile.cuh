// launch: block=32x8 grid=tiles:32x32
// The tiled transpose of transpose.cu (whose header explains it), for any element type: out (cols×rows) = inᵀ for a
// row-major rows×cols matrix. Launch: blocks of 32×8 threads, a grid of ⌈cols / 32⌉ × ⌈rows / 32⌉.
//
// One source for two compilers: transpose.cu includes it into the addon (nvcc) and launches TransposeTile on int8
// from a kernel of its own; the kernel playground compiles this file alone with NVRTC as the transpose exercise's
// reference solution, as a student's file: `transpose` below, on floats, has the exercise's name and signature (in
// the addon it is compiled and never launched). So it includes nothing and names no type of its own.
// An include guard, not #pragma once: the playground allows only the directives a kernel needs.
#ifndef GPU_LAB_TRANSPOSE_TILE_CUH
#define GPU_LAB_TRANSPOSE_TILE_CUH

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;  // a 32×8 block moves a 32×32 tile in 4 passes

// One block's tile; a device function, so that a kernel of any element type can call it.
template <typename T>
__device__ __forceinline__ void TransposeTile(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
  // One column of padding keeps the column reads of the second phase on different banks.
  __shared__ T tile[kTile][kTile + 1];
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

__global__ void transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  TransposeTile(in, out, rows, cols);
}

#endif  // GPU_LAB_TRANSPOSE_TILE_CUH
