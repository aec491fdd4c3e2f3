#!/usr/bin/env node
// The engine's own cost per measured point, as the lab runner incurs it, apart from the measurement itself. The
// runner's own point loop (LabRunner.measureAll) runs a lab's plan against the real compute host and a real run
// store; each point's time is split into
//   round trip  the request through the compute host and back (both zod validations, the harness around an
//               `empty` op, the progress and result messages), less the samples' own time;
//   statistics  the point built from the answer (statistics, rates, the verification rule) and its events;
//   save        the record on disk brought up to date, when the runner does that after this point.
// The plan is the elementwise-breakeven lab's defaults: 63 points (GPU ones planned as if a GPU were there), each
// measured as `empty` with 20 samples; the answers carry a verification, and telemetry on the GPU points, as real
// ones do, so that the record grows on disk as a real one does.
//   node scripts/bench-engine.mjs [runs]      (default 10 runs of 63 points)
// Target: under 1 ms per point.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { validateParams } from '../main/common/params.ts';
import { RUN_SCHEMA_VERSION } from '../main/common/run-record.ts';
import { ComputeHostSupervisor } from '../main/engine/supervisor.ts';
import { elementwiseBreakevenLab as lab } from '../main/labs/elementwise-breakeven.ts';
import { LabRunner, PROGRESS_SAVE_INTERVAL_MS, planContext } from '../main/runs/lab-runner.ts';
import { RunStore } from '../main/runs/run-store.ts';

const runs = Number(process.argv[2] ?? 10);
const SAMPLES = 20;
const WARMUP = 2;

const supervisor = new ComputeHostSupervisor({ log: () => undefined });
const env = await supervisor.environment();
const gpu = { id: 'cuda:0', kind: 'cuda', name: 'bench GPU', peakGflopsFp32: 1e4, peakGflopsFp64: 1e3, peakMemoryGBps: 1e3, memoryBytes: 8e10, details: {} };
const params = validateParams(lab.descriptor.id, lab.descriptor.parameters, {});
const empty = { op: 'empty', device: 'cpu', warmup: WARMUP, repeats: SAMPLES, seed: 1 };
const planned = lab.plan(params, { ...planContext(env, 'cpu'), gpu, gpuWaivedReason: '' }).map((p) => ({ ...p, measurement: empty }));
const verification = { method: 'sampled', checked: 65536, total: 1e8, relativeError: 3.1e-8, tolerance: 1e-5, passed: true, mismatches: [] };
const snapshot = { smClockMHz: 1980, memoryClockMHz: 2619, temperatureC: 41, powerW: 123.4, throttleReasons: [] };
const telemetry = { start: snapshot, end: { ...snapshot, temperatureC: 44 } };
await supervisor.measure(empty);

// What the runner does, on a timeline: each measurement and each save, with its start and end.
let timeline = [];
let gpuAnswer = false;
const host = {
  environment: () => supervisor.environment(),
  async measure(measurement, options) {
    const start = performance.now();
    const r = await supervisor.measure(measurement, options);
    const end = performance.now();
    timeline.push({ kind: 'measure', start, end, samplesMs: r.hostMs.reduce((s, v) => s + v, 0) });
    gpuAnswer = !gpuAnswer;
    return { ...r, verification, telemetry: gpuAnswer ? telemetry : null };
  },
};
const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-bench-'));
const store = new RunStore(dir, { warn: () => undefined });
const save = store.save.bind(store);
store.save = async (record, options) => {
  const start = performance.now();
  await save(record, options);
  timeline.push({ kind: 'save', start, end: performance.now() });
};
const runner = new LabRunner({ store, host, appVersion: 'bench' });
runner.onDidChangeRun(() => undefined);

const parts = { roundTrip: [], statistics: [], save: [], total: [] };
let recordBytes = 0;
let saves = 0;
// For comparison: the record saved after every point, as the runner did before it saved at most once a second.
const everyPointSaves = [];
for (let run = 0; run < runs; run++) {
  const record = {
    schemaVersion: RUN_SCHEMA_VERSION, id: `bench-${run}`, lab: lab.descriptor.id, labTitle: lab.descriptor.title, device: 'cuda:0', params,
    status: 'running', error: null, createdAt: new Date().toISOString(), finishedAt: null, appVersion: 'bench',
    environment: { devices: env.devices, versions: env.versions, hostPid: env.pid, runnerPid: process.pid },
    points: [], summary: {}, findings: [], warnings: [],
  };
  timeline = [];
  // The runner's point loop itself (private in TypeScript, not to JavaScript): no copy of it to drift from it.
  await runner['measureAll'](record, planned, new AbortController().signal);
  const loopEnd = performance.now();
  const measures = timeline.filter((e) => e.kind === 'measure');
  for (const [i, m] of measures.entries()) {
    const next = measures[i + 1]?.start ?? loopEnd;
    const saved = timeline.filter((e) => e.kind === 'save' && e.start >= m.end && e.end <= next);
    const saveMs = saved.reduce((s, e) => s + e.end - e.start, 0);
    saves += saved.length;
    const total = next - m.start - m.samplesMs;
    parts.roundTrip.push(m.end - m.start - m.samplesMs);
    parts.save.push(saveMs);
    parts.statistics.push(next - m.end - saveMs);
    parts.total.push(total);
  }
  for (let n = 1; n <= record.points.length; n++) {
    const start = performance.now();
    await save({ ...record, points: record.points.slice(0, n) }, { durable: false });
    everyPointSaves.push(performance.now() - start);
  }
  await store.save(record);
  recordBytes = statSync(join(store.dir, `${record.id}.json`)).size;
}
await supervisor.stop();
rmSync(dir, { recursive: true, force: true });

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => {
  const s = sorted(xs);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const mean = (xs) => xs.reduce((s, v) => s + v, 0) / xs.length;
const p95 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const us = (ms) => `${(ms * 1000).toFixed(0)} µs`.padStart(8);
const row = (name, xs) => console.log(`  ${name.padEnd(38)} ${us(median(xs))} ${us(mean(xs))} ${us(p95(xs))}`);
const points = parts.total.length;
console.log(`engine cost per measured point: ${runs} runs of the elementwise-breakeven lab's ${planned.length} points, ${SAMPLES} samples each`);
console.log(`  ${''.padEnd(38)} ${'median'.padStart(8)} ${'mean'.padStart(8)} ${'p95'.padStart(8)}`);
row('round trip through the compute host', parts.roundTrip);
row('statistics, point building, events', parts.statistics);
row('record saved to disk (non-durable)', parts.save);
row('total', parts.total);
console.log(`  ${saves} saves for ${points} points (at most one per ${PROGRESS_SAVE_INTERVAL_MS} ms); the finished record is ${(recordBytes / 1024).toFixed(0)} KiB`);
row('(a save after every point would add)', everyPointSaves);
console.log(`  median total ${median(parts.total) < 1 ? 'under' : 'OVER'} the 1 ms target`);
