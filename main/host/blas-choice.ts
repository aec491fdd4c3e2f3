// Which BLAS library, on how many threads, runs a CPU GEMM: measured, not assumed. No library is fastest at every
// size on every machine (on the GPU machine the system's OpenBLAS 0.3.26 was twice as slow as NumPy's 0.3.34 at
// N = 1000 and faster at N = 5000), nor is every core always best for a small product. So for a GEMM's type and size,
// rounded to a calibration size (256, 512, 1024, 2048 or 4096, the nearest on a log scale), each library found
// (blas-libraries.ts) is timed at each thread count worth trying, and the fastest median wins. The trials run once
// per boot and machine: kept in the system's temporary folder, as the CPU's bandwidth is (cpu-bandwidth.ts), for the
// compute hosts after this one. A GEMM asked for on a given number of threads has its library chosen at that count.
import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import { benchmark, createHostBuffer, cpuInfo } from '../../native/index.ts';
import type { ElementBuffer } from '../../native/index.ts';
import { read } from './cpu-peaks.ts';
import { originText } from './blas-libraries.ts';
import type { OpenedBlas } from './blas-libraries.ts';

export const CALIBRATION_SIZES = [256, 512, 1024, 2048, 4096] as const;
// Fewer threads than the cores are worth trying only where a product is small enough to be split too finely.
const FEW_THREADS_UP_TO = 1024;
// Up to this size the trials are taken twice, the libraries in one order and then the other, and each keeps its
// better median: a product of a millisecond is slowed by half when one of its threads loses a scheduler slice (4 to
// 8 ms) to another program, and one such slice must not decide the choice.
const TWO_PASSES_UP_TO = 1024;
// OpenBLAS's threads spin for a while after a call (about 0.1 s) before they sleep: a library timed right after
// another would share the cores with its spinning threads.
const SWITCH_PAUSE_MS = 150;
// A trial whose first run takes longer than this is timed on one more run, the faster of the two kept (a scheduler
// slice lost to another program only slows a run); else on five samples of at least 5 ms.
const LONG_RUN_MS = 100;

export type GemmDtype = 'fp32' | 'fp64';

export interface BlasTrial {
  library: string;
  threads: number;
  medianMs: number;
}

export interface BlasPick {
  library: OpenedBlas;
  threads: number;
  dtype: GemmDtype;
  // The calibration size the pick was measured at, and every trial's median there.
  size: number;
  trials: BlasTrial[];
}

// The calibration size nearest to `n` on a log scale.
export function calibrationSize(n: number): number {
  let best: number = CALIBRATION_SIZES[0];
  for (const s of CALIBRATION_SIZES) if (Math.abs(Math.log(s / n)) < Math.abs(Math.log(best / n))) best = s;
  return best;
}

// The thread counts tried: every logical core (what NumPy and a BLAS use unless told), every physical core where
// that differs, and for small products half of them. On the GPU machine's 16 cores neither a quarter nor 15 (a core
// left to the rest of the machine) ever won a trial. A library that cannot be told a count runs on
// its own.
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

// One trial's median time in ms, given the library, the thread count and the product's operands.
export type TimeTrial = (lib: OpenedBlas, threads: number, operands: Operands) => Promise<number>;

export interface Operands {
  dtype: GemmDtype;
  n: number;
  a: ElementBuffer;
  b: ElementBuffer;
  out: ElementBuffer;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((x, y) => x - y);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

// The native harness's time of `lib` on `threads`, per GEMM.
export const timeWithHarness: TimeTrial = async (lib, threads, { a, b, out, n }) => {
  const spec = { op: 'gemm', variant: 'blas', a, b, out, m: n, n, k: n, library: lib.id, threads } as const;
  const first = await benchmark(spec, { warmup: 1, repeats: 1 });
  const firstMs = first.hostMs[0] ?? 0;
  if (firstMs > LONG_RUN_MS) {
    const more = await benchmark(spec, { warmup: 0, repeats: 1 });
    return Math.min(firstMs, ...more.hostMs);
  }
  const r = await benchmark(spec, { warmup: 0, repeats: 5, minSampleMs: 5 });
  return median(r.hostMs);
};

export interface ChooserOptions {
  cores?: { logical: number; physical: number };
  time?: TimeTrial;
  pauseMs?: number;
  // The file the picks are kept in across hosts; null keeps them in this process only.
  cacheFile?: string | null;
}

interface Kept {
  path: string;
  threads: number;
  size: number;
  trials: BlasTrial[];
}

export class BlasChooser {
  readonly libraries: readonly OpenedBlas[];
  private readonly cores: { logical: number; physical: number };
  private readonly time: TimeTrial;
  private readonly pauseMs: number;
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
    this.pauseMs = options.pauseMs ?? SWITCH_PAUSE_MS;
    this.cacheFile = options.cacheFile === undefined ? defaultCacheFile() : options.cacheFile;
  }

