// Which library and how many threads run a CPU GEMM: the fastest median of the trials at the product's own shape
// (on its own operands where it hands them over), the first in a fixed order among those that cannot be told apart,
// kept for the boot in a file the next host reads instead of measuring again. The trials' times are stood in where
// the rule is tested, and really taken through the harness on stand-in libraries (fake-blas-libraries.ts) whose
// speed depends on the threads they are told to use.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { createHostBuffer, openBlas } from '../../native/index.ts';
import { BlasChooser, pickSummary, threadCounts, timeWithHarness, trialShape, trialTime, winner } from '../../main/host/blas-choice.ts';
import type { Operands, TimeTrial, TrialTime } from '../../main/host/blas-choice.ts';
import type { OpenedBlas } from '../../main/host/blas-libraries.ts';
import { canBuildFakes, fakeBlas } from './fake-blas-libraries.ts';

const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-blas-choice-'));
const cores = { logical: 16, physical: 16 };
const quietless = { cores, quiet: false } as const;

function opened(fileName: string, origin: OpenedBlas['origin'], sleepUs = 0): OpenedBlas {
  const path = fakeBlas(join(dir, origin), fileName, { config: `OpenBLAS 9.0.${fileName.length} FakeLake`, sleepUs });
  return { ...openBlas(path, origin), origin };
}

// A trial of six samples around `ms`, spread ±`spread`.
const around = (ms: number, spread = 0.001): TrialTime => trialTime([ms * (1 - spread), ms, ms, ms, ms, ms * (1 + spread)]);

describe('the trials\' shape and thread counts', () => {
  it('runs a product\'s trials at its own shape from N = 400, and at the nearest small size below', () => {
    expect([50, 100, 200, 300, 399].map((n) => trialShape({ m: n, n, k: n }).m)).toEqual([64, 64, 256, 256, 256]);
    for (const n of [400, 500, 1000, 2000, 5000, 7000]) expect(trialShape({ m: n, n, k: n })).toEqual({ m: n, n, k: n });
    expect(trialShape({ m: 1000, n: 2000, k: 500 })).toEqual({ m: 1000, n: 2000, k: 500 });
  });

  it('tries every core, and for small products half of them; a count asked for alone', () => {
    const lib = { threadsSettable: true, defaultThreads: 16 };
    expect(threadCounts(lib, 512, cores)).toEqual([16, 8]);
    expect(threadCounts(lib, 4096, cores)).toEqual([16]);
    expect(threadCounts(lib, 4096, { logical: 32, physical: 16 })).toEqual([32, 16]);
    expect(threadCounts(lib, 512, { logical: 4, physical: 2 })).toEqual([4, 2, 1]);
    expect(threadCounts(lib, 512, cores, 6)).toEqual([6]);
    expect(threadCounts({ threadsSettable: false, defaultThreads: 12 }, 512, cores)).toEqual([12]);
  });
});

describe('the winner among the trials', () => {
  // Medians close together, as the libraries' are, where the rule matters.
  const trial = fc.record({ medianMs: fc.double({ min: 10, max: 11.5, noNaN: true }), spread: fc.double({ min: 0, max: 0.2, noNaN: true }) });

  it('is within 2 % of the fastest median, and the same trial whatever order the trials come in', () => {
    fc.assert(
      fc.property(fc.array(trial, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 1000 }), (raw, seed) => {
        const trials = raw.map((t, order) => ({ ...around(t.medianMs, t.spread), order }));
        const best = winner(trials);
        const fastest = Math.min(...trials.map((t) => t.medianMs));
        expect(best?.medianMs).toBeLessThanOrEqual(fastest * 1.02);
        const shuffled = [...trials].sort((x, y) => ((x.order * 7919 + seed) % 101) - ((y.order * 7919 + seed) % 101));
        expect(winner(shuffled)?.order).toBe(best?.order);
      }),
      // Two equal medians, one of whose intervals reaches a third trial a rounding above them: which of the two was
      // taken for the fastest decided whether the third tied (a draw CI found, seed 434713360).
      { examples: [[[{ medianMs: 10.000000000000002, spread: 0 }, { medianMs: 10, spread: 1.1102230246251568e-16 }, { medianMs: 10, spread: 0 }], 524]] },
    );
  });

  it('takes the first in the fixed order among those that cannot be told apart, and a clearly faster one over it', () => {
    const first = { ...around(10.1, 0.03), order: 0 };
    const second = { ...around(10, 0.03), order: 1 };
    expect(winner([second, first])?.order).toBe(0);
    // 5 % faster, its interval clear of the other's: it wins whatever its place.
    const clearly = { ...around(9.5, 0.001), order: 2 };
    expect(winner([first, second, clearly])?.order).toBe(2);
    // Within 2 % but the intervals apart: faster is faster.
    const tight = [
      { ...around(10, 0.001), order: 0 },
      { ...around(9.85, 0.001), order: 1 },
    ];
    expect(winner(tight)?.order).toBe(1);
  });
});

