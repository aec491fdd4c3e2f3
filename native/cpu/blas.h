// The system BLAS, opened at run time (never linked): OpenBLAS by its sonames, else any CBLAS under libblas.so.3.
// Where none is found, GEMM falls back to the built-in blocked kernel and results say so.
#pragma once
#include <string>

namespace gpulab {

// CBLAS's enum values, written here so that no BLAS header is needed to build.
constexpr int kCblasRowMajor = 101;
constexpr int kCblasNoTrans = 111;

using CblasSgemm = void (*)(int order, int transA, int transB, int m, int n, int k, float alpha, const float* a,
                            int lda, const float* b, int ldb, float beta, float* c, int ldc);
using CblasDgemm = void (*)(int order, int transA, int transB, int m, int n, int k, double alpha, const double* a,
                            int lda, const double* b, int ldb, double beta, double* c, int ldc);

struct BlasLibrary {
  bool available = false;
  std::string name;    // "OpenBLAS 0.3.21 DYNAMIC_ARCH …" or "CBLAS"
  std::string path;    // the soname that was opened
  std::string reason;  // why none is available
  CblasSgemm sgemm = nullptr;
  CblasDgemm dgemm = nullptr;
  void (*setThreads)(int) = nullptr;
  int (*getThreads)() = nullptr;
};

// Opened once, on first use. GPU_LAB_BLAS=none in the environment disables it (to exercise the fallback).
const BlasLibrary& Blas();

}  // namespace gpulab
