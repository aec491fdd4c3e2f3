#include "cublas.h"

#include "check.h"
#include "dynlib.h"

namespace gpulab {

std::string CublasLibrary::version() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

const CublasLibrary& Cublas() {
  static const CublasLibrary lib = [] {
    CublasLibrary l;
    DynamicLibrary dl = DynamicLibrary::OpenToolkit({"libcublas.so.13", "libcublas.so.12"});
    l.soname = dl.soname;
    l.path = dl.path;
    if (!dl.handle) {
      l.reason = dl.reason;
      return l;
    }
    const bool ok = dl.Bind(l.create, "cublasCreate_v2") && dl.Bind(l.destroy, "cublasDestroy_v2") &&
                    dl.Bind(l.setStream, "cublasSetStream_v2") && dl.Bind(l.setMathMode, "cublasSetMathMode") &&
                    dl.Bind(l.getProperty, "cublasGetProperty") && dl.Bind(l.gemmEx, "cublasGemmEx");
    if (!ok) {
      l.reason = dl.reason;
      return l;
    }
    dl.Bind(l.getStatusName, "cublasGetStatusName");  // optional: messages fall back to the number
    const auto blas1 = [&](auto& fn, const char* name) {
      if (!dl.Bind(fn, name) && l.blas1Reason.empty()) l.blas1Reason = dl.soname + " lacks " + name;
    };
    blas1(l.setPointerMode, "cublasSetPointerMode_v2");
    blas1(l.saxpy, "cublasSaxpy_v2");
    blas1(l.sasum, "cublasSasum_v2");
    blas1(l.sgeam, "cublasSgeam");
    l.getProperty(MAJOR_VERSION, &l.major);
    l.getProperty(MINOR_VERSION, &l.minor);
    l.getProperty(PATCH_LEVEL, &l.patch);
    l.available = true;
    return l;
  }();
  return lib;
}

void CheckCublas(cublasStatus_t status, const char* expression, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  const CublasLibrary& lib = Cublas();
  const std::string name = lib.getStatusName ? lib.getStatusName(status) : "cuBLAS status " + std::to_string(status);
  const std::string where = std::string(" in ") + expression + " at " + ProjectPath(file) + ":" + std::to_string(line);
  switch (status) {
    case CUBLAS_STATUS_ALLOC_FAILED:
      throw NativeError("CUDA_ERROR_OUT_OF_MEMORY", name + " (cuBLAS could not allocate its workspace)" + where);
    case CUBLAS_STATUS_NOT_SUPPORTED:
    case CUBLAS_STATUS_ARCH_MISMATCH:
      throw NativeError("UNSUPPORTED_OPERATION", name + " (this GPU or cuBLAS version does not support it)" + where);
    case CUBLAS_STATUS_EXECUTION_FAILED: {
      // A kernel failed; if the context is gone the next runtime call says so.
      const cudaError_t err = cudaPeekAtLastError();
      if (err != cudaSuccess) ThrowCudaError(err, expression, file, line);
      throw NativeError("CUDA_ERROR", name + where);
    }
    default:
      throw NativeError("CUDA_ERROR", name + where);
  }
}

}  // namespace gpulab
