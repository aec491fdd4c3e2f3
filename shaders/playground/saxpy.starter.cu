// launch: block=256 grid=cover
// Starter for SAXPY: out = a·x + y in fp32, one thread per element. Launch: ⌈n / blockDim.x⌉ blocks.
// 12 bytes move per element for 2 floating-point operations: this kernel waits on memory.
__global__ void saxpy(const float* x, const float* y, float* out, float a, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
