// Which BLAS library, on how many threads, runs a CPU GEMM: measured, not assumed. No library is fastest at every
// size on every machine (on the GPU machine the system's OpenBLAS 0.3.26 was twice as slow as NumPy's 0.3.34 at
// N = 1000 and faster at N = 5000), nor is every core always best for a small product. So each library found
// (blas-libraries.ts) is timed at each thread count worth trying, and the fastest median wins. The trials run at the
// product's own shape, on its own operands where the GEMM hands them over: a size next to it is no stand-in (on the
// GPU machine the system's OpenBLAS did 1250 GFLOP/s at N = 1024 in the trials and 707 at N = 1000 in the point, where
// the threads' shares of 1000 rows come out uneven). Below EXACT_FROM, where no claim rests on the library, the
// nearest of SMALL_SIZES stands in. A GEMM asked for on a given number of threads has its library chosen at that
// count. The picks are kept for the boot and machine in the system's temporary folder, as the CPU's bandwidth is
// (cpu-bandwidth.ts), for the compute hosts after this one.
import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import { benchmark, createHostBuffer, cpuInfo } from '../../native/index.ts';
import type { ElementBuffer } from '../../native/index.ts';
import { medianInterval, quantile } from '../common/pure/statistics.ts';
import { read } from './cpu-peaks.ts';
import { originText } from './blas-libraries.ts';
import type { OpenedBlas } from './blas-libraries.ts';
import { cpuQuiet, cpuWorkDone } from './cpu-quiet.ts';

// From this size on, a product's trials run at its own shape; below it, at the nearest of SMALL_SIZES.
export const EXACT_FROM = 400;
export const SMALL_SIZES = [64, 256] as const;
// Fewer threads than the cores are worth trying only where a product is small enough to be split too finely.
const FEW_THREADS_UP_TO = 1024;
// A trial's samples: at least this long each (short products batched), this many (the fewest with an interval).
const TRIAL_SAMPLE_MS = 2;
const TRIAL_SAMPLES = 6;
// A product whose run takes longer than this is timed on single runs.
const LONG_RUN_MS = 100;
// After every trial, those within this fraction of the fastest (but the fastest) are taken once more, in the other
// order, and keep their better time: a product of a millisecond is slowed by half when one of its threads loses a
// scheduler slice (4 to 8 ms) to another program, and one such slice must not decide the choice; a library clearly
// behind is not worth the time.
const CONTENDER_FRACTION = 0.1;
// Trials whose medians lie within this fraction of the fastest, and whose intervals overlap its, cannot be told apart:
// among them the first in a fixed order wins (the libraries as found, more threads first), so that noise does not
// flip the choice from one size to the next.
const TIE_FRACTION = 0.02;
// Each library, before its timed runs of a long product, runs this small one: its threads woken and its buffers
// allocated outside the one run that times it.
const WAKE_SIZE = 256;

export type GemmDtype = 'fp32' | 'fp64';

export interface TrialTime {
  medianMs: number;
  // The median's 95 % interval where the trial has the samples for one; a long product's single runs have none.
  lowMs?: number;
  highMs?: number;
  samples: number;
}

export interface BlasTrial extends TrialTime {
  library: string;
  threads: number;
}

export interface BlasPick {
  library: OpenedBlas;
  threads: number;
  dtype: GemmDtype;
  // The shape the trials ran at (m = n = k where the product is square), and every trial there.
  size: number;
  shape: Shape;
  trials: BlasTrial[];
}

export interface Shape {
  m: number;
  n: number;
  k: number;
}

// The shape a product's trials run at: its own from EXACT_FROM on, else the nearest small size on a log scale.
export function trialShape(shape: Shape): Shape {
  const size = Math.cbrt(shape.m * shape.n * shape.k);
  if (size >= EXACT_FROM) return shape;
  let best: number = SMALL_SIZES[0];
  for (const s of SMALL_SIZES) if (Math.abs(Math.log(s / size)) < Math.abs(Math.log(best / size))) best = s;
  return { m: best, n: best, k: best };
}

