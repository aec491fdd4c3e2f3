// The kernel playground's data: the exercises a student writes a CUDA kernel for, what they ask to run, and what
// comes back (the compiler's diagnostics, the launch and its occupancy, the verification, the timings beside the
// reference and built-in kernels). Plain data, schemas first: it crosses the process boundary and the wire, and is
// stored; the types are the schemas'.
import { z } from 'zod';

import { ERROR_PAYLOAD } from './host-protocol.ts';
import { DEVICE_ID } from './measurement.ts';
import { MESSAGE } from './message-schema.ts';

export const EXERCISE_IDS = ['polynomial-fp32', 'polynomial-fp64', 'saxpy', 'reduction', 'transpose', 'sgemm', 'multiply', 'add'] as const;
export type ExerciseId = (typeof EXERCISE_IDS)[number];

export const MAX_SOURCE_CHARS = 100_000;

export const DIM3 = z.tuple([z.int().min(1), z.int().min(1), z.int().min(1)]);
export type Dim3 = z.infer<typeof DIM3>;

// Dynamic shared memory per block: at most 48 KiB, past which CUDA needs an opt-in the playground does not make.
const DYNAMIC_SHARED_BYTES = z.int().min(0).max(49_152);

export const KERNEL_LAUNCH = z.strictObject({ grid: DIM3, block: DIM3, dynamicSharedBytes: DYNAMIC_SHARED_BYTES.optional() });
export type KernelLaunch = z.infer<typeof KERNEL_LAUNCH>;

// One argument of an exercise's fixed signature, in order. `input` and `output` are device arrays of the
// exercise's element type; a scalar is passed by value.
const KERNEL_PARAM = z.strictObject({
  name: z.string(),
  role: z.enum(['input', 'output', 'scalar']),
  // As it is written in the signature: "const float*", "double", "int", "size_t"…
  ctype: z.string(),
});
export type KernelParam = z.infer<typeof KERNEL_PARAM>;

// A kernel that comes with the exercise: the starter a student begins from, or a reference solution.
const EXERCISE_KERNEL = z.strictObject({
  id: z.string(),
  kind: z.enum(['starter', 'reference']),
  title: z.string(),
  // Where it lives, from the repository root (shaders/playground/saxpy.starter.cu, shaders/cuda/sgemm_tiled.cuh).
  file: z.string(),
  text: z.string(),
  // The kernel's name: the exercise's, since every kernel that comes with an exercise is a student's file as it stands.
  entry: z.string(),
  // How it is launched at the exercise's default size, as its launch header says (launch-header.ts).
  launch: KERNEL_LAUNCH,
  // Why it is written this way, one sentence.
  note: z.string(),
});
export type ExerciseKernel = z.infer<typeof EXERCISE_KERNEL>;

// A built-in implementation of the same work, measured by the engine beside the student's kernel.
const EXERCISE_BUILTIN = z.strictObject({ id: z.string(), kind: z.enum(['builtin', 'cublas']), title: z.string() });
export type ExerciseBuiltin = z.infer<typeof EXERCISE_BUILTIN>;

export const EXERCISE_DESCRIPTOR = z.strictObject({
  id: z.enum(EXERCISE_IDS),
  title: z.string(),
  // The statement, a paragraph an item.
  statement: z.array(z.string()),
  hints: z.array(z.string()),
  // The signature every kernel of the exercise has, as C: `__global__ void saxpy(const float* x, …)`.
  signature: z.string(),
  params: z.array(KERNEL_PARAM),
  // The name the student's kernel must have.
  entry: z.string(),
  // The problem size: the number of elements, or the matrix order.
  size: z.strictObject({ name: z.enum(['n', 'N']), default: z.number(), min: z.number(), max: z.number(), label: z.string() }),
  // How the default grid follows from the size and the block: one thread per element of the output ("1d"), or
  // one per element of a rows × cols output ("2d").
  cover: z.enum(['1d', '2d']),
  defaultBlock: DIM3,
  metric: z.enum(['GB/s', 'GFLOP/s']),
  // The arithmetic behind the metric, said in words: "12 bytes per element: x and y read, out written".
  work: z.string(),
  kernels: z.array(EXERCISE_KERNEL),
  builtins: z.array(EXERCISE_BUILTIN),
});
export type ExerciseDescriptor = z.infer<typeof EXERCISE_DESCRIPTOR>;

// Whether kernels can be compiled and run here, and if not, why: the exercises and their kernels are shown anyway.
export const PLAYGROUND_STATUS = z.strictObject({
  nvrtc: z.strictObject({ available: z.boolean(), version: z.string().nullable(), reason: z.string().nullable() }),
  devices: z.array(z.strictObject({ id: z.string(), name: z.string(), computeCapability: z.string() })),
  // Null when a kernel can be compiled and run; otherwise the first reason it cannot, and the same as a message.
  unavailableReason: z.string().nullable(),
  unavailableWhy: MESSAGE.nullable().optional(),
});
export type PlaygroundStatus = z.infer<typeof PLAYGROUND_STATUS>;

