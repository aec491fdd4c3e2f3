// The devices a lab can run on, as the device inspector and the labs see them.
import { z } from 'zod';

import { MESSAGE } from './message-schema.ts';

const DETAIL = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const DEVICE_SUMMARY = z.strictObject({
  id: z.string(),
  kind: z.enum(['cpu', 'cuda']),
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
  // The same as a message (host-reasons.ts), read in the reader's language; absent in records from before it was kept.
  cudaWhy: MESSAGE.nullable().optional(),
  // What the CPU GEMM runs on ("OpenBLAS 0.3.21 …" or why the built-in blocked GEMM is used instead).
  blas: z.string(),
});
export type DeviceList = z.infer<typeof DEVICE_LIST>;
