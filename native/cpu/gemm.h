// CPU GEMM, fp32 and fp64, row-major C[m×n] = A[m×k]·B[k×n] (2·m·n·k floating-point operations).
// Variants: "blas" (the system BLAS, see blas.h) and "blocked" (built in, multithreaded, for machines without one).
#pragma once
#include <cstddef>

namespace gpulab {
void RegisterCpuGemm();

// The built-in kernel, exposed for the op and its tests: C = A·B over `threads` threads.
void BlockedGemm(const float* a, const float* b, float* c, size_t m, size_t n, size_t k, size_t threads);
void BlockedGemm(const double* a, const double* b, double* c, size_t m, size_t n, size_t k, size_t threads);
}  // namespace gpulab
