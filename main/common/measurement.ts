// What the compute host is asked to measure: one operation, on one device, at one size, with its warm-up and the
// time it may spend sampling (the engine decides how many samples: host/sampling.ts). Plain data (it crosses the
// process boundary), validated on arrival in the host.
import { z } from 'zod';

import { PEER_LIBRARIES } from './pure/peer-libraries.ts';

// The CPU, a CUDA device by its ordinal, or a WebGPU adapter by its place in the compute host's list of them
// (host/webgpu/dawn.ts).
export const DEVICE_ID = z.string().regex(/^(cpu|cuda:\d{1,2}|webgpu:\d{1,2})$/, 'a device id: "cpu", "cuda:N" or "webgpu:N"');
export type DeviceId = 'cpu' | `cuda:${number}` | `webgpu:${number}`;
export const WEBGPU_DEVICE = /^webgpu:\d{1,2}$/;
export const isWebgpuDevice = (device: string): device is `webgpu:${number}` => WEBGPU_DEVICE.test(device);

// The measurement vocabulary, one word each from the lab plans down to the native facade (which re-exports these
// types), the addon's arguments and the Python peers' protocol (peer-protocol.ts adds only what Python alone has):
//
// The operations. `op` names the work; `variant` names the implementation that does it (a loop, a library, a
// kernel); `path` where its data lives; `clock` what times it; `dtype` the element type.
export const OPS = ['empty', 'add', 'mul', 'exp', 'vector-function', 'gemm', 'blas1', 'copy', 'text-to-image'] as const;
export type Op = (typeof OPS)[number];

// Where the data lives while the operation is timed: already on the device (`resident`), or copied there and back
// inside the timed region (`with-copies`: what a user calling a library on host arrays pays).
export const DATA_PATHS = ['resident', 'with-copies'] as const;
export const DATA_PATH = z.enum(DATA_PATHS);
export type DataPath = z.infer<typeof DATA_PATH>;

