// What main asks the compute host to do for one kernel run; the answer is a KERNEL_RUN_RESULT (playground.ts). Both
// cross the process boundary and are checked on arrival. Main resolves the defaults (device, size, launch) and reads
// the reference sources from disk; the host only compiles, launches, verifies and times.
import { z } from 'zod';

import { DEVICE_ID } from './measurement.ts';
import { EXERCISE_IDS, KERNEL_LAUNCH, LISTING_KINDS, MAX_SOURCE_CHARS } from './playground.ts';

export const KERNEL_JOB = z.strictObject({
  exercise: z.enum(EXERCISE_IDS),
  device: DEVICE_ID.refine((d) => d !== 'cpu', 'a CUDA device'),
  size: z.int().min(1),
  source: z.string().min(1).max(MAX_SOURCE_CHARS),
  fileName: z.string().min(1).max(120),
  launch: KERNEL_LAUNCH,
  compare: z.boolean(),
  references: z.array(z.strictObject({ id: z.string(), file: z.string(), entry: z.string(), text: z.string(), launch: KERNEL_LAUNCH })).max(8),
  seed: z.int().min(0).max(2 ** 31),
  listings: z.array(z.enum(LISTING_KINDS)).max(LISTING_KINDS.length),
});
export type KernelJob = z.infer<typeof KERNEL_JOB>;
