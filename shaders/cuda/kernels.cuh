// The launchers of every kernel family in shaders/cuda/. Each one computes its grid, launches on the given stream
// and returns cudaGetLastError(): launch failures (bad configuration, no kernel image for this GPU) come back at the
// call, and the caller turns them into an error naming the launcher and its file:line.
#pragma once
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "src/dtype.h"

namespace gpulab::kernels {

// elementwise.cu — out = a + b, out = a · b, out = exp(x), fp32; and the int32 → fp32 cast the int8 GEMM needs.
cudaError_t LaunchAdd(const float* a, const float* b, float* out, size_t n, cudaStream_t stream);
cudaError_t LaunchMul(const float* a, const float* b, float* out, size_t n, cudaStream_t stream);
cudaError_t LaunchExp(const float* x, float* out, size_t n, cudaStream_t stream);
cudaError_t LaunchInt32ToFloat(const int32_t* in, float* out, size_t n, cudaStream_t stream);

// vector_function.cu — z = a·x² + b·y + c, fp64. Unfused: three passes through a scratch array `t` (as a chain of
// array operations runs); fused: one kernel, one read of x and y and one write of z.
cudaError_t LaunchVectorFunctionUnfused(const double* x, const double* y, double* t, double* z, double a, double b,
                                        double c, size_t n, cudaStream_t stream);
cudaError_t LaunchVectorFunctionFused(const double* x, const double* y, double* z, double a, double b, double c,
                                      size_t n, cudaStream_t stream);

// sgemm.cu — C = A·B, fp32, row-major: A is m×k, B is k×n, C is m×n.
cudaError_t LaunchSgemmNaive(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);
cudaError_t LaunchSgemmTiled(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);

// fill.cu — the counter-based random fill of src/random.h: element i depends on (seed, i) only, so a device buffer
// holds exactly what a host buffer filled with the same seed holds. Floats uniform in [low, high), int8 integers
// in [low, high].
cudaError_t LaunchFillRandom(void* data, DType dtype, size_t n, uint64_t seed, double low, double high,
                             cudaStream_t stream);

// gather.cu — out[i] = src[indices[i]] for elements of `elementBytes` bytes (1, 2, 4 or 8: every dtype, bits
// unchanged); indices already checked against src's length. cudaErrorInvalidValue for any other size.
cudaError_t LaunchGather(const void* src, size_t elementBytes, const uint64_t* indices, size_t count, void* out,
                         cudaStream_t stream);

// transpose.cu — out (cols×rows) = inᵀ for an int8 row-major rows×cols matrix.
cudaError_t LaunchTransposeInt8(const int8_t* in, int8_t* out, int rows, int cols, cudaStream_t stream);

// hold.cu — a one-thread kernel that spins until *release becomes non-zero, or timeoutNs passes and it sets
// *timedOut: the events clock queues it first so that the timed window excludes the host's submission time.
cudaError_t LaunchHold(const volatile int* release, volatile int* timedOut, unsigned long long timeoutNs,
                       cudaStream_t stream);

// empty.cu — a kernel that does nothing: its time is the cost of a launch.
cudaError_t LaunchEmpty(cudaStream_t stream);

}  // namespace gpulab::kernels
