#!/usr/bin/env node
// What a noisy point's samples look like in time: each configuration is measured in several trials of N samples,
// and each trial prints its median, its IQR as a share of the median and the samples in order as a strip of
// characters (· within 10 % of the median, + 10–50 % slower, # more than 50 % slower, - more than 10 % faster).
// Slow samples in runs point at something outside that comes and goes (another guest, a migration); slow samples
// spread evenly point at the method (wake-ups, a thread sharing a core). Steal ticks per configuration too.
//   node scripts/experiments/sample-series.mjs [--trials 3] [--samples 30] [--set cpu|gemm|gpu|all] [--idle-ms 200]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { MEASUREMENT } from '../../main/common/measurement.ts';
import { measure } from '../../main/host/ops/index.ts';
import { summarize } from '../../main/common/pure/statistics.ts';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '3' },
    samples: { type: 'string', default: '30' },
    set: { type: 'string', default: 'all' },
    'min-sample-ms': { type: 'string', default: '5' },
    // An idle spell before each measurement, as the GPU points before a CPU point leave the cores idle.
    'idle-ms': { type: 'string', default: '0' },
  },
});
const trials = Number(values.trials);
const repeats = Number(values.samples);
const minSampleMs = Number(values['min-sample-ms']);
const idleMs = Number(values['idle-ms']);
const ctx = { signal: new AbortController().signal, onProgress: () => undefined };
const stat = () => readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);

const configs = [];
const want = (set) => values.set === 'all' || values.set.split(',').includes(set);
if (want('cpu')) {
  for (const n of [100000, 1000000, 10000000]) {
    for (const threads of [undefined, 8, 4]) {
      configs.push({ name: `add ${threads ?? 'all'} thr`, size: n, m: { op: 'add', variant: 'threads', elements: n, threads } });
    }
    configs.push({ name: 'add 1 thr', size: n, m: { op: 'add', variant: 'single', elements: n } });
  }
}
if (want('gemm')) {
  for (const n of [100, 200, 500, 1000, 2000]) {
    for (const threads of [undefined, 8, 4, 1]) {
      if (threads === 1 && n > 1000) continue;
      configs.push({ name: `sgemm ${threads ?? 'all'} thr`, size: n, m: { op: 'gemm', dtype: 'fp32', variant: 'blas', m: n, n, k: n, threads } });
    }
  }
}
if (want('gpu')) {
  for (const n of [100, 200, 500, 1000]) {
    for (const path of ['with-copies', 'resident']) {
      configs.push({ name: `cublas ${path}`, size: n, m: { op: 'gemm', dtype: 'fp32', variant: 'cublas', m: n, n, k: n, path, timing: 'host', device: 'cuda:0' } });
    }
  }
  for (const n of [100000, 1000000]) {
    configs.push({ name: 'add gpu with-transfers', size: n, m: { op: 'add', variant: 'kernel', elements: n, path: 'with-copies', timing: 'host', device: 'cuda:0' } });
  }
}

function strip(samples, median) {
  return samples.map((s) => (s > 1.5 * median ? '#' : s > 1.1 * median ? '+' : s < 0.9 * median ? '-' : '·')).join('');
}

console.log(`${'configuration'.padEnd(26)} ${'size'.padStart(9)}  median µs  IQR %  samples (${repeats} × ≥${minSampleMs} ms)      steal/busy`);
let noisy = 0;
for (const c of configs) {
  for (let t = 0; t < trials; t++) {
    if (idleMs) await new Promise((resolve) => setTimeout(resolve, idleMs));
    const before = stat();
    const m = MEASUREMENT.parse({ device: 'cpu', warmup: 2, repeats, seed: c.size + t, minSampleMs, ...c.m });
    const run = await measure(m, ctx);
    const after = stat();
    const d = after.map((v, i) => v - before[i]);
    const busy = d[0] + d[1] + d[2] + d[5] + d[6] + d[7];
    const s = summarize(run.hostMs);
    if (s.noisy) noisy++;
    console.log(
      `${(t ? '' : c.name).padEnd(26)} ${(t ? '' : String(c.size)).padStart(9)}  ${(s.median * 1000).toFixed(1).padStart(9)}  ${((100 * s.iqr) / s.median).toFixed(0).padStart(5)}  ${strip(run.hostMs, s.median)}  ${d[7]}/${busy}`,
    );
  }
}
console.log(`${noisy} of ${configs.length * trials} trials noisy (IQR > 10 %)`);
