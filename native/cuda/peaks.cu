#include "peaks.h"

#include <cstdio>

namespace gpulab {

namespace {

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// FP32 lanes per SM, from the CUDA programming guide's arithmetic-throughput table.
int Fp32CoresPerSm(int major, int minor) {
  switch (major) {
    case 3: return 192;
    case 5: return 128;
    case 6: return minor == 0 ? 64 : 128;
    case 7: return 64;
    case 8: return minor == 0 ? 64 : 128;
    default: return 128;  // 9.x, 10.x, 12.x
  }
}

// FP64 throughput as a fraction of FP32: 1/2 on the data-centre chips (6.0, 7.0, 8.0, 9.0, 10.0), 1/32 on Turing
// and older consumer chips, 1/64 on Ampere, Ada and Blackwell consumer chips.
struct Ratio {
  int denominator;
  const char* family;
};
Ratio Fp64Ratio(int major, int minor) {
  if (minor == 0 && (major == 6 || major == 7 || major == 8 || major == 9 || major == 10)) return {2, "data-centre"};
  if (major <= 7) return {32, "consumer"};
  return {64, "consumer"};
}

}  // namespace

Peak MemoryBandwidthPeak(int memoryClockKHz, int busWidthBits) {
  const double mhz = memoryClockKHz / 1000.0;
  const double gbs = 2.0 * memoryClockKHz * 1e3 * (busWidthBits / 8.0) / 1e9;
  return {gbs, "2 × " + Fixed(mhz, 0) + " MHz × " + std::to_string(busWidthBits) + " bit / 8 = " + Fixed(gbs, 1) + " GB/s"};
}

Peak Fp32Peak(int major, int minor, int sms, int clockKHz) {
  const int cores = Fp32CoresPerSm(major, minor);
  const double mhz = clockKHz / 1000.0;
  const double gflops = static_cast<double>(sms) * cores * 2.0 * mhz / 1000.0;
  return {gflops, std::to_string(sms) + " SMs × " + std::to_string(cores) + " FP32 cores (compute capability " +
                      std::to_string(major) + "." + std::to_string(minor) + ") × 2 FLOP × " + Fixed(mhz, 0) +
                      " MHz = " + Fixed(gflops, 0) + " GFLOP/s"};
}

Peak Fp64Peak(int major, int minor, const Peak& fp32) {
  const Ratio r = Fp64Ratio(major, minor);
  const double gflops = fp32.value / r.denominator;
  return {gflops, "FP32 peak " + Fixed(fp32.value, 0) + " GFLOP/s × 1/" + std::to_string(r.denominator) + " (" +
                      r.family + " chip, compute capability " + std::to_string(major) + "." + std::to_string(minor) +
                      ") = " + Fixed(gflops, 0) + " GFLOP/s"};
}

Peak PcieBandwidthPeak(int generation, int width) {
  // GT/s per lane and line-code efficiency: gen 1–2 8b/10b, gen 3–5 128b/130b, gen 6 FLIT (242/256).
  static const struct {
    double gts;
    double efficiency;
    const char* code;
  } kGen[] = {{0, 0, ""}, {2.5, 0.8, "8b/10b"}, {5, 0.8, "8b/10b"}, {8, 128.0 / 130, "128b/130b"},
              {16, 128.0 / 130, "128b/130b"}, {32, 128.0 / 130, "128b/130b"}, {64, 242.0 / 256, "FLIT 242/256"}};
  if (generation < 1 || generation > 6 || width < 1) return {0, "unknown (NVML did not report the PCIe link)"};
  const auto& g = kGen[generation];
  const double gbs = width * g.gts * g.efficiency / 8.0;
  return {gbs, std::to_string(width) + " lanes × " + Fixed(g.gts, 1) + " GT/s (PCIe " + std::to_string(generation) +
                   ") × " + g.code + " / 8 = " + Fixed(gbs, 1) + " GB/s per direction"};
}

}  // namespace gpulab
