// The kernel playground's facade: whether NVRTC is here, compiling a student's source for a device's architecture,
// and the compiled kernel loaded on that device with its attributes, its occupancy and its launches, each one timed
// with events and stopped waiting for by a watchdog. Every argument is checked here, before the addon sees it:
// cudaLaunchKernel trusts the argument list it is given, and a wrong one would crash the process.
import { confineCompilerLog } from '../main/common/compiler-log-scope.ts';
import { GpuLabError } from '../main/common/errors.ts';
import { loadAddon, recordedBuildReason } from './addon.ts';
import type { RawBuffer } from './addon.ts';
import { ElementBuffer } from './buffers.ts';
import { cudaOrdinal } from './ops-cuda.ts';
import type { CudaDevice } from './ops-cuda.ts';
import { describe, integerIn, invalid } from './validate.ts';

export interface NvrtcInfo {
  available: boolean;
  // "13.0"
  version: string | null;
  soname: string | null;
  // Why NVRTC cannot be used, where it cannot.
  reason: string | null;
}

export interface CompiledKernel {
  // false: the source did not compile (a result, not an exception); `log` says why.
  ok: boolean;
  // NVRTC's program log (the warnings too when ok), confined to the entries about `fileName`.
  log: string;
  // A cubin, or PTX text where the device is newer than NVRTC and the arch fell back to compute_XY; null when !ok.
  image: Uint8Array | null;
  // The entry's name in the image (nvrtcGetLoweredName): "_Z5saxpyiPKfPf", or "saxpy" under extern "C".
  loweredName: string | null;
  // What was compiled for: "sm_90", or "compute_120" on the fallback.
  arch: string;
  // Wall time of nvrtcCompileProgram.
  ms: number;
  // With the `ptx` option, when ok: the kernel's PTX (compiled once more for compute_XY where `arch` is real), or
  // why there is none.
  ptx?: string;
  ptxReason?: string;
}

export interface CompileOptions {
  source: string;
  // The name the compiler's messages give the source: "saxpy.cu(3): error: …".
  fileName: string;
  // The kernel to compile and name: "saxpy", or a template instance "TransposeTile<float>".
  entry: string;
  // "sm_90", from the device's compute capability.
  arch: string;
  // After --gpu-architecture, -std=c++17, -lineinfo and --no-source-include.
  options?: string[];
  // Also return the PTX.
  ptx?: boolean;
}

export interface KernelAttributes {
  registersPerThread: number;
  staticSharedBytes: number;
  localBytesPerThread: number;
  // Below 1024 where the registers per thread (or __launch_bounds__) leave room for fewer threads in a block.
  maxThreadsPerBlock: number;
  constBytes: number;
  // 90 for a cubin built for sm_90.
  binaryVersion: number;
}

export interface Occupancy {
  blocksPerSm: number;
  activeWarpsPerSm: number;
  maxWarpsPerSm: number;
  // activeWarpsPerSm / maxWarpsPerSm
  occupancy: number;
}

export type KernelArg = { buffer: ElementBuffer } | { f32: number } | { f64: number } | { i32: number } | { u64: number };
type ArgKind = 'buffer' | 'f32' | 'f64' | 'i32' | 'u64';

export interface LaunchOptions {
  grid: [number, number, number];
  block: [number, number, number];
  dynamicSharedBytes?: number;
  // In the order of the kernel's parameters.
  args: KernelArg[];
  // warmup 0, repeats 1: the single verification launch.
  warmup: number;
  repeats: number;
  // A launch still running after this long fails with TIMEOUT; the device is unusable in this process after it.
  watchdogMs: number;
  // Set to 0 before every launch, outside the timed events (a sum that accumulates into its output).
  zeroBeforeEach?: ElementBuffer[];
}

export interface LaunchResult {
  // One event-timed sample per repeat, warm-up excluded.
  samplesMs: number[];
}

interface RawNvrtcStatus {
  available: boolean;
  version: string | null;
  soname: string | null;
  path: string | null;
  reason: string | null;
}

interface RawLaunchSpec {
  grid: number[];
  block: number[];
  dynamicSharedBytes: number;
  args: { kind: ArgKind; buffer?: RawBuffer; value?: number }[];
  warmup: number;
  repeats: number;
  watchdogMs: number;
  zero: RawBuffer[];
}

