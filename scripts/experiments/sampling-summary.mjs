#!/usr/bin/env node
// Sums up how the engine sampled the runs that scripts/run-all-labs.mjs wrote into DIR: per lab, the seconds it took,
// its measured points, how many are noisy (median's 95 % interval past ±5 %), the samples taken and why sampling
// stopped, and the points that took longest. Usage: node scripts/experiments/sampling-summary.mjs DIR
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { intervalHalfWidth } from '../../main/common/pure/statistics.ts';

const dir = process.argv[2] ?? 'lab-runs';
const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
let seconds = 0;
let noisyAll = 0;
let okAll = 0;
for (const lab of summary.labs) {
  seconds += lab.seconds ?? 0;
  let record;
  try {
    record = JSON.parse(readFileSync(join(dir, `${lab.lab}.json`), 'utf8'));
  } catch {
    console.log(`${lab.lab}: no record (${lab.status})`);
    continue;
  }
  const ok = record.points.filter((p) => p.status === 'ok');
  const noisy = ok.filter((p) => p.stats && (intervalHalfWidth(p.stats) ?? 1) > 0.05 && p.stats.count >= 6);
  const few = ok.filter((p) => (p.stats?.count ?? 0) < 6);
  const stops = {};
  for (const p of ok) stops[p.sampling?.stop ?? 'none'] = (stops[p.sampling?.stop ?? 'none'] ?? 0) + 1;
  const samples = ok.map((p) => p.stats?.count ?? 0).sort((a, b) => a - b);
  noisyAll += noisy.length;
  okAll += ok.length;
  console.log(`${lab.lab.padEnd(22)} ${(lab.seconds ?? 0).toFixed(1).padStart(6)} s  ${String(ok.length).padStart(3)} measured, ${String(noisy.length).padStart(3)} noisy, ${few.length} under 6 samples; samples ${samples[0]}–${samples.at(-1)} (median ${samples[Math.floor(samples.length / 2)]}); stops ${JSON.stringify(stops)}`);
  const wall = (p) => (p.hostMs ?? []).reduce((s, v) => s + v, 0) * (p.executionsPerSample ?? 1);
  for (const p of [...ok].sort((a, b) => wall(b) - wall(a)).slice(0, 3)) {
    console.log(`    ${p.key.padEnd(34)} ${(wall(p) / 1000).toFixed(2)} s sampled, ${p.stats.count} samples, ±${(100 * (intervalHalfWidth(p.stats) ?? Number.NaN)).toFixed(1)} %, stop ${p.sampling?.stop}, budget ${p.sampling?.budgetSeconds?.toFixed(2)} s, steal ${p.sampling?.cpuSteal == null ? '?' : (100 * p.sampling.cpuSteal).toFixed(1) + ' %'}`);
  }
  for (const p of noisy.slice(0, 12)) console.log(`    noisy ${p.key.padEnd(28)} ±${(100 * intervalHalfWidth(p.stats)).toFixed(1)} % of ${p.stats.count} samples, stop ${p.sampling?.stop}, ×${p.executionsPerSample}`);
}
console.log(`all labs: ${seconds.toFixed(1)} s, ${noisyAll} of ${okAll} measured points noisy (${((100 * noisyAll) / Math.max(okAll, 1)).toFixed(1)} %)`);
