// The kernel playground's contract: the exercises a student writes a CUDA kernel for, what they ask to run, and
// what comes back (the compiler's diagnostics, the launch and its occupancy, the verification, the timings beside
// the reference and built-in kernels). Plain data: it crosses the process boundary and the wire.
import { z } from 'zod';

import { DEVICE_ID } from './measurement.ts';
import type { ErrorPayload } from './errors.ts';
import type { Locale } from './locale.ts';

export const EXERCISE_IDS = ['polynomial-fp32', 'polynomial-fp64', 'saxpy', 'reduction', 'transpose', 'sgemm'] as const;
export type ExerciseId = (typeof EXERCISE_IDS)[number];

// One argument of an exercise's fixed signature, in order. `input` and `output` are device arrays of the
// exercise's element type; a scalar is passed by value.
export interface KernelParam {
  name: string;
  role: 'input' | 'output' | 'scalar';
  // As it is written in the signature: "const float*", "double", "int", "size_t"…
  ctype: string;
}

// A kernel that comes with the exercise: the starter a student begins from, or a reference solution.
export interface ExerciseKernel {
  id: string;
  kind: 'starter' | 'reference';
  title: string;
  // Where it lives, from the repository root (shaders/playground/saxpy.starter.cu, shaders/cuda/sgemm_tiled.cuh).
  file: string;
  text: string;
  // The kernel's name as NVRTC is asked for it: a plain name, or a template instance ("TransposeTile<float>").
  entry: string;
  // How it is launched at the exercise's default size.
  launch: KernelLaunch;
  // Why it is written this way, one sentence.
  note: string;
}

export type Dim3 = [number, number, number];

export interface KernelLaunch {
  grid: Dim3;
  block: Dim3;
}

// A built-in implementation of the same work, measured by the engine beside the student's kernel.
export interface ExerciseBuiltin {
  id: string;
  kind: 'builtin' | 'cublas';
  title: string;
}

export interface ExerciseDescriptor {
  id: ExerciseId;
  title: string;
  // The statement, a paragraph an item.
  statement: string[];
  hints: string[];
  // The signature every kernel of the exercise has, as C: `__global__ void saxpy(const float* x, …)`.
  signature: string;
  params: KernelParam[];
  // The name the student's kernel must have.
  entry: string;
  // The problem size: the number of elements, or the matrix order.
  size: { name: 'n' | 'N'; default: number; min: number; max: number; label: string };
  // How the default grid follows from the size and the block: one thread per element of the output ("1d"), or
  // one per element of a rows × cols output ("2d").
  cover: '1d' | '2d';
  defaultBlock: Dim3;
  metric: 'GB/s' | 'GFLOP/s';
  // The arithmetic behind the metric, said in words: "12 bytes per element: x and y read, out written".
  work: string;
  kernels: ExerciseKernel[];
  builtins: ExerciseBuiltin[];
}

// Whether kernels can be compiled and run here, and if not, why: the exercises and their kernels are shown anyway.
export interface PlaygroundStatus {
  nvrtc: { available: boolean; version: string | null; reason: string | null };
  devices: { id: string; name: string; computeCapability: string }[];
  // Null when a kernel can be compiled and run; otherwise the first reason it cannot.
  unavailableReason: string | null;
}

export const MAX_SOURCE_CHARS = 100_000;

export const DIM3 = z.tuple([z.int().min(1), z.int().min(1), z.int().min(1)]);

export const KERNEL_RUN_REQUEST = z.strictObject({
  exercise: z.enum(EXERCISE_IDS),
  source: z.string().min(1).max(MAX_SOURCE_CHARS),
  device: DEVICE_ID.optional(),
  size: z.int().min(1).optional(),
  // Absent: the exercise's default block. `grid` absent: the grid that covers the size with that block.
  block: DIM3.optional(),
  grid: DIM3.optional(),
  // Built-ins and references timed beside the student's kernel; false for a quick check.
  compare: z.boolean().default(true),
  // The name of the file as the compiler's messages give it.
  fileName: z.string().min(1).max(120).regex(/^[\w.-]+$/).optional(),
});
export type KernelRunRequest = z.input<typeof KERNEL_RUN_REQUEST>;

export interface CompilerDiagnostic {
  line: number;
  // 1-based; null where the compiler's message gives no column.
  column: number | null;
  severity: 'error' | 'warning' | 'remark';
  message: string;
}

export interface CompileResult {
  ok: boolean;
  // The compiler's whole log, as it wrote it.
  log: string;
  diagnostics: CompilerDiagnostic[];
  // "sm_90"
  arch: string;
  nvrtcVersion: string;
  ms: number;
}

