// launch: block=256 grid=cover
// Starter for the fp64 polynomial exercise: z = a·x² + b·y + c over doubles, one thread per element.
// Launch: ⌈n / blockDim.x⌉ blocks. 24 bytes move per element; on a GPU with few fp64 units the arithmetic may
// matter too.
__global__ void polynomial(const double* x, const double* y, double* z, double a, double b, double c, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) z[i] = a * x[i] * x[i] + b * y[i] + c;
}