// What the addon's loadKernel() returns.
export interface RawKernel {
  attributes: KernelAttributes;
  // Bytes of each of the kernel's parameters; null where the runtime cannot say.
  parameterSizes: number[] | null;
  occupancy(blockThreads: number, dynamicSharedBytes: number): Occupancy;
  launch(spec: RawLaunchSpec): Promise<LaunchResult>;
  dispose(): void;
}

interface RawPlaygroundAddon {
  nvrtcStatus(): RawNvrtcStatus;
  nvrtcCompile(o: { source: string; fileName: string; entry: string; arch: string; options: string[]; ptx: boolean }): CompiledKernel;
  loadKernel(image: Uint8Array, loweredName: string, ordinal: number): RawKernel;
}

// The CUDA half of the addon, or why this build has none.
function playgroundAddon(): RawPlaygroundAddon | string {
  const addon = loadAddon();
  const build = addon.buildInfo();
  if (!build.cuda) return `built without CUDA: ${recordedBuildReason() ?? build.cudaReason ?? 'nvcc was not found'}`;
  return addon as unknown as RawPlaygroundAddon;
}

function requirePlayground(what: string): RawPlaygroundAddon {
  const addon = playgroundAddon();
  if (typeof addon === 'string') throw new GpuLabError('CUDA_UNAVAILABLE', `Cannot ${what}: this addon was ${addon}`);
  return addon;
}

// Never throws: a CPU-only build, a missing addon or a missing libnvrtc give available false and the reason.
export function nvrtcInfo(): NvrtcInfo {
  try {
    const addon = playgroundAddon();
    if (typeof addon === 'string') return { available: false, version: null, soname: null, reason: addon };
    const s = addon.nvrtcStatus();
    return { available: s.available, version: s.version, soname: s.soname, reason: s.reason };
  } catch (err) {
    return { available: false, version: null, soname: null, reason: GpuLabError.from(err).message };
  }
}

// A C string ends at its first NUL: a source with one would be compiled cut short.
function cString(name: string, value: unknown, maxLength: number): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength || value.includes('\0')) {
    throw invalid(name, `a non-empty string of at most ${maxLength} characters without NUL`, value);
  }
  return value;
}

const ARCH = /^sm_\d{2,3}$/;
const FILE_NAME = /^[\w.-]{1,120}$/;

// Compiles for `arch` (PTX for the newest compute_XY NVRTC has where the device is newer than it). Throws
// INVALID_ARGUMENT for bad arguments, CUDA_UNAVAILABLE in a CPU-only build, LIBRARY_UNAVAILABLE where libnvrtc
// cannot be opened.
export function compileKernel(o: CompileOptions): CompiledKernel {
  if (typeof o !== 'object' || o === null) throw invalid('options', 'an object', o);
  const source = cString('source', o.source, 10_000_000);
  if (typeof o.fileName !== 'string' || !FILE_NAME.test(o.fileName)) throw invalid('fileName', 'a file name of letters, digits, _, . and - (at most 120)', o.fileName);
  const entry = cString('entry', o.entry, 1000);
  if (typeof o.arch !== 'string' || !ARCH.test(o.arch)) throw invalid('arch', 'a real architecture such as "sm_90"', o.arch);
  if (o.options !== undefined && !Array.isArray(o.options)) throw invalid('options.options', 'an array of strings', o.options);
  if (o.ptx !== undefined && typeof o.ptx !== 'boolean') throw invalid('ptx', 'true or false', o.ptx);
  const options = (o.options ?? []).map((opt, i) => cString(`options[${i}]`, opt, 1000));
  const addon = requirePlayground('compile a kernel');
  const status = addon.nvrtcStatus();
  if (!status.available) throw new GpuLabError('LIBRARY_UNAVAILABLE', `NVRTC (libnvrtc) is not available: ${status.reason ?? 'unknown'}`, { library: 'nvrtc' });
  try {
    const compiled = addon.nvrtcCompile({ source, fileName: o.fileName, entry, arch: o.arch, options, ptx: o.ptx === true });
    // Only what the compiler says about this source leaves the addon: an entry quoting any other file is dropped.
    return { ...compiled, log: confineCompilerLog(compiled.log, o.fileName) };
  } catch (err) {
    throw GpuLabError.from(err);
  }
}