// The element type of an array, as the engine stores it.
export const DTYPES = ['fp64', 'fp32', 'fp16', 'bf16', 'int8'] as const;
export type DType = (typeof DTYPES)[number];
// The element type of a GEMM: tf32 is fp32 in memory multiplied by tensor cores; int8 products sum into fp32.
export const GEMM_DTYPES = ['fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'int8'] as const;
export const GEMM_DTYPE = z.enum(GEMM_DTYPES);
export type GemmDtype = z.infer<typeof GEMM_DTYPE>;

// Which clock times a sample. `events`: CUDA events around the work (device time, launch latency excluded; on a
// WebGPU adapter, timestamp queries around the compute pass).
// `host`: the host's monotonic clock around launch and synchronisation, what a program calling the GPU waits for,
// comparable with a CPU time. `host-nosync` stops the host's clock right after the launch returns, without
// synchronising: the classic mistake, measured on purpose by the timing-pitfalls lab. The CPU has the host clock
// only, whatever is asked.
export const CLOCKS = ['events', 'host', 'host-nosync'] as const;
export const CLOCK = z.enum(CLOCKS);
export type Clock = z.infer<typeof CLOCK>;

// The implementations of each op: the CPU's loop on one thread or on all, the GPU's kernel; the vector function's
// three passes or one fused kernel; a GEMM through a BLAS, the built-in blocked one, cuBLAS, or the hand-written
// naive and tiled kernels.
export const ELEMENTWISE_VARIANTS = ['single', 'threads', 'kernel'] as const;
export type ElementwiseVariant = (typeof ELEMENTWISE_VARIANTS)[number];
export const VECTOR_FUNCTION_VARIANTS = ['single', 'threads', 'unfused', 'fused'] as const;
export type VectorFunctionVariant = (typeof VECTOR_FUNCTION_VARIANTS)[number];
export const GEMM_VARIANTS = ['blas', 'blocked', 'cublas', 'naive', 'tiled'] as const;
export type GemmVariant = (typeof GEMM_VARIANTS)[number];
// A copy: its direction, the host memory it copies from or to, and whether the host waits for it.
export const COPY_DIRECTIONS = ['h2d', 'd2h', 'd2d'] as const;
export const HOST_MEMORIES = ['pageable', 'pinned'] as const;
export const COPY_MODES = ['sync', 'async'] as const;
// How a WebGPU adapter takes a host→device copy: queue.writeBuffer, or a mapped upload buffer (host/webgpu/copy.ts).
export const COPY_UPLOADS = ['write-buffer', 'mapped'] as const;
export type CopyMode = (typeof COPY_MODES)[number];
// The Python libraries GPU Lab asks of the interpreter (peer-libraries.ts, plain data the renderer reads too).
export { PEER_LIBRARIES };
export type { PeerLibrary } from './pure/peer-libraries.ts';
// cuBLAS's level-1 routines (and its transpose) the kernel playground sets beside a student's kernel.
export const BLAS1_ROUTINES = ['saxpy', 'sum', 'transpose'] as const;
export type Blas1Routine = (typeof BLAS1_ROUTINES)[number];

// The most of each quantity the engine measures, declared once: the labs' parameters are bounded by these (a lab
// may offer less, never more: tests/unit/labs/limits.test.ts), the exercises' sizes too, and the compute host checks
// every measurement against the same numbers on arrival (MEASUREMENT, below). What the native code below it can take
// (32-bit ints, a grid's blocks) is checked there, for memory's sake only.
export const LIMITS = {
  // The order of a GEMM's matrices (m, n, k) and of a transposed square matrix: 16384² fp64 is 2 GiB a matrix.
  matrixOrder: 16384,
  // 2^31 − 1 elements: the largest count every kernel indexes with 32-bit ints.
  elements: 2147483647,
  // The largest finite fp32: cuBLAS takes saxpy's `a` as a float.
  fp32: 3.4028234663852886e38,
  // 16 GiB per copy.
  bytes: 2 ** 34,
  // Warm-up runs, and samples.
  repeats: 100000,
  // CPU threads: the native thread pool's size.
  threads: 256,
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
  threads: z.int().min(1).max(LIMITS.threads).optional(),
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
    variant: z.enum(ELEMENTWISE_VARIANTS),
    elements: z.int().min(1).max(LIMITS.elements),
    path: DATA_PATH.default('resident'),
    ...common,
  }),
  z.strictObject({
    op: z.literal('vector-function'),
    variant: z.enum(VECTOR_FUNCTION_VARIANTS),
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
    variant: z.enum(GEMM_VARIANTS),
    m: z.int().min(1).max(LIMITS.matrixOrder),
    n: z.int().min(1).max(LIMITS.matrixOrder),
    k: z.int().min(1).max(LIMITS.matrixOrder),
    path: DATA_PATH.default('resident'),
    ...common,
  }),
  // cuBLAS on device-resident fp32 data, which the kernel playground sets beside a student's kernel: saxpy
  // (out = a·x + y), sum (of x, whose values are whole numbers 0…3) and the transpose of an n×n matrix.
  z.discriminatedUnion('routine', [
    z.strictObject({ op: z.literal('blas1'), routine: z.literal('saxpy'), elements: z.int().min(1).max(LIMITS.elements), a: z.number().min(-LIMITS.fp32).max(LIMITS.fp32), ...common }),
    z.strictObject({ op: z.literal('blas1'), routine: z.literal('sum'), elements: z.int().min(1).max(LIMITS.elements), ...common }),
    z.strictObject({ op: z.literal('blas1'), routine: z.literal('transpose'), n: z.int().min(1).max(LIMITS.matrixOrder), ...common }),
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
    direction: z.enum(COPY_DIRECTIONS),
    hostMemory: z.enum(HOST_MEMORIES),
    mode: z.enum(COPY_MODES),
    upload: z.enum(COPY_UPLOADS).optional(),
    bytes: z.int().min(1).max(LIMITS.bytes),
    ...common,
  }),
]);

export type MeasurementInput = z.input<typeof MEASUREMENT>;
export type Measurement = z.output<typeof MEASUREMENT>;

