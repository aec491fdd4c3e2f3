#include "nvml.h"

#include <cuda_runtime.h>

#include "check.h"
#include "dynlib.h"

namespace gpulab {

const NvmlLibrary& Nvml() {
  static const NvmlLibrary lib = [] {
    NvmlLibrary l;
    // NVML ships with the driver, under one soname.
    DynamicLibrary dl = DynamicLibrary::Open({"libnvidia-ml.so.1"});
    l.path = dl.path;
    if (!dl.handle) {
      l.reason = dl.reason;
      return l;
    }
    if (!dl.Bind(l.init, "nvmlInit_v2") || !dl.Bind(l.errorString, "nvmlErrorString") ||
        !dl.Bind(l.handleByPciBusId, "nvmlDeviceGetHandleByPciBusId_v2")) {
      l.reason = dl.reason;
      return l;
    }
    const nvmlReturn_t status = l.init();
    if (status != 0) {
      l.reason = std::string("nvmlInit_v2 failed: ") + l.errorString(status);
      return l;
    }
    dl.Bind(l.systemGetDriverVersion, "nvmlSystemGetDriverVersion");
    dl.Bind(l.clockInfo, "nvmlDeviceGetClockInfo");
    dl.Bind(l.maxClockInfo, "nvmlDeviceGetMaxClockInfo");
    dl.Bind(l.temperature, "nvmlDeviceGetTemperature");
    dl.Bind(l.powerUsage, "nvmlDeviceGetPowerUsage");
    dl.Bind(l.powerLimit, "nvmlDeviceGetEnforcedPowerLimit");
    dl.Bind(l.utilization, "nvmlDeviceGetUtilizationRates");
    // Renamed in CUDA 12.2 ("clocks event reasons"); older drivers have only the throttle name.
    if (!dl.Bind(l.throttleReasons, "nvmlDeviceGetCurrentClocksEventReasons")) {
      dl.Bind(l.throttleReasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
    }
    dl.Bind(l.pcieGenCurrent, "nvmlDeviceGetCurrPcieLinkGeneration");
    dl.Bind(l.pcieWidthCurrent, "nvmlDeviceGetCurrPcieLinkWidth");
    dl.Bind(l.pcieGenMax, "nvmlDeviceGetMaxPcieLinkGeneration");
    dl.Bind(l.pcieWidthMax, "nvmlDeviceGetMaxPcieLinkWidth");
    char version[96] = {};
    if (l.systemGetDriverVersion && l.systemGetDriverVersion(version, sizeof version) == 0) l.driverVersion = version;
    l.reason.clear();
    l.available = true;
    return l;
  }();
  return lib;
}

nvmlDevice_t NvmlLibrary::DeviceOf(int cudaOrdinal) const {
  if (!available) return nullptr;
  char busId[32] = {};
  const cudaError_t err = cudaDeviceGetPCIBusId(busId, sizeof busId, cudaOrdinal);
  if (err != cudaSuccess) {
    DropCudaError(err);
    return nullptr;
  }
  nvmlDevice_t dev = nullptr;
  return handleByPciBusId(busId, &dev) == 0 ? dev : nullptr;
}

std::vector<std::string> ThrottleReasonNames(unsigned long long mask) {
  static const struct {
    unsigned long long bit;
    const char* name;
  } kReasons[] = {
      {0x1, "gpu-idle"},           {0x2, "applications-clocks"}, {0x4, "sw-power-cap"},
      {0x8, "hw-slowdown"},        {0x10, "sync-boost"},         {0x20, "sw-thermal"},
      {0x40, "hw-thermal"},        {0x80, "hw-power-brake"},     {0x100, "display-clocks"},
  };
  std::vector<std::string> names;
  for (const auto& r : kReasons) {
    if (mask & r.bit) names.emplace_back(r.name);
  }
  return names;
}

}  // namespace gpulab