// Loads a compiled image on `device` and finds its kernel by the lowered name compileKernel returned.
export function loadKernel(image: Uint8Array, loweredName: string, device: CudaDevice): LoadedKernel {
  if (!(image instanceof Uint8Array) || image.byteLength === 0) throw invalid('image', 'a non-empty Uint8Array (a cubin or PTX)', image);
  cString('loweredName', loweredName, 10_000);
  const ordinal = cudaOrdinal(device);
  const addon = requirePlayground('load a kernel');
  try {
    return new LoadedKernel(addon.loadKernel(image, loweredName, ordinal), device);
  } catch (err) {
    throw GpuLabError.from(err);
  }
}

const MAX_GRID = [2 ** 31 - 1, 65535, 65535] as const;
const MAX_BLOCK = [1024, 1024, 64] as const;
const ARG_BYTES: Record<ArgKind, number> = { buffer: 8, f32: 4, f64: 8, i32: 4, u64: 8 };
const FP32_MAX = 3.4028234663852886e38;

function refused(name: string, expected: string, received: string): GpuLabError {
  return new GpuLabError('INVALID_ARGUMENT', `Expected ${expected} for \`${name}\` but received ${received}`, { argument: name, expected });
}

function dim3(name: string, value: unknown, max: readonly [number, number, number]): [number, number, number] {
  const what = `an array [x, y, z] of integers from 1 with x ≤ ${max[0]}, y ≤ ${max[1]}, z ≤ ${max[2]}`;
  if (!Array.isArray(value) || value.length !== 3) throw invalid(name, what, value);
  const ok = value.every((v, i) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= (max[i] ?? 0));
  if (!ok) throw refused(name, what, `[${value.map((v) => (typeof v === 'number' ? String(v) : describe(v))).join(', ')}]`);
  return [value[0] as number, value[1] as number, value[2] as number];
}

function deviceBuffer(name: string, value: unknown, ordinal: number): RawBuffer {
  if (!(value instanceof ElementBuffer)) throw invalid(name, `a device buffer on cuda:${ordinal}`, value);
  const raw = value.live(name);
  if (value.location !== 'device' || value.device !== ordinal) {
    throw refused(name, `a device buffer on cuda:${ordinal}`, value.location === 'device' ? `a device buffer on cuda:${value.device}` : `a ${value.location} host buffer`);
  }
  return raw;
}

function argument(value: unknown, i: number, ordinal: number): RawLaunchSpec['args'][number] {
  const name = `args[${i}]`;
  const kinds = Object.keys(ARG_BYTES) as ArgKind[];
  const keys = typeof value === 'object' && value !== null ? Object.keys(value) : [];
  const kind = keys.length === 1 ? kinds.find((k) => k === keys[0]) : undefined;
  if (!kind) throw invalid(name, 'one of { buffer }, { f32 }, { f64 }, { i32 }, { u64 }', value);
  const v: unknown = (value as Record<string, unknown>)[kind];
  if (kind === 'buffer') return { kind, buffer: deviceBuffer(name, v, ordinal) };
  const field = `${name}.${kind}`;
  const ok =
    typeof v === 'number' &&
    (kind === 'f64' ? Number.isFinite(v)
      : kind === 'f32' ? Number.isFinite(v) && Math.abs(v) <= FP32_MAX
        : kind === 'i32' ? Number.isInteger(v) && v >= -(2 ** 31) && v <= 2 ** 31 - 1
          : Number.isSafeInteger(v) && v >= 0);
  const expected = { f64: 'a finite number', f32: 'a finite number within the fp32 range', i32: 'an integer from -2147483648 to 2147483647', u64: 'a non-negative safe integer' }[kind];
  if (!ok) throw invalid(field, expected, v);
  return { kind, value: v };
}

function checkParameters(args: RawLaunchSpec['args'], sizes: readonly number[] | null): void {
  if (sizes === null) return;
  if (args.length !== sizes.length) {
    throw refused('args', `${sizes.length} arguments (the kernel's parameters take ${sizes.join(', ')} bytes)`, `${args.length}`);
  }
  args.forEach((a, i) => {
    if (ARG_BYTES[a.kind] !== sizes[i]) {
      throw refused(`args[${i}]`, `a ${sizes[i]}-byte argument (parameter ${i + 1} of the kernel)`, `${a.kind} (${ARG_BYTES[a.kind]} bytes)`);
    }
  });
}

