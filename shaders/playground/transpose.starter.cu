// launch: block=16x16 grid=cover
// Starter for the transpose: out (cols×rows) = inᵀ, one thread per element. Launch: blocks of 16×16, a grid of
// ⌈cols / 16⌉ × ⌈rows / 16⌉. A warp reads 16 consecutive floats of a row of `in` but writes 16 floats a whole
// column apart in `out`: every write touches its own 32-byte sector.
__global__ void transpose(const float* in, float* out, int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out[static_cast<size_t>(col) * rows + row] = in[static_cast<size_t>(row) * cols + col];
}
