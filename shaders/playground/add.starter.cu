// launch: block=256 grid=cover
// Starter for Unit 10's second kernel: dest = a + b element by element in fp32, one thread per element, the
// notebook's multiply_them with its operator changed. Launch: ⌈n / blockDim.x⌉ blocks.
// 12 bytes move per element for one addition: memory sets the pace.
__global__ void add_them(float* dest, const float* a, const float* b, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) dest[i] = a[i] + b[i];
}
