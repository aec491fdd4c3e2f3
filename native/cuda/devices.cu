#include "devices.h"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "check.h"
#include "cublas.h"
#include "dynlib.h"
#include "nvml.h"
#include "nvrtc.h"
#include "peaks.h"

namespace gpulab {

std::string CudaVersionString(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

namespace {

Napi::Value OrNull(Napi::Env env, std::optional<unsigned int> v) {
  return v ? Napi::Value(Napi::Number::New(env, *v)) : env.Null();
}

Napi::Value StringOrNull(Napi::Env env, const std::string& s) {
  return s.empty() ? env.Null() : Napi::Value(Napi::String::New(env, s));
}

// `searched`: the folders looked in after the loader's path, for a toolkit library that was not found.
Napi::Object LibraryStatus(Napi::Env env, bool found, const std::string& soname, const std::string& path,
                           const std::string& version, const std::string& reason, const std::vector<std::string>& searched) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("found", found);
  o.Set("soname", found ? StringOrNull(env, soname) : env.Null());
  o.Set("path", found ? StringOrNull(env, path) : env.Null());
  o.Set("version", found ? StringOrNull(env, version) : env.Null());
  o.Set("reason", found ? env.Null() : Napi::Value(Napi::String::New(env, reason)));
  Napi::Array dirs = Napi::Array::New(env);
  if (!found) {
    for (size_t i = 0; i < searched.size(); ++i) dirs.Set(static_cast<uint32_t>(i), searched[i]);
  }
  o.Set("searched", dirs);
  return o;
}

Napi::Object Libraries(Napi::Env env) {
  Napi::Object o = Napi::Object::New(env);
  const std::vector<std::string> toolkitDirs = ToolkitLibraryDirs();
  const CublasLibrary& cublas = Cublas();
  o.Set("cublas", LibraryStatus(env, cublas.available, cublas.soname, cublas.path, cublas.available ? cublas.version() : "",
                                cublas.reason, toolkitDirs));
  const NvrtcLibrary& nvrtc = Nvrtc();
  o.Set("nvrtc", LibraryStatus(env, nvrtc.available, nvrtc.soname, nvrtc.path,
                               nvrtc.available ? std::to_string(nvrtc.major) + "." + std::to_string(nvrtc.minor) : "",
                               nvrtc.reason, toolkitDirs));
  // NVML ships with the driver: the loader's path is the only place it is looked for.
  const NvmlLibrary& nvml = Nvml();
  o.Set("nvml", LibraryStatus(env, nvml.available, "libnvidia-ml.so.1", nvml.path, nvml.driverVersion, nvml.reason, {}));
  return o;
}

std::string FormatUuid(const cudaUUID_t& u) {
  const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
  char s[48];
  std::snprintf(s, sizeof s, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
                b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return s;
}

Napi::Object PeakObject(Napi::Env env, const Peak& p) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("value", p.value > 0 ? Napi::Value(Napi::Number::New(env, p.value)) : env.Null());
  o.Set("formula", p.formula);
  return o;
}

Napi::Object DeviceEntry(Napi::Env env, int ordinal) {
  const auto attr = [ordinal](cudaDeviceAttr a) {
    int v = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&v, a, ordinal));
    return v;
  };
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  char busId[32] = {};
  CUDA_CHECK(cudaDeviceGetPCIBusId(busId, sizeof busId, ordinal));
  // Free memory is a property of a context; this creates the device's primary context, which any work needs anyway.
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_CHECK(cudaSetDevice(ordinal));
  CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));

  const int major = attr(cudaDevAttrComputeCapabilityMajor), minor = attr(cudaDevAttrComputeCapabilityMinor);
  const int sms = attr(cudaDevAttrMultiProcessorCount);
  // CUDA 13 removed clockRate and memoryClockRate from cudaDeviceProp: attributes, in kHz.
  const int clockKHz = attr(cudaDevAttrClockRate), memClockKHz = attr(cudaDevAttrMemoryClockRate);
  const int busWidth = attr(cudaDevAttrGlobalMemoryBusWidth);

  Napi::Object d = Napi::Object::New(env);
  d.Set("id", "cuda:" + std::to_string(ordinal));
  d.Set("kind", "cuda");
  d.Set("ordinal", ordinal);
  d.Set("name", prop.name);
  d.Set("uuid", FormatUuid(prop.uuid));
  d.Set("computeCapability", std::to_string(major) + "." + std::to_string(minor));
  d.Set("multiprocessors", sms);
  d.Set("smClockMHz", clockKHz / 1000.0);
  d.Set("memoryClockMHz", memClockKHz / 1000.0);
  d.Set("memoryBusWidthBits", busWidth);
  d.Set("memoryTotalBytes", static_cast<double>(totalBytes));
  d.Set("memoryFreeBytes", static_cast<double>(freeBytes));
  d.Set("l2CacheBytes", attr(cudaDevAttrL2CacheSize));
  d.Set("sharedMemoryPerBlockBytes", attr(cudaDevAttrMaxSharedMemoryPerBlock));
  d.Set("sharedMemoryPerBlockOptinBytes", attr(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  d.Set("sharedMemoryPerMultiprocessorBytes", attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  d.Set("registersPerMultiprocessor", attr(cudaDevAttrMaxRegistersPerMultiprocessor));
  d.Set("maxThreadsPerMultiprocessor", attr(cudaDevAttrMaxThreadsPerMultiProcessor));
  d.Set("warpSize", attr(cudaDevAttrWarpSize));
  d.Set("copyEngines", attr(cudaDevAttrAsyncEngineCount));
  d.Set("concurrentCopyAndExecution", attr(cudaDevAttrAsyncEngineCount) > 0);
  d.Set("concurrentKernels", attr(cudaDevAttrConcurrentKernels) != 0);
  d.Set("eccEnabled", attr(cudaDevAttrEccEnabled) != 0);
  d.Set("integrated", attr(cudaDevAttrIntegrated) != 0);
  d.Set("pciBusId", busId);

  const NvmlLibrary& nvml = Nvml();
  nvmlDevice_t dev = nvml.DeviceOf(ordinal);
  const auto genNow = NvmlRead(nvml.pcieGenCurrent, dev), widthNow = NvmlRead(nvml.pcieWidthCurrent, dev);
  Napi::Object pcie = Napi::Object::New(env);
  pcie.Set("currentGeneration", OrNull(env, genNow));
  pcie.Set("currentWidth", OrNull(env, widthNow));
  pcie.Set("maxGeneration", OrNull(env, NvmlRead(nvml.pcieGenMax, dev)));
  pcie.Set("maxWidth", OrNull(env, NvmlRead(nvml.pcieWidthMax, dev)));
  d.Set("pcie", pcie);
  d.Set("maxSmClockMHz", OrNull(env, NvmlRead(nvml.maxClockInfo, dev, NVML_CLOCK_SM)));
  d.Set("powerLimitW", NvmlRead(nvml.powerLimit, dev) ? Napi::Value(Napi::Number::New(env, *NvmlRead(nvml.powerLimit, dev) / 1000.0))
                                                      : env.Null());

  const Peak fp32 = Fp32Peak(major, minor, sms, clockKHz);
  Napi::Object peaks = Napi::Object::New(env);
  peaks.Set("memoryBandwidthGBs", PeakObject(env, MemoryBandwidthPeak(memClockKHz, busWidth)));
  peaks.Set("fp32Gflops", PeakObject(env, fp32));
  peaks.Set("fp64Gflops", PeakObject(env, Fp64Peak(major, minor, fp32)));
  peaks.Set("pcieGBs", PeakObject(env, PcieBandwidthPeak(genNow ? static_cast<int>(*genNow) : 0,
                                                         widthNow ? static_cast<int>(*widthNow) : 0)));
  d.Set("peaks", peaks);
  return d;
}

}  // namespace

// The static runtime reports a missing driver as "driver
// version is insufficient", which misleads on a machine with no driver at all: look for the driver first.
std::string CudaUnavailableReason(int* count) {
  *count = 0;
  static void* const driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!driver) {
    return "no CUDA device: no NVIDIA driver is installed (libcuda.so.1 was not found)";
  }
  const cudaError_t err = cudaGetDeviceCount(count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    *count = 0;
    return std::string("no CUDA device: ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")";
  }
  if (*count == 0) return "no CUDA device: the driver found none";
  return "";
}