  // The library and thread count for an n×n×n product of `dtype` (on `asked` threads where the GEMM names them);
  // null where no library opened. Measured once per calibration size, type and asked count.
  pick(dtype: GemmDtype, n: number, asked?: number): Promise<BlasPick | null> {
    if (this.libraries.length === 0) return Promise.resolve(null);
    const size = calibrationSize(n);
    const key = `${dtype}@${size}@${asked ?? 'any'}`;
    let p = this.picks.get(key);
    if (!p) {
      p = this.fromCache(key).then((kept) => kept ?? this.measure(dtype, size, asked, key));
      this.picks.set(key, p);
      p.catch(() => this.picks.delete(key));
    }
    return p;
  }

  // What the picks so far say, for the devices list: nothing where none was made.
  picksMade(): Promise<BlasPick[]> {
    return Promise.all([...this.picks.values()].map((p) => p.catch(() => null))).then((all) => all.filter((p): p is BlasPick => p !== null));
  }

  private async measure(dtype: GemmDtype, size: number, asked: number | undefined, key: string): Promise<BlasPick | null> {
    const operands = makeOperands(dtype, size);
    const trials: (BlasTrial & { lib: OpenedBlas })[] = [];
    const pause = (): Promise<void> => new Promise((r) => setTimeout(r, this.pauseMs));
    try {
      const passes = size <= TWO_PASSES_UP_TO ? [this.libraries, [...this.libraries].reverse()] : [this.libraries];
      for (const order of passes) {
        for (const lib of order) {
          // The libraries' threads spin a while after their last call, and after they start: each library is timed
          // once the others' have gone to sleep.
          if (this.pauseMs > 0) await pause();
          for (const threads of threadCounts(lib, size, this.cores, asked)) {
            const medianMs = await this.time(lib, threads, operands);
            const same = trials.find((t) => t.lib === lib && t.threads === threads);
            if (same) same.medianMs = Math.min(same.medianMs, medianMs);
            else trials.push({ lib, library: libraryText(lib), threads, medianMs });
          }
        }
      }
      if (this.pauseMs > 0) await pause();
    } finally {
      for (const b of [operands.a, operands.b, operands.out]) b.free();
    }
    const best = trials.reduce<(typeof trials)[number] | null>((acc, t) => (acc === null || t.medianMs < acc.medianMs ? t : acc), null);
    if (!best) return null;
    const pick: BlasPick = { library: best.lib, threads: best.threads, dtype, size, trials: trials.map(({ library, threads, medianMs }) => ({ library, threads, medianMs })) };
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
    if (!kept || !lib || typeof kept.threads !== 'number' || !Array.isArray(kept.trials)) return null;
    const [dtype] = key.split('@') as [GemmDtype];
    return { library: lib, threads: kept.threads, dtype, size: kept.size, trials: kept.trials };
  }

  private remember(key: string, pick: BlasPick): void {
    if (!this.cacheFile) return;
    const picks = { ...this.readCache(), [key]: { path: pick.library.path, threads: pick.threads, size: pick.size, trials: pick.trials } };
    const temp = `${this.cacheFile}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify({ key: this.cacheKey(), picks }), { flag: 'wx', mode: 0o644 });
      renameSync(temp, this.cacheFile);
    } catch {
      // Not kept: the next host measures again.
    }
  }
}

function makeOperands(dtype: GemmDtype, n: number): Operands {
  const a = createHostBuffer(dtype, n * n).fillRandom(1, { low: -1, high: 1 });
  const b = createHostBuffer(dtype, n * n).fillRandom(2, { low: -1, high: 1 });
  return { dtype, n, a, b, out: createHostBuffer(dtype, n * n) };
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

// How a pick reads beside a point: "16 threads, the fastest of 3 libraries × thread counts (9 trials) at N = 1024,
// fp32".
export function pickSummary(pick: BlasPick): string {
  const libraries = new Set(pick.trials.map((t) => t.library)).size;
  return `${pick.threads} threads, the fastest of ${libraries} ${libraries === 1 ? 'library' : 'libraries'} × thread counts (${pick.trials.length} trials) at N = ${pick.size}, ${pick.dtype}`;
}
