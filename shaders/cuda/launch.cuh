// What the kernel families' launchers share: grid sizing, and the alignment check of vectorised access. A
// grid-stride kernel needs only as many blocks as the GPU keeps resident at once; more blocks only add scheduling
// work, fewer leave multiprocessors idle.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace gpulab::kernels {

// Multiprocessors of the current device, read once per device (an attribute query per launch would show up in the
// launch-overhead lab).
inline int MultiprocessorCount() {
  static std::atomic<int> cache[64];
  int device = 0;
  // A failed query is cleared, not left for the launch's cudaGetLastError() to report as a launch failure.
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return 1;
  }
  if (device < 0 || device >= 64) return 1;
  int sms = cache[device].load(std::memory_order_relaxed);
  if (sms == 0) {
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
      cudaGetLastError();
      sms = 1;
    }
    if (sms < 1) sms = 1;
    cache[device].store(sms, std::memory_order_relaxed);
  }
  return sms;
}

// float4 and double2 access needs 16-byte aligned pointers; cudaMalloc gives 256-byte alignment, and buffers are
// used whole, so a launcher refuses (cudaErrorMisalignedAddress) rather than falling back to scalar access.
inline bool Aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

// Blocks of `perBlock` units that cover `units` (≥ 1), in 64 bits: (units + perBlock − 1) in int overflows for
// units near INT_MAX. The caller keeps the result within the grid's limits (65535 along y).
inline unsigned BlocksToCover(int units, int perBlock) {
  return static_cast<unsigned>((static_cast<long long>(units) + perBlock - 1) / perBlock);
}

// Blocks for `units` of work at one unit per thread per pass: enough to cover the work once, at most
// `blocksPerSm` blocks on each multiprocessor.
inline unsigned GridStrideBlocks(size_t units, int threadsPerBlock, int blocksPerSm) {
  const size_t cover = (units + threadsPerBlock - 1) / threadsPerBlock;
  const size_t resident = static_cast<size_t>(MultiprocessorCount()) * blocksPerSm;
  return static_cast<unsigned>(std::max<size_t>(1, std::min(cover, resident)));
}

}  // namespace gpulab::kernels
