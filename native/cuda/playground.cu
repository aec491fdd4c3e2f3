#include "playground.h"

#include <cuda_runtime.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "check.h"
#include "kernel_launch.h"
#include "memory.h"
#include "nvrtc.h"
#include "src/errors.h"

namespace gpulab {

namespace {

std::string StringOf(Napi::Object o, const char* name) {
  Napi::Value v = o.Get(name);
  if (!v.IsString()) ThrowInvalid(name, "a string", "a non-string");
  return v.As<Napi::String>().Utf8Value();
}

Napi::Value StringOrNull(Napi::Env env, const std::string& s) {
  return s.empty() ? env.Null() : Napi::Value(Napi::String::New(env, s));
}

// nvrtcStatus() -> { available, version, soname, path, reason }
Napi::Value NvrtcStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NvrtcLibrary& lib = Nvrtc();
  Napi::Object o = Napi::Object::New(env);
  o.Set("available", lib.available);
  o.Set("version", lib.available ? Napi::Value(Napi::String::New(env, lib.versionString())) : env.Null());
  o.Set("soname", lib.available ? StringOrNull(env, lib.soname) : env.Null());
  o.Set("path", lib.available ? StringOrNull(env, lib.path) : env.Null());
  o.Set("reason", lib.available ? env.Null() : Napi::Value(Napi::String::New(env, lib.reason)));
  return o;
}

// nvrtcCompile({ source, fileName, entry, arch: "sm_90", options: string[], ptx?: boolean })
//   -> { ok, log, image: Uint8Array | null, loweredName: string | null, arch, ms, ptx?: string, ptxReason?: string }
Napi::Value NvrtcCompile(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    Napi::Env env = info.Env();
    if (!info[0].IsObject()) ThrowInvalid("options", "an object", "another value");
    Napi::Object spec = info[0].As<Napi::Object>();
    CompileRequest req;
    req.source = StringOf(spec, "source");
    req.fileName = StringOf(spec, "fileName");
    req.entry = StringOf(spec, "entry");
    const std::string arch = StringOf(spec, "arch");
    const bool digits = arch.size() >= 5 && arch.size() <= 6 && arch.find_first_not_of("0123456789", 3) == std::string::npos;
    if (arch.rfind("sm_", 0) != 0 || !digits) ThrowInvalid("arch", "\"sm_XY\"", "\"" + arch + "\"");
    req.smVersion = std::atoi(arch.c_str() + 3);
    Napi::Value options = spec.Get("options");
    if (options.IsArray()) {
      Napi::Array a = options.As<Napi::Array>();
      for (uint32_t i = 0; i < a.Length(); ++i) req.options.push_back(a.Get(i).ToString().Utf8Value());
    }
    req.wantPtx = spec.Get("ptx").ToBoolean().Value();
    const CompileOutput out = CompileProgram(req);
    Napi::Object r = Napi::Object::New(env);
    r.Set("ok", out.ok);
    r.Set("log", out.log);
    if (out.ok) {
      Napi::Uint8Array image = Napi::Uint8Array::New(env, out.image.size());
      std::copy(out.image.begin(), out.image.end(), image.Data());
      r.Set("image", image);
    } else {
      r.Set("image", env.Null());
    }
    r.Set("loweredName", out.ok ? Napi::Value(Napi::String::New(env, out.loweredName)) : env.Null());
    r.Set("arch", out.arch);
    r.Set("ms", out.ms);
    if (req.wantPtx && out.ok) {
      if (!out.ptx.empty()) r.Set("ptx", out.ptx);
      else r.Set("ptxReason", out.ptxReason.empty() ? std::string("NVRTC returned no PTX") : out.ptxReason);
    }
    return r;
  });
}

Napi::Object Attributes(Napi::Env env, const cudaFuncAttributes& a) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("registersPerThread", a.numRegs);
  o.Set("staticSharedBytes", static_cast<double>(a.sharedSizeBytes));
  o.Set("localBytesPerThread", static_cast<double>(a.localSizeBytes));
  o.Set("maxThreadsPerBlock", a.maxThreadsPerBlock);
  o.Set("constBytes", static_cast<double>(a.constSizeBytes));
  o.Set("binaryVersion", a.binaryVersion);
  return o;
}

// The size in bytes of each of the kernel's parameters, so that the facade can refuse a wrong argument list before
// cudaLaunchKernel reads past it; null where the runtime cannot say (a kernel with no parameters reads nothing).
Napi::Value ParameterSizes(Napi::Env env, const void* fn) {
  std::vector<size_t> sizes;
  for (size_t i = 0; i < 4096; ++i) {
    size_t offset = 0, size = 0;
    const cudaError_t err = cudaFuncGetParamInfo(fn, i, &offset, &size);
    if (err != cudaSuccess) {
      DropCudaError(err);
      // Past the last parameter: cudaErrorInvalidValue. Anything else: the runtime cannot tell.
      if (err != cudaErrorInvalidValue) return env.Null();
      break;
    }
    sizes.push_back(size);
  }
  if (sizes.empty()) return env.Null();
  Napi::Array a = Napi::Array::New(env, sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) a.Set(static_cast<uint32_t>(i), static_cast<double>(sizes[i]));
  return a;
}

using Holder = std::shared_ptr<std::shared_ptr<LoadedLibrary>>;

