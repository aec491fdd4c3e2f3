// An empty kernel: one block of one thread that does nothing. Timing it measures what every launch costs before
// any work starts: the host-side launch call (a few microseconds), and, with a synchronisation, the round trip to
// the GPU and back (about twice that). Kernels shorter than this overhead cannot be sped up by a faster GPU.
#include "kernels.cuh"

namespace gpulab::kernels {

namespace {

// ---- kernel ---------------------------------------------------------------------------------------------------

__global__ void EmptyKernel() {}

}  // namespace

// ---- launcher -------------------------------------------------------------------------------------------------

cudaError_t LaunchEmpty(cudaStream_t stream) {
  EmptyKernel<<<1, 1, 0, stream>>>();
  return cudaGetLastError();
}

}  // namespace gpulab::kernels