const sizeOf = (s: Shape): number => Math.round(Math.cbrt(s.m * s.n * s.k));
const shapeText = (s: Shape): string => (s.m === s.n && s.n === s.k ? `N = ${s.m}` : `${s.m}×${s.k}·${s.k}×${s.n}`);

// The thread counts tried: every logical core (what NumPy and a BLAS use unless told), every physical core where
// that differs, and for small products half of them. On the GPU machine's 16 cores neither a quarter nor 15 (a core
// left to the rest of the machine) ever won a trial. A library that cannot be told a count runs on its own.
export function threadCounts(lib: Pick<OpenedBlas, 'threadsSettable' | 'defaultThreads'>, size: number, cores: { logical: number; physical: number }, asked?: number): number[] {
  if (!lib.threadsSettable) return [lib.defaultThreads];
  if (asked !== undefined) return [asked];
  const counts = [cores.logical, cores.physical];
  if (size <= FEW_THREADS_UP_TO) counts.push(Math.ceil(cores.physical / 2));
  return [...new Set(counts.filter((c) => c >= 1))];
}

// A library's name in a trial and a pick: "OpenBLAS 0.3.34 (SkylakeX kernel) from NumPy's bundled copy, /…".
export function libraryText(lib: OpenedBlas): string {
  return `${lib.name ?? lib.family ?? 'BLAS'} from ${originText(lib)}`;
}

export interface Operands extends Shape {
  dtype: GemmDtype;
  a: ElementBuffer;
  b: ElementBuffer;
  out: ElementBuffer;
}

// One trial: the library on `threads` threads over the operands. `long` where a single run is the trial (the caller
// runs it again for the contenders); else a run to wake the library, then TRIAL_SAMPLES samples.
export type TimeTrial = (lib: OpenedBlas, threads: number, operands: Operands, wake: Operands) => Promise<TrialTime>;

export function trialTime(samples: readonly number[]): TrialTime {
  const sorted = [...samples].sort((x, y) => x - y);
  const ci = medianInterval(sorted);
  return { medianMs: quantile(sorted, 0.5), samples: sorted.length, ...(ci ? { lowMs: ci.low, highMs: ci.high } : {}) };
}

// The native harness's time of `lib` on `threads`, per GEMM.
export const timeWithHarness: TimeTrial = async (lib, threads, p, wake) => {
  const gemm = (o: Operands): { op: 'gemm'; variant: 'blas'; a: ElementBuffer; b: ElementBuffer; out: ElementBuffer; m: number; n: number; k: number; library: number; threads: number } => ({ op: 'gemm', variant: 'blas', a: o.a, b: o.b, out: o.out, m: o.m, n: o.n, k: o.k, library: lib.id, threads });
  // Woken on a small product: its threads and buffers, and what the library does once, outside the timed runs.
  await benchmark(gemm(wake), { warmup: 1, repeats: 1 });
  const first = await benchmark(gemm(p), { warmup: 0, repeats: 1 });
  const firstMs = first.hostMs[0] ?? 0;
  if (firstMs > LONG_RUN_MS) return trialTime([firstMs]);
  const r = await benchmark(gemm(p), { warmup: 0, repeats: TRIAL_SAMPLES, minSampleMs: TRIAL_SAMPLE_MS });
  return trialTime(r.hostMs);
};

export interface ChooserOptions {
  cores?: { logical: number; physical: number };
  time?: TimeTrial;
  // Before a library's trials: wait for the CPU to be quiet of the others' threads (cpu-quiet.ts); false not to.
  quiet?: boolean;
  // The file the picks are kept in across hosts; null keeps them in this process only.
  cacheFile?: string | null;
}

interface Kept {
  path: string;
  threads: number;
  shape: Shape;
  trials: BlasTrial[];
}

type Timed = BlasTrial & { lib: OpenedBlas; order: number };

