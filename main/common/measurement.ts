// What the compute host is asked to measure: one operation, on one device, at one size, with its warm-up and the
// time it may spend sampling (the engine decides how many samples: host/sampling.ts). Plain data (it crosses the
// process boundary), validated on arrival in the host.
import { z } from 'zod';

import { PEER_LIBRARIES } from './peer-protocol.ts';

// The CPU, a CUDA device by its ordinal, or a WebGPU adapter by its place in the compute host's list of them
// (host/webgpu/dawn.ts).
export const DEVICE_ID = z.string().regex(/^(cpu|cuda:\d{1,2}|webgpu:\d{1,2})$/, 'a device id: "cpu", "cuda:N" or "webgpu:N"');
export type DeviceId = 'cpu' | `cuda:${number}` | `webgpu:${number}`;
export const WEBGPU_DEVICE = /^webgpu:\d{1,2}$/;
export const isWebgpuDevice = (device: string): device is `webgpu:${number}` => WEBGPU_DEVICE.test(device);

// The measurement vocabulary, one word each from the lab plans down to the native facade (which re-exports these
// types) and the addon:
//
// Where the data lives while the operation is timed: already on the device (`resident`), or copied there and back
// inside the timed region (`with-copies`: what a user calling a library on host arrays pays).
export const DATA_PATH = z.enum(['resident', 'with-copies']);
export type DataPath = z.infer<typeof DATA_PATH>;

