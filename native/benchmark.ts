// The timing primitive: warm-up, then repeats, every sample returned, run off the JS thread, cancellable between
// samples through an AbortSignal.
import { GpuLabError } from '../main/common/errors.ts';
import { loadAddon } from './addon.ts';
import type { RawSpec } from './addon.ts';
import { cpuRawSpec } from './ops-cpu.ts';
import type { CpuOpSpec } from './ops-cpu.ts';
import { cudaRawSpec } from './ops-cuda.ts';
import type { CudaOpSpec } from './ops-cuda.ts';
import { integerIn, invalid } from './validate.ts';

export type OpSpec = CpuOpSpec | CudaOpSpec;

export interface BenchmarkProgress {
  // Samples taken so far, warm-up included, out of `total`.
  done: number;
  total: number;
  lastHostMs: number;
}

export interface BenchmarkOptions {
  // Untimed runs first, so that first-touch, caches and lazy initialisation stay out of the numbers. Default 1.
  warmup?: number;
  // Timed samples. Default 10.
  repeats?: number;
  // Each sample runs the operation back to back until it lasts at least this long (the count is set from the
  // warm-up's fastest run, the same for every sample) and reports the mean of one run. 0 (default): one run per
  // sample. Needs a warm-up.
  minSampleMs?: number;
  // Runs in each sample, fixed instead of sized from the warm-up: a later round of the same point passes its first
  // round's executionsPerSample, so that it spends no time sizing again and its samples mean the same. 1 to 100 000.
  executionsPerSample?: number;
  signal?: AbortSignal;
  onProgress?: (progress: BenchmarkProgress) => void;
}

export interface BenchmarkResult {
  // Host wall time of each sample (monotonic clock), in order.
  hostMs: number[];
  // Device time of each sample from CUDA events, where the op recorded them (the events clock, and beside host-nosync).
  deviceMs: number[] | null;
  // The code that ran, as results should name it ("OpenBLAS 0.3.21 …", "built-in blocked GEMM").
  implementation: string;
  threads: number;
  warmup: number;
  repeats: number;
  // Runs averaged in each sample (1 without minSampleMs).
  executionsPerSample: number;
}

export const MAX_REPEATS = 10_000_000;
// The native harness's kMaxExecutionsPerSample.
export const MAX_EXECUTIONS_PER_SAMPLE = 100_000;

function toRawSpec(spec: OpSpec, warmup: number, repeats: number): RawSpec {
  if (typeof spec !== 'object' || spec === null) throw invalid('spec', 'an operation spec object', spec);
  const device = (spec as { device?: unknown }).device;
  if (device === undefined || device === 'cpu') return cpuRawSpec(spec as CpuOpSpec, warmup, repeats);
  if (typeof device === 'string' && /^cuda:\d+$/.test(device)) return cudaRawSpec(spec as CudaOpSpec, warmup, repeats);
  throw invalid('device', '"cpu" or "cuda:N"', device);
}

// Measurements run one at a time in a process (two would share the cores or the GPU). They wait here, in JS,
// rather than in the addon, where each waiting one would hold one of libuv's four worker threads. One asked for
// while none runs starts at once, so its buffers are taken before the caller's next statement; a queued one takes
// them when it starts (a buffer freed meanwhile fails it with BUFFER_FREED).
let queueTail: Promise<unknown> = Promise.resolve();
let inFlight = 0;

export function benchmark(spec: OpSpec, options: BenchmarkOptions = {}): Promise<BenchmarkResult> {
  let raw: RawSpec;
  let warmup: number;
  let repeats: number;
  try {
    warmup = integerIn('warmup', options.warmup ?? 1, 0, MAX_REPEATS);
    repeats = integerIn('repeats', options.repeats ?? 10, 1, MAX_REPEATS);
    const minSampleMs = options.minSampleMs ?? 0;
    if (typeof minSampleMs !== 'number' || !(minSampleMs >= 0 && minSampleMs <= 1000)) throw invalid('minSampleMs', 'a number of milliseconds from 0 to 1000', minSampleMs);
    const fixed = options.executionsPerSample === undefined ? undefined : integerIn('executionsPerSample', options.executionsPerSample, 1, MAX_EXECUTIONS_PER_SAMPLE);
    raw = { ...toRawSpec(spec, warmup, repeats), minSampleMs, ...(fixed === undefined ? {} : { executionsPerSample: fixed }) };
  } catch (err) {
    return Promise.reject(GpuLabError.from(err));
  }
  const begin = (): Promise<BenchmarkResult> => start(raw, warmup, repeats, options);
  const run = inFlight === 0 ? begin() : queueTail.then(begin);
  inFlight++;
  queueTail = run.catch(() => undefined).finally(() => inFlight--);
  return run;
}

function start(raw: RawSpec, warmup: number, repeats: number, options: BenchmarkOptions): Promise<BenchmarkResult> {
  const { signal } = options;
  if (signal?.aborted) {
    return Promise.reject(new GpuLabError('CANCELLED', 'The measurement was cancelled before it started', { samples: 0 }));
  }
  const userProgress = options.onProgress;
  // A throwing progress callback must not surface as an uncaught exception in the addon's completion thread.
  const onProgress = userProgress
    ? (p: BenchmarkProgress): void => {
        try {
          userProgress(p);
        } catch {
          // The measurement goes on; the caller's callback bug is theirs to see in their own logs.
        }
      }
    : undefined;
  let handle: ReturnType<ReturnType<typeof loadAddon>['startBenchmark']>;
  try {
    handle = loadAddon().startBenchmark(raw, onProgress);
  } catch (err) {
    return Promise.reject(GpuLabError.from(err));
  }
  const onAbort = (): void => handle.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  return handle.promise.then(
    (r) => {
      signal?.removeEventListener('abort', onAbort);
      if (r.cancelled) {
        throw new GpuLabError('CANCELLED', `The measurement was cancelled after ${r.hostMs.length} of ${repeats} samples`, {
          samples: r.hostMs.length,
          hostMs: r.hostMs,
        });
      }
      return { hostMs: r.hostMs, deviceMs: r.deviceMs, implementation: r.implementation, threads: r.threads, warmup, repeats, executionsPerSample: r.executionsPerSample };
    },
    (err: unknown) => {
      signal?.removeEventListener('abort', onAbort);
      throw GpuLabError.from(err);
    },
  );
}