export interface LaunchReport extends KernelLaunch {
  registersPerThread: number;
  staticSharedBytes: number;
  localBytesPerThread: number;
  maxThreadsPerBlock: number;
  // What cudaOccupancyMaxActiveBlocksPerMultiprocessor says for this block.
  blocksPerSm: number;
  activeWarpsPerSm: number;
  maxWarpsPerSm: number;
  // activeWarpsPerSm / maxWarpsPerSm
  occupancy: number;
  // Threads launched against the elements to cover: below 1, part of the output is never written.
  threadsLaunched: number;
}

export interface Mismatch {
  // Flat index into the output, and its row and column where the output is a matrix.
  index: number;
  row: number | null;
  col: number | null;
  // null: the element still holds the NaN it was poisoned with, so the kernel never wrote it.
  got: number | null;
  expected: number;
}

export interface VerificationResult {
  ok: boolean;
  // Elements compared with the reference, and how they were chosen.
  checked: number;
  total: number;
  // How the elements were checked, in words (English, as stored)…
  method: string;
  tolerance: string;
  // …and as data, for a reader in another language: every element against its own tolerance; the one total of a
  // sum; or, for SGEMM, the last row, the last column and `samples` random elements against float64 dot products
  // (every other element only for having been written).
  check: 'every-element' | 'total' | 'sampled-gemm';
  // |got − expected| allowed: this times |expected| (floored at this times the RMS of the reference) for
  // 'every-element'; this times the RMS of the elements checked for 'sampled-gemm'; 0 is an exact comparison.
  relativeTolerance: number;
  // 'sampled-gemm': the random elements checked besides the last row and column; null otherwise.
  samples: number | null;
  mismatchCount: number;
  // The first mismatches in index order (at most 10).
  mismatches: Mismatch[];
  // Largest relative error seen among the elements checked.
  maxRelativeError: number;
}

export interface Throughput {
  medianMs: number;
  samplesMs: number[];
  // In the exercise's metric (GB/s or GFLOP/s).
  rate: number;
  // rate / the device's peak for that metric; null where the peak is unknown.
  peakFraction: number | null;
}

// One bar beside the student's: a reference kernel compiled the same way, or a built-in kernel of the engine.
export interface Comparison {
  id: string;
  kind: 'reference' | 'builtin' | 'cublas';
  title: string;
  throughput: Throughput | null;
  verified: boolean;
  // Why there is no figure ("no cuBLAS on this machine").
  error: string | null;
}

export interface KernelRunResult {
  exercise: ExerciseId;
  device: string;
  deviceName: string;
  size: number;
  compile: CompileResult;
  launch: LaunchReport | null;
  verification: VerificationResult | null;
  throughput: Throughput | null;
  comparisons: Comparison[];
  peak: { value: number; unit: string } | null;
  warmup: number;
  repeats: number;
  // Compile, load, verify and time, end to end in the compute host.
  totalMs: number;
}

// A kernel run as the store keeps it: what was asked, and its result or its error. The source is kept whole, so
// the run can be read back, reported and run again.
export interface KernelRun {
  id: string;
  exercise: ExerciseId;
  createdAt: string;
  source: string;
  request: KernelRunRequest;
  status: 'compile-error' | 'verification-failed' | 'verified' | 'failed';
  result: KernelRunResult | null;
  error: ErrorPayload | null;
}

export interface KernelRunSummary {
  id: string;
  exercise: ExerciseId;
  createdAt: string;
  status: KernelRun['status'];
  device: string | null;
  // The student's kernel's median and rate, where it was timed.
  medianMs: number | null;
  rate: number | null;
  metric: ExerciseDescriptor['metric'];
}

export interface PlaygroundService {
  listExercises(locale?: Locale): Promise<ExerciseDescriptor[]>;
  status(): Promise<PlaygroundStatus>;
  // Compiles, verifies and times the kernel in the compute host; the run is stored whatever its outcome, and a
  // compiler error or a failed verification is a result, not an exception. A kernel that faults or runs past the
  // watchdog fails the run with the CUDA error and costs one compute-host restart.
  runKernel(request: KernelRunRequest): Promise<KernelRun>;
  listKernelRuns(exercise?: ExerciseId): Promise<KernelRunSummary[]>;
  getKernelRun(id: string): Promise<KernelRun>;
  deleteKernelRun(id: string): Promise<void>;
  // The student's current source of an exercise, kept on this computer; null before the first save.
  loadDraft(exercise: ExerciseId): Promise<string | null>;
  saveDraft(exercise: ExerciseId, source: string): Promise<void>;
}
