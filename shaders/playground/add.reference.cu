// launch: block=256 grid=tiles:4096
// Reference for dest = a + b: a grid-stride loop over float4, so that a few blocks per multiprocessor cover any n and
// each thread moves 16 bytes per access; the n mod 4 elements at the end take the scalar path. Launch: 256 threads a
// block, ⌈n / 4096⌉ blocks (four groups of four elements a thread); any other grid also gives the right answer.
__global__ void add_them(float* __restrict__ dest, const float* __restrict__ a, const float* __restrict__ b, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t quads = n / 4;
  for (size_t q = first; q < quads; q += stride) {
    const float4 av = reinterpret_cast<const float4*>(a)[q];
    const float4 bv = reinterpret_cast<const float4*>(b)[q];
    reinterpret_cast<float4*>(dest)[q] = make_float4(av.x + bv.x, av.y + bv.y, av.z + bv.z, av.w + bv.w);
  }
  for (size_t i = quads * 4 + first; i < n; i += stride) dest[i] = a[i] + b[i];
}
