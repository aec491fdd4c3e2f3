// launch: block=16x16 grid=cover
// Starter for SGEMM: C = A·B in fp32, row-major (A m×k, B k×n, C m×n), one thread per element of C. Launch: blocks
// of 16×16, a grid of ⌈n / 16⌉ × ⌈m / 16⌉. Each step of the loop loads two floats for one multiply-add, so the
// loads, not the arithmetic units, set the pace.
__global__ void sgemm(const float* a, const float* b, float* c, int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p) sum += a[static_cast<size_t>(row) * k + p] * b[static_cast<size_t>(p) * n + col];
  c[static_cast<size_t>(row) * n + col] = sum;
}
