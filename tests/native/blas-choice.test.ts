// Which library and how many threads run a CPU GEMM: the fastest median of the trials at the product's calibration
// size, kept for the boot in a file the next host reads instead of measuring again. The trials' times are stood in
// where the rule is tested, and really taken through the harness on stand-in libraries (fake-blas-libraries.ts)
// whose speed depends on the threads they are told to use.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { openBlas } from '../../native/index.ts';
import { BlasChooser, calibrationSize, pickSummary, threadCounts, timeWithHarness } from '../../main/host/blas-choice.ts';
import type { TimeTrial } from '../../main/host/blas-choice.ts';
import type { OpenedBlas } from '../../main/host/blas-libraries.ts';
import { canBuildFakes, fakeBlas } from './fake-blas-libraries.ts';

const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-blas-choice-'));
const cores = { logical: 16, physical: 16 };

function opened(fileName: string, origin: OpenedBlas['origin'], sleepUs = 0): OpenedBlas {
  const path = fakeBlas(join(dir, origin), fileName, { config: `OpenBLAS 9.0.${fileName.length} FakeLake`, sleepUs });
  return { ...openBlas(path, origin), origin };
}

describe('the calibration sizes and thread counts', () => {
  it('rounds a product to the nearest calibration size on a log scale', () => {
    expect([50, 300, 500, 724, 1000, 1500, 2000, 5000, 7000].map(calibrationSize)).toEqual([256, 256, 512, 512, 1024, 2048, 2048, 4096, 4096]);
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

describe.skipIf(!canBuildFakes)('the chooser', () => {
  const a = opened('liba.so', 'numpy');
  const b = opened('libbb.so', 'system');

  it('picks the fastest median of the trials, at the calibration size, and says how', async () => {
    const calls: string[] = [];
    // b is faster on 8 threads than anything else; a on every count slower.
    const time: TimeTrial = (lib, threads, operands) => {
      calls.push(`${lib.origin}/${threads}@${operands.n}/${operands.dtype}`);
      return Promise.resolve(lib === b ? (threads === 8 ? 1 : 2) : 3);
    };
    const chooser = new BlasChooser([a, b], { cores, time, pauseMs: 0, cacheFile: null });
    const pick = await chooser.pick('fp64', 500);
    expect(pick).toMatchObject({ threads: 8, size: 512, dtype: 'fp64' });
    expect(pick?.library.path).toBe(b.path);
    // Two passes at small sizes, each library on each count; the better median of the two kept, once a trial.
    expect(calls).toHaveLength(8);
    expect(pick?.trials).toHaveLength(4);
    expect(pickSummary(pick ?? ({} as never))).toBe('8 threads, the fastest of 2 libraries × thread counts (4 trials) at N = 512, fp64');
    // The same calibration size is not measured again; another is, once at large sizes.
    await chooser.pick('fp64', 600);
    expect(calls).toHaveLength(8);
    await chooser.pick('fp32', 3000);
    expect(calls).toHaveLength(10);
  });

  it('keeps its picks for the boot: a second host with the same libraries reads them instead of measuring', async () => {
    const cacheFile = join(dir, 'choice.json');
    const time: TimeTrial = (lib) => Promise.resolve(lib === a ? 1 : 2);
    const first = await new BlasChooser([a, b], { cores, time, pauseMs: 0, cacheFile }).pick('fp32', 4000);
    expect(first?.library.path).toBe(a.path);
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).picks['fp32@4096@any'].path).toBe(a.path);
    let measured = 0;
    const again = await new BlasChooser([a, b], { cores, time: () => Promise.resolve(++measured), pauseMs: 0, cacheFile }).pick('fp32', 5000);
    expect(measured).toBe(0);
    expect(again).toMatchObject({ threads: first?.threads, size: 4096 });
    expect(again?.library.path).toBe(a.path);
    // Other libraries found: the kept pick is not theirs to use.
    const c = opened('libccc.so', 'scipy');
    await new BlasChooser([a, c], { cores, time: () => Promise.resolve(++measured), pauseMs: 0, cacheFile }).pick('fp32', 5000);
    expect(measured).toBeGreaterThan(0);
  });

  it('no library, no pick', async () => {
    expect(await new BlasChooser([], { cores, pauseMs: 0, cacheFile: null }).pick('fp32', 1000)).toBeNull();
  });

  it('through the harness, a library told more threads runs faster, and the most threads win', async () => {
    // 24 ms a call on one thread, divided by the threads set.
    const slow = opened('libslow.so', 'named', 24_000);
    const chooser = new BlasChooser([slow], { cores: { logical: 2, physical: 2 }, time: timeWithHarness, pauseMs: 0, cacheFile: null });
    const pick = await chooser.pick('fp32', 1000);
    expect(pick?.threads).toBe(2);
    const byThreads = new Map(pick?.trials.map((t) => [t.threads, t.medianMs]));
    expect(byThreads.get(1)).toBeGreaterThan(20);
    expect(byThreads.get(2)).toBeLessThan(byThreads.get(1) ?? 0);
  });
});
