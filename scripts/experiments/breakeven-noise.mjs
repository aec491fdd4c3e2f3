#!/usr/bin/env node
// Where the break-even lab's run-to-run spread comes from: the CPU's threaded add/mul and the GPU's host-timed
// kernels around 10⁵–10⁶ elements, each measured several times with fresh buffers, as the lab measures them, and
// with variants (more samples, fewer threads). Prints the machine's topology, then per configuration the median
// of each trial, the trials' max/min ratio and the worst IQR. "20 × ≥1 ms": samples of back-to-back runs, as the
// break-even labs take them. For the GPU machine:
//   node scripts/experiments/breakeven-noise.mjs [--trials 5]
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';

import { MEASUREMENT } from '../../main/common/measurement.ts';
import { measure } from '../../main/host/ops/index.ts';
import { summarize } from '../../main/common/pure/statistics.ts';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '5' },
    sizes: { type: 'string', default: '100000,300000,1000000,3000000' },
    // "threads": the CPU loop as the lab takes it (samples of ≥ 5 ms) with all threads, all but one, and half.
    set: { type: 'string', default: 'methods' },
  },
});
const trials = Number(values.trials);
const sizes = values.sizes.split(',').map(Number);
const sh = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
  } catch {
    return `(${cmd} unavailable)`;
  }
};
console.log(sh('lscpu', []).split('\n').filter((l) => /Model name|^CPU\(s\)|Thread|Core|Socket|NUMA|L2|L3|MHz/.test(l)).join('\n'));
console.log(sh('cat', ['/sys/kernel/mm/transparent_hugepage/enabled']));
const ctx = { signal: new AbortController().signal, onProgress: () => undefined };
const hasGpu = sh('nvidia-smi', ['-L']).includes('GPU 0');

async function trial(m) {
  const run = await measure(MEASUREMENT.parse(m), ctx);
  return summarize(run.hostMs);
}

const configs = [];
const hw = Number(sh('nproc', [])) || 16;
if (values.set === 'threads') {
  for (const op of ['add', 'exp']) {
    for (const n of sizes) {
      for (const threads of [hw, hw - 1, hw - 2, Math.max(1, hw >> 1)]) {
        configs.push({ name: `${op} cpu ${threads} thr, 10 × ≥5 ms`, m: { op, variant: 'threads', elements: n, warmup: 2, repeats: 10, seed: n, device: 'cpu', minSampleMs: 5, threads } });
      }
      configs.push({ name: `${op} cpu 1 thread, 10 × ≥5 ms`, m: { op, variant: 'single', elements: n, warmup: 2, repeats: 10, seed: n, device: 'cpu', minSampleMs: 5 } });
    }
  }
}
for (const op of values.set === 'methods' ? ['add', 'mul'] : []) {
  for (const n of sizes) {
    configs.push({ name: `${op} cpu threads, 20 samples`, m: { op, variant: 'threads', elements: n, warmup: 2, repeats: 20, seed: n, device: 'cpu' } });
    configs.push({ name: `${op} cpu threads, 20 × ≥1 ms`, m: { op, variant: 'threads', elements: n, warmup: 2, repeats: 20, seed: n, device: 'cpu', minSampleMs: 1 } });
    configs.push({ name: `${op} cpu threads, 200 samples`, m: { op, variant: 'threads', elements: n, warmup: 20, repeats: 200, seed: n, device: 'cpu' } });
    configs.push({ name: `${op} cpu 4 threads, 200 samples`, m: { op, variant: 'threads', elements: n, warmup: 20, repeats: 200, seed: n, device: 'cpu', threads: 4 } });
    configs.push({ name: `${op} cpu 1 thread, 200 samples`, m: { op, variant: 'single', elements: n, warmup: 20, repeats: 200, seed: n, device: 'cpu' } });
    if (hasGpu) configs.push({ name: `${op} gpu resident host, 20 samples`, m: { op, variant: 'kernel', elements: n, path: 'resident', timing: 'host', warmup: 2, repeats: 20, seed: n, device: 'cuda:0' } });
    if (hasGpu) configs.push({ name: `${op} gpu resident host, 20 × ≥1 ms`, m: { op, variant: 'kernel', elements: n, path: 'resident', timing: 'host', warmup: 2, repeats: 20, seed: n, device: 'cuda:0', minSampleMs: 1 } });
  }
}
// Time the hypervisor gave to others (steal) over the whole experiment: a shared host shows up here.
const steal = () => Number(sh('cat', ['/proc/stat']).split('\n')[0].trim().split(/\s+/)[8]);
const stealBefore = steal();
process.on('exit', () => console.log(`steal over the run: ${steal() - stealBefore} ticks (1/100 s, all CPUs)`));
console.log(`\n${'configuration'.padEnd(36)} ${'n'.padStart(8)}  medians of ${trials} trials (µs)   spread  worst IQR%`);
for (const c of configs) {
  const medians = [];
  let worstIqr = 0;
  for (let t = 0; t < trials; t++) {
    const s = await trial(c.m);
    medians.push(s.median * 1000);
    worstIqr = Math.max(worstIqr, (100 * s.iqr) / s.median);
  }
  const spread = Math.max(...medians) / Math.min(...medians);
  console.log(`${c.name.padEnd(36)} ${String(c.m.elements).padStart(8)}  ${medians.map((v) => v.toFixed(1).padStart(7)).join(' ')}   ${spread.toFixed(2).padStart(5)}×  ${worstIqr.toFixed(0).padStart(5)}`);
}
