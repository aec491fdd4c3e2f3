// launch: block=256 grid=tiles:4096
// Reference for SAXPY: a grid-stride loop over float4, so that one launch of a few blocks per multiprocessor
// covers any n, and each thread moves 16 bytes per access. Launch: 256 threads a block, ⌈n / 4096⌉ blocks (about
// four groups of four elements a thread); any other grid also gives the right answer.
__global__ void saxpy(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ out, float a,
                      size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t quads = n / 4;
  for (size_t q = first; q < quads; q += stride) {
    const float4 xv = reinterpret_cast<const float4*>(x)[q];
    const float4 yv = reinterpret_cast<const float4*>(y)[q];
    reinterpret_cast<float4*>(out)[q] = make_float4(a * xv.x + yv.x, a * xv.y + yv.y, a * xv.z + yv.z, a * xv.w + yv.w);
  }
  for (size_t i = quads * 4 + first; i < n; i += stride) out[i] = a * x[i] + y[i];
}
