// The kernel the "events" clock queues in front of the work it times. Without it the first event is recorded as
// soon as the GPU reaches it, and the GPU then waits for the host to finish submitting the work (a kernel launch
// takes the host about 5 µs): that wait lands inside the timed window, and a 30 µs kernel reads as 35 µs. Held
// behind this kernel, the start event, the work and the stop event are all queued before the GPU reaches them,
// so the window holds only the device's own time (the technique of NVIDIA's nvbench). The host releases the kernel
// by writing 1 to a flag in mapped pinned memory; after `timeoutNs` it gives up on its own, so a host that never
// releases it (an error between launch and release) never hangs the GPU. A hold that gave up sets *timedOut: the
// work behind it may then have started while the host was still queueing it, and the sample is not to be trusted.
#include "kernels.cuh"

namespace gpulab::kernels {

namespace {

// ---- kernel ---------------------------------------------------------------------------------------------------

__device__ __forceinline__ unsigned long long GlobalTimerNs() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void HoldKernel(const volatile int* release, volatile int* timedOut, unsigned long long timeoutNs) {
  const unsigned long long start = GlobalTimerNs();
  while (*release == 0 && GlobalTimerNs() - start < timeoutNs) {
#if __CUDA_ARCH__ >= 700
    __nanosleep(200);
#endif
  }
  if (*release == 0) {
    *timedOut = 1;
    __threadfence_system();
  }
}

}  // namespace

// ---- launcher -------------------------------------------------------------------------------------------------

cudaError_t LaunchHold(const volatile int* release, volatile int* timedOut, unsigned long long timeoutNs,
                       cudaStream_t stream) {
  HoldKernel<<<1, 1, 0, stream>>>(release, timedOut, timeoutNs);
  return cudaGetLastError();
}

}  // namespace gpulab::kernels
