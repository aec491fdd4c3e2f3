#include "nvrtc.h"

#include <algorithm>
#include <chrono>

#include "dynlib.h"
#include "src/errors.h"

namespace gpulab {

const NvrtcLibrary& Nvrtc() {
  static const NvrtcLibrary lib = [] {
    NvrtcLibrary l;
    DynamicLibrary dl = DynamicLibrary::OpenToolkit({"libnvrtc.so.13", "libnvrtc.so.12"}, {"libnvrtc-builtins.so.*.*"});
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
                    dl.Bind(l.getCubin, "nvrtcGetCUBIN") && dl.Bind(l.getPtxSize, "nvrtcGetPTXSize") &&
                    dl.Bind(l.getPtx, "nvrtcGetPTX") && dl.Bind(l.addNameExpression, "nvrtcAddNameExpression") &&
                    dl.Bind(l.getLoweredName, "nvrtcGetLoweredName") &&
                    dl.Bind(l.getNumSupportedArchs, "nvrtcGetNumSupportedArchs") &&
                    dl.Bind(l.getSupportedArchs, "nvrtcGetSupportedArchs") &&
                    dl.Bind(l.destroyProgram, "nvrtcDestroyProgram");
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

std::vector<int> NvrtcLibrary::supportedArchs() const {
  int count = 0;
  if (!available || getNumSupportedArchs(&count) != 0 || count <= 0) return {};
  std::vector<int> archs(static_cast<size_t>(count));
  if (getSupportedArchs(archs.data()) != 0) return {};
  std::sort(archs.begin(), archs.end());
  return archs;
}

namespace {

// Destroys the program however the compilation ends.
class Program {
 public:
  explicit Program(const NvrtcLibrary& lib) : lib_(lib) {}
  ~Program() {
    if (prog_) lib_.destroyProgram(&prog_);
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram* out() { return &prog_; }
  nvrtcProgram get() const { return prog_; }

 private:
  const NvrtcLibrary& lib_;
  nvrtcProgram prog_ = nullptr;
};

void CheckNvrtc(const NvrtcLibrary& lib, nvrtcResult r, const char* what) {
  if (r == 0) return;
  const std::string message = std::string(what) + " failed: " + lib.getErrorString(r) + " (NVRTC " + lib.versionString() + ")";
  if (r == kNvrtcErrorOutOfMemory) throw NativeError("OUT_OF_HOST_MEMORY", message);
  throw NativeError("NATIVE_ERROR", message);
}

// A GPU newer than the library (an sm_120 card with an NVRTC that stops at sm_100) gets PTX for the newest
// architecture at or below its own, which the driver compiles for it when the kernel is loaded.
std::string TargetArch(const NvrtcLibrary& lib, int sm) {
  const std::vector<int> archs = lib.supportedArchs();
  if (archs.empty() || std::find(archs.begin(), archs.end(), sm) != archs.end()) return "sm_" + std::to_string(sm);
  int below = 0;
  for (int a : archs) {
    if (a <= sm) below = a;
  }
  if (below == 0) {
    throw NativeError("UNSUPPORTED_OPERATION", "NVRTC " + lib.versionString() + " compiles for sm_" +
                                                   std::to_string(archs.front()) + " to sm_" + std::to_string(archs.back()) +
                                                   "; this GPU is sm_" + std::to_string(sm) + ", older than any of them");
  }
  return "compute_" + std::to_string(below);
}

std::string ProgramLog(const NvrtcLibrary& lib, nvrtcProgram prog) {
  size_t size = 0;
  CheckNvrtc(lib, lib.getProgramLogSize(prog, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  if (size > 0) CheckNvrtc(lib, lib.getProgramLog(prog, log.data()), "nvrtcGetProgramLog");
  // The size counts the terminating NUL.
  while (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

std::string ProgramImage(const NvrtcLibrary& lib, nvrtcProgram prog, bool ptx) {
  size_t size = 0;
  CheckNvrtc(lib, ptx ? lib.getPtxSize(prog, &size) : lib.getCubinSize(prog, &size), ptx ? "nvrtcGetPTXSize" : "nvrtcGetCUBINSize");
  std::string image(size, '\0');
  if (size > 0) CheckNvrtc(lib, ptx ? lib.getPtx(prog, image.data()) : lib.getCubin(prog, image.data()), ptx ? "nvrtcGetPTX" : "nvrtcGetCUBIN");
  return image;
}

// Creates the program, registers the entry and compiles it for `arch` with the house options and the request's.
// Registered before compiling, so that a template instance ("TransposeTile<float>") is instantiated and its mangled
// name can be read back afterwards. --no-source-include: the source's folder is not searched for headers. The
// playground's sources name no file (the allowlist refuses #include before NVRTC sees them); this keeps NVRTC from
// looking anywhere by itself.
nvrtcResult Compile(const NvrtcLibrary& lib, const CompileRequest& request, const std::string& arch, Program& prog) {
  CheckNvrtc(lib, lib.createProgram(prog.out(), request.source.c_str(), request.fileName.c_str(), 0, nullptr, nullptr),
             "nvrtcCreateProgram");
  CheckNvrtc(lib, lib.addNameExpression(prog.get(), request.entry.c_str()), "nvrtcAddNameExpression");
  std::vector<std::string> options = {"--gpu-architecture=" + arch, "-std=c++17", "-lineinfo", "--no-source-include"};
  options.insert(options.end(), request.options.begin(), request.options.end());
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  return lib.compileProgram(prog.get(), static_cast<int>(argv.size()), argv.data());
}

// The PTX of a program compiled for a real architecture: NVRTC keeps none for sm_XY (only the cubin), so the source
// is compiled once more for the matching virtual architecture, compute_XY, with the same options (-lineinfo: the
// PTX's .loc lines name the source's lines). A failure here says why and leaves the kernel run alone.
std::string PtxFor(const NvrtcLibrary& lib, const CompileRequest& request, const std::string& realArch, nvrtcProgram compiled,
                   std::string& reason) {
  size_t size = 0;
  if (lib.getPtxSize(compiled, &size) == 0 && size > 1) return ProgramImage(lib, compiled, true);
  Program prog(lib);
  const std::string arch = "compute_" + realArch.substr(3);
  const nvrtcResult r = Compile(lib, request, arch, prog);
  if (r != 0) {
    reason = std::string("compiling for ") + arch + " failed: " + lib.getErrorString(r);
    return "";
  }
  return ProgramImage(lib, prog.get(), true);
}

}  // namespace

CompileOutput CompileProgram(const CompileRequest& request) {
  const NvrtcLibrary& lib = Nvrtc();
  if (!lib.available) throw NativeError("LIBRARY_UNAVAILABLE", "NVRTC is not available: " + lib.reason);
  CompileOutput out;
  out.arch = TargetArch(lib, request.smVersion);
  const bool ptx = out.arch.rfind("compute_", 0) == 0;

  Program prog(lib);
  const auto start = std::chrono::steady_clock::now();
  const nvrtcResult compiled = Compile(lib, request, out.arch, prog);
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  out.log = ProgramLog(lib, prog.get());
  if (compiled == kNvrtcErrorCompilation) return out;
  if (compiled == kNvrtcErrorInvalidOption) {
    std::string joined;
    for (const std::string& o : request.options) joined += (joined.empty() ? "" : " ") + o;
    throw NativeError("INVALID_ARGUMENT", "Expected options NVRTC " + lib.versionString() + " accepts for `options` but received \"" +
                                              joined + "\": " + out.log);
  }
  CheckNvrtc(lib, compiled, "nvrtcCompileProgram");

  const char* lowered = nullptr;
  const nvrtcResult named = lib.getLoweredName(prog.get(), request.entry.c_str(), &lowered);
  if (named != 0 || !lowered) {
    // The entry compiled away or was never a function: the student's kernel has another name.
    out.log += std::string(out.log.empty() || out.log.back() == '\n' ? "" : "\n") + request.fileName +
               ": error: no kernel named \"" + request.entry + "\" was found (" + lib.getErrorString(named) + ")\n";
    return out;
  }
  out.loweredName = lowered;  // copied: the program owns the original
  out.image = ProgramImage(lib, prog.get(), ptx);
  out.ok = true;
  if (request.wantPtx) {
    out.ptx = ptx ? out.image : PtxFor(lib, request, out.arch, prog.get(), out.ptxReason);
    while (!out.ptx.empty() && out.ptx.back() == '\0') out.ptx.pop_back();
  }
  return out;
}

}  // namespace gpulab