// The element type of a GEMM: tf32 is fp32 in memory multiplied by tensor cores; int8 products sum into fp32.
export const GEMM_DTYPE = z.enum(['fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'int8']);
export type GemmDtype = z.infer<typeof GEMM_DTYPE>;

// Which clock times a GPU sample. `events`: CUDA events around the work (device time, launch latency excluded).
// `host`: the host's monotonic clock around launch and synchronisation, what a program calling the GPU waits for,
// comparable with a CPU time. `host-nosync` stops the host's clock right after the launch returns, without
// synchronising: the classic mistake, measured on purpose by the timing-pitfalls lab. The CPU has the host clock
// only, whatever is asked.
export const CLOCK = z.enum(['events', 'host', 'host-nosync']);
export type Clock = z.infer<typeof CLOCK>;

const LIMITS = {
  // 2^31 − 1 elements: the largest count every kernel indexes with 32-bit ints.
  elements: 2147483647,
  matrix: 65536,
  // The largest n whose n×n matrix stays within `elements`.
  squareOrder: 46340,
  // The largest finite fp32: cuBLAS takes saxpy's `a` as a float.
  fp32: 3.4028234663852886e38,
  // 16 GiB per copy.
  bytes: 17179869184,
  repeats: 100000,
} as const;

const common = {
  device: DEVICE_ID,
  warmup: z.int().min(0).max(LIMITS.repeats),
  // The samples of a cold measurement (its first is the cold one); a warm one is sampled adaptively instead, within
  // `budgetSeconds` (absent: the engine's default), and this is no longer its count.
  repeats: z.int().min(1).max(LIMITS.repeats),
  budgetSeconds: z.number().positive().max(3600).optional(),
  // How close the median's interval must come before sampling stops (absent: ±2 %, TARGET_INTERVAL_FRACTION): closer
  // where a lab compares two medians to a closer margin than that (the transfer lab's pinned copies, to 3 %).
  targetFraction: z.number().min(0.002).max(0.5).optional(),
  seed: z.int().min(0).max(2 ** 31),
  // CPU threads for multithreaded variants; absent: every logical core.
  threads: z.int().min(1).max(256).optional(),
  clock: CLOCK.default('events'),
  // Cold: fresh buffers and no warm-up, so first-touch and lazy initialisation land in the first sample.
  cold: z.boolean().default(false),
  // A sample runs the operation back to back until it lasts this long and reports the mean of one run: for runs
  // of microseconds, whose single readings are mostly the clock's and the scheduler's jitter. 0: one run a sample.
  minSampleMs: z.number().min(0).max(1000).default(0),
  // Measured by a Python peer instead of the engine: the course's code for this op (python/gpu_lab_peers/labs/),
  // named by its series' code, on the engine's inputs, verified like the engine's own.
  // `timeTime`: its host clock read with Python's time.time(), as the notebooks do (perf_counter otherwise).
  peer: z.strictObject({ library: z.enum(PEER_LIBRARIES), code: z.string().regex(/^[a-z0-9-]{1,64}$/), timeTime: z.boolean().optional() }).optional(),
};

export const MEASUREMENT = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('empty'), ...common }),
  z.strictObject({
    op: z.enum(['add', 'mul', 'exp']),
    variant: z.enum(['single', 'threads', 'kernel']),
    elements: z.int().min(1).max(LIMITS.elements),
    path: DATA_PATH.default('resident'),
    ...common,
  }),
  z.strictObject({
    op: z.literal('vector-function'),
    variant: z.enum(['single', 'threads', 'unfused', 'fused']),
    // fp64, the course's type, on the CPU and CUDA; fp32 on WebGPU, whose WGSL has no f64.
    dtype: z.enum(['fp64', 'fp32']).default('fp64'),
    elements: z.int().min(1).max(LIMITS.elements),
    a: z.number(),
    b: z.number(),
    c: z.number(),
    path: DATA_PATH.default('resident'),
    ...common,
  }),
  z.strictObject({
    op: z.literal('gemm'),
    dtype: GEMM_DTYPE,
    variant: z.enum(['blas', 'blocked', 'cublas', 'naive', 'tiled']),
    m: z.int().min(1).max(LIMITS.matrix),
    n: z.int().min(1).max(LIMITS.matrix),
    k: z.int().min(1).max(LIMITS.matrix),
    path: DATA_PATH.default('resident'),
    ...common,
  }),
  // cuBLAS on device-resident fp32 data, which the kernel playground sets beside a student's kernel: saxpy
  // (out = a·x + y), sum (of x, whose values are whole numbers 0…3) and the transpose of an n×n matrix.
  z.discriminatedUnion('routine', [
    z.strictObject({ op: z.literal('blas1'), routine: z.literal('saxpy'), elements: z.int().min(1).max(LIMITS.elements), a: z.number().min(-LIMITS.fp32).max(LIMITS.fp32), ...common }),
    z.strictObject({ op: z.literal('blas1'), routine: z.literal('sum'), elements: z.int().min(1).max(LIMITS.elements), ...common }),
    z.strictObject({ op: z.literal('blas1'), routine: z.literal('transpose'), n: z.int().min(1).max(LIMITS.squareOrder), ...common }),
  ]),
  // The text-to-image lab (python/gpu_lab_peers/labs/text_to_image.py), PyTorch's only: one denoising step of a U-Net
  // of Stable Diffusion 1.5's shapes on `batch` latents of latent × latent (guided: the batch twice through the
  // U-Net, the prompt and the empty prompt), or the text encoder on the batch's prompts; `steps` make an image (the
  // loop starts a new one after them). `model`: random weights, or SD 1.5's own from the local cache (never
  // downloaded). `releaseModel`: the run's last point, after which the worker lets the model's weights go.
  z.strictObject({
    op: z.literal('text-to-image'),
    stage: z.enum(['unet', 'text-encoder']),
    batch: z.int().min(1).max(16),
    dtype: z.enum(['fp32', 'fp16']),
    latent: z.int().min(8).max(128).refine((v) => v % 8 === 0, 'a multiple of 8'),
    steps: z.int().min(1).max(1000),
    model: z.enum(['random', 'cached']).default('random'),
    releaseModel: z.boolean().default(false),
    ...common,
  }),
  // On a WebGPU adapter (host/webgpu/copy.ts) a host→device copy is queue.writeBuffer, or with `upload: 'mapped'` a
  // mapped upload buffer filled and copied with copyBufferToBuffer; device→host goes through a mapped staging buffer,
  // device→device is copyBufferToBuffer. WebGPU has no pinned memory, and every copy is waited for.
  z.strictObject({
    op: z.literal('copy'),
    direction: z.enum(['h2d', 'd2h', 'd2d']),
    hostMemory: z.enum(['pageable', 'pinned']),
    mode: z.enum(['sync', 'async']),
    upload: z.enum(['write-buffer', 'mapped']).optional(),
    bytes: z.int().min(1).max(LIMITS.bytes),
    ...common,
  }),
]);

export type MeasurementInput = z.input<typeof MEASUREMENT>;
export type Measurement = z.output<typeof MEASUREMENT>;

export interface Verification {
  // 'full': every element compared; 'sampled': `checked` of `total` elements, chosen at random.
  method: 'full' | 'sampled';
  checked: number;
  total: number;
  // ‖out − ref‖₂ / ‖ref‖₂ over the checked elements, the reference computed in float64; null when the output held
  // NaN or infinity (JSON carries neither).
  relativeError: number | null;
  tolerance: number;
  passed: boolean;
  // The first elements that disagree, for the user to look at.
  mismatches: { index: number; got: number | null; expected: number }[];
}

export interface TelemetrySnapshot {
  smClockMHz: number | null;
  memoryClockMHz: number | null;
  temperatureC: number | null;
  powerW: number | null;
  throttleReasons: string[];
}