namespace {

Napi::Value CudaDevices(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Guarded(env, [&]() -> Napi::Value {
    Napi::Object r = Napi::Object::New(env);
    int runtime = 0, driver = 0;
    DropCudaError(cudaRuntimeGetVersion(&runtime));
    int count = 0;
    const std::string reason = CudaUnavailableReason(&count);
    const cudaError_t driverErr = cudaDriverGetVersion(&driver);
    DropCudaError(driverErr);
    if (driverErr != cudaSuccess) driver = 0;
    r.Set("available", reason.empty());
    r.Set("reason", StringOrNull(env, reason));
    r.Set("runtimeVersion", CudaVersionString(runtime));
    r.Set("driverCudaVersion", driver > 0 ? Napi::Value(Napi::String::New(env, CudaVersionString(driver))) : env.Null());
    r.Set("driverVersion", StringOrNull(env, Nvml().driverVersion));
    r.Set("libraries", Libraries(env));
    Napi::Array list = Napi::Array::New(env, count);
    for (int i = 0; i < count; ++i) list.Set(static_cast<uint32_t>(i), DeviceEntry(env, i));
    r.Set("devices", list);
    return r;
  });
}

// cudaDeviceCount(): the CUDA devices there are, 0 where there is no driver or no device; cheaper than
// cudaDevices() for checking an ordinal.
Napi::Value DeviceCount(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    int count = 0;
    CudaUnavailableReason(&count);
    return Napi::Number::New(info.Env(), count);
  });
}

