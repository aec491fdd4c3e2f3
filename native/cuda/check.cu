#include "check.h"

#include <cstring>

namespace gpulab {

const char* CudaErrorCode(cudaError_t err) {
  switch (err) {
    case cudaErrorMemoryAllocation:
      return "CUDA_ERROR_OUT_OF_MEMORY";
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
    case cudaErrorDevicesUnavailable:
      return "CUDA_UNAVAILABLE";
    // The sticky errors of the CUDA programming guide: the context is corrupt and every later call fails.
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed:
    case cudaErrorUnknown:
      return "DEVICE_LOST";
    default:
      return "CUDA_ERROR";
  }
}

const char* ProjectPath(const char* file) {
  for (const char* root : {"/native/", "/shaders/"}) {
    const char* at = std::strstr(file, root);
    if (at) return at + 1;
  }
  return file;
}

void ThrowCudaError(cudaError_t err, const char* expression, const char* file, int line) {
  std::string message = std::string(cudaGetErrorName(err)) + " (" + cudaGetErrorString(err) + ") in " + expression +
                        " at " + ProjectPath(file) + ":" + std::to_string(line);
  const std::string code = CudaErrorCode(err);
  if (code == "DEVICE_LOST") {
    message += "; the CUDA context is unusable until the process restarts";
  } else {
    // A non-sticky error stays this thread's last error until read: left there, the next kernel launcher's
    // cudaGetLastError() would report it as its own failure.
    cudaGetLastError();
  }
  throw NativeError(code, message);
}

void ThrowAllocationError(cudaError_t err, size_t bytes, int device, const char* what, const char* file, int line) {
  if (err != cudaErrorMemoryAllocation) ThrowCudaError(err, what, file, line);
  // An allocation failure is not sticky; clear it so that the next call does not report it again.
  cudaGetLastError();
  size_t freeBytes = 0, totalBytes = 0;
  std::string free = "unknown";
  if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess) {
    free = std::to_string(freeBytes) + " of " + std::to_string(totalBytes);
  } else {
    cudaGetLastError();
  }
  throw NativeError("CUDA_ERROR_OUT_OF_MEMORY",
                    std::string("Could not allocate ") + std::to_string(bytes) + " bytes (" + what + ") on cuda:" +
                        std::to_string(device) + ": " + free + " bytes free (cudaErrorMemoryAllocation at " +
                        ProjectPath(file) + ":" + std::to_string(line) + ")");
}

}  // namespace gpulab