// The launch options as the addon takes them, every one checked against the kernel and its device.
export function launchSpec(o: LaunchOptions, kernel: Pick<LoadedKernel, 'attributes' | 'parameterSizes' | 'device'>): RawLaunchSpec {
  if (typeof o !== 'object' || o === null) throw invalid('options', 'an object', o);
  // The kernel's own device, "cuda:N": checked when it was loaded.
  const ordinal = Number(kernel.device.slice('cuda:'.length));
  const grid = dim3('grid', o.grid, MAX_GRID);
  const block = dim3('block', o.block, MAX_BLOCK);
  const threads = block[0] * block[1] * block[2];
  const { maxThreadsPerBlock: limit, registersPerThread } = kernel.attributes;
  if (threads > limit) {
    const why = limit < 1024 ? `, this kernel's limit: its ${registersPerThread} registers per thread (or its __launch_bounds__) leave room for no more` : '';
    throw refused('block', `at most ${limit} threads in a block (x·y·z)${why}`, `[${block.join(', ')}] = ${threads} threads`);
  }
  const dynamicSharedBytes = o.dynamicSharedBytes === undefined ? 0 : integerIn('dynamicSharedBytes', o.dynamicSharedBytes, 0, 2 ** 31 - 1);
  if (!Array.isArray(o.args)) throw invalid('args', 'an array of kernel arguments', o.args);
  const args = o.args.map((a, i) => argument(a, i, ordinal));
  checkParameters(args, kernel.parameterSizes);
  const warmup = integerIn('warmup', o.warmup, 0, 1_000_000);
  const repeats = integerIn('repeats', o.repeats, 1, 1_000_000);
  if (typeof o.watchdogMs !== 'number' || !(o.watchdogMs > 0) || o.watchdogMs > 3_600_000) {
    throw invalid('watchdogMs', 'a number of milliseconds above 0, at most 3600000', o.watchdogMs);
  }
  if (o.zeroBeforeEach !== undefined && !Array.isArray(o.zeroBeforeEach)) throw invalid('zeroBeforeEach', 'an array of device buffers', o.zeroBeforeEach);
  const zero = (o.zeroBeforeEach ?? []).map((b, i) => deviceBuffer(`zeroBeforeEach[${i}]`, b, ordinal));
  return { grid, block, dynamicSharedBytes, args, warmup, repeats, watchdogMs: o.watchdogMs, zero };
}

// A launch's error keeps the `details` the addon gave it ({ sticky }, and watchdogMs for a TIMEOUT).
function launchError(err: unknown): GpuLabError {
  const base = GpuLabError.from(err);
  const details: unknown = typeof err === 'object' && err !== null ? (err as { details?: unknown }).details : undefined;
  return typeof details === 'object' && details !== null ? new GpuLabError(base.code, base.message, { ...details }) : base;
}

export class LoadedKernel {
  readonly device: CudaDevice;
  readonly attributes: KernelAttributes;
  // Bytes of each parameter; launch() refuses an argument list that does not match. Null where unknown.
  readonly parameterSizes: readonly number[] | null;
  private raw: RawKernel | null;

  // Made by loadKernel().
  constructor(raw: RawKernel, device: CudaDevice) {
    this.raw = raw;
    this.device = device;
    this.attributes = raw.attributes;
    this.parameterSizes = raw.parameterSizes;
  }

  private live(): RawKernel {
    if (!this.raw) throw new GpuLabError('INVALID_ARGUMENT', 'The kernel was disposed: load it again', { argument: 'this' });
    return this.raw;
  }

  // cudaOccupancyMaxActiveBlocksPerMultiprocessor for blocks of `blockThreads` threads.
  occupancy(blockThreads: number, dynamicSharedBytes = 0): Occupancy {
    const threads = integerIn('blockThreads', blockThreads, 1, 1024);
    const shared = integerIn('dynamicSharedBytes', dynamicSharedBytes, 0, 2 ** 31 - 1);
    const raw = this.live();
    try {
      return raw.occupancy(threads, shared);
    } catch (err) {
      throw GpuLabError.from(err);
    }
  }

  // Warm-up launches, then one event-timed sample per repeat, off the JS thread. A kernel still running after
  // watchdogMs rejects with TIMEOUT; a fault (illegal address…) with DEVICE_LOST. Both leave the device unusable in
  // this process (details.sticky), and the process must be replaced, not exited: its teardown could wait forever.
  async launch(o: LaunchOptions): Promise<LaunchResult> {
    const raw = this.live();
    const spec = launchSpec(o, this);
    try {
      return await raw.launch(spec);
    } catch (err) {
      throw launchError(err);
    }
  }

  // Lets go of the image (cudaLibraryUnload once no launch is running); idempotent.
  dispose(): void {
    this.raw?.dispose();
    this.raw = null;
  }
}
