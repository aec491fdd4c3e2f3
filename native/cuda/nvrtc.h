// NVRTC, the run-time CUDA compiler, opened at run time (libnvrtc.so.13, then .12) for the kernel playground. The
// declarations are written by hand from nvrtc.h; the build machines have no NVRTC headers.
#pragma once
#include <cstddef>
#include <string>

namespace gpulab {

using nvrtcProgram = struct _nvrtcProgram*;
using nvrtcResult = int;  // NVRTC_SUCCESS = 0

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
  nvrtcResult (*destroyProgram)(nvrtcProgram*) = nullptr;
};

// Opened once, on first use, from any thread.
const NvrtcLibrary& Nvrtc();

}  // namespace gpulab
