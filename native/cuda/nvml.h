// NVML, the driver's management library, opened at run time (libnvidia-ml.so.1): clocks, temperature, power,
// utilisation, throttle reasons and PCIe links. Declarations written by hand from nvml.h. Every reading is optional:
// a function a driver lacks, or a reading a GPU does not support, is reported as missing, not as an error.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace gpulab {

using nvmlDevice_t = struct nvmlDevice_st*;
using nvmlReturn_t = int;  // NVML_SUCCESS = 0
enum nvmlClockType_t : int { NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };
struct nvmlUtilization_t {
  unsigned int gpu;     // percent of the last sample period a kernel ran
  unsigned int memory;  // percent of it device memory was read or written
};

struct NvmlLibrary {
  bool available = false;
  std::string path, reason;
  std::string driverVersion;

  nvmlReturn_t (*init)() = nullptr;
  const char* (*errorString)(nvmlReturn_t) = nullptr;
  nvmlReturn_t (*systemGetDriverVersion)(char*, unsigned int) = nullptr;
  nvmlReturn_t (*handleByPciBusId)(const char*, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*clockInfo)(nvmlDevice_t, nvmlClockType_t, unsigned int*) = nullptr;
  nvmlReturn_t (*maxClockInfo)(nvmlDevice_t, nvmlClockType_t, unsigned int*) = nullptr;
  nvmlReturn_t (*temperature)(nvmlDevice_t, int sensor, unsigned int*) = nullptr;
  nvmlReturn_t (*powerUsage)(nvmlDevice_t, unsigned int*) = nullptr;
  nvmlReturn_t (*powerLimit)(nvmlDevice_t, unsigned int*) = nullptr;
  nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
  nvmlReturn_t (*throttleReasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*pcieGenCurrent)(nvmlDevice_t, unsigned int*) = nullptr;
  nvmlReturn_t (*pcieWidthCurrent)(nvmlDevice_t, unsigned int*) = nullptr;
  nvmlReturn_t (*pcieGenMax)(nvmlDevice_t, unsigned int*) = nullptr;
  nvmlReturn_t (*pcieWidthMax)(nvmlDevice_t, unsigned int*) = nullptr;

  // The NVML device of a CUDA ordinal, matched by PCI bus id (NVML numbers devices its own way); null when NVML is
  // missing or does not know the device.
  nvmlDevice_t DeviceOf(int cudaOrdinal) const;
};

// Opened and initialised once, on first use, from any thread; never shut down.
const NvmlLibrary& Nvml();

// An unsigned reading, or nothing when the function is missing or fails.
inline std::optional<unsigned int> NvmlRead(nvmlReturn_t (*fn)(nvmlDevice_t, unsigned int*), nvmlDevice_t dev) {
  unsigned int v = 0;
  if (!fn || !dev || fn(dev, &v) != 0) return std::nullopt;
  return v;
}
inline std::optional<unsigned int> NvmlRead(nvmlReturn_t (*fn)(nvmlDevice_t, nvmlClockType_t, unsigned int*),
                                            nvmlDevice_t dev, nvmlClockType_t clock) {
  unsigned int v = 0;
  if (!fn || !dev || fn(dev, clock, &v) != 0) return std::nullopt;
  return v;
}

// Names of the bits NVML sets in the clocks event (throttle) reasons mask.
std::vector<std::string> ThrottleReasonNames(unsigned long long mask);

}  // namespace gpulab