// The trial that wins: the fastest median, or where others cannot be told apart from it (within TIE_FRACTION and
// overlapping intervals), the first of them in the fixed order. Equal medians: the fastest is the first of them in
// the fixed order too, so that which trials tie with it, and the winner, never depend on the order they came in.
export function winner<T extends TrialTime & { order: number }>(trials: readonly T[]): T | null {
  const fastest = trials.reduce<T | null>((acc, t) => (acc === null || t.medianMs < acc.medianMs || (t.medianMs === acc.medianMs && t.order < acc.order) ? t : acc), null);
  if (!fastest) return null;
  const tied = trials.filter(
    (t) =>
      t.medianMs <= fastest.medianMs * (1 + TIE_FRACTION) &&
      (t.lowMs === undefined || fastest.highMs === undefined || t.lowMs <= fastest.highMs),
  );
  return tied.reduce((acc, t) => (t.order < acc.order ? t : acc), fastest);
}

export class BlasChooser {
  readonly libraries: readonly OpenedBlas[];
  private readonly cores: { logical: number; physical: number };
  private readonly time: TimeTrial;
  private readonly quiet: boolean;
  private readonly cacheFile: string | null;
  private readonly picks = new Map<string, Promise<BlasPick | null>>();

  constructor(libraries: readonly OpenedBlas[], options: ChooserOptions = {}) {
    this.libraries = libraries;
    const cpu = options.cores ?? ((): { logical: number; physical: number } => {
      const info = cpuInfo();
      return { logical: Math.max(1, info.logicalCores), physical: Math.max(1, info.physicalCores || info.logicalCores) };
    })();
    this.cores = cpu;
    this.time = options.time ?? timeWithHarness;
    this.quiet = options.quiet ?? true;
    this.cacheFile = options.cacheFile === undefined ? defaultCacheFile() : options.cacheFile;
  }

  // The library and thread count for an m×k by k×n product of `dtype` (on `asked` threads where the GEMM names them);
  // null where no library opened. Measured once per trial shape, type and asked count, on `operands` where they are
  // the product's own (their output is overwritten) and on operands of its own otherwise.
  pick(dtype: GemmDtype, product: number | Shape, asked?: number, operands?: Omit<Operands, 'dtype'>): Promise<BlasPick | null> {
    if (this.libraries.length === 0) return Promise.resolve(null);
    const shape = trialShape(typeof product === 'number' ? { m: product, n: product, k: product } : product);
    const key = `${dtype}@${shape.m}x${shape.k}x${shape.n}@${asked ?? 'any'}`;
    let p = this.picks.get(key);
    if (!p) {
      const own = operands && operands.m === shape.m && operands.n === shape.n && operands.k === shape.k ? { ...operands, dtype } : undefined;
      p = this.fromCache(key).then((kept) => kept ?? this.measure(dtype, shape, asked, key, own));
      this.picks.set(key, p);
      p.catch(() => this.picks.delete(key));
    }
    return p;
  }

  // What the picks so far say, for the devices list: nothing where none was made.
  picksMade(): Promise<BlasPick[]> {
    return Promise.all([...this.picks.values()].map((p) => p.catch(() => null))).then((all) => all.filter((p): p is BlasPick => p !== null));
  }

  private async measure(dtype: GemmDtype, shape: Shape, asked: number | undefined, key: string, given?: Operands): Promise<BlasPick | null> {
    const operands = given ?? makeOperands(dtype, shape);
    const wake = makeOperands(dtype, { m: WAKE_SIZE, n: WAKE_SIZE, k: WAKE_SIZE });
    const size = sizeOf(shape);
    const trials: Timed[] = [];
    const libraries = this.libraries;
    // Each library is timed once the others' threads have gone to sleep, and leaves the CPU to the next one the same
    // way.
    const timed = async (lib: OpenedBlas, threads: number): Promise<TrialTime> => {
      if (this.quiet) await cpuQuiet(`blas:${lib.id}`);
      try {
        return await this.time(lib, threads, operands, wake);
      } finally {
        cpuWorkDone(`blas:${lib.id}`);
      }
    };
    const keep = (lib: OpenedBlas, threads: number, t: TrialTime): void => {
      const same = trials.find((x) => x.lib === lib && x.threads === threads);
      if (!same) trials.push({ ...t, lib, library: libraryText(lib), threads, order: libraries.indexOf(lib) * 1000 - threads });
      else if (t.medianMs < same.medianMs) Object.assign(same, t);
    };
    try {
      for (const lib of libraries) for (const threads of threadCounts(lib, size, this.cores, asked)) keep(lib, threads, await timed(lib, threads));
      // Each contender once more, in the other order; not the fastest, whose second trial could only make it faster.
      const fastest = trials.reduce((acc, t) => (t.medianMs < acc.medianMs ? t : acc));
      const contenders = trials.filter((x) => x !== fastest && x.medianMs <= fastest.medianMs * (1 + CONTENDER_FRACTION)).reverse();
      for (const t of contenders) keep(t.lib, t.threads, await timed(t.lib, t.threads));
    } finally {
      if (!given) for (const b of [operands.a, operands.b, operands.out]) b.free();
      for (const b of [wake.a, wake.b, wake.out]) b.free();
    }
    const best = winner(trials);
    if (!best) return null;
    const pick: BlasPick = { library: best.lib, threads: best.threads, dtype, size, shape, trials: trials.map(({ lib: _lib, order: _order, ...t }) => t) };
    this.remember(key, pick);
    return pick;
  }

