// Which BLAS libraries this machine has and how fast each is through the addon's loader (issue 39): every library the
// compute host would find (main/host/blas-libraries.ts), its build line and kernel, then the chooser's trials and
// picks at each calibration size, fp32 and fp64 (every library on 16, 8 and 4 threads up to N = 1024). With --child CORETYPE it times
// only the system's OpenBLAS at N = 1000 (run by the parent with OPENBLAS_CORETYPE set, to tell kernel from threads).
//   GPU_LAB_PYTHON=/opt/torch/.venv/bin/python node scripts/experiments/blas-probe.ts
import { spawnSync } from 'node:child_process';

import { benchmark, createHostBuffer, openBlas } from '../../native/index.ts';
import type { BlasInfo } from '../../native/index.ts';
import { BlasChooser, libraryText } from '../../main/host/blas-choice.ts';
import { blasCandidates, interpreterPlaces, openCandidates } from '../../main/host/blas-libraries.ts';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function time(lib: BlasInfo, dtype: 'fp32' | 'fp64', n: number, threads: number): Promise<number> {
  const a = createHostBuffer(dtype, n * n).fillRandom(1, { low: -1, high: 1 });
  const b = createHostBuffer(dtype, n * n).fillRandom(2, { low: -1, high: 1 });
  const out = createHostBuffer(dtype, n * n);
  try {
    const spec = { op: 'gemm', variant: 'blas', a, b, out, m: n, n, k: n, library: lib.id, threads } as const;
    const r = await benchmark(spec, { warmup: 1, repeats: n >= 4000 ? 3 : 7, minSampleMs: n >= 4000 ? 0 : 10 });
    return median(r.hostMs);
  } finally {
    for (const x of [a, b, out]) x.free();
  }
}

const rate = (n: number, ms: number): string => `${((2 * n ** 3) / (ms * 1e6)).toFixed(0)}`;

if (process.argv[2] === '--child') {
  const lib = openBlas('libopenblas.so.0', 'system');
  const ms = await time(lib, 'fp32', 1000, 16);
  console.log(`system OpenBLAS with OPENBLAS_CORETYPE=${process.env.OPENBLAS_CORETYPE}: kernel ${lib.kernel}, fp32 N = 1000 on 16 threads ${rate(1000, ms)} GFLOP/s`);
  process.exit(0);
}

const places = await interpreterPlaces(process.env);
console.log(`interpreter places: ${JSON.stringify(places)}`);
const candidates = blasCandidates(process.env, places);
const libs = openCandidates(candidates);
for (const l of libs) console.log(`found ${libraryText(l)} | config "${l.config}" | kernel ${l.kernel} | ${l.symbol} | threads ${l.defaultThreads}`);

const chooser = new BlasChooser(libs, { cacheFile: null });
for (const dtype of ['fp32', 'fp64'] as const) {
  for (const n of [512, 1024, 2048, 4096]) {
    const pick = await chooser.pick(dtype, n);
    if (pick) console.log(`pick ${dtype} N = ${n}: ${pick.library.origin} on ${pick.threads} threads; trials ${pick.trials.map((t) => `${t.library.split(' from ')[0]}/${t.threads}t ${t.medianMs.toFixed(3)} ms`).join(', ')}`);
  }
}

for (const core of ['SkylakeX', 'Haswell']) {
  const r = spawnSync(process.execPath, [import.meta.filename, '--child'], { env: { ...process.env, OPENBLAS_CORETYPE: core }, encoding: 'utf8' });
  process.stdout.write(r.stdout + r.stderr);
}