// What a student asks to run. Its shape is checked at the contract's door; the service then checks what needs the
// exercise (the size's range, CUDA's launch limits) and the source's allowlist, and fills in the defaults.
export const LISTING_KINDS = ['ptx', 'sass'] as const;
export type ListingKind = (typeof LISTING_KINDS)[number];

// A listing of the compiled kernel: the text as the tool printed it, one entry a line, each with the line of the
// student's source it was compiled from (-lineinfo), or null for the lines that come from no line of it (directives,
// declarations, the signature check appended to the source). Or, where there is none, why.
export const LISTING = z.strictObject({
  kind: z.enum(LISTING_KINDS),
  // What made it: "NVRTC 13.0 (compute_90)", "nvdisasm 13.0".
  tool: z.string().nullable(),
  lines: z.array(z.strictObject({ text: z.string(), source: z.int().min(1).nullable() })),
  // Lines left out past MAX_LISTING_LINES.
  truncated: z.int().min(0),
  // Why there is no listing (no nvdisasm or cuobjdump on this machine, a PTX-only image); null when there is one.
  unavailable: z.string().nullable(),
});
export type Listing = z.infer<typeof LISTING>;
export const MAX_LISTING_LINES = 20_000;

export const KERNEL_RUN_REQUEST = z.strictObject({
  exercise: z.enum(EXERCISE_IDS),
  source: z.string().min(1).max(MAX_SOURCE_CHARS),
  device: DEVICE_ID.optional(),
  size: z.int().min(1).optional(),
  // Absent: the block of the source's launch header (launch-header.ts), else the exercise's. `grid` absent: the grid
  // the header's rule gives with that block, else the one that covers the size with it.
  block: DIM3.optional(),
  grid: DIM3.optional(),
  // Built-ins and references timed beside the student's kernel (absent: true); false for a quick check.
  compare: z.boolean().optional(),
  // The name of the file as the compiler's messages give it.
  fileName: z.string().min(1).max(120).regex(/^[\w.-]+$/).optional(),
  // false: a GPU another run is measuring on refuses this run at once (DEVICE_BUSY) instead of waiting for it.
  wait: z.boolean().optional(),
  // What the compiler made of the kernel, returned with the result: its PTX (NVRTC) and its SASS (nvdisasm or
  // cuobjdump, where installed), each line with the line of the source it came from.
  listings: z.array(z.enum(LISTING_KINDS)).max(LISTING_KINDS.length).optional(),
});
export type KernelRunRequest = z.infer<typeof KERNEL_RUN_REQUEST>;

const COMPILER_DIAGNOSTIC = z.strictObject({
  line: z.int(),
  // 1-based; null where the compiler's message gives no column.
  column: z.int().nullable(),
  severity: z.enum(['error', 'warning', 'remark']),
  message: z.string(),
});
export type CompilerDiagnostic = z.infer<typeof COMPILER_DIAGNOSTIC>;

const COMPILE_RESULT = z.strictObject({
  ok: z.boolean(),
  // The compiler's whole log, as it wrote it.
  log: z.string(),
  diagnostics: z.array(COMPILER_DIAGNOSTIC),
  // "sm_90"
  arch: z.string(),
  nvrtcVersion: z.string(),
  ms: z.number(),
});
export type CompileResult = z.infer<typeof COMPILE_RESULT>;

const LAUNCH_REPORT = z.strictObject({
  grid: DIM3,
  block: DIM3,
  // As the source's launch header asked; absent in runs recorded before headers, and where it is 0.
  dynamicSharedBytes: DYNAMIC_SHARED_BYTES.optional(),
  registersPerThread: z.int(),
  staticSharedBytes: z.int(),
  localBytesPerThread: z.int(),
  maxThreadsPerBlock: z.int(),
  // What cudaOccupancyMaxActiveBlocksPerMultiprocessor says for this block.
  blocksPerSm: z.int(),
  activeWarpsPerSm: z.int(),
  maxWarpsPerSm: z.int(),
  // activeWarpsPerSm / maxWarpsPerSm
  occupancy: z.number(),
  // Threads launched against the elements to cover: below 1, part of the output is never written.
  threadsLaunched: z.number(),
});
export type LaunchReport = z.infer<typeof LAUNCH_REPORT>;

