// What the device inspector shows: the CUDA inventory behind the device list (versions, the libraries found or why
// not, every attribute with the theoretical peaks and their arithmetic) and NVML's telemetry readings. The native
// facade produces these; the compute host sends them to main, which validates them on arrival.
import { z } from 'zod';

import { DEVICE_LIST } from './devices.ts';
import type { DeviceList } from './devices.ts';

export type CudaDeviceId = `cuda:${number}`;

export interface LibraryStatus {
  found: boolean;
  soname: string | null;
  path: string | null;
  version: string | null;
  // Why it was not found, when it was not.
  reason: string | null;
}

export interface Peak {
  // GB/s or GFLOP/s; null when unknown.
  value: number | null;
  // The arithmetic behind the value: "2 × 3201 MHz × 6144 bit / 8 = 4916.7 GB/s".
  formula: string;
}

export interface CudaDeviceInfo {
  id: CudaDeviceId;
  kind: 'cuda';
  ordinal: number;
  name: string;
  uuid: string;
  computeCapability: string;
  multiprocessors: number;
  smClockMHz: number;
  maxSmClockMHz: number | null;
  memoryClockMHz: number;
  memoryBusWidthBits: number;
  memoryTotalBytes: number;
  memoryFreeBytes: number;
  l2CacheBytes: number;
  sharedMemoryPerBlockBytes: number;
  sharedMemoryPerBlockOptinBytes: number;
  sharedMemoryPerMultiprocessorBytes: number;
  registersPerMultiprocessor: number;
  maxThreadsPerMultiprocessor: number;
  warpSize: number;
  copyEngines: number;
  concurrentCopyAndExecution: boolean;
  concurrentKernels: boolean;
  eccEnabled: boolean;
  integrated: boolean;
  pciBusId: string;
  pcie: { currentGeneration: number | null; currentWidth: number | null; maxGeneration: number | null; maxWidth: number | null };
  powerLimitW: number | null;
  peaks: { memoryBandwidthGBs: Peak; fp32Gflops: Peak; fp64Gflops: Peak; pcieGBs: Peak };
}

export interface CudaInventory {
  available: boolean;
  // "no CUDA device: …" or "built without CUDA: …" when unavailable.
  reason: string | null;
  runtimeVersion: string | null;
  // The CUDA version the driver supports ("13.0") and the driver's own version ("580.65.06", from NVML).
  driverCudaVersion: string | null;
  driverVersion: string | null;
  libraries: { cublas: LibraryStatus; nvrtc: LibraryStatus; nvml: LibraryStatus };
  devices: CudaDeviceInfo[];
}

export interface Telemetry {
  device: CudaDeviceId;
  timestamp: number;
  // False without NVML; `reason` says why.
  available: boolean;
  reason: string | null;
  smClockMHz: number | null;
  memoryClockMHz: number | null;
  temperatureC: number | null;
  powerW: number | null;
  powerLimitW: number | null;
  gpuUtilizationPercent: number | null;
  memoryUtilizationPercent: number | null;
  // NVML's clocks event reasons ("sw-power-cap", "hw-thermal", "gpu-idle", …); null when unknown.
  throttleReasons: string[] | null;
}

export interface DeviceReport {
  list: DeviceList;
  cuda: CudaInventory;
  // One reading per CUDA device, in the order of `cuda.devices`.
  telemetry: Telemetry[];
}

const NUM = z.number().nullable();
const CUDA_ID = z.string().regex(/^cuda:\d{1,2}$/) as z.ZodType<CudaDeviceId>;
const LIBRARY = z.strictObject({ found: z.boolean(), soname: z.string().nullable(), path: z.string().nullable(), version: z.string().nullable(), reason: z.string().nullable() });
const PEAK = z.strictObject({ value: NUM, formula: z.string() });

export const TELEMETRY = z.strictObject({
  device: CUDA_ID,
  timestamp: z.number(),
  available: z.boolean(),
  reason: z.string().nullable(),
  smClockMHz: NUM,
  memoryClockMHz: NUM,
  temperatureC: NUM,
  powerW: NUM,
  powerLimitW: NUM,
  gpuUtilizationPercent: NUM,
  memoryUtilizationPercent: NUM,
  throttleReasons: z.array(z.string()).nullable(),
});

const CUDA_DEVICE = z.strictObject({
  id: CUDA_ID,
  kind: z.literal('cuda'),
  ordinal: z.int(),
  name: z.string(),
  uuid: z.string(),
  computeCapability: z.string(),
  multiprocessors: z.number(),
  smClockMHz: z.number(),
  maxSmClockMHz: NUM,
  memoryClockMHz: z.number(),
  memoryBusWidthBits: z.number(),
  memoryTotalBytes: z.number(),
  memoryFreeBytes: z.number(),
  l2CacheBytes: z.number(),
  sharedMemoryPerBlockBytes: z.number(),
  sharedMemoryPerBlockOptinBytes: z.number(),
  sharedMemoryPerMultiprocessorBytes: z.number(),
  registersPerMultiprocessor: z.number(),
  maxThreadsPerMultiprocessor: z.number(),
  warpSize: z.number(),
  copyEngines: z.number(),
  concurrentCopyAndExecution: z.boolean(),
  concurrentKernels: z.boolean(),
  eccEnabled: z.boolean(),
  integrated: z.boolean(),
  pciBusId: z.string(),
  pcie: z.strictObject({ currentGeneration: NUM, currentWidth: NUM, maxGeneration: NUM, maxWidth: NUM }),
  powerLimitW: NUM,
  peaks: z.strictObject({ memoryBandwidthGBs: PEAK, fp32Gflops: PEAK, fp64Gflops: PEAK, pcieGBs: PEAK }),
});

export const DEVICE_REPORT = z.strictObject({
  list: DEVICE_LIST,
  cuda: z.strictObject({
    available: z.boolean(),
    reason: z.string().nullable(),
    runtimeVersion: z.string().nullable(),
    driverCudaVersion: z.string().nullable(),
    driverVersion: z.string().nullable(),
    libraries: z.strictObject({ cublas: LIBRARY, nvrtc: LIBRARY, nvml: LIBRARY }),
    devices: z.array(CUDA_DEVICE),
  }),
  telemetry: z.array(TELEMETRY),
});
