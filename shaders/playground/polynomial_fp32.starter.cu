// launch: block=256 grid=cover
// Starter for the fp32 polynomial exercise: z = a·x² + b·y + c, one thread per element.
// Launch: ⌈n / blockDim.x⌉ blocks. Each element reads 8 bytes and writes 4, so the kernel is bound by memory
// bandwidth, not by its three multiply-adds.
__global__ void polynomial(const float* x, const float* y, float* z, float a, float b, float c, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) z[i] = a * x[i] * x[i] + b * y[i] + c;
}
