// launch: block=256 grid=tiles:4096
// Reference for the sum: each thread first adds many elements on its own (a grid-stride loop over float4), then a
// warp adds its 32 partial sums with shuffles (no shared memory, no barrier), the block adds its warps' sums, and
// one atomic per block reaches *total. Launch: 256 threads a block, ⌈n / 4096⌉ blocks; blockDim.x a multiple of 32.
__global__ void sum(const float* __restrict__ x, float* total, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t quads = n / 4;
  float s = 0.0f;
  for (size_t q = first; q < quads; q += stride) {
    const float4 v = reinterpret_cast<const float4*>(x)[q];
    s += (v.x + v.y) + (v.z + v.w);
  }
  for (size_t i = quads * 4 + first; i < n; i += stride) s += x[i];
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
  __shared__ float warpSums[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warpSums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < blockDim.x / 32 ? warpSums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
    if (lane == 0) atomicAdd(total, s);
  }
}