// How many samples a point took and why sampling stopped there (host/sampling.ts): the median's interval came
// within ±targetFraction of it ('converged'), the time budget was spent, the first sample alone outlasted the budget,
// the cap was reached, or the run was cancelled.
export const SAMPLING_STOPS = ['converged', 'budget', 'one-sample-over-budget', 'max-samples', 'cancelled'] as const;
export interface PointSampling {
  samples: number;
  targetFraction: number;
  budgetSeconds: number;
  stop: (typeof SAMPLING_STOPS)[number];
  // The share of the time the CPUs wanted to run that the hypervisor gave to other guests while the point was
  // measured (runs/cpu-steal.ts); null where it cannot be read, absent where the point was not measured in a run.
  cpuSteal?: number | null;
  // The CPUs' mean clock before and after the point, in MHz (runs/cpu-steal.ts); null where cpufreq is not readable.
  cpuClockMHz?: { start: number; end: number } | null;
  // Where the point's time went in the compute host, in seconds, by phase (POINT_PHASES): what a run's wall time
  // holds beyond its samples (scripts/run-all-labs.mjs sums them per series). Absent in records from before.
  phases?: Partial<Record<PointPhase, number>>;
}

// A point's phases: its inputs written (and, for a peer, handed over in files), the CPU's quiet waited for, the BLAS
// library chosen, the peer's worker preparing, the samples (warm-up included), the peer's output read back, the check,
// the peer's worker letting go of the point's arrays (and the memory its libraries cache).
export const POINT_PHASES = ['inputs', 'quiet', 'choice', 'prepare', 'sampling', 'output', 'check', 'release'] as const;
export type PointPhase = (typeof POINT_PHASES)[number];

export const SAMPLING = z.strictObject({
  samples: z.int().min(0),
  targetFraction: z.number(),
  budgetSeconds: z.number(),
  stop: z.enum(SAMPLING_STOPS),
  cpuSteal: z.number().nullable().optional(),
  cpuClockMHz: z.strictObject({ start: z.number().positive(), end: z.number().positive() }).nullable().optional(),
  phases: z.partialRecord(z.enum(POINT_PHASES), z.number().min(0)).optional(),
});

// How fine the clocks of a WebGPU sample are. `timestamps`: timestamp queries at the GPU's own tick ('unquantised':
// Dawn's quantisation turned off; WebGPU does not tell the tick, a nanosecond on most GPUs), rounded by Dawn to steps
// of TIMESTAMP_QUANTUM_NS ('quantised': seen where every timestamp read was a multiple of it), or not read ('none').
// `hostMs`: the host's clock around onSubmittedWorkDone() tells nothing shorter than an empty submission's round trip,
// measured when the device was opened.
export const TIMESTAMP_QUANTUM_NS = 65536;
export const CLOCK_RESOLUTION = z.strictObject({ timestamps: z.enum(['unquantised', 'quantised', 'none']), hostMs: z.number().nonnegative() });
export type ClockResolution = z.infer<typeof CLOCK_RESOLUTION>;
// The memory a point held at its peak: PyTorch's peak allocation on the GPU ('device'), or the peak resident memory
// of the process that ran it on the CPU ('host': the Python worker, its interpreter and the model's weights with it).
export interface PointMemory {
  bytes: number;
  where: 'device' | 'host';
}
export const POINT_MEMORY = z.strictObject({ bytes: z.number().nonnegative(), where: z.enum(['device', 'host']) });

export interface MeasurementResult {
  hostMs: number[];
  deviceMs: number[] | null;
  implementation: string;
  threads: number;
  // Runs averaged in each sample (see minSampleMs).
  executionsPerSample: number;
  // null where there is nothing to check (the empty op, copies whose bytes are checked natively).
  verification: Verification | null;
  telemetry: { start: TelemetrySnapshot; end: TelemetrySnapshot } | null;
  // Every result of the compute host has it; absent only from results made by hand (tests, records' fixtures).
  sampling?: PointSampling;
  // WebGPU's only (CLOCK_RESOLUTION).
  clockResolution?: ClockResolution;
  // Where the workload says (the text-to-image lab).
  memory?: PointMemory;
}

export const VERIFICATION = z.strictObject({
  method: z.enum(['full', 'sampled']),
  checked: z.int().min(0),
  total: z.int().min(0),
  relativeError: z.number().nullable(),
  tolerance: z.number(),
  passed: z.boolean(),
  mismatches: z.array(z.strictObject({ index: z.int(), got: z.number().nullable(), expected: z.number() })),
});

export const TELEMETRY_SNAPSHOT = z.strictObject({
  smClockMHz: z.number().nullable(),
  memoryClockMHz: z.number().nullable(),
  temperatureC: z.number().nullable(),
  powerW: z.number().nullable(),
  throttleReasons: z.array(z.string()),
});

export const MEASUREMENT_RESULT = z.strictObject({
  hostMs: z.array(z.number()),
  deviceMs: z.array(z.number()).nullable(),
  implementation: z.string(),
  threads: z.int(),
  executionsPerSample: z.int().min(1),
  verification: VERIFICATION.nullable(),
  telemetry: z.strictObject({ start: TELEMETRY_SNAPSHOT, end: TELEMETRY_SNAPSHOT }).nullable(),
  sampling: SAMPLING.optional(),
  clockResolution: CLOCK_RESOLUTION.optional(),
  memory: POINT_MEMORY.optional(),
});