// A result checked against its float64 reference. `method` 'full': every element compared; 'sampled': `checked` of
// `total` elements, chosen at random. `relativeError`: ‖out − ref‖₂ / ‖ref‖₂ over the checked elements, null when the
// output held NaN or infinity (JSON carries neither). `mismatches`: the first elements that disagree, for the user to
// look at.
export const VERIFICATION = z.strictObject({
  method: z.enum(['full', 'sampled']),
  checked: z.int().min(0),
  total: z.int().min(0),
  relativeError: z.number().nullable(),
  tolerance: z.number(),
  passed: z.boolean(),
  mismatches: z.array(z.strictObject({ index: z.int(), got: z.number().nullable(), expected: z.number() })),
});
export type Verification = z.infer<typeof VERIFICATION>;

export const TELEMETRY_SNAPSHOT = z.strictObject({
  smClockMHz: z.number().nullable(),
  memoryClockMHz: z.number().nullable(),
  temperatureC: z.number().nullable(),
  powerW: z.number().nullable(),
  throttleReasons: z.array(z.string()),
});
export type TelemetrySnapshot = z.infer<typeof TELEMETRY_SNAPSHOT>;

// How many samples a point took and why sampling stopped there (host/sampling.ts): the median's interval came
// within ±targetFraction of it ('converged'), the time budget was spent, the first sample alone outlasted the budget,
// the cap was reached, or the run was cancelled.
export const SAMPLING_STOPS = ['converged', 'budget', 'one-sample-over-budget', 'max-samples', 'cancelled'] as const;
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
  // The share of the time the CPUs wanted to run that the hypervisor gave to other guests while the point was
  // measured (runs/cpu-steal.ts); null where it cannot be read, absent where the point was not measured in a run.
  cpuSteal: z.number().nullable().optional(),
  // The CPUs' mean clock before and after the point, in MHz (runs/cpu-steal.ts); null where cpufreq is not readable.
  cpuClockMHz: z.strictObject({ start: z.number().positive(), end: z.number().positive() }).nullable().optional(),
  // Where the point's time went in the compute host, in seconds, by phase (POINT_PHASES): what a run's wall time
  // holds beyond its samples (scripts/run-all-labs.mjs sums them per series). Absent in records from before.
  phases: z.partialRecord(z.enum(POINT_PHASES), z.number().min(0)).optional(),
});
export type PointSampling = z.infer<typeof SAMPLING>;

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
export const POINT_MEMORY = z.strictObject({ bytes: z.number().nonnegative(), where: z.enum(['device', 'host']) });
export type PointMemory = z.infer<typeof POINT_MEMORY>;

// What the compute host answers for a measurement: the clock its samples were taken on (the CPU's is the host's,
// whatever was asked; a WebGPU adapter's without timestamp queries too), every sample on the host's clock and, where
// CUDA events or WebGPU's timestamp queries timed it too, on those (which of them count: statistics.ts
// countedSamples); the code that ran; the verification (null where there is nothing to check: the empty op);
// telemetry before and after.
export const MEASUREMENT_RESULT = z.strictObject({
  clock: CLOCK,
  hostMs: z.array(z.number()),
  deviceMs: z.array(z.number()).nullable(),
  implementation: z.string(),
  threads: z.int(),
  // Runs averaged in each sample (see minSampleMs).
  executionsPerSample: z.int().min(1),
  verification: VERIFICATION.nullable(),
  telemetry: z.strictObject({ start: TELEMETRY_SNAPSHOT, end: TELEMETRY_SNAPSHOT }).nullable(),
  // Every result of the compute host has it; absent only from results made by hand (tests, records' fixtures).
  sampling: SAMPLING.optional(),
  // WebGPU's only.
  clockResolution: CLOCK_RESOLUTION.optional(),
  // Where the workload says (the text-to-image lab).
  memory: POINT_MEMORY.optional(),
});
export type MeasurementResult = z.infer<typeof MEASUREMENT_RESULT>;
