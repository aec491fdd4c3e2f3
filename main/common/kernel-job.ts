// What main asks the compute host to do for one kernel run, and the shape of the answer: both cross the process
// boundary and are checked on arrival. Main resolves the defaults (device, size, launch) and reads the reference
// sources from disk; the host only compiles, launches, verifies and times.
import { z } from 'zod';

import { DEVICE_ID } from './measurement.ts';
import { DIM3, EXERCISE_IDS, MAX_SOURCE_CHARS } from './playground.ts';

const LAUNCH = z.strictObject({ grid: DIM3, block: DIM3 });

export const KERNEL_JOB = z.strictObject({
  exercise: z.enum(EXERCISE_IDS),
  device: DEVICE_ID.refine((d) => d !== 'cpu', 'a CUDA device'),
  size: z.int().min(1),
  source: z.string().min(1).max(MAX_SOURCE_CHARS),
  fileName: z.string().min(1).max(120),
  launch: LAUNCH,
  compare: z.boolean(),
  references: z.array(z.strictObject({ id: z.string(), file: z.string(), entry: z.string(), text: z.string(), launch: LAUNCH })).max(8),
  seed: z.int().min(0).max(2 ** 31),
});
export type KernelJob = z.infer<typeof KERNEL_JOB>;

const THROUGHPUT = z.strictObject({ medianMs: z.number(), samplesMs: z.array(z.number()), rate: z.number(), peakFraction: z.number().nullable() });

export const KERNEL_RUN_RESULT = z.strictObject({
  exercise: z.enum(EXERCISE_IDS),
  device: z.string(),
  deviceName: z.string(),
  size: z.int(),
  compile: z.strictObject({
    ok: z.boolean(),
    log: z.string(),
    diagnostics: z.array(z.strictObject({ line: z.int(), column: z.int().nullable(), severity: z.enum(['error', 'warning', 'remark']), message: z.string() })),
    arch: z.string(),
    nvrtcVersion: z.string(),
    ms: z.number(),
  }),
  launch: z
    .strictObject({
      grid: DIM3,
      block: DIM3,
      registersPerThread: z.int(),
      staticSharedBytes: z.int(),
      localBytesPerThread: z.int(),
      maxThreadsPerBlock: z.int(),
      blocksPerSm: z.int(),
      activeWarpsPerSm: z.int(),
      maxWarpsPerSm: z.int(),
      occupancy: z.number(),
      threadsLaunched: z.number(),
    })
    .nullable(),
  verification: z
    .strictObject({
      ok: z.boolean(),
      checked: z.int(),
      total: z.int(),
      method: z.string(),
      tolerance: z.string(),
      check: z.enum(['every-element', 'total', 'sampled-gemm']),
      relativeTolerance: z.number().min(0),
      samples: z.int().min(0).nullable(),
      mismatchCount: z.int(),
      mismatches: z.array(z.strictObject({ index: z.int(), row: z.int().nullable(), col: z.int().nullable(), got: z.number().nullable(), expected: z.number() })),
      maxRelativeError: z.number(),
    })
    .nullable(),
  throughput: THROUGHPUT.nullable(),
  comparisons: z.array(
    z.strictObject({ id: z.string(), kind: z.enum(['reference', 'builtin', 'cublas']), title: z.string(), throughput: THROUGHPUT.nullable(), verified: z.boolean(), error: z.string().nullable() }),
  ),
  peak: z.strictObject({ value: z.number(), unit: z.string() }).nullable(),
  warmup: z.int(),
  repeats: z.int(),
  totalMs: z.number(),
});
