// Every CUDA runtime call goes through CUDA_CHECK: a failure becomes a NativeError naming the CUDA error, the call
// expression and file:line, with a code the rest of the app can act on. Nothing here exits or aborts.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "src/errors.h"

namespace gpulab {

// The error code a CUDA error crosses into JS with:
//   CUDA_ERROR_OUT_OF_MEMORY  an allocation failed; the context is fine and the process keeps working
//   DEVICE_LOST               a sticky error (illegal address, launch failure, ECC…): the context is unusable and
//                             only a new process recovers; the compute host is restarted on it
//   CUDA_UNAVAILABLE          no driver or no device
//   CUDA_ERROR                anything else
const char* CudaErrorCode(cudaError_t err);

// Throws the NativeError for `err` (which must not be cudaSuccess).
[[noreturn]] void ThrowCudaError(cudaError_t err, const char* expression, const char* file, int line);

inline void CheckCuda(cudaError_t err, const char* expression, const char* file, int line) {
  if (err != cudaSuccess) ThrowCudaError(err, expression, file, line);
}

// For a call whose failure cannot be reported (destructors, best-effort queries): the error is dropped, and also
// cleared from the thread's last error, where the next launcher's cudaGetLastError() would find it and report it
// as its own. A sticky error cannot be cleared; the next checked call reports it, as it should.
inline void DropCudaError(cudaError_t err) {
  if (err != cudaSuccess) cudaGetLastError();
}

// Like ThrowCudaError for an allocation of `bytes` on `device`: the message gives the bytes asked for and the bytes
// the device had free.
[[noreturn]] void ThrowAllocationError(cudaError_t err, size_t bytes, int device, const char* what, const char* file,
                                       int line);

// The path of `file` from the project's native/ or shaders/ folder on, for messages.
const char* ProjectPath(const char* file);

}  // namespace gpulab

#define CUDA_CHECK(call) ::gpulab::CheckCuda((call), #call, __FILE__, __LINE__)
