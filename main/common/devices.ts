// The devices a lab can run on, as the device inspector and the labs see them.
import { z } from 'zod';

import { MESSAGE } from './message-schema.ts';

const DETAIL = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const DEVICE_SUMMARY = z.strictObject({
  id: z.string(),
  kind: z.enum(['cpu', 'cuda', 'webgpu']),
  name: z.string(),
  // Theoretical peaks from the device's attributes, where known: the yardsticks of "% of peak".
  peakGflopsFp32: z.number().nullable(),
  peakGflopsFp64: z.number().nullable(),
  peakMemoryGBps: z.number().nullable(),
  memoryBytes: z.number().nullable(),
  details: z.record(z.string(), DETAIL),
  // Why a CPU has no FLOP peak, as a message (its English is details.peakReason); absent where it has one, and in
  // records from before it was kept.
  peakWhy: MESSAGE.nullable().optional(),
});
export type DeviceSummary = z.infer<typeof DEVICE_SUMMARY>;

export const DEVICE_LIST = z.strictObject({
  devices: z.array(DEVICE_SUMMARY),
  // Why there is no CUDA device, when there is none ("built without CUDA", "no NVIDIA driver", …).
  cudaReason: z.string().nullable(),
  // Why there is no WebGPU adapter, when there is none (absent in records from before WebGPU was a device).
  webgpuReason: z.string().nullable().optional(),
  // The same as a message (host-reasons.ts), read in the reader's language; absent in records from before it was kept.
  cudaWhy: MESSAGE.nullable().optional(),
  // What the CPU GEMM runs on ("OpenBLAS 0.3.21 …" or why the built-in blocked GEMM is used instead).
  blas: z.string(),
  // The same in words a reader reads in their language (blas-host.ts blasWhat); absent from lists made before it.
  blasWhat: MESSAGE.nullable().optional(),
});
export type DeviceList = z.infer<typeof DEVICE_LIST>;

// A GPU a lab can compare with the CPU: a CUDA device or a WebGPU adapter.
export const isGpu = (d: DeviceSummary): boolean => d.kind === 'cuda' || d.kind === 'webgpu';
