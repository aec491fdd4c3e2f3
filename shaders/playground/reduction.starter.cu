// launch: block=256 grid=cover
// Starter for the sum: each block adds its blockDim.x elements as a tree in shared memory (halving the active
// threads at each step, a barrier between steps), then one thread adds the block's sum to *total with an atomic.
// *total is set to 0 before every launch. Launch: ⌈n / blockDim.x⌉ blocks; blockDim.x a power of two ≤ 1024.
__global__ void sum(const float* x, float* total, size_t n) {
  __shared__ float partial[1024];
  const unsigned t = threadIdx.x;
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + t;
  partial[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(total, partial[0]);
}
