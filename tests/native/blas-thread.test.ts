// Every BLAS call of the compute host comes from one native thread, the same for every measurement, with the thread
// count set on that thread. A BLAS on OpenMP (MKL inside PyTorch) keeps a team of threads per calling thread and its
// thread count per calling thread: called from whichever libuv worker took each measurement, it ran several teams at
// once on the GPU machine, and was half as fast as torch.matmul on the same library. A stand-in library built with
// cc (fake-blas-libraries.ts), its thread count a setting of the calling thread as OpenMP's is, logs each GEMM's
// calling thread and the count it ran with.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { benchmark, createHostBuffer, openBlas } from '../../native/index.ts';
import { canBuildFakes, fakeBlas } from './fake-blas-libraries.ts';

const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-blas-thread-'));
const LOG = 'FAKE_BLAS_LOG';

afterAll(() => {
  delete process.env[LOG];
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!canBuildFakes)('the thread BLAS runs on', () => {
  it('is one thread for every measurement, even where they are asked for at once, each at the count it was set to', async () => {
    const path = fakeBlas(join(dir, 'lib'), 'libtorch_cpu.so', { fortran: true, omp: true, perThread: true });
    const lib = openBlas(path, 'torch');
    expect(lib).toMatchObject({ available: true, threadsSettable: true });
    const n = 24;
    const a = createHostBuffer('fp64', n * n).fillRandom(1, { low: -1, high: 1 });
    const b = createHostBuffer('fp64', n * n).fillRandom(2, { low: -1, high: 1 });
    const outs = [3, 5, 7, 2, 6, 4].map(() => createHostBuffer('fp64', n * n));
    const log = join(dir, 'calls.log');
    process.env[LOG] = log;
    // Six measurements queued together: libuv hands them to as many of its workers as it has (four by default).
    await Promise.all(outs.map((out, i) => benchmark({ op: 'gemm', variant: 'blas', a, b, out, m: n, n, k: n, library: lib.id, threads: [3, 5, 7, 2, 6, 4][i] ?? 1 }, { warmup: 1, repeats: 3 })));
    // And one more after them, from wherever libuv runs it.
    await benchmark({ op: 'gemm', variant: 'blas', a, b, out: outs[0] ?? a, m: n, n, k: n, library: lib.id, threads: 1 }, { warmup: 0, repeats: 2 });
    delete process.env[LOG];
    const calls = readFileSync(log, 'utf8').trim().split('\n').map((line) => line.split(' '));
    expect(calls).toHaveLength(6 * 4 + 2);
    expect(new Set(calls.map(([, tid]) => tid)).size).toBe(1);
    // Each measurement's calls in one run, at its own count: none ran on a count another measurement left behind.
    const counts = calls.map(([, , threads]) => Number(threads));
    const runs = counts.reduce<number[][]>((acc, c) => (acc.at(-1)?.[0] === c ? acc.at(-1)?.push(c) : acc.push([c]), acc), []);
    expect(runs.map((r) => r.length).sort()).toEqual([2, 4, 4, 4, 4, 4, 4]);
    expect(runs.map((r) => r[0])).toEqual([...runs.slice(0, 6).map((r) => r[0]), 1]);
    expect(runs.map((r) => r[0]).slice(0, 6).sort()).toEqual([2, 3, 4, 5, 6, 7]);
    for (const x of [a, b, ...outs]) x.free();
  });
});
