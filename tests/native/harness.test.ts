import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

import { describe, expect, it } from 'vitest';

import { benchmark, buildInfo, cpuInfo, createHostBuffer } from '../../native/index.ts';
import { loadAddon } from '../../native/addon.ts';
import { expectCode } from './helpers.ts';

describe('timing harness', () => {
  it('returns one sample per repeat, warm-up excluded, with the implementation named', async () => {
    const x = createHostBuffer('fp32', 1000).fillRandom(1);
    const out = createHostBuffer('fp32', 1000);
    const progress: number[] = [];
    const r = await benchmark(
      { op: 'exp', variant: 'single', x, out },
      { warmup: 3, repeats: 17, onProgress: (p) => progress.push(p.done) },
    );
    expect(r.hostMs).toHaveLength(17);
    expect(r.hostMs.every((ms) => ms > 0 && ms < 1000)).toBe(true);
    expect(r.deviceMs).toBeNull();
    expect(r.implementation).toBe('single-thread loop');
    expect(r.threads).toBe(1);
    // The last progress report says every sample, warm-up included, is done.
    expect(progress.at(-1)).toBe(20);
  });

  it('the harness costs well under 2 µs per sample (median of the empty operation)', async () => {
    const r = await benchmark({ op: 'empty' }, { warmup: 100, repeats: 10_000 });
    const sorted = [...r.hostMs].sort((a, b) => a - b);
    expect(sorted[5000]).toBeLessThan(0.002);
  });

  it('cancels between samples: the promise rejects with CANCELLED and says how far it got', async () => {
    const x = createHostBuffer('fp64', 2_000_000).fillRandom(1);
    const y = createHostBuffer('fp64', 2_000_000).fillRandom(2);
    const out = createHostBuffer('fp64', 2_000_000);
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 200);
    let caught: unknown;
    try {
      await benchmark({ op: 'vector-function', variant: 'single', x, y, out, a: 1, b: 2, c: 3 }, { repeats: 1_000_000, signal: controller.signal });
    } catch (err) {
      caught = err;
    }
    const elapsed = performance.now() - started;
    const err = caught as Error & { code?: string; details?: { samples: number } };
    expect(err.code).toBe('CANCELLED');
    expect(err.details?.samples).toBeGreaterThan(0);
    expect(err.details?.samples).toBeLessThan(1_000_000);
    // Stopped long before the million samples would end (minutes): a bound a loaded machine cannot come near.
    expect(elapsed).toBeLessThan(30_000);
    // The process keeps working after a cancel.
    const r = await benchmark({ op: 'empty' }, { repeats: 5 });
    expect(r.hostMs).toHaveLength(5);
  });

  it('runs measurements started together one after another, each with its own samples', async () => {
    const x = createHostBuffer('fp32', 100_000).fillRandom(1);
    const out = createHostBuffer('fp32', 100_000);
    const finished: number[] = [];
    const runs = [0, 1, 2, 3, 4, 5].map((i) =>
      benchmark({ op: 'exp', variant: 'threads', x, out }, { warmup: 0, repeats: 5 + i }).then((r) => {
        finished.push(i);
        return r.hostMs.length;
      }),
    );
    expect(await Promise.all(runs)).toEqual([5, 6, 7, 8, 9, 10]);
    expect(finished).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a progress callback that throws does not stop the measurement', async () => {
    const r = await benchmark({ op: 'empty' }, { repeats: 3, onProgress: () => { throw new Error('callback bug'); } });
    expect(r.hostMs).toHaveLength(3);
  });

  it('switching thread counts between back-to-back samples never runs a range twice or skips one', async () => {
    // A worker that sat out one job must not run a chunk of the next one twice (a race once found here).
    const n = 300_000;
    const x = createHostBuffer('fp64', n).fillRandom(5);
    const y = createHostBuffer('fp64', n).fillRandom(6);
    const ref = createHostBuffer('fp64', n);
    await benchmark({ op: 'vector-function', variant: 'single', x, y, out: ref, a: 1.5, b: -2, c: 0.5 }, { warmup: 0, repeats: 1 });
    const expected = Array.from(ref.read());
    for (let i = 0; i < 150; i++) {
      const out = createHostBuffer('fp64', n).fillRandom(0xbad, { low: 1e6, high: 2e6 });
      const threads = [2, 9, 3, 7, 1][i % 5];
      await benchmark({ op: 'vector-function', variant: 'threads', threads, x, y, out, a: 1.5, b: -2, c: 0.5 }, { warmup: 0, repeats: 1 });
      // Sampled comparison keeps 150 rounds fast; any unwritten chunk is 32 k elements wide and cannot hide.
      for (let j = 0; j < n; j += 997) expect(out.read(j, 1)[0], `round ${i}, threads ${threads}, element ${j}`).toBe(expected[j]);
      out.free();
    }
  });

  it('names the argument when a spec holds something that is not a buffer', async () => {
    const out = createHostBuffer('fp32', 4);
    const fake = { live: () => out.raw, dtype: 'fp32', length: 4, location: 'host' };
    await expectCode(() => benchmark({ op: 'exp', variant: 'single', x: fake as never, out }), 'INVALID_ARGUMENT', ['`x`', 'buffer']);
  });

  it('an already-aborted signal never starts the measurement', async () => {
    await expectCode(() => benchmark({ op: 'empty' }, { signal: AbortSignal.abort() }), 'CANCELLED');
  });

  it('keeps the event loop turning during a 10-second benchmark', async () => {
    const n = 5_000_000;
    const x = createHostBuffer('fp64', n).fillRandom(1);
    const y = createHostBuffer('fp64', n).fillRandom(2);
    const out = createHostBuffer('fp64', n);
    // Far more samples than 10 s holds, stopped at 10 s by the signal: the run lasts 10 s whatever the machine's load.
    const controller = new AbortController();
    const stop = setTimeout(() => controller.abort(), 10_000);
    const tickTimes: number[] = [];
    const timer = setInterval(() => tickTimes.push(performance.now()), 10);
    const started = performance.now();
    let samples = 0;
    try {
      await benchmark(
        { op: 'vector-function', variant: 'single', x, y, out, a: 3.5, b: 2.8, c: 10 },
        { warmup: 0, repeats: 10_000_000, signal: controller.signal, onProgress: (p) => (samples = p.done) },
      );
    } catch (err) {
      expect((err as { code?: string }).code).toBe('CANCELLED');
    }
    const elapsed = performance.now() - started;
    clearInterval(timer);
    clearTimeout(stop);
    expect(elapsed).toBeGreaterThanOrEqual(9_900);
    expect(samples).toBeGreaterThan(100);
    // A 10 ms timer kept firing throughout: at least half the expected ticks, and some in every second of the run.
    // (No bound on the longest gap: on a loaded 2-core machine a busy neighbour delays a timer by hundreds of ms; a
    // blocked loop instead fires once at the end.)
    expect(tickTimes.length).toBeGreaterThan(elapsed / 10 / 2);
    const seconds = Math.floor(elapsed / 1000);
    const silent = Array.from({ length: seconds }, (_, i) => i).filter((i) => !tickTimes.some((t) => t - started >= i * 1000 && t - started < (i + 1) * 1000));
    expect(silent).toEqual([]);
  }, 60_000);

  it('batches runs shorter than minSampleMs into one sample and reports the mean of one run', async () => {
    const a = createHostBuffer('fp32', 1000).fillRandom(1);
    const b = createHostBuffer('fp32', 1000).fillRandom(2);
    const out = createHostBuffer('fp32', 1000);
    const spec = { op: 'add', variant: 'single', a, b, out } as const;
    const single = await benchmark(spec, { warmup: 3, repeats: 30 });
    const batched = await benchmark(spec, { warmup: 3, repeats: 30, minSampleMs: 0.5 });
    expect(single.executionsPerSample).toBe(1);
    // A 1000-element add takes well under a microsecond: hundreds of runs to fill half a millisecond.
    expect(batched.executionsPerSample).toBeGreaterThan(50);
    const median = (xs: number[]): number => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)] ?? Number.NaN;
    // The mean of one run, not the batch's total (over 50 runs, so 50× larger): the same order as a single run's
    // reading, which carries the clock's own cost. Within 10×, not closer: both are sub-microsecond readings that a
    // loaded 2-core machine moves by half.
    expect(median(batched.hostMs)).toBeLessThan(median(single.hostMs) * 10);
    // The batch lasts about minSampleMs: sized before the samples from the faster of two batches, it comes out
    // shorter where the machine runs faster afterwards (35 % shorter seen on this 2-core machine), never 1000× shorter.
    expect(median(batched.hostMs) * batched.executionsPerSample).toBeGreaterThan(0.25);
    // No warm-up, nothing to size the batch from: one run per sample.
    expect((await benchmark(spec, { warmup: 0, repeats: 3, minSampleMs: 0.5 })).executionsPerSample).toBe(1);
    await expectCode(() => benchmark(spec, { minSampleMs: -1 }), 'INVALID_ARGUMENT', ['minSampleMs']);
    // A later round of a point keeps its first round's size: the count given is the count used, warm-up or not,
    // and every sample still reports one run's mean.
    const fixed = await benchmark(spec, { warmup: 1, repeats: 5, minSampleMs: 0.5, executionsPerSample: 7 });
    expect(fixed.executionsPerSample).toBe(7);
    expect(fixed.hostMs).toHaveLength(5);
    expect(median(fixed.hostMs)).toBeLessThan(median(single.hostMs) * 10);
    expect((await benchmark(spec, { warmup: 0, repeats: 2, executionsPerSample: 3 })).executionsPerSample).toBe(3);
    await expectCode(() => benchmark(spec, { executionsPerSample: 0 }), 'INVALID_ARGUMENT', ['executionsPerSample', '0']);
    await expectCode(() => benchmark(spec, { executionsPerSample: 100_001 }), 'SIZE_UNSUPPORTED', ['executionsPerSample', '100001']);
    for (const buf of [a, b, out]) buf.free();
  });

  it('rejects bad options and specs with codes and messages naming the argument', async () => {
    const a = createHostBuffer('fp32', 10);
    const b = createHostBuffer('fp32', 11);
    const out = createHostBuffer('fp32', 10);
    await expectCode(() => benchmark({ op: 'empty' }, { repeats: 0 }), 'INVALID_ARGUMENT', ['`repeats`', '0 of type number']);
    await expectCode(() => benchmark({ op: 'empty' }, { warmup: -1 }), 'INVALID_ARGUMENT', ['`warmup`', '-1']);
    await expectCode(() => benchmark({ op: 'empty' }, { repeats: Number.NaN }), 'INVALID_ARGUMENT', ['`repeats`', 'NaN']);
    await expectCode(() => benchmark({ op: 'empty' }, { repeats: 1.5 }), 'INVALID_ARGUMENT', ['`repeats`', '1.5']);
    await expectCode(() => benchmark({ op: 'fft' } as never), 'INVALID_ARGUMENT', ['`op`', 'fft']);
    await expectCode(() => benchmark({ op: 'add', variant: 'gpu', a, b: a, out } as never), 'INVALID_ARGUMENT', ['`variant`', 'single, threads']);
    await expectCode(() => benchmark({ op: 'add', variant: 'single', a, b, out }), 'LENGTH_MISMATCH', ['`b`', '10', '11']);
    await expectCode(() => benchmark({ op: 'add', variant: 'threads', threads: 0, a, b: a, out }), 'INVALID_ARGUMENT', ['`threads`']);
    await expectCode(() => benchmark({ op: 'add', variant: 'threads', threads: 1000, a, b: a, out }), 'SIZE_UNSUPPORTED', ['`threads`']);
    await expectCode(() => benchmark({ op: 'add', variant: 'single', a, b: a, out: null } as never), 'INVALID_ARGUMENT', ['`out`', 'null']);
    const f64 = createHostBuffer('fp64', 10);
    await expectCode(() => benchmark({ op: 'add', variant: 'single', a, b: f64, out }), 'DTYPE_MISMATCH', ['`b`', 'fp64']);
    await expectCode(() => benchmark({ op: 'vector-function', variant: 'single', x: f64, y: f64, out: f64, a: Number.NaN, b: 1, c: 1 }), 'INVALID_ARGUMENT', ['`a`', 'finite']);
    await expectCode(() => benchmark({ op: 'empty', device: 'gpu' } as never), 'INVALID_ARGUMENT', ['`device`']);
    const freed = createHostBuffer('fp32', 10);
    freed.free();
    await expectCode(() => benchmark({ op: 'add', variant: 'single', a, b: freed, out }), 'BUFFER_FREED', ['`b`']);
  });

  it('freeing a buffer during a measurement neither crashes nor corrupts it', async () => {
    const x = createHostBuffer('fp64', 1_000_000).fillRandom(1);
    const y = createHostBuffer('fp64', 1_000_000).fillRandom(2);
    const out = createHostBuffer('fp64', 1_000_000);
    const running = benchmark({ op: 'vector-function', variant: 'single', x, y, out, a: 1, b: 1, c: 1 }, { repeats: 200 });
    x.free();
    y.free();
    const r = await running;
    expect(r.hostMs).toHaveLength(200);
    expect(out.read(0, 1)[0]).toBeGreaterThan(0);
  });

  it('the raw addon answers garbage with JS errors, never a crash', () => {
    // Run in a child so that a crash would show as a signal rather than take the test runner down.
    const script = `
      const addon = (await import(${JSON.stringify(new URL('../../native/addon.ts', import.meta.url).pathname)})).loadAddon();
      const attempts = [
        () => addon.createHostBuffer(), () => addon.createHostBuffer('fp32', -1), () => addon.createHostBuffer(5, 5),
        () => addon.startBenchmark(null), () => addon.startBenchmark({ op: 'add', warmup: 0, repeats: 1 }),
        () => addon.startBenchmark({ op: 'add', variant: 'single', warmup: 0, repeats: 1, buffers: { a: {}, b: 1, out: 'x' } }),
        () => addon.createHostBuffer('fp32', 4).read('a', {}), () => addon.createHostBuffer('fp32', 4).read(2, 5),
        () => new addon.NativeBuffer(), () => addon.createHostBuffer('fp32', 4).write(new Float32Array(8), 0),
      ];
      let errors = 0;
      for (const f of attempts) { try { f(); } catch (e) { if (e instanceof Error) errors++; } }
      console.log(errors);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.signal).toBeNull();
    expect(child.stderr).toBe('');
    expect(Number(child.stdout.trim())).toBe(10);
    expect(loadAddon()).toBeDefined();
  });
});

describe('cpuInfo and buildInfo', () => {
  it('describe the machine the way the OS does', () => {
    const info = cpuInfo();
    expect(info.logicalCores).toBe(cpus().length);
    expect(info.physicalCores).toBeGreaterThanOrEqual(1);
    expect(info.physicalCores).toBeLessThanOrEqual(info.logicalCores);
    expect(info.model.length).toBeGreaterThan(0);
    expect(Math.abs(info.memoryTotalBytes - totalmem()) / totalmem()).toBeLessThan(0.01);
    expect(info.memoryAvailableBytes).toBeGreaterThan(0);
    expect(info.memoryAvailableBytes).toBeLessThanOrEqual(info.memoryTotalBytes);
    if (process.arch === 'x64') expect(info.simd).toContain('sse4.2');
  });

  it('says whether CUDA was built in, and why not when it was not', () => {
    const info = buildInfo();
    expect(info.napiVersion).toBe(9);
    if (!info.cuda) expect(info.cudaReason).toMatch(/built without CUDA/);
    else expect(info.cudaReason).toBeNull();
  });
});
