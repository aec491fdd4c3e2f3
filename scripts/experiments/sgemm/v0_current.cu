// Variant 0: the tiled kernel as it is.
constexpr int kTile = 128;   // rows and columns of C per block
constexpr int kSlab = 8;     // depth of the A and B slabs staged per step
constexpr int kThreads = 256;
// The A slab is stored transposed (k-major) so that a thread reads its rows as float4; 4 floats of padding per row
// keep the transposing stores of a warp on 32 different banks.
constexpr int kAStride = kTile + 4;

// A thread owns rows {4·ty + i, 64 + 4·ty + i} and columns {4·tx + j, 64 + 4·tx + j}, i, j < 4: split in two strips
// of 4 so that the 8 threads of a quarter-warp read 128 contiguous bytes of shared memory (no bank conflicts).
struct SgemmTiles {
  float a[2][kSlab][kAStride];
  float b[2][kSlab][kTile];
};

// Loads this thread's share of the slabs starting at depth p0 (< k): one float4 of A (row tid/2, depth 4·(tid%2))
// and one of B (depth tid/32, column 4·(tid%32)). Out-of-range elements read as 0. Bounds are compared as offsets
// against what is left (k − p0, n − col0): p0 + 7 or col0 + 127 would overflow an int for k or n near INT_MAX.
__device__ __forceinline__ void LoadSlabs(const float* __restrict__ a, const float* __restrict__ b, int m, int n, int k,
                                          int row0, int col0, int p0, float4& av, float4& bv) {
  const int tid = threadIdx.x;
  const int kLeft = k - p0, nLeft = n - col0;
  const int ar = row0 + tid / 2, ap = (tid % 2) * 4;
  const int bp = tid / 32, bc = (tid % 32) * 4;
  const float* aRow = a + static_cast<size_t>(ar) * k + p0 + ap;
  if (ar < m && ap + 3 < kLeft && (k & 3) == 0) {
    av = *reinterpret_cast<const float4*>(aRow);
  } else {
    float t[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) t[q] = (ar < m && ap + q < kLeft) ? aRow[q] : 0.0f;
    av = make_float4(t[0], t[1], t[2], t[3]);
  }
  const float* bRow = b + (static_cast<size_t>(p0) + bp) * n + col0 + bc;
  if (bp < kLeft && bc + 3 < nLeft && (n & 3) == 0) {
    bv = *reinterpret_cast<const float4*>(bRow);
  } else {
    float t[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) t[q] = (bp < kLeft && bc + q < nLeft) ? bRow[q] : 0.0f;
    bv = make_float4(t[0], t[1], t[2], t[3]);
  }
}

__device__ __forceinline__ void StoreSlabs(SgemmTiles& s, int buf, const float4& av, const float4& bv) {
  const int tid = threadIdx.x;
  const int ar = tid / 2, ap = (tid % 2) * 4;
  s.a[buf][ap + 0][ar] = av.x;
  s.a[buf][ap + 1][ar] = av.y;
  s.a[buf][ap + 2][ar] = av.z;
  s.a[buf][ap + 3][ar] = av.w;
  *reinterpret_cast<float4*>(&s.b[buf][tid / 32][(tid % 32) * 4]) = bv;
}

__global__ void __launch_bounds__(kThreads) sgemm(const float* __restrict__ a, const float* __restrict__ b,
                                                             float* __restrict__ c, int m, int n, int k) {
  __shared__ __align__(16) SgemmTiles s;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float acc[8][8] = {};
  float4 av, bv;
  LoadSlabs(a, b, m, n, k, row0, col0, 0, av, bv);
  StoreSlabs(s, 0, av, bv);
  __syncthreads();
  const int slabs = (k - 1) / kSlab + 1;  // not (k + 7) / 8, which overflows near INT_MAX
  for (int t = 0; t < slabs; ++t) {
    const int buf = t & 1;
    const bool more = t + 1 < slabs;
    if (more) LoadSlabs(a, b, m, n, k, row0, col0, (t + 1) * kSlab, av, bv);
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
    // The other buffer was last read before the previous barrier, so it can be refilled now.
    if (more) StoreSlabs(s, buf ^ 1, av, bv);
    __syncthreads();
  }
  const int nLeft = n - col0;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = row0 + (i < 4 ? 4 * ty + i : 64 + 4 * ty + i - 4);
    if (row >= m) continue;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int col = half * 64 + 4 * tx;  // from col0
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
