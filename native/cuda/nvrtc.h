// NVRTC, the run-time CUDA compiler, opened at run time (libnvrtc.so.13, then .12) for the kernel playground. The
// declarations are written by hand from nvrtc.h; the build machines have no NVRTC headers.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace gpulab {

using nvrtcProgram = struct _nvrtcProgram*;
using nvrtcResult = int;  // NVRTC_SUCCESS = 0
constexpr nvrtcResult kNvrtcErrorOutOfMemory = 1;
constexpr nvrtcResult kNvrtcErrorInvalidOption = 5;
constexpr nvrtcResult kNvrtcErrorCompilation = 6;

struct NvrtcLibrary {
  bool available = false;
  std::string soname, path, reason;
  int major = 0, minor = 0;

  nvrtcResult (*version)(int*, int*) = nullptr;
  const char* (*getErrorString)(nvrtcResult) = nullptr;
  nvrtcResult (*createProgram)(nvrtcProgram*, const char* src, const char* name, int numHeaders,
                               const char* const* headers, const char* const* includeNames) = nullptr;
  nvrtcResult (*compileProgram)(nvrtcProgram, int numOptions, const char* const* options) = nullptr;
  nvrtcResult (*getProgramLogSize)(nvrtcProgram, size_t*) = nullptr;
  nvrtcResult (*getProgramLog)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*getCubinSize)(nvrtcProgram, size_t*) = nullptr;
  nvrtcResult (*getCubin)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*getPtxSize)(nvrtcProgram, size_t*) = nullptr;
  nvrtcResult (*getPtx)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*addNameExpression)(nvrtcProgram, const char* nameExpression) = nullptr;
  // The lowered name's storage belongs to the program: it dies with nvrtcDestroyProgram.
  nvrtcResult (*getLoweredName)(nvrtcProgram, const char* nameExpression, const char** loweredName) = nullptr;
  nvrtcResult (*getNumSupportedArchs)(int*) = nullptr;
  nvrtcResult (*getSupportedArchs)(int*) = nullptr;
  nvrtcResult (*destroyProgram)(nvrtcProgram*) = nullptr;

  // "13.0"
  std::string versionString() const { return std::to_string(major) + "." + std::to_string(minor); }
  // The real architectures this NVRTC compiles for (75, 80, …, 120), ascending.
  std::vector<int> supportedArchs() const;
};

// Opened once, on first use, from any thread.
const NvrtcLibrary& Nvrtc();

struct CompileRequest {
  std::string source, fileName, entry;
  int smVersion = 0;  // 90 for sm_90
  std::vector<std::string> options;
  bool wantPtx = false;  // also return the PTX (a second compile where the first was for a real architecture)
};

struct CompileOutput {
  bool ok = false;
  std::string log;
  std::string image;        // cubin, or PTX text when the arch fell back to compute_XY; empty when !ok
  std::string loweredName;  // empty when !ok
  std::string arch;         // "sm_90", or "compute_90" on the fallback
  double ms = 0;            // the first compile only, not the PTX's
  std::string ptx;          // with wantPtx, when ok: the PTX text, or empty and ptxReason says why
  std::string ptxReason;
};

// Compiles with --gpu-architecture, -std=c++17, -lineinfo, then the request's options. A compiler error is a result
// (ok false, the log says why), not an exception. Throws LIBRARY_UNAVAILABLE where NVRTC is missing,
// UNSUPPORTED_OPERATION for a GPU older than anything this NVRTC targets, INVALID_ARGUMENT for an option NVRTC
// refuses, NATIVE_ERROR for NVRTC's other failures.
CompileOutput CompileProgram(const CompileRequest& request);

}  // namespace gpulab
