// The BLAS libraries, opened at run time (never linked). Which ones: the system's by soname (OpenBLAS, BLIS, MKL's
// libmkl_rt, any CBLAS under libblas.so.3) when nothing else is asked for, and any file the compute host names
// (NumPy's and SciPy's bundled OpenBLAS in the interpreter's site-packages, MKL in a conda or pip environment: see
// main/host/blas-libraries.ts). Each is told apart by its symbols: plain CBLAS (`cblas_sgemm`), the scipy-openblas
// wheels' renamed ones (`scipy_cblas_sgemm`, and `scipy_cblas_sgemm64_` with 64-bit integers), MKL's ILP64 entry
// points (`cblas_sgemm_64`). Where none opens, GEMM falls back to the built-in blocked kernel and results say so.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab {

// CBLAS's enum values, written here so that no BLAS header is needed to build.
constexpr int kCblasRowMajor = 101;
constexpr int kCblasNoTrans = 111;

using CblasSgemm = void (*)(int order, int transA, int transB, int m, int n, int k, float alpha, const float* a,
                            int lda, const float* b, int ldb, float beta, float* c, int ldc);
using CblasDgemm = void (*)(int order, int transA, int transB, int m, int n, int k, double alpha, const double* a,
                            int lda, const double* b, int ldb, double beta, double* c, int ldc);
// The same with 64-bit integers (ILP64): the enums stay C ints, every dimension and leading dimension is 64-bit.
using CblasSgemm64 = void (*)(int order, int transA, int transB, int64_t m, int64_t n, int64_t k, float alpha,
                              const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                              int64_t ldc);
using CblasDgemm64 = void (*)(int order, int transA, int transB, int64_t m, int64_t n, int64_t k, double alpha,
                              const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
                              int64_t ldc);

// The Fortran interface (column-major, every argument by reference, the characters' hidden lengths last), for a
// library that exports no CBLAS: what PyTorch's wheels may export of the MKL linked into them.
using FortranSgemm = void (*)(const char* transA, const char* transB, const int* m, const int* n, const int* k,
                              const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                              const float* beta, float* c, const int* ldc, size_t, size_t);
using FortranDgemm = void (*)(const char* transA, const char* transB, const int* m, const int* n, const int* k,
                              const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
                              const double* beta, double* c, const int* ldc, size_t, size_t);

struct BlasLibrary {
  int id = -1;
  bool available = false;
  std::string path;      // what was opened: a soname, or the file the host named
  std::string origin;    // where it came from, in the host's word ("system", "numpy", "scipy", "mkl", …)
  std::string reason;    // why it is not available
  std::string family;    // "OpenBLAS", "MKL", "BLIS" or "CBLAS"
  std::string version;   // "0.3.34", or "" where the library does not say
  std::string config;    // the library's own description of its build (openblas_get_config, MKL's version string)
  std::string kernel;    // the kernel the library picked for this CPU (openblas_get_corename), or ""
  std::string sgemmSymbol;
  bool ilp64 = false;
  int defaultThreads = 0;  // the library's thread count as opened (0: unknown)

  CblasSgemm sgemm = nullptr;
  CblasDgemm dgemm = nullptr;
  CblasSgemm64 sgemm64 = nullptr;
  CblasDgemm64 dgemm64 = nullptr;
  FortranSgemm fsgemm = nullptr;
  FortranDgemm fdgemm = nullptr;
  void (*setThreadsInt)(int) = nullptr;       // OpenBLAS, MKL
  void (*setThreadsLong)(int64_t) = nullptr;  // BLIS (dim_t)
  int (*getThreadsInt)() = nullptr;
  int64_t (*getThreadsLong)() = nullptr;

  bool CanSetThreads() const { return setThreadsInt || setThreadsLong; }
  void SetThreads(int threads) const;
  int Threads() const;
  void Sgemm(size_t m, size_t n, size_t k, const float* a, const float* b, float* c) const;
  void Dgemm(size_t m, size_t n, size_t k, const double* a, const double* b, double* c) const;
  // "OpenBLAS 0.3.34 (SkylakeX kernel, 64-bit integers)"
  std::string Describe() const;
};

// The system's library, opened once on first use from the loader's path (libopenblas.so.0, …). GPU_LAB_BLAS=none
// in the environment disables every BLAS (to exercise the fallback): this one and those opened by path.
const BlasLibrary& Blas();

// Opens `path` (an absolute file or a soname), or returns the library already opened from it. Never throws for a
// library that fails to open or lacks the functions: the result says why, with available false.
const BlasLibrary& OpenBlas(const std::string& path, const std::string& origin);

// A library by the id OpenBlas or Blas gave it; null for an unknown id.
const BlasLibrary* BlasById(int id);

}  // namespace gpulab
