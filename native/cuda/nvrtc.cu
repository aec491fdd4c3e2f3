#include "nvrtc.h"

#include "dynlib.h"

namespace gpulab {

const NvrtcLibrary& Nvrtc() {
  static const NvrtcLibrary lib = [] {
    NvrtcLibrary l;
    DynamicLibrary dl = DynamicLibrary::Open({"libnvrtc.so.13", "libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so.13",
                                              "/usr/local/cuda/lib64/libnvrtc.so.12"});
    l.soname = dl.soname;
    l.path = dl.path;
    if (!dl.handle) {
      l.reason = dl.reason;
      return l;
    }
    const bool ok = dl.Bind(l.version, "nvrtcVersion") && dl.Bind(l.getErrorString, "nvrtcGetErrorString") &&
                    dl.Bind(l.createProgram, "nvrtcCreateProgram") && dl.Bind(l.compileProgram, "nvrtcCompileProgram") &&
                    dl.Bind(l.getProgramLogSize, "nvrtcGetProgramLogSize") &&
                    dl.Bind(l.getProgramLog, "nvrtcGetProgramLog") && dl.Bind(l.getCubinSize, "nvrtcGetCUBINSize") &&
                    dl.Bind(l.getCubin, "nvrtcGetCUBIN") && dl.Bind(l.destroyProgram, "nvrtcDestroyProgram");
    if (!ok) {
      l.reason = dl.reason;
      return l;
    }
    l.version(&l.major, &l.minor);
    l.available = true;
    return l;
  }();
  return lib;
}

}  // namespace gpulab
