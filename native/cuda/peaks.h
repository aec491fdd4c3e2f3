// Theoretical peaks from device attributes, each with the arithmetic that produced it, so that results can show
// "% of peak" and the user can check where the peak came from.
#pragma once
#include <string>

namespace gpulab {

struct Peak {
  double value = 0;     // GB/s or GFLOP/s
  std::string formula;  // "2 × 3201 MHz × 6144 bit / 8 = 4916.7 GB/s"
};

// DRAM: double data rate, so 2 transfers per memory clock, each bus width / 8 bytes wide.
Peak MemoryBandwidthPeak(int memoryClockKHz, int busWidthBits);
// FP32: SMs × FP32 cores per SM (by compute capability) × 2 FLOP per fused multiply-add × SM clock.
Peak Fp32Peak(int major, int minor, int sms, int clockKHz);
// FP64: the FP32 peak × the FP64:FP32 ratio of the architecture.
Peak Fp64Peak(int major, int minor, const Peak& fp32);
// PCIe: lanes × transfer rate per lane × encoding efficiency / 8, in one direction. `generation` 0 when unknown.
Peak PcieBandwidthPeak(int generation, int width);

}  // namespace gpulab
