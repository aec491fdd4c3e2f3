#!/usr/bin/env node
// The break-even labs' headline numbers, reproduced: runs elementwise-breakeven and matmul-breakeven with their
// defaults three times in a row on one device (through the real compute host, as the app runs them) and checks that
// every break-even size is within a factor of 1.5 of the three runs' median, that each comes with the range its
// crossing can lie in within the medians' intervals and that range spans no more than 2× from low to high, and that
// under 5 % of the points are flagged noisy (their median's 95 % interval wider than ±5 %). Prints one table per lab
// and a verdict; exits 1 when a check fails. For the GPU machine:
//   node scripts/check-breakeven.mjs [--device cuda:0] [--runs 3] [--out DIR]
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { parseParamText } from '../main/common/params.ts';
import { findLab } from '../main/labs/index.ts';
import { createLabHost } from '../main/app/lab-host.ts';
import { intervalHalfWidth } from '../main/common/pure/statistics.ts';

const { values } = parseArgs({
  options: {
    device: { type: 'string', default: 'cuda:0' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string' },
    lab: { type: 'string', multiple: true },
    // lab.name=value, e.g. elementwise-breakeven.pointsPerDecade=2: a parameter other than the lab's default.
    param: { type: 'string', multiple: true, default: [] },
    detail: { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const FACTOR = 1.5;
// The widest a break-even's range may be, high ÷ low.
const RANGE_FACTOR = 2;
const NOISY_SHARE = 0.05;
const host = createLabHost({ dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-breakeven-')), supervisor: { log: () => undefined } });

// A break-even as the record stores it: a size, a bound at the smallest size, or beyond the largest.
function breakEven(summary, prefix, sizeKey) {
  const size = summary[`${prefix}.${sizeKey}`];
  const atMost = summary[`${prefix}.${sizeKey}AtMost`] ?? summary[`${prefix}.breakEvenAtMost`];
  const above = summary[`${prefix}.${sizeKey}Above`] ?? summary[`${prefix}.breakEvenAbove`];
  if (typeof size === 'number') {
    const low = summary[`${prefix}.${sizeKey}Low`];
    const high = summary[`${prefix}.${sizeKey}High`];
    const range = typeof low === 'number' && typeof high === 'number' ? { low, high } : null;
    return { kind: 'size', value: size, range, text: `${size.toPrecision(3)}${range ? ` [${range.low.toPrecision(3)}, ${range.high.toPrecision(3)}]` : ' [?]'}` };
  }
  if (typeof atMost === 'number') return { kind: 'at-most', value: atMost, text: `≤ ${atMost}` };
  if (typeof above === 'number') return { kind: 'above', value: above, text: `> ${above}` };
  return { kind: 'none', value: null, text: '—' };
}

const LABS = [
  { id: 'elementwise-breakeven', sizeKey: 'breakEvenSize', prefixes: ['add', 'mul', 'exp'].flatMap((op) => [`${op}.gpu-transfers`, `${op}.gpu-resident`]) },
  { id: 'matmul-breakeven', sizeKey: 'breakEvenN', prefixes: ['gpu-transfers', 'gpu-resident'] },
];

function paramsOf(labId) {
  const params = {};
  for (const text of values.param) {
    const m = /^([\w-]+)\.(\w+)=(.*)$/.exec(text);
    const p = m && m[1] === labId ? findLab(labId)?.descriptor.parameters.find((d) => d.name === m[2]) : undefined;
    if (p) params[p.name] = parseParamText(p, m[3]);
  }
  return params;
}

const failures = [];
for (const lab of LABS.filter((l) => !values.lab || values.lab.includes(l.id))) {
  const records = [];
  for (let i = 0; i < RUNS; i++) {
    const { runId } = await host.runs.startRun({ lab: lab.id, device: values.device, params: paramsOf(lab.id) });
    await host.runs.whenIdle();
    const record = await host.runs.getRun(runId);
    if (record.status !== 'completed') failures.push(`${lab.id} run ${i + 1} ended ${record.status}`);
    records.push(record);
    if (values.out) {
      mkdirSync(values.out, { recursive: true });
      writeFileSync(join(values.out, `${lab.id}-${i + 1}.json`), JSON.stringify(record));
    }
  }
  console.log(`\n${lab.id} on ${values.device}: ${RUNS} runs in a row${values.param.length ? ` (${values.param.join(' ')})` : ''}`);
  console.log(`${'series'.padEnd(22)} ${records.map((_, i) => `run ${i + 1} [range]`.padStart(24)).join(' ')}   median   spread  within ${FACTOR}×`);
  for (const prefix of lab.prefixes) {
    const found = records.map((r) => breakEven(r.summary, prefix, lab.sizeKey));
    const sizes = found.filter((b) => b.kind === 'size').map((b) => b.value);
    const sameBound = found.every((b) => b.kind === found[0].kind && b.kind !== 'size' && b.value === found[0].value);
    let verdict;
    let median = '';
    let spread = '';
    if (sameBound) {
      verdict = 'yes (the same bound)';
    } else if (sizes.length === found.length) {
      const sorted = [...sizes].sort((a, b) => a - b);
      const m = sorted[Math.floor(sorted.length / 2)];
      const worst = Math.max(...sizes.map((s) => Math.max(s / m, m / s)));
      median = m.toPrecision(3);
      spread = `${worst.toFixed(2)}×`;
      verdict = worst <= FACTOR ? 'yes' : 'NO';
    } else {
      verdict = 'NO (sizes and bounds mixed)';
    }
    // Each crossing found between two sizes carries its range, no wider than RANGE_FACTOR.
    for (const b of found.filter((x) => x.kind === 'size')) {
      if (!b.range) failures.push(`${lab.id} ${prefix}: the break-even ${b.text} has no range`);
      else if (b.range.high / b.range.low > RANGE_FACTOR) failures.push(`${lab.id} ${prefix}: the range ${b.text} spans ${(b.range.high / b.range.low).toFixed(2)}× (at most ${RANGE_FACTOR}×)`);
    }
    if (verdict.startsWith('NO')) failures.push(`${lab.id} ${prefix}: ${found.map((b) => b.text).join(', ')}`);
    console.log(`${prefix.padEnd(22)} ${found.map((b) => b.text.padStart(24)).join(' ')}   ${median.padStart(6)}   ${spread.padStart(6)}  ${verdict}`);
  }
  if (values.detail) {
    // Each series' median at each size, run by run: where a break-even moved, which side moved it.
    const keys = [...new Set(records.flatMap((r) => r.points.map((p) => p.key)))];
    for (const key of keys) {
      const medians = records.map((r) => r.points.find((p) => p.key === key)?.stats?.median);
      console.log(`  ${key.padEnd(30)} ${medians.map((m) => (m === undefined ? '—' : `${(m * 1000).toFixed(1)}`).padStart(10)).join(' ')} µs`);
    }
  }
  const points = records.flatMap((r) => r.points.filter((p) => p.status === 'ok'));
  const noisy = points.filter((p) => p.stats?.noisy);
  const share = noisy.length / Math.max(1, points.length);
  // The noise no method removes on a shared VM: CPU time the hypervisor gave to other guests during each run.
  const steal = records.map((r) => r.environment.cpuSteal);
  console.log(`CPU steal time during each run: ${steal.map((s) => (typeof s === 'number' ? `${(100 * s).toFixed(1)} %` : 'unknown')).join(', ')}`);
  const noisyBy = (device) => points.filter((p) => (p.device === 'cpu') === (device === 'cpu'));
  for (const device of ['cpu', 'gpu']) {
    const all = noisyBy(device);
    console.log(`  noisy ${device} points: ${all.filter((p) => p.stats?.noisy).length} of ${all.length}`);
  }
  console.log(`noisy points: ${noisy.length} of ${points.length} (${(100 * share).toFixed(1)} %, target under ${100 * NOISY_SHARE} %)${noisy.length ? `: ${noisy.map((p) => `${p.key} ±${(100 * (p.stats ? (intervalHalfWidth(p.stats) ?? 0) : 0)).toFixed(0)} % (${p.stats?.count} samples)`).join(', ')}` : ''}`);
  if (share >= NOISY_SHARE) failures.push(`${lab.id}: ${(100 * share).toFixed(1)} % of points noisy`);
}
await host.dispose();
console.log(failures.length ? `\nFAILED:\n  ${failures.join('\n  ')}` : `\nevery break-even size within ${FACTOR}× of its median over ${RUNS} runs, each with a range no wider than ${RANGE_FACTOR}×; noisy points under ${100 * NOISY_SHARE} %`);
process.exit(failures.length ? 1 : 0);
