#!/usr/bin/env node
// Which way of spending a point's time gives medians that repeat and samples that agree, when the machine slows
// down in bursts of tens of milliseconds (sample-series.mjs shows them): the same CPU loops and BLAS products
// measured four ways, the whole set several times over.
//   A  20 samples of ≥ 5 ms in a row (the break-even labs before)
//   B  20 samples of ≥ 20 ms in a row (4× the time: longer samples average the bursts out)
//   C  80 samples of ≥ 5 ms in a row (4× the time: more samples)
//   D  4 rounds of 5 samples of ≥ 5 ms, every configuration in turn in each round (A's time, spread out)
//   E  4 rounds of 5 samples of ≥ 20 ms (B's time, spread out)
// Prints per method the share of noisy points (IQR > 10 % of the median) and, per configuration, the spread of the
// median over the repetitions (max/min).
//   node scripts/experiments/sampling-methods.mjs [--repetitions 3]
import { parseArgs } from 'node:util';

import { MEASUREMENT } from '../../main/common/measurement.ts';
import { measure as measureOnHost } from '../../main/host/ops/index.ts';
import { summarize } from '../../main/common/pure/statistics.ts';

const { values } = parseArgs({ options: { repetitions: { type: 'string', default: '3' } } });
const repetitions = Number(values.repetitions);
const ctx = { signal: new AbortController().signal, onProgress: () => undefined };

const configs = [
  ...[100000, 316228, 1000000, 3162278].map((n) => ({ name: `add ${n}`, m: { op: 'add', variant: 'threads', elements: n } })),
  ...[100000, 1000000].map((n) => ({ name: `exp ${n}`, m: { op: 'exp', variant: 'threads', elements: n } })),
  ...[100, 200, 500, 1000].map((n) => ({ name: `sgemm ${n}`, m: { op: 'gemm', dtype: 'fp32', variant: 'blas', m: n, n, k: n } })),
];
const methods = [
  { id: 'A', rounds: 1, repeats: 20, minSampleMs: 5 },
  { id: 'B', rounds: 1, repeats: 20, minSampleMs: 20 },
  { id: 'C', rounds: 1, repeats: 80, minSampleMs: 5 },
  { id: 'D', rounds: 4, repeats: 5, minSampleMs: 5 },
  { id: 'E', rounds: 4, repeats: 5, minSampleMs: 20 },
];

async function measure(c, method, seed) {
  const m = MEASUREMENT.parse({ device: 'cpu', warmup: 2, repeats: method.repeats, seed, minSampleMs: method.minSampleMs, ...c.m });
  return (await measureOnHost(m, ctx)).hostMs;
}

// medians[method][config] = one median per repetition; noisy[method] = count
const medians = new Map(methods.map((x) => [x.id, configs.map(() => [])]));
const noisy = new Map(methods.map((x) => [x.id, 0]));
const started = Date.now();
for (let r = 0; r < repetitions; r++) {
  for (const method of methods) {
    const samples = configs.map(() => []);
    for (let round = 0; round < method.rounds; round++) {
      for (const [i, c] of configs.entries()) samples[i].push(...(await measure(c, method, 1000 * r + round)));
    }
    samples.forEach((s, i) => {
      const st = summarize(s);
      medians.get(method.id)[i].push(st.median);
      if (st.noisy) noisy.set(method.id, noisy.get(method.id) + 1);
    });
  }
  console.error(`repetition ${r + 1} done after ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
console.log(`${'configuration'.padEnd(14)} ${methods.map((x) => `${x.id}: medians µs (spread)`.padEnd(34)).join('')}`);
for (const [i, c] of configs.entries()) {
  const cells = methods.map((x) => {
    const ms = medians.get(x.id)[i];
    const spread = Math.max(...ms) / Math.min(...ms);
    return `${ms.map((v) => (v * 1000).toPrecision(3)).join('/')} (${spread.toFixed(2)})`.padEnd(34);
  });
  console.log(`${c.name.padEnd(14)} ${cells.join('')}`);
}
for (const x of methods) {
  const spreads = medians.get(x.id).map((ms) => Math.max(...ms) / Math.min(...ms)).sort((a, b) => a - b);
  console.log(
    `${x.id}: ${x.rounds} round(s) × ${x.repeats} × ≥${x.minSampleMs} ms: noisy ${noisy.get(x.id)} of ${configs.length * repetitions}; median spread over repetitions: median ${spreads[Math.floor(spreads.length / 2)].toFixed(2)}, worst ${spreads.at(-1).toFixed(2)}`,
  );
}
