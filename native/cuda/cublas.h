// cuBLAS, opened at run time (libcublas.so.13, then .12). The few declarations used are written here by hand from
// cublas_api.h, since the build machines have no cuBLAS headers; the enum values are cuBLAS's ABI.
#pragma once
#include <cuda_runtime.h>
#include <library_types.h>

#include <string>

namespace gpulab {

using cublasHandle_t = struct cublasContext*;

enum cublasStatus_t : int {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
};
enum cublasOperation_t : int { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 };
enum cublasMath_t : int { CUBLAS_DEFAULT_MATH = 0, CUBLAS_PEDANTIC_MATH = 2, CUBLAS_TF32_TENSOR_OP_MATH = 3 };
enum cublasComputeType_t : int {
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_64F = 70,
  CUBLAS_COMPUTE_32I = 72,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
};
enum cublasGemmAlgo_t : int { CUBLAS_GEMM_DEFAULT = -1 };
// Where scalars (alpha, beta) and scalar results (a sum) live: host memory, or device memory, which lets a routine
// that returns a scalar run without the host waiting for it.
enum cublasPointerMode_t : int { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 };

struct CublasLibrary {
  bool available = false;
  std::string soname, path, reason;
  int major = 0, minor = 0, patch = 0;

  cublasStatus_t (*create)(cublasHandle_t*) = nullptr;
  cublasStatus_t (*destroy)(cublasHandle_t) = nullptr;
  cublasStatus_t (*setStream)(cublasHandle_t, cudaStream_t) = nullptr;
  cublasStatus_t (*setMathMode)(cublasHandle_t, cublasMath_t) = nullptr;
  cublasStatus_t (*getProperty)(libraryPropertyType, int*) = nullptr;
  const char* (*getStatusName)(cublasStatus_t) = nullptr;
  cublasStatus_t (*gemmEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int m, int n, int k,
                           const void* alpha, const void* a, cudaDataType aType, int lda, const void* b,
                           cudaDataType bType, int ldb, const void* beta, void* c, cudaDataType cType, int ldc,
                           cublasComputeType_t computeType, cublasGemmAlgo_t algo) = nullptr;

  // The routines of "cuda/blas1". Bound apart from the GEMM's: a library without one of them keeps the GEMM, and
  // blas1Reason says which is missing (empty when all are there).
  std::string blas1Reason;
  cublasStatus_t (*setPointerMode)(cublasHandle_t, cublasPointerMode_t) = nullptr;
  cublasStatus_t (*saxpy)(cublasHandle_t, int n, const float* alpha, const float* x, int incx, float* y, int incy) = nullptr;
  cublasStatus_t (*sasum)(cublasHandle_t, int n, const float* x, int incx, float* result) = nullptr;
  cublasStatus_t (*sgeam)(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                          const float* alpha, const float* a, int lda, const float* beta, const float* b, int ldb, float* c,
                          int ldc) = nullptr;

  std::string version() const;
};

// Opened once, on first use, from any thread.
const CublasLibrary& Cublas();

// Throws a NativeError for a failed cuBLAS call: the status name, the call and file:line. Unsupported
// configurations become UNSUPPORTED_OPERATION, allocation failures CUDA_ERROR_OUT_OF_MEMORY.
void CheckCublas(cublasStatus_t status, const char* expression, const char* file, int line);

}  // namespace gpulab

#define CUBLAS_CHECK(call) ::gpulab::CheckCublas((call), #call, __FILE__, __LINE__)
