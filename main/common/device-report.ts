// What the device inspector shows: the CUDA inventory behind the device list (versions, the libraries found or why
// not, every attribute with the theoretical peaks and their arithmetic) and NVML's telemetry readings. The native
// facade produces these; the compute host sends them to main, which validates them on arrival.
import { z } from 'zod';

import { DEVICE_LIST } from './devices.ts';
import { MESSAGE } from './message-schema.ts';

export type CudaDeviceId = `cuda:${number}`;

const NUM = z.number().nullable();
const CUDA_ID = z.string().regex(/^cuda:\d{1,2}$/) as z.ZodType<CudaDeviceId>;

const LIBRARY = z.strictObject({
  found: z.boolean(),
  soname: z.string().nullable(),
  path: z.string().nullable(),
  version: z.string().nullable(),
  // Why it was not found, when it was not; `why` says it as a message (host-reasons.ts) and `detail` is the loader's
  // own error, quoted as it came.
  reason: z.string().nullable(),
  why: MESSAGE.nullable().optional(),
  detail: z.string().nullable().optional(),
  // The folders looked in after the system loader's path, when it was not found (cuBLAS and NVRTC: a CUDA toolkit,
  // conda environments, NVIDIA's Python wheels); empty for NVML, which comes with the driver.
  searched: z.array(z.string()),
});
export type LibraryStatus = z.infer<typeof LIBRARY>;

const PEAK = z.strictObject({
  // GB/s or GFLOP/s; null when unknown.
  value: NUM,
  // The arithmetic behind the value: "2 × 3201 MHz × 6144 bit / 8 = 4916.7 GB/s".
  formula: z.string(),
});
export type Peak = z.infer<typeof PEAK>;

export const TELEMETRY = z.strictObject({
  device: CUDA_ID,
  timestamp: z.number(),
  // False without NVML; `reason` says why.
  available: z.boolean(),
  reason: z.string().nullable(),
  smClockMHz: NUM,
  memoryClockMHz: NUM,
  temperatureC: NUM,
  powerW: NUM,
  powerLimitW: NUM,
  gpuUtilizationPercent: NUM,
  memoryUtilizationPercent: NUM,
  // NVML's clocks event reasons ("sw-power-cap", "hw-thermal", "gpu-idle", …); null when unknown.
  throttleReasons: z.array(z.string()).nullable(),
});
export type Telemetry = z.infer<typeof TELEMETRY>;

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
export type CudaDeviceInfo = z.infer<typeof CUDA_DEVICE>;

const CUDA_INVENTORY = z.strictObject({
  available: z.boolean(),
  // "no CUDA device: …" or "built without CUDA: …" when unavailable; `why`, the same as a message.
  reason: z.string().nullable(),
  why: MESSAGE.nullable().optional(),
  runtimeVersion: z.string().nullable(),
  // The CUDA version the driver supports ("13.0") and the driver's own version ("580.65.06", from NVML).
  driverCudaVersion: z.string().nullable(),
  driverVersion: z.string().nullable(),
  libraries: z.strictObject({ cublas: LIBRARY, nvrtc: LIBRARY, nvml: LIBRARY }),
  devices: z.array(CUDA_DEVICE),
});
export type CudaInventory = z.infer<typeof CUDA_INVENTORY>;

export const DEVICE_REPORT = z.strictObject({
  list: DEVICE_LIST,
  cuda: CUDA_INVENTORY,
  // One reading per CUDA device, in the order of `cuda.devices`.
  telemetry: z.array(TELEMETRY),
});
export type DeviceReport = z.infer<typeof DEVICE_REPORT>;