const MISMATCH = z
  .strictObject({
    // Flat index into the output, and its row and column where the output is a matrix.
    index: z.int(),
    row: z.int().nullable(),
    col: z.int().nullable(),
    // null: NaN (JSON has none).
    got: z.number().nullable(),
    expected: z.number(),
    // The element still holds the poison the output was filled with (every byte 0xFF): the kernel never wrote it. A
    // NaN the kernel computed is not that. Absent in runs recorded before the two were told apart, when every NaN
    // was taken for an element never written.
    unwritten: z.boolean().optional(),
  })
  .transform((m) => ({ ...m, unwritten: m.unwritten ?? m.got === null }));
export type Mismatch = z.infer<typeof MISMATCH>;

const VERIFICATION_FIELDS = {
  ok: z.boolean(),
  // Elements compared with the reference's value.
  checked: z.int().min(0),
  // Elements of the output.
  total: z.int().min(0),
  // How the elements were checked, in words (English, as stored)…
  method: z.string(),
  tolerance: z.string(),
  // …and as data, for a reader in another language: every element against its own tolerance; the one total of a
  // sum; or, for SGEMM, the last row, the last column and `samples` random elements against float64 dot products
  // (every element of the output is also looked at for having been written).
  // 'sampled-gemm': runs stored before 'gemm-crossings', whose extra elements were drawn one by one at random.
  // 'gemm-every-element': every element of an SGEMM against a float64 reference made on the GPU, within
  // relativeTolerance × the reference's RMS.
  check: z.enum(['every-element', 'total', 'sampled-gemm', 'gemm-crossings', 'gemm-every-element']),
  // |got − expected| allowed: this times |expected| (floored at this times the RMS of the reference) for
  // 'every-element'; this times the RMS of the elements checked for a GEMM check; 0 is an exact comparison.
  relativeTolerance: z.number().min(0),
  // 'gemm-crossings': the elements checked where random rows cross random columns, besides the last row and column;
  // 'sampled-gemm': the random elements checked besides them; null otherwise.
  samples: z.int().min(0).nullable(),
  // The first elements found wrong or never written, in index order (at most 10).
  mismatches: z.array(MISMATCH),
};

// As this version writes it: the wrong elements are counted among those checked, the elements never written over
// the whole output, and the largest relative error is a number only where one is defined.
const VERIFICATION_NOW = z
  .strictObject({
    ...VERIFICATION_FIELDS,
    // Elements among the `checked` that differ from the reference (a NaN differs from everything): at most
    // `checked`. null only in a run recorded by an older version that counted them together with the elements never
    // written (`olderWrongOrUnwritten`), and cannot be split again.
    mismatchCount: z.int().min(0).nullable(),
    // Elements of the whole output still holding the poison, whether checked or not: at most `total`. null where an
    // older version did not count them.
    neverWritten: z.int().min(0).nullable(),
    // Runs recorded by an older version only (see mismatchCount).
    olderWrongOrUnwritten: z.int().min(0).optional(),
    // Largest |got − expected| / |expected| among the elements checked; null where it is not a number: an element
    // checked is NaN or infinite, or differs from an expected 0.
    maxRelativeError: z.number().min(0).nullable(),
  })
  .refine((v) => v.mismatchCount === null || v.mismatchCount <= v.checked, { message: 'at most `checked` wrong elements', path: ['mismatchCount'] })
  .refine((v) => v.neverWritten === null || v.neverWritten <= v.total, { message: 'at most `total` elements never written', path: ['neverWritten'] });

// As earlier builds wrote it: `mismatchCount` added the elements found unwritten outside those checked (SGEMM's
// could pass `checked`), and an element never written set `maxRelativeError` to the largest double, 1.8·10³⁰⁸.
const VERIFICATION_OLDER = z.strictObject({ ...VERIFICATION_FIELDS, mismatchCount: z.int().min(0), maxRelativeError: z.number() });

const OLDER_SENTINEL = Number.MAX_VALUE;

// What can be said again from an older record: its count stands where it counted the elements checked only (every
// element, or the total; SGEMM's where no NaN was seen, since every NaN then added to it), and never where it passes
// them (whatever the check, such a count cannot be one of wrong elements among those checked); its elements never
// written where every mismatch is listed (a NaN then was taken for one, and the total's output is zeroed before
// the launch, so a NaN total was computed).
function fromOlder(v: z.infer<typeof VERIFICATION_OLDER>): z.infer<typeof VERIFICATION_NOW> {
  const sawNaN = v.maxRelativeError >= OLDER_SENTINEL;
  const mismatches = v.mismatches.map((m) => ({ ...m, unwritten: v.check !== 'total' && m.got === null }));
  const allListed = v.mismatchCount === v.mismatches.length;
  const neverWritten = !sawNaN || v.check === 'total' ? 0 : allListed ? mismatches.filter((m) => m.unwritten).length : null;
  const lumped = (v.check === 'sampled-gemm' && sawNaN) || v.mismatchCount > v.checked;
  return {
    ...v,
    mismatches,
    mismatchCount: lumped ? null : v.mismatchCount,
    neverWritten: lumped ? null : neverWritten,
    ...(lumped ? { olderWrongOrUnwritten: v.mismatchCount } : {}),
    maxRelativeError: sawNaN || !Number.isFinite(v.maxRelativeError) ? null : v.maxRelativeError,
  };
}