describe.skipIf(!canBuildFakes)('the chooser', () => {
  const a = opened('liba.so', 'numpy');
  const b = opened('libbb.so', 'system');

  it('picks the fastest median of the trials at the product\'s own size, and says how', async () => {
    const calls: string[] = [];
    // b is fastest on 8 threads; a on 16 within 10 % of it, and nothing else.
    const time: TimeTrial = (lib, threads, operands) => {
      calls.push(`${lib.origin}/${threads}@${operands.m}/${operands.dtype}`);
      return Promise.resolve(around(lib === b ? (threads === 8 ? 1 : 2) : threads === 16 ? 1.05 : 3));
    };
    const chooser = new BlasChooser([a, b], { ...quietless, time, cacheFile: null });
    const pick = await chooser.pick('fp64', 500);
    expect(pick).toMatchObject({ threads: 8, size: 500, dtype: 'fp64' });
    expect(pick?.library.path).toBe(b.path);
    // Each library on each count, then the one contender once more; the better median of its two kept, once a trial.
    expect(calls).toEqual(['numpy/16@500/fp64', 'numpy/8@500/fp64', 'system/16@500/fp64', 'system/8@500/fp64', 'numpy/16@500/fp64']);
    expect(pick?.trials).toHaveLength(4);
    expect(pickSummary(pick ?? ({} as never))).toBe('8 threads, the fastest of 2 libraries × thread counts (4 trials) at N = 500, fp64');
    // The same size is not measured again; a neighbour is, at its own size, and a large one on every core alone.
    await chooser.pick('fp64', 500);
    expect(calls).toHaveLength(5);
    await chooser.pick('fp64', 512);
    expect(calls).toHaveLength(10);
    await chooser.pick('fp32', 3000);
    expect(calls.slice(10)).toEqual(['numpy/16@3000/fp32', 'system/16@3000/fp32']);
  });

  it('times a long product on single runs, once more for each library but the fastest within 10 % of it', async () => {
    const c = opened('libcc.so', 'scipy');
    const calls: string[] = [];
    // a 400 ms, b 420 ms then 410, c 500 ms a run: b runs again and keeps its faster run; c is too slow to.
    const ms = new Map([[a, [400, 390]], [b, [420, 410]], [c, [500, 480]]]);
    const time: TimeTrial = (lib) => {
      calls.push(lib.origin);
      const runs = ms.get(lib) ?? [];
      return Promise.resolve(trialTime([runs[calls.filter((x) => x === lib.origin).length - 1] ?? 0]));
    };
    const pick = await new BlasChooser([a, b, c], { ...quietless, time, cacheFile: null }).pick('fp32', 2000);
    expect(calls).toEqual(['numpy', 'system', 'scipy', 'system']);
    expect(pick?.library.path).toBe(a.path);
    expect(pick?.trials.map((t) => t.medianMs)).toEqual([400, 410, 500]);
  });

  it('measures on the product\'s own operands where it hands them over, and leaves them to it', async () => {
    const n = 450;
    const own = { a: createHostBuffer('fp32', n * n), b: createHostBuffer('fp32', n * n), out: createHostBuffer('fp32', n * n), m: n, n, k: n };
    const seen: Operands[] = [];
    const time: TimeTrial = (lib, _threads, operands) => {
      seen.push(operands);
      return Promise.resolve(around(lib === a ? 1 : 2));
    };
    await new BlasChooser([a, b], { ...quietless, time, cacheFile: null }).pick('fp32', { m: n, n, k: n }, undefined, own);
    expect(seen.length).toBeGreaterThan(0);
    for (const o of seen) expect([o.a, o.b, o.out]).toEqual([own.a, own.b, own.out]);
    // Still the product's: not freed by the chooser.
    expect(own.out.read().length).toBe(n * n);
    for (const x of [own.a, own.b, own.out]) x.free();
  });

  it('keeps its picks for the boot: a second host with the same libraries reads them instead of measuring', async () => {
    const cacheFile = join(dir, 'choice.json');
    const time: TimeTrial = (lib) => Promise.resolve(around(lib === a ? 1 : 2));
    const first = await new BlasChooser([a, b], { ...quietless, time, cacheFile }).pick('fp32', 4000);
    expect(first?.library.path).toBe(a.path);
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).picks['fp32@4000x4000x4000@any'].path).toBe(a.path);
    let measured = 0;
    const count: TimeTrial = () => Promise.resolve(around(++measured));
    const again = await new BlasChooser([a, b], { ...quietless, time: count, cacheFile }).pick('fp32', 4000);
    expect(measured).toBe(0);
    expect(again).toMatchObject({ threads: first?.threads, size: 4000 });
    expect(again?.library.path).toBe(a.path);
    // Other libraries found: the kept pick is not theirs to use.
    const c = opened('libccc.so', 'scipy');
    await new BlasChooser([a, c], { ...quietless, time: count, cacheFile }).pick('fp32', 4000);
    expect(measured).toBeGreaterThan(0);
  });

  it('no library, no pick', async () => {
    expect(await new BlasChooser([], { ...quietless, cacheFile: null }).pick('fp32', 1000)).toBeNull();
  });

  it('through the harness, a library told more threads runs faster, and the most threads win', async () => {
    // 24 ms a call on one thread, divided by the threads set.
    const slow = opened('libslow.so', 'named', 24_000);
    const chooser = new BlasChooser([slow], { cores: { logical: 2, physical: 2 }, time: timeWithHarness, cacheFile: null });
    const pick = await chooser.pick('fp32', 1000);
    expect(pick?.threads).toBe(2);
    const byThreads = new Map(pick?.trials.map((t) => [t.threads, t]));
    expect(byThreads.get(1)?.medianMs).toBeGreaterThan(20);
    expect(byThreads.get(2)?.medianMs).toBeLessThan(byThreads.get(1)?.medianMs ?? 0);
    // Six samples a trial: the median has its interval.
    expect(byThreads.get(2)?.samples).toBe(6);
    expect(byThreads.get(2)?.lowMs).toBeLessThanOrEqual(byThreads.get(2)?.medianMs ?? 0);
  });
});
