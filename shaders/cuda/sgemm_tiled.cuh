// launch: block=256 grid=tiles:128x128
// The tiled SGEMM kernel (v2 of sgemm.cu, whose header explains it): C = A·B in fp32, row-major, A m×k, B k×n.
// Each block computes a 128×128 tile of C from slabs 16 deep of A (128×16) and B (16×128), double-buffered in shared
// memory (33 KB); each thread keeps an 8×8 piece of C in registers and loads two float4 of A and two of B per slab.
// Launch: 256 threads a block, a grid of ⌈n / 128⌉ × ⌈m / 128⌉ blocks.
//
// One source for two compilers: sgemm.cu includes it into the addon (nvcc), and the kernel playground compiles this
// file alone with NVRTC as the SGEMM exercise's reference solution, as a student's file: the kernel has the
// exercise's name and signature. So it includes nothing, and uses only what both compilers provide without headers
// (float4, make_float4, size_t).
// An include guard, not #pragma once: the playground allows only the directives a kernel needs.
#ifndef GPU_LAB_SGEMM_TILED_CUH
#define GPU_LAB_SGEMM_TILED_CUH

constexpr int kTile = 128;
constexpr int kSlab = 16;
constexpr int kThreads = 256;
constexpr int kAStride = kTile + 4;

struct SgemmTiles {
  float a[2][kSlab][kAStride];
  float b[2][kSlab][kTile];
};

// One float4 of A (row `row`, depths p0 + ap … + 3) and of B (depth p0 + bp, columns col0 + bc … + 3); elements
// out of range read as 0. Bounds are compared as offsets against what is left (k − p0, n − col0): p0 + 15 or
// col0 + 127 would overflow an int for k or n near INT_MAX.
__device__ __forceinline__ float4 LoadA(const float* __restrict__ a, int m, int k, int row, int p0, int ap) {
  const int kLeft = k - p0;
  const float* aRow = a + static_cast<size_t>(row) * k + p0 + ap;
  if (row < m && ap + 3 < kLeft && (k & 3) == 0) return *reinterpret_cast<const float4*>(aRow);
  float t[4];
#pragma unroll
  for (int q = 0; q < 4; ++q) t[q] = (row < m && ap + q < kLeft) ? aRow[q] : 0.0f;
  return make_float4(t[0], t[1], t[2], t[3]);
}

__device__ __forceinline__ float4 LoadB(const float* __restrict__ b, int n, int k, int col0, int p0, int bp, int bc) {
  const int kLeft = k - p0, nLeft = n - col0;
  const float* bRow = b + (static_cast<size_t>(p0) + bp) * n + col0 + bc;
  if (bp < kLeft && bc + 3 < nLeft && (n & 3) == 0) return *reinterpret_cast<const float4*>(bRow);
  float t[4];
#pragma unroll
  for (int q = 0; q < 4; ++q) t[q] = (bp < kLeft && bc + q < nLeft) ? bRow[q] : 0.0f;
  return make_float4(t[0], t[1], t[2], t[3]);
}

// The A slab goes in transposed (k-major), so that the inner loop reads a thread's rows of A as float4.
__device__ __forceinline__ void StoreSlabs(SgemmTiles& s, int buf, int ar, int ap, int bp, int bc, const float4& a0,
                                           const float4& a1, const float4& b0, const float4& b1) {
  const float av[2][4] = {{a0.x, a0.y, a0.z, a0.w}, {a1.x, a1.y, a1.z, a1.w}};
#pragma unroll
  for (int half = 0; half < 2; ++half) {
#pragma unroll
    for (int q = 0; q < 4; ++q) s.a[buf][ap + q][half * 64 + ar] = av[half][q];
  }
  *reinterpret_cast<float4*>(&s.b[buf][bp][bc]) = b0;
  *reinterpret_cast<float4*>(&s.b[buf][bp + 8][bc]) = b1;
}

// At most 128 registers a thread (__launch_bounds__(256, 2)), so that two blocks share a multiprocessor and one
// block's barrier is covered by the other's arithmetic. Measured on an H100 at 4096² through the playground
// (scripts/experiments/sgemm/): 3.15 ms, against 3.37 ms for 8-deep slabs with one block per multiprocessor (141
// registers) and 2.66 ms for cuBLAS.
__global__ void __launch_bounds__(kThreads, 2) sgemm(const float* __restrict__ a, const float* __restrict__ b,
                                                     float* __restrict__ c, int m, int n, int k) {
  __shared__ __align__(16) SgemmTiles s;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  // A: rows tid/4 and 64 + tid/4, depth 4·(tid%4); B: depths tid/32 and 8 + tid/32, column 4·(tid%32).
  const int ar = tid / 4, ap = (tid % 4) * 4;
  const int bp = tid / 32, bc = (tid % 32) * 4;
  float acc[8][8] = {};
  float4 a0 = LoadA(a, m, k, row0 + ar, 0, ap), a1 = LoadA(a, m, k, row0 + 64 + ar, 0, ap);
  float4 b0 = LoadB(b, n, k, col0, 0, bp, bc), b1 = LoadB(b, n, k, col0, 0, bp + 8, bc);
  StoreSlabs(s, 0, ar, ap, bp, bc, a0, a1, b0, b1);
  __syncthreads();
  const int slabs = (k - 1) / kSlab + 1;
  for (int t = 0; t < slabs; ++t) {
    const int buf = t & 1;
    const bool more = t + 1 < slabs;
    if (more) {
      const int p0 = (t + 1) * kSlab;
      a0 = LoadA(a, m, k, row0 + ar, p0, ap);
      a1 = LoadA(a, m, k, row0 + 64 + ar, p0, ap);
      b0 = LoadB(b, n, k, col0, p0, bp, bc);
      b1 = LoadB(b, n, k, col0, p0, bp + 8, bc);
    }
#pragma unroll
    for (int p = 0; p < kSlab; ++p) {
      float ra[8], rb[8];
      *reinterpret_cast<float4*>(&ra[0]) = *reinterpret_cast<const float4*>(&s.a[buf][p][4 * ty]);
      *reinterpret_cast<float4*>(&ra[4]) = *reinterpret_cast<const float4*>(&s.a[buf][p][64 + 4 * ty]);
      *reinterpret_cast<float4*>(&rb[0]) = *reinterpret_cast<const float4*>(&s.b[buf][p][4 * tx]);
      *reinterpret_cast<float4*>(&rb[4]) = *reinterpret_cast<const float4*>(&s.b[buf][p][64 + 4 * tx]);
#pragma unroll
      for (int i = 0; i < 8; ++i) {
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += ra[i] * rb[j];
      }
    }
    if (more) StoreSlabs(s, buf ^ 1, ar, ap, bp, bc, a0, a1, b0, b1);
    __syncthreads();
  }
  const int nLeft = n - col0;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = row0 + (i < 4 ? 4 * ty + i : 64 + 4 * ty + i - 4);
    if (row >= m) continue;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int col = half * 64 + 4 * tx;
      float* out = c + static_cast<size_t>(row) * n + col0 + col;
      const float* v = &acc[i][half * 4];
      if (col + 3 < nLeft && (n & 3) == 0) {
        *reinterpret_cast<float4*>(out) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
        for (int j = 0; j < 4 && col + j < nLeft; ++j) out[j] = v[j];
      }
    }
  }
}

#endif  // GPU_LAB_SGEMM_TILED_CUH