const VERIFICATION_RESULT = z.union([VERIFICATION_NOW, VERIFICATION_OLDER.transform(fromOlder)]);
export type VerificationResult = z.infer<typeof VERIFICATION_NOW>;

const THROUGHPUT = z.strictObject({
  medianMs: z.number(),
  samplesMs: z.array(z.number()),
  // In the exercise's metric (GB/s or GFLOP/s).
  rate: z.number(),
  // rate / the device's peak for that metric; null where the peak is unknown.
  peakFraction: z.number().nullable(),
});
export type Throughput = z.infer<typeof THROUGHPUT>;

// One bar beside the student's: a reference kernel compiled the same way, a built-in kernel of the engine, or the
// student's own kernel launched from Python as Unit 10 does it (common/pure/python-launch.ts).
const COMPARISON = z.strictObject({
  id: z.string(),
  kind: z.enum(['reference', 'builtin', 'cublas', 'python']),
  title: z.string(),
  throughput: THROUGHPUT.nullable(),
  verified: z.boolean(),
  // Why there is no figure ("no cuBLAS on this machine"), in English as stored…
  error: z.string().nullable(),
  // …and as a message, where one says it in the reader's language (absent from runs stored before).
  why: MESSAGE.optional(),
  // What launched it, where that is not the exercise's own path ("cuda.core 1.2.0", "PyCUDA 2025.1.2").
  implementation: z.string().max(200).optional(),
});
export type Comparison = z.infer<typeof COMPARISON>;

// What the compute host answers for a kernel job (kernel-job.ts), checked on arrival.
export const KERNEL_RUN_RESULT = z.strictObject({
  exercise: z.enum(EXERCISE_IDS),
  device: z.string(),
  deviceName: z.string(),
  size: z.int(),
  compile: COMPILE_RESULT,
  launch: LAUNCH_REPORT.nullable(),
  verification: VERIFICATION_RESULT.nullable(),
  throughput: THROUGHPUT.nullable(),
  comparisons: z.array(COMPARISON),
  peak: z.strictObject({ value: z.number(), unit: z.string() }).nullable(),
  // Set where a memory-bound exercise's working set fits in the device's L2 cache: the timed launches after the
  // first read it from L2, so the rate is not DRAM bandwidth and peak is null. Absent from runs stored before it.
  l2: z.strictObject({ workingSetBytes: z.number(), l2Bytes: z.number() }).optional(),
  warmup: z.int(),
  repeats: z.int(),
  // Compile, load, verify and time, end to end in the compute host.
  totalMs: z.number(),
  // The listings asked for, in the order asked; absent when none was.
  listings: z.array(LISTING).optional(),
  // Where totalMs went: compiling, making the inputs (filled, copied to the device), the verification launch with
  // its check on the CPU, the timed launches, and the comparisons. Absent from runs stored before it.
  phasesMs: z.strictObject({ compile: z.number(), inputs: z.number(), verify: z.number(), time: z.number(), compare: z.number() }).optional(),
});
export type KernelRunResult = z.infer<typeof KERNEL_RUN_RESULT>;

const KERNEL_RUN_ID = z.string().regex(/^[A-Za-z0-9._-]{1,120}$/);
const KERNEL_RUN_STATUS = z.enum(['compile-error', 'verification-failed', 'verified', 'failed']);

// A kernel run as the store keeps it: what was asked, and its result or its error. The source is kept whole, so
// the run can be read back, reported and run again.
export const KERNEL_RUN = z.strictObject({
  id: KERNEL_RUN_ID,
  exercise: z.enum(EXERCISE_IDS),
  createdAt: z.string(),
  source: z.string().max(MAX_SOURCE_CHARS),
  request: KERNEL_RUN_REQUEST,
  status: KERNEL_RUN_STATUS,
  result: KERNEL_RUN_RESULT.nullable(),
  error: ERROR_PAYLOAD.nullable(),
});
export type KernelRun = z.infer<typeof KERNEL_RUN>;

export const KERNEL_RUN_SUMMARY = z.strictObject({
  id: KERNEL_RUN_ID,
  exercise: z.enum(EXERCISE_IDS),
  createdAt: z.string(),
  status: KERNEL_RUN_STATUS,
  device: z.string().nullable(),
  // The student's kernel's median and rate, where it was timed.
  medianMs: z.number().nullable(),
  rate: z.number().nullable(),
  metric: EXERCISE_DESCRIPTOR.shape.metric,
});
export type KernelRunSummary = z.infer<typeof KERNEL_RUN_SUMMARY>;
