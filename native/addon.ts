// Loads the compiled addon and describes its raw surface. Only the facade (native/*.ts) and the compute host use it.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { GpuLabError } from '../main/common/errors.ts';
import type { DType } from '../main/common/measurement.ts';

// The element types are the measurement vocabulary's (main/common/measurement.ts).
export type { DType };
export type Location = 'host' | 'pinned' | 'device';

export interface RawBuffer {
  readonly dtype: DType;
  readonly length: number;
  readonly byteLength: number;
  readonly location: Location;
  readonly device: number;
  readonly freed: boolean;
  fill(seed: number, low: number, high: number): void;
  // Host and pinned memory only: written on a worker thread, so that the JS thread stays free meanwhile.
  fillAsync(seed: number, low: number, high: number): Promise<void>;
  fillBytesAsync(byte: number): Promise<void>;
  read(start: number, count: number): Float64Array | Float32Array | Uint16Array | Int8Array;
  readFloat64(start: number, count: number): Float64Array;
  // The elements at `indices` decoded as readFloat64 decodes them; a device buffer's gathered there, one copy back.
  readFloat64At(indices: Float64Array): Float64Array;
  write(data: ArrayBufferView, start: number): void;
  free(): void;
}

export interface RawSpec {
  op: string;
  // The measurement vocabulary's words, as the addon's arguments read them (OpArgs in native/src/timed_op.h):
  // the implementation, where the data lives, the clock, the element type, a copy's mode, a cuBLAS routine.
  variant?: string;
  path?: string;
  clock?: string;
  dtype?: string;
  mode?: string;
  routine?: string;
  device?: number;
  threads?: number;
  warmup: number;
  repeats: number;
  minSampleMs?: number;
  // Runs per sample, fixed (a later round of a point, with its first round's size); absent: sized from the warm-up.
  executionsPerSample?: number;
  buffers?: Record<string, RawBuffer>;
  numbers?: Record<string, number>;
}

export interface RawProgress {
  done: number;
  total: number;
  lastHostMs: number;
}

export interface RawResult {
  hostMs: number[];
  deviceMs: number[] | null;
  implementation: string;
  threads: number;
  warmup: number;
  executionsPerSample: number;
  cancelled: boolean;
}

export interface RawCpuInfo {
  model: string;
  logicalCores: number;
  physicalCores: number;
  simd: string[];
  memoryTotalBytes: number;
  memoryAvailableBytes: number;
  l2CacheBytes: number | null;
  l3CacheBytes: number | null;
}

export interface RawBlasInfo {
  // The library's handle for a GEMM's `library`.
  id: number;
  available: boolean;
  // "OpenBLAS 0.3.34 (SkylakeX kernel, 64-bit integers)"; null where it did not open.
  name: string | null;
  // What was opened (a soname or a file), null where it did not open; `path` whatever happened.
  library: string | null;
  path: string;
  // Where it came from, in the host's word ("system", "numpy", "scipy", "mkl", …).
  origin: string;
  reason: string | null;
  // BLAS: the Fortran interface alone (sgemm_, dgemm_), of no family the library names.
  family: 'OpenBLAS' | 'MKL' | 'BLIS' | 'CBLAS' | 'BLAS' | null;
  version: string | null;
  // The library's own line about its build (openblas_get_config, MKL's version string).
  config: string | null;
  // The kernel it picked for this CPU (OpenBLAS's corename).
  kernel: string | null;
  symbol: string | null;
  ilp64: boolean;
  threadsSettable: boolean;
  // Its thread count as opened (0: it does not say).
  defaultThreads: number;
}

export interface RawBuildInfo {
  cuda: boolean;
  cudaReason: string | null;
  napiVersion: number;
  compiler: string;
}

export interface RawAddon {
  createHostBuffer(dtype: string, length: number): RawBuffer;
  startBenchmark(spec: RawSpec, onProgress?: (p: RawProgress) => void): { promise: Promise<RawResult>; cancel(): void };
  cpuInfo(): RawCpuInfo;
  blasInfo(): RawBlasInfo;
  blasOpen(path: string, origin: string): RawBlasInfo;
  buildInfo(): RawBuildInfo;
  // Present only in builds with CUDA; see native/cuda.ts.
  [key: string]: unknown;
}

const ADDON_RELATIVE = join('native', 'build', 'Release', 'gpu_lab.node');

// The addon sits at <package root>/native/build/Release whether this file runs from source (native/) or from the
// compiled tree (dist/native/). GPU_LAB_ADDON overrides, for packaged apps that unpack it elsewhere.
export function addonPath(): string {
  if (process.env.GPU_LAB_ADDON) return process.env.GPU_LAB_ADDON;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, ADDON_RELATIVE);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return join(dirname(dirname(fileURLToPath(import.meta.url))), ADDON_RELATIVE);
}

let cached: RawAddon | undefined;

export function loadAddon(): RawAddon {
  if (cached) return cached;
  const path = addonPath();
  if (!existsSync(path)) {
    throw new GpuLabError('ADDON_NOT_BUILT', `The native addon is not built (${path} is missing): run \`npm run build:native\``);
  }
  const require = createRequire(import.meta.url);
  cached = require(path) as RawAddon;
  return cached;
}

// Why the addon was built without CUDA, as the build script recorded it.
export function recordedBuildReason(): string | null {
  try {
    const info = JSON.parse(readFileSync(join(dirname(dirname(addonPath())), 'build-info.json'), 'utf8')) as { cudaReason?: unknown };
    return typeof info.cudaReason === 'string' ? info.cudaReason : null;
  } catch {
    return null;
  }
}