std::shared_ptr<LoadedLibrary> Live(const Holder& holder) {
  if (!*holder) throw NativeError("INVALID_ARGUMENT", "The kernel was disposed: load it again");
  return *holder;
}

// occupancy(blockThreads, dynamicSharedBytes) -> { blocksPerSm, activeWarpsPerSm, maxWarpsPerSm, occupancy }
Napi::Value Occupancy(const Napi::CallbackInfo& info, const Holder& holder) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    std::shared_ptr<LoadedLibrary> lib = Live(holder);
    const int threads = info[0].As<Napi::Number>().Int32Value();
    const size_t dynamicShared = info[1].IsNumber() ? static_cast<size_t>(info[1].As<Napi::Number>().DoubleValue()) : 0;
    CUDA_CHECK(cudaSetDevice(lib->device));
    int blocks = 0, warpSize = 0, threadsPerSm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, lib->fn(), threads, dynamicShared));
    CUDA_CHECK(cudaDeviceGetAttribute(&warpSize, cudaDevAttrWarpSize, lib->device));
    CUDA_CHECK(cudaDeviceGetAttribute(&threadsPerSm, cudaDevAttrMaxThreadsPerMultiProcessor, lib->device));
    // A block of 48 threads still takes two whole warps.
    const int activeWarps = blocks * ((threads + warpSize - 1) / warpSize);
    const int maxWarps = threadsPerSm / warpSize;
    Napi::Object o = Napi::Object::New(info.Env());
    o.Set("blocksPerSm", blocks);
    o.Set("activeWarpsPerSm", activeWarps);
    o.Set("maxWarpsPerSm", maxWarps);
    o.Set("occupancy", maxWarps > 0 ? static_cast<double>(activeWarps) / maxWarps : 0.0);
    return o;
  });
}

// loadKernel(image: Uint8Array, loweredName, ordinal)
//   -> { attributes, parameterSizes: number[] | null, occupancy(), launch(spec), dispose() }
Napi::Value LoadKernel(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    Napi::Env env = info.Env();
    if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
      ThrowInvalid("image", "a Uint8Array", "another value");
    }
    Napi::Uint8Array bytes = info[0].As<Napi::Uint8Array>();
    if (!info[1].IsString()) ThrowInvalid("loweredName", "a string", "a non-string");
    if (!info[2].IsNumber()) ThrowInvalid("device", "a CUDA ordinal", "a non-number");
    const int ordinal = info[2].As<Napi::Number>().Int32Value();
    CheckDeviceOrdinal(ordinal);
    RefuseWedgedDevice(ordinal);

    auto lib = std::make_shared<LoadedLibrary>();
    lib->device = ordinal;
    lib->loweredName = info[1].As<Napi::String>().Utf8Value();
    // PTX must end with a NUL; after a cubin the extra byte is never read.
    lib->image.assign(reinterpret_cast<const char*>(bytes.Data()), bytes.ByteLength());
    lib->image.push_back('\0');
    CUDA_CHECK(cudaSetDevice(ordinal));
    cudaError_t err = cudaLibraryLoadData(&lib->library, lib->image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
    if (err != cudaSuccess) {
      lib->library = nullptr;
      ThrowCudaError(err, ("cudaLibraryLoadData (a " + std::to_string(bytes.ByteLength()) + "-byte image)").c_str(), __FILE__, __LINE__);
    }
    err = cudaLibraryGetKernel(&lib->kernel, lib->library, lib->loweredName.c_str());
    if (err != cudaSuccess) {
      DropCudaError(err);
      ThrowInvalid("loweredName", "the lowered name of a kernel in the image",
                   "\"" + lib->loweredName + "\" (cudaLibraryGetKernel: " + cudaGetErrorName(err) + ")");
    }
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, lib->fn()));

    Napi::Object k = Napi::Object::New(env);
    k.Set("attributes", Attributes(env, attr));
    k.Set("parameterSizes", ParameterSizes(env, lib->fn()));
    // Each function keeps the library alive; dispose() lets go of it, and it is unloaded when no launch is left.
    auto holder = std::make_shared<std::shared_ptr<LoadedLibrary>>(std::move(lib));
    k.Set("occupancy", Napi::Function::New(env, [holder](const Napi::CallbackInfo& ci) { return Occupancy(ci, holder); }, "occupancy"));
    k.Set("launch", Napi::Function::New(env, [holder](const Napi::CallbackInfo& ci) {
            return Guarded(ci.Env(), [&]() -> Napi::Value {
              if (!ci[0].IsObject()) ThrowInvalid("options", "an object", "another value");
              return StartKernelLaunch(ci.Env(), Live(holder), ci[0].As<Napi::Object>());
            });
          }, "launch"));
    k.Set("dispose", Napi::Function::New(env, [holder](const Napi::CallbackInfo& ci) {
            holder->reset();
            return ci.Env().Undefined();
          }, "dispose"));
    return k;
  });
}

}  // namespace

void InitCudaPlayground(Napi::Env env, Napi::Object exports) {
  exports.Set("nvrtcStatus", Napi::Function::New(env, NvrtcStatus, "nvrtcStatus"));
  exports.Set("nvrtcCompile", Napi::Function::New(env, NvrtcCompile, "nvrtcCompile"));
  exports.Set("loadKernel", Napi::Function::New(env, LoadKernel, "loadKernel"));
}

}  // namespace gpulab