// telemetry(ordinal): one reading of the device's state. Missing readings are null; no NVML, or no CUDA device at
// all, gives available: false and the reason. An ordinal past the devices there are is INVALID_ARGUMENT.
Napi::Value Telemetry(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Guarded(env, [&]() -> Napi::Value {
    const double requested = info[0].IsNumber() ? info[0].As<Napi::Number>().DoubleValue() : -1;
    int count = 0;
    const std::string unavailable = CudaUnavailableReason(&count);
    if (requested < 0 || std::floor(requested) != requested || (unavailable.empty() && requested >= count)) {
      const std::string range = unavailable.empty() ? "a CUDA device from cuda:0 to cuda:" + std::to_string(count - 1)
                                                    : "a CUDA device ordinal";
      const std::string shown = std::floor(requested) == requested ? std::to_string(static_cast<long long>(requested))
                                                                   : std::to_string(requested);
      ThrowInvalid("device", range, info[0].IsNumber() ? "cuda:" + shown : "a non-number");
    }
    const int ordinal = static_cast<int>(requested);
    const NvmlLibrary& nvml = Nvml();
    Napi::Object t = Napi::Object::New(env);
    t.Set("device", "cuda:" + std::to_string(ordinal));
    t.Set("timestamp", static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                               std::chrono::system_clock::now().time_since_epoch()).count()));
    nvmlDevice_t dev = nvml.DeviceOf(ordinal);
    t.Set("available", dev != nullptr);
    const std::string noReadings = !unavailable.empty() ? unavailable
                                   : nvml.available     ? "NVML does not know cuda:" + std::to_string(ordinal)
                                                        : nvml.reason;
    t.Set("reason", dev ? env.Null() : Napi::Value(Napi::String::New(env, noReadings)));
    t.Set("smClockMHz", OrNull(env, NvmlRead(nvml.clockInfo, dev, NVML_CLOCK_SM)));
    t.Set("memoryClockMHz", OrNull(env, NvmlRead(nvml.clockInfo, dev, NVML_CLOCK_MEM)));
    unsigned int celsius = 0;
    const bool hasTemp = dev && nvml.temperature && nvml.temperature(dev, 0 /* NVML_TEMPERATURE_GPU */, &celsius) == 0;
    t.Set("temperatureC", hasTemp ? Napi::Value(Napi::Number::New(env, celsius)) : env.Null());
    const auto mw = NvmlRead(nvml.powerUsage, dev), limit = NvmlRead(nvml.powerLimit, dev);
    t.Set("powerW", mw ? Napi::Value(Napi::Number::New(env, *mw / 1000.0)) : env.Null());
    t.Set("powerLimitW", limit ? Napi::Value(Napi::Number::New(env, *limit / 1000.0)) : env.Null());
    nvmlUtilization_t util{};
    const bool hasUtil = dev && nvml.utilization && nvml.utilization(dev, &util) == 0;
    t.Set("gpuUtilizationPercent", hasUtil ? Napi::Value(Napi::Number::New(env, util.gpu)) : env.Null());
    t.Set("memoryUtilizationPercent", hasUtil ? Napi::Value(Napi::Number::New(env, util.memory)) : env.Null());
    unsigned long long mask = 0;
    const bool hasReasons = dev && nvml.throttleReasons && nvml.throttleReasons(dev, &mask) == 0;
    Napi::Array reasons = Napi::Array::New(env);
    if (hasReasons) {
      const auto names = ThrottleReasonNames(mask);
      for (size_t i = 0; i < names.size(); ++i) reasons.Set(static_cast<uint32_t>(i), names[i]);
    }
    t.Set("throttleReasons", hasReasons ? Napi::Value(reasons) : env.Null());
    return t;
  });
}

// setCudaLibraryDirs(dirs): the folders to look for cuBLAS and NVRTC in after the loader's path, replacing
// /usr/local/cuda/lib64; false, changing nothing, once either has been looked for. The facade checks the argument.
Napi::Value SetCudaLibraryDirs(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    const Napi::Array list = info[0].As<Napi::Array>();
    std::vector<std::string> dirs;
    for (uint32_t i = 0; i < list.Length(); ++i) dirs.push_back(list.Get(i).As<Napi::String>().Utf8Value());
    return Napi::Boolean::New(info.Env(), SetToolkitLibraryDirs(std::move(dirs)));
  });
}

}  // namespace

void InitCudaDevices(Napi::Env env, Napi::Object exports) {
  exports.Set("cudaDevices", Napi::Function::New(env, CudaDevices, "cudaDevices"));
  exports.Set("setCudaLibraryDirs", Napi::Function::New(env, SetCudaLibraryDirs, "setCudaLibraryDirs"));
  exports.Set("cudaTelemetry", Napi::Function::New(env, Telemetry, "cudaTelemetry"));
  exports.Set("cudaDeviceCount", Napi::Function::New(env, DeviceCount, "cudaDeviceCount"));
}

}  // namespace gpulab
