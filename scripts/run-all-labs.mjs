#!/usr/bin/env node
// Runs every lab with its defaults on one device through the real compute host and writes each run record as JSON,
// plus summary.json (status, error and findings per lab, and each series' wall time against its points' budgets).
// Prints, per lab, where the time went: the engine's series and the Python peers' (issue 39: a peer series takes no
// longer than its budget, the one its engine series has; the seven labs with peers under 120 s on the GPU machine).
// For the GPU machine:
//   node scripts/run-all-labs.mjs --device cuda:0 --out "$OUT"
// Options: --device cpu|cuda:N (default cuda:0), --out DIR (default ./lab-runs), --data-dir DIR (run store; default
// DIR/store), --lab ID (repeatable; default all), --param lab.name=value (repeatable, e.g. matmul.n=2000), --peers
// none|LIB,LIB (the Python peers' libraries to time beside the engine; default: every one the run offers).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { labDescriptors } from '../main/labs/index.ts';
import { parseParamText } from '../main/common/params.ts';
import { createLabHost } from '../main/app/lab-host.ts';
import { findingText, pointText } from '../main/labs/lab-text.ts';
import { MIN_INTERVAL_SAMPLES } from '../main/common/pure/statistics.ts';

const args = process.argv.slice(2);
const take = (name) => {
  const out = [];
  for (let i = 0; i < args.length; i++) if (args[i] === `--${name}` && args[i + 1] !== undefined) out.push(args[++i]);
  return out;
};
const device = take('device')[0] ?? 'cuda:0';
const outDir = resolve(take('out')[0] ?? 'lab-runs');
const dataDir = resolve(take('data-dir')[0] ?? join(outDir, 'store'));
const wanted = take('lab');
const peersText = take('peers')[0];
const peers = peersText === undefined ? undefined : peersText === 'none' ? [] : peersText.split(',');
const labs = labDescriptors().filter((l) => wanted.length === 0 || wanted.includes(l.id));
const overrides = {};
for (const text of take('param')) {
  const m = /^([\w-]+)\.(\w+)=(.*)$/.exec(text);
  const lab = m && labs.find((l) => l.id === m[1]);
  const p = lab?.parameters.find((q) => q.name === m[2]);
  if (!m || !p) throw new Error(`--param ${text}: expected lab.name=value for a known lab parameter`);
  (overrides[m[1]] ??= {})[m[2]] = parseParamText(p, m[3]);
}
mkdirSync(outDir, { recursive: true });

