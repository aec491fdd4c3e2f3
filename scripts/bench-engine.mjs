#!/usr/bin/env node
// The engine's own cost per measured point, apart from the measurement itself: the round trip to the compute host
// with both validations, the statistics and point building, the run events, and the share of a record save.
//   node scripts/bench-engine.mjs [points]      (default 2000)
// Target: under 1 ms per point.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ComputeHostSupervisor } from '../main/compute/supervisor.ts';
import { RUN_SCHEMA_VERSION } from '../main/common/run-record.ts';
import { measuredPoint } from '../main/runner/point-result.ts';
import { RunStore } from '../main/runner/run-store.ts';

const points = Number(process.argv[2] ?? 2000);
const REPEATS = 10;
const supervisor = new ComputeHostSupervisor({ log: () => undefined });
const empty = { op: 'empty', device: 'cpu', warmup: 0, repeats: REPEATS, seed: 1 };
await supervisor.measure(empty);

// 1. Messages: request → host validation → native harness → result → supervisor validation. The empty op's own
// samples are subtracted, so what is left is the engine's round trip.
let nativeMs = 0;
const results = [];
const t0 = performance.now();
for (let i = 0; i < points; i++) {
  const r = await supervisor.measure(empty, { onProgress: () => undefined });
  nativeMs += r.hostMs.reduce((s, v) => s + v, 0);
  results.push(r);
}
const messagesMs = (performance.now() - t0 - nativeMs) / points;
await supervisor.stop();

// 2. Statistics and point building (summarize, rates, verification rule) for a 10-sample result.
const planned = { key: 'k', series: 's', label: 'l', x: 1, device: 'cpu', work: { flops: 1e6, bytes: 1e6, elements: 1e6 }, timer: 'host', measurement: empty, waived: null, expectedSeconds: 0 };
const t1 = performance.now();
const built = results.map((r) => measuredPoint(planned, r));
const statisticsMs = (performance.now() - t1) / points;

// 3. Store: one record holding every point, saved atomically once per point's worth (the runner saves at start and
// end; this charges a full save to every 100 points, and reports the per-point share).
const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-bench-'));
const store = new RunStore(dir, { warn: () => undefined });
const record = {
  schemaVersion: RUN_SCHEMA_VERSION, id: 'bench', lab: 'bench', labTitle: 'bench', device: 'cpu', params: {}, status: 'completed', error: null,
  createdAt: new Date().toISOString(), finishedAt: null, appVersion: 'bench', environment: { devices: null, versions: {}, hostPid: null },
  points: built.slice(0, 100), summary: {}, findings: [], warnings: [],
};
const saves = 20;
const t2 = performance.now();
for (let i = 0; i < saves; i++) await store.save(record);
const storeMs = (performance.now() - t2) / saves / 100;
const t3 = performance.now();
for (let i = 0; i < saves; i++) await store.get('bench');
const loadMs = (performance.now() - t3) / saves / 100;
rmSync(dir, { recursive: true, force: true });

const total = messagesMs + statisticsMs + storeMs;
const f = (ms) => `${(ms * 1000).toFixed(1)} µs`;
console.log(`engine cost per measured point over ${points} points of ${REPEATS} samples:`);
console.log(`  messages (round trip, both validations)  ${f(messagesMs)}`);
console.log(`  statistics and point building             ${f(statisticsMs)}`);
console.log(`  store (atomic save, per point)            ${f(storeMs)}   (reading back: ${f(loadMs)} per point)`);
console.log(`  total                                     ${f(total)}  ${total < 1 ? '(under the 1 ms target)' : '(OVER the 1 ms target)'}`);
