// Variant 3 (variant 2 with at least 2 blocks per SM): the tiled kernel with slabs 16 deep (half the barriers per multiply-add), two float4 of A and two of B
// loaded per thread per slab.
constexpr int kTile = 128;
constexpr int kSlab = 16;
constexpr int kThreads = 256;
constexpr int kAStride = kTile + 4;

struct SgemmTiles {
  float a[2][kSlab][kAStride];
  float b[2][kSlab][kTile];
};

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
  auto store = [&](int buf) {
    s.a[buf][ap + 0][ar] = a0.x; s.a[buf][ap + 1][ar] = a0.y; s.a[buf][ap + 2][ar] = a0.z; s.a[buf][ap + 3][ar] = a0.w;
    s.a[buf][ap + 0][64 + ar] = a1.x; s.a[buf][ap + 1][64 + ar] = a1.y; s.a[buf][ap + 2][64 + ar] = a1.z; s.a[buf][ap + 3][64 + ar] = a1.w;
    *reinterpret_cast<float4*>(&s.b[buf][bp][bc]) = b0;
    *reinterpret_cast<float4*>(&s.b[buf][bp + 8][bc]) = b1;
  };
  store(0);
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
    if (more) store(buf ^ 1);
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