const host = createLabHost({ dataDir, supervisor: { log: (line) => process.stderr.write(`${line}\n`) } });
const summary = { device, startedAt: new Date().toISOString(), devices: await host.devices.listDevices(), labs: [] };
// The runner refuses a device this machine does not have (INVALID_PARAMS); say it once, not once per lab.
if (device !== 'cpu' && !summary.devices.devices.some((d) => d.id === device)) {
  process.stderr.write(`run-all-labs: INVALID_PARAMS: --device ${device} is not a device of this machine; its devices are ${summary.devices.devices.map((d) => d.id).join(', ')}${summary.devices.cudaReason ? ` (${summary.devices.cudaReason})` : ''}\n`);
  await host.dispose();
  process.exit(2);
}
// Each point's wall time: from the previous point's event (or the run's start) to its own.
let last = performance.now();
const pointSeconds = new Map();
host.runs.onDidChangeRun((e) => {
  const now = performance.now();
  if (e.kind === 'started') last = now;
  if (e.kind === 'point') {
    pointSeconds.set(e.point.key, (now - last) / 1000);
    last = now;
  }
});
let failures = 0;
let peerSeconds = 0;
const allStarted = performance.now();
for (const lab of labs) {
  const t0 = performance.now();
  process.stdout.write(`\n=== ${lab.id} on ${device}\n`);
  let record;
  try {
    const { runId } = await host.runs.startRun({ lab: lab.id, device, params: overrides[lab.id] ?? {}, ...(peers ? { peers } : {}) });
    await host.runs.whenIdle();
    record = await host.runs.getRun(runId);
  } catch (err) {
    failures++;
    summary.labs.push({ lab: lab.id, status: 'failed', error: { code: err.code ?? 'NATIVE_ERROR', message: err.message } });
    process.stdout.write(`  failed to start: ${err.code ?? ''} ${err.message}\n`);
    continue;
  }
  writeFileSync(join(outDir, `${lab.id}.json`), `${JSON.stringify(record, null, 2)}\n`);
  const counts = {};
  for (const p of record.points) counts[p.status] = (counts[p.status] ?? 0) + 1;
  // A lab that measured nothing here (transfer on a machine without a GPU) is waived, not failed.
  if ((record.status !== 'completed' && record.status !== 'waived') || counts.failed) failures++;
  summary.labs.push({ lab: lab.id, runId: record.id, status: record.status, error: record.error, points: counts, seconds: (performance.now() - t0) / 1000, findings: record.findings.map((f) => findingText(f, 'en')) });
  process.stdout.write(`  ${record.status} in ${((performance.now() - t0) / 1000).toFixed(1)} s, points ${JSON.stringify(counts)}${record.error ? `, ${record.error.code}: ${record.error.message}` : ''}\n`);
  for (const p of record.points) if (p.status === 'failed') process.stdout.write(`  FAILED ${pointText(p, 'en', lab)}: ${p.error?.code}: ${p.error?.message}\n`);
  const series = seriesTimes(lab, record);
  summary.labs.at(-1).series = series;
  for (const s of series) {
    if (s.peer) peerSeconds += s.seconds;
    const over = s.seconds > s.budgetSeconds ? ' OVER ITS BUDGET' : '';
    const minimum = s.atMinimum ? `; ${s.atMinimum} ${s.atMinimum === 1 ? 'point' : 'points'} stopped on the budget at the ${MIN_INTERVAL_SAMPLES}-sample minimum` : '';
    process.stdout.write(`  ${s.peer ? `peer ${s.peer}` : 'engine'} ${s.series}: ${s.seconds.toFixed(2)} s for ${s.points} points (budgets ${s.budgetSeconds.toFixed(2)} s)${over}; ${phaseText(s)}${minimum}\n`);
  }
  // The run's own time around its points: the peers' probe (the libraries' first import) and the plan before the
  // first point, the analysis and the record after the last.
  const outside = summary.labs.at(-1).seconds - series.reduce((sum, s) => sum + s.seconds, 0);
  process.stdout.write(`  outside the series: ${outside.toFixed(2)} s (the peers' probe and the plan before the points, the analysis and the record after)\n`);
  for (const f of record.findings) process.stdout.write(`  • ${findingText(f, 'en')}\n`);
}
summary.finishedAt = new Date().toISOString();
summary.seconds = (performance.now() - allStarted) / 1000;
summary.peerSeconds = peerSeconds;
process.stdout.write(`\nall ${labs.length} labs: ${summary.seconds.toFixed(1)} s, of which the Python peers' series ${peerSeconds.toFixed(1)} s\n`);
writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
await host.dispose();
process.stdout.write(`\nwrote ${labs.length} run records and summary.json to ${outDir}; ${failures} lab(s) with failures\n`);
process.exitCode = failures ? 1 : 0;

// Per series of a run: its wall time (the points' events apart), its points and their budgets (sampling's budget in
// force, the plan's share of the run), where the time went in the compute host (the points' phases, summed), peers
// named by their library.
function seriesTimes(lab, record) {
  const peerOf = new Map(lab.series.map((s) => [s.key, s.peer ?? null]));
  const bySeries = new Map();
  for (const p of record.points) {
    if (p.status === 'waived') continue;
    const s = bySeries.get(p.series) ?? { series: p.series, peer: peerOf.get(p.series) ?? null, seconds: 0, budgetSeconds: 0, points: 0, atMinimum: 0, phases: {} };
    s.seconds += pointSeconds.get(p.key) ?? 0;
    s.budgetSeconds += p.sampling?.budgetSeconds ?? 0;
    s.points += 1;
    // Where the warm-up and the fewest samples with an interval outlast the plan's budget, the point's budget is the
    // time they took (main/host/sampling.ts): these points say how much of a series' time the minimum sets.
    if (p.sampling?.stop === 'budget' && p.sampling.samples === MIN_INTERVAL_SAMPLES) s.atMinimum += 1;
    for (const [phase, seconds] of Object.entries(p.sampling?.phases ?? {})) s.phases[phase] = (s.phases[phase] ?? 0) + seconds;
    bySeries.set(p.series, s);
  }
  return [...bySeries.values()];
}

// "sampling 1.40, inputs 0.30, check 0.20, elsewhere 0.58 s": the phases largest first, and what the host's phases do
// not hold (the request's way to the host and back, the record, the release of a peer's arrays).
function phaseText(s) {
  const phases = Object.entries(s.phases).filter(([, v]) => v >= 0.005).sort((a, b) => b[1] - a[1]);
  const elsewhere = s.seconds - Object.values(s.phases).reduce((sum, v) => sum + v, 0);
  return [...phases.map(([k, v]) => `${k} ${v.toFixed(2)}`), `elsewhere ${elsewhere.toFixed(2)} s`].join(', ');
}
