// The elements of a device buffer at a list of indices, copied into a small buffer in the list's order, so that a
// sampled check brings back thousands of scattered elements in one copy instead of one synchronous copy each (about
// 13 µs apiece on an H200's host: 4096 samples of a gigabyte took 53 ms, where one gather and one copy take well
// under one).
//
//   v1: one thread per index, grid-stride; each element moved as an integer of its size (1, 2, 4 or 8 bytes), so the
//   one kernel serves every dtype and copies its bits unchanged (a NaN's payload, a negative zero). The indices were
//   checked against the buffer's length on the host before they came here.
#include "kernels.cuh"
#include "launch.cuh"

namespace gpulab::kernels {

namespace {

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 4;

// ---- kernel ---------------------------------------------------------------------------------------------------

template <typename Word>
__global__ void GatherKernel(const Word* __restrict__ src, const uint64_t* __restrict__ indices, size_t count,
                             Word* __restrict__ out) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    out[i] = src[indices[i]];
  }
}

template <typename Word>
void Launch(const void* src, const uint64_t* indices, size_t count, void* out, cudaStream_t stream) {
  const unsigned blocks = GridStrideBlocks(count, kThreads, kBlocksPerSm);
  GatherKernel<Word><<<blocks, kThreads, 0, stream>>>(static_cast<const Word*>(src), indices, count,
                                                      static_cast<Word*>(out));
}

}  // namespace

// ---- launcher -------------------------------------------------------------------------------------------------

cudaError_t LaunchGather(const void* src, size_t elementBytes, const uint64_t* indices, size_t count, void* out,
                         cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  switch (elementBytes) {
    case 1: Launch<uint8_t>(src, indices, count, out, stream); break;
    case 2: Launch<uint16_t>(src, indices, count, out, stream); break;
    case 4: Launch<uint32_t>(src, indices, count, out, stream); break;
    case 8: Launch<uint64_t>(src, indices, count, out, stream); break;
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

}  // namespace gpulab::kernels