  private cacheKey(): string {
    const libs = this.libraries.map((l) => `${l.path}=${l.config ?? l.version ?? ''}`).join(';');
    return `${read('/proc/sys/kernel/random/boot_id')?.trim() ?? ''}|${this.cores.logical}/${this.cores.physical}|${libs}`;
  }

  private readCache(): Record<string, Kept> {
    if (!this.cacheFile) return {};
    try {
      const c = JSON.parse(read(this.cacheFile) ?? '') as { key?: unknown; picks?: unknown };
      const key = this.cacheKey();
      if (key.startsWith('|') || c.key !== key || typeof c.picks !== 'object' || c.picks === null) return {};
      return c.picks as Record<string, Kept>;
    } catch {
      return {};
    }
  }

  private async fromCache(key: string): Promise<BlasPick | null> {
    const kept = this.readCache()[key];
    const lib = kept && this.libraries.find((l) => l.path === kept.path);
    if (!kept || !lib || typeof kept.threads !== 'number' || !Array.isArray(kept.trials) || typeof kept.shape !== 'object') return null;
    const [dtype] = key.split('@') as [GemmDtype];
    return { library: lib, threads: kept.threads, dtype, size: sizeOf(kept.shape), shape: kept.shape, trials: kept.trials };
  }

  private remember(key: string, pick: BlasPick): void {
    if (!this.cacheFile) return;
    const picks = { ...this.readCache(), [key]: { path: pick.library.path, threads: pick.threads, shape: pick.shape, trials: pick.trials } };
    const temp = `${this.cacheFile}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify({ key: this.cacheKey(), picks }), { flag: 'wx', mode: 0o644 });
      renameSync(temp, this.cacheFile);
    } catch {
      // Not kept: the next host measures again.
    }
  }
}

function makeOperands(dtype: GemmDtype, s: Shape): Operands {
  const a = createHostBuffer(dtype, s.m * s.k).fillRandom(1, { low: -1, high: 1 });
  const b = createHostBuffer(dtype, s.k * s.n).fillRandom(2, { low: -1, high: 1 });
  return { dtype, ...s, a, b, out: createHostBuffer(dtype, s.m * s.n) };
}

function defaultCacheFile(): string {
  let user = 'user';
  try {
    user = String(userInfo().uid);
  } catch {
    // No passwd entry: one file for all.
  }
  return join(process.env.GPU_LAB_CACHE_DIR || tmpdir(), `gpu-lab-blas-choice-${user}.json`);
}

// How a pick reads beside a point: "16 threads, the fastest of 3 libraries × thread counts (9 trials) at N = 1000,
// fp32".
export function pickSummary(pick: BlasPick): string {
  const libraries = new Set(pick.trials.map((t) => t.library)).size;
  return `${pick.threads} threads, the fastest of ${libraries} ${libraries === 1 ? 'library' : 'libraries'} × thread counts (${pick.trials.length} trials) at ${shapeText(pick.shape)}, ${pick.dtype}`;
}
