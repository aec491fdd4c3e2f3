#!/usr/bin/env node
// The renderer under a streaming run, measured in Debian's Chromium: 500 points arriving at 50 a second over serve
// mode's WebSocket, while the page is clicked five times a second. Prints the time from each point's event to its
// being drawn on the chart, the input latency (Event Timing) and the longest frames (a requestAnimationFrame probe),
// the first load of the app, and the size of the JavaScript it loads first. Then, the run ended, the results table's
// box scrolled from its first row to its last in three seconds of wheel turns: the frame times while it scrolls. The
// points are replayed (an H100's elementwise run, resampled: tests/e2e/support/resampled-run.ts): the subject is the
// page, not the machine's measurements.
//   npm run build && node scripts/bench-ui.mjs [--points 500] [--rate 50] [--table-in-view]
//   node scripts/bench-ui.mjs --points 2000 --rate 400    (the table of 2,000 rows)
// --table-in-view scrolls the results table into view as the run starts (the harder case: its rows are drawn), and
// clicks the table's scroll box instead of the lab's explanation.
// --classroom N measures the teacher's view of a class instead, while N students join and run (bench-ui-class.mjs):
//   npm run build && node scripts/bench-ui.mjs --classroom 30
// For finding where the time goes: GPU_LAB_TRACE=1 sums the browser's own work (style, layout, paint) and names the
// scripts that forced a layout; GPU_LAB_PROFILE=1 sums a CPU profile by function; GPU_LAB_HIDE=<selector> hides a
// part of the page and GPU_LAB_CSS=<rules> adds rules (both bypass the page's CSP), to see what a part costs.
/* global window, document, requestAnimationFrame, MutationObserver -- the functions passed to page.evaluate run in the page */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { chromium } from '@playwright/test';

import { labDescriptors } from '../main/labs/index.ts';
import { resampledPoints } from '../tests/e2e/support/resampled-run.ts';
import { validateRunRequest } from '../main/runs/lab-runner.ts';
import { rendererDir } from '../main/serve/renderer-dir.ts';
import { startServer } from '../main/serve/server.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { points: { type: 'string', default: '500' }, rate: { type: 'string', default: '50' }, 'table-in-view': { type: 'boolean', default: false }, classroom: { type: 'string' } } });
if (values.classroom !== undefined) {
  const { benchClassroom } = await import('./bench-ui-class.mjs');
  await benchClassroom(Number(values.classroom));
  process.exit(0);
}
const TOTAL = Number(values.points);
const RATE = Number(values.rate);
const fixture = (name) => JSON.parse(readFileSync(join(root, 'tests', 'fixtures', name), 'utf8'));

const source = fixture('runs/h100-elementwise-breakeven.json');
const planned = resampledPoints(source, TOTAL);
const devices = fixture('devices-h100.json');
const listeners = new Set();
let record = null;
const emit = (event) => {
  for (const l of listeners) l(event);
};

function replay() {
  record = { ...source, id: `bench-${Date.now()}`, status: 'running', points: [], findings: [], createdAt: new Date().toISOString(), finishedAt: null };
  const runId = record.id;
  emit({ kind: 'started', runId, lab: record.lab, device: record.device, params: record.params, pointsTotal: planned.length });
  let i = 0;
  const started = performance.now();
  const tick = () => {
    // On schedule, not drifting: point i leaves at i / RATE seconds.
    while (i < planned.length && performance.now() - started >= (i * 1000) / RATE) {
      const point = planned[i++];
      record.points.push(point);
      emit({ kind: 'progress', runId, progress: { pointsDone: i, pointsTotal: planned.length, fraction: i / planned.length, etaSeconds: (planned.length - i) / RATE, current: point.label } });
      emit({ kind: 'point', runId, point, sentAt: Date.now() });
    }
    if (i < planned.length) return setTimeout(tick, 2);
    record = { ...record, status: 'completed', finishedAt: new Date().toISOString(), findings: source.findings, summary: source.summary };
    for (const finding of source.findings) emit({ kind: 'finding', runId, finding });
    emit({ kind: 'completed', runId, summary: { id: runId, lab: record.lab, labTitle: record.labTitle, device: record.device, status: 'completed', createdAt: record.createdAt, finishedAt: record.finishedAt, points: record.points.length, errorCode: null, params: record.params, headline: null } });
  };
  tick();
  return { runId };
}

const summary = () => (record ? [{ id: record.id, lab: record.lab, labTitle: record.labTitle, device: record.device, status: record.status, createdAt: record.createdAt, finishedAt: record.finishedAt, points: record.points.length, errorCode: null, params: record.params, headline: null }] : []);
const api = {
  devices: {
    listDevices: async () => ({ devices: devices.devices, cudaReason: devices.cudaReason, blas: devices.blas }),
    inspectDevices: async () => ({ list: { devices: devices.devices, cudaReason: devices.cudaReason, blas: devices.blas }, cuda: devices.cuda, telemetry: devices.telemetry }),
    readTelemetry: async () => devices.telemetry[0],
  },
  labs: { listLabs: async () => labDescriptors(), kernelSource: async () => ({ file: '', language: 'cuda', text: '' }), validateParams: async (lab, params) => validateRunRequest({ lab, params }).params },
  runs: {
    startRun: async () => replay(),
    cancelRun: async () => undefined,
    listRuns: async () => summary(),
    getRun: async () => structuredClone(record),
    getRunProgress: async () => null,
    deleteRun: async () => undefined,
    exportRun: async () => ({ filename: 'x', mimeType: 'text/plain', text: '' }),
    onDidChangeRun: (l) => {
      listeners.add(l);
      return { dispose: () => listeners.delete(l) };
    },
  },
};

const staticDir = rendererDir();
if (!staticDir) throw new Error('the renderer is not built: npm run build');

// The JavaScript the first page loads: the entry script and the chunks it preloads, gzipped as a server would.
const html = readFileSync(join(staticDir, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const initialGzipBytes = initial.reduce((sum, f) => sum + gzipSync(readFileSync(join(staticDir, f))).length, 0);

const server = await startServer({ api, staticDir, port: 0 });
const browser = await chromium.launch({ executablePath: process.env.GPU_LAB_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: Boolean(process.env.GPU_LAB_HIDE || process.env.GPU_LAB_CSS) });

// First load: from the navigation to the catalog on screen, the WebSocket's answer included.
const loadStart = Date.now();
await page.goto(server.url);
await page.getByTestId('lab-elementwise-breakeven').waitFor();
const firstLoadMs = Date.now() - loadStart;
const navigation = await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.toJSON());

await page.goto(`${server.origin}/#/labs/elementwise-breakeven`);
await page.getByTestId('run').waitFor();
// Experiments: GPU_LAB_HIDE=<selector> hides a part of the page, GPU_LAB_CSS=<rules> adds rules (both bypass the CSP).
if (process.env.GPU_LAB_HIDE) await page.addStyleTag({ content: `${process.env.GPU_LAB_HIDE} { display: none !important; }` });
if (process.env.GPU_LAB_CSS) await page.addStyleTag({ content: process.env.GPU_LAB_CSS });
const sentAt = [];
page.on('websocket', () => undefined);
listeners.add((e) => {
  if (e.kind === 'point') sentAt.push(e.sentAt);
});
await page.evaluate(() => {
  const w = window;
  w.__bench = { frames: [], drawn: [], events: [] };
  const frame = (t) => {
    w.__bench.frames.push(t);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__bench.events.push({ name: e.name, duration: e.duration, delay: e.processingStart - e.startTime });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  const watch = () => {
    const el = document.querySelector('[data-record-points]');
    if (!el) return setTimeout(watch, 10);
    new MutationObserver(() => w.__bench.drawn.push({ count: Number(el.getAttribute('data-record-points')), at: Date.now() })).observe(el, { attributes: true, attributeFilter: ['data-record-points'] });
  };
  watch();
});
// GPU_LAB_PROFILE=1: a CPU profile of the page during the stream, summarised by function (for finding the cost).
const cdp = process.env.GPU_LAB_PROFILE ? await page.context().newCDPSession(page) : null;
if (cdp) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
}
// GPU_LAB_TRACE=1: the browser's own work (style, layout, paint) during the stream, summed by kind.
const tracer = process.env.GPU_LAB_TRACE ? await page.context().newCDPSession(page) : null;
const traceEvents = [];
if (tracer) {
  tracer.on('Tracing.dataCollected', (e) => traceEvents.push(...e.value));
  await tracer.send('Tracing.start', { traceConfig: { includedCategories: ['devtools.timeline', 'blink', 'disabled-by-default-devtools.timeline.stack'] } });
}
await page.getByTestId('run').click();
// Raw mouse clicks at a fixed place (the "About this lab" toggle, above everything that grows), without Playwright's
// actionability checks, whose hit tests and waits would load the page more than a student's clicks do.
if (values['table-in-view']) {
  await page.getByTestId('results-table').waitFor();
  await page.getByTestId('results-table').scrollIntoViewIfNeeded();
}
const toggle = await page.locator(values['table-in-view'] ? '.results-box .hint' : '[data-testid="about-toggle"]').boundingBox();
const clickDurations = [];
const deadline = Date.now() + (TOTAL / RATE) * 1000 + 5000;
while (Date.now() < deadline && (record?.status !== 'completed' || sentAt.length < TOTAL)) {
  const t = Date.now();
  if (toggle) await page.mouse.click(toggle.x + 20, toggle.y + toggle.height / 2);
  clickDurations.push(Date.now() - t);
  await page.waitForTimeout(200);
}
await page.waitForTimeout(500);
// The results table, every row of the run in it, scrolled from top to bottom by wheel turns over about three seconds.
const box = page.locator('.results-scroll');
await box.scrollIntoViewIfNeeded();
await box.evaluate((el) => el.scrollTo(0, 0));
const tableBox = await box.boundingBox();
const scroll = { from: await page.evaluate(() => performance.now()), to: 0, rows: Number(await page.getByTestId('results-table').getAttribute('data-rows')), drawnMax: 0 };
if (tableBox) {
  await page.mouse.move(tableBox.x + tableBox.width / 2, tableBox.y + tableBox.height / 2);
  const distance = await box.evaluate((el) => el.scrollHeight - el.clientHeight);
  const steps = 180;
  for (let i = 0; i < steps; i++) {
    await page.mouse.wheel(0, distance / steps);
    await page.waitForTimeout(16);
    if (i % 20 === 0) scroll.drawnMax = Math.max(scroll.drawnMax, await page.locator('.results-table tbody tr[data-key]').count());
  }
  await page.waitForTimeout(200);
}
scroll.to = await page.evaluate(() => performance.now());
const bench = await page.evaluate(() => window.__bench);
if (tracer) {
  const done = new Promise((r) => tracer.once('Tracing.tracingComplete', r));
  await tracer.send('Tracing.end');
  await done;
  const sums = new Map();
  for (const e of traceEvents) if (e.ph === 'X' && e.dur) sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur / 1000);
  for (const [k, ms] of [...sums.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.error(`${ms.toFixed(0).padStart(7)} ms  ${k}`);
  // Where layouts were forced from: the script frame that asked, by total time.
  const forced = new Map();
  for (const e of traceEvents) {
    const stack = e.args?.beginData?.stackTrace;
    if (e.name !== 'Layout' || !stack?.length || !e.dur) continue;
    const where = stack.slice(0, 3).map((f) => `${f.functionName || '?'}@${String(f.url).split('/').pop()}:${f.lineNumber}:${f.columnNumber}`).join(' < ');
    forced.set(where, (forced.get(where) ?? 0) + e.dur / 1000);
  }
  for (const [k, ms] of [...forced.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.error(`forced ${ms.toFixed(0).padStart(6)} ms  ${k}`);
}
if (cdp) {
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [k, ms] of top) console.error(`${ms.toFixed(0).padStart(7)} ms  ${k}`);
}
await browser.close();
await server.close();

const percentile = (values, q) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
// Point n is on the chart when a drawing first includes n + 1 of the record's points (counts only grow during the
// run; the final refetch may redraw the same count).
const latencies = sentAt.map((sent, n) => {
  const drawn = bench.drawn.find((d) => d.count >= n + 1);
  return drawn ? drawn.at - sent : NaN;
});
const missing = latencies.filter((l) => Number.isNaN(l)).length;
const streamFrames = bench.frames.filter((t) => t < scroll.from);
const gaps = streamFrames.slice(1).map((t, i) => t - streamFrames[i]);
const scrollFrames = bench.frames.filter((t) => t >= scroll.from && t <= scroll.to);
const scrollGaps = scrollFrames.slice(1).map((t, i) => t - scrollFrames[i]);
const inputs = bench.events.filter((e) => ['click', 'pointerdown', 'pointerup', 'mousedown', 'mouseup', 'keydown'].includes(e.name));
const result = {
  points: TOTAL,
  ratePerSecond: RATE,
  tableInView: values['table-in-view'],
  pointToChartMs: { median: percentile(latencies.filter(Number.isFinite), 0.5), p95: percentile(latencies.filter(Number.isFinite), 0.95), max: Math.max(...latencies.filter(Number.isFinite)), notDrawn: missing },
  inputLatencyMs: { eventTimingEntriesOver16ms: inputs.length, p95Duration: inputs.length ? percentile(inputs.map((e) => e.duration), 0.95) : 0, clicksP95RoundTrip: percentile(clickDurations, 0.95), clicks: clickDurations.length },
  framesMs: { p95Gap: percentile(gaps, 0.95), longestGap: Math.max(...gaps), over100: gaps.filter((g) => g > 100).length, frames: gaps.length },
  tableScroll: { rows: scroll.rows, rowsDrawnAtMost: scroll.drawnMax, frames: scrollGaps.length, medianGapMs: percentile(scrollGaps, 0.5), p95GapMs: percentile(scrollGaps, 0.95), longestGapMs: Math.max(...scrollGaps), over50ms: scrollGaps.filter((g) => g > 50).length },
  firstLoadMs,
  navigation: navigation ? { domContentLoadedMs: Math.round(navigation.domContentLoadedEventEnd), loadMs: Math.round(navigation.loadEventEnd) } : null,
  initialJs: { files: initial, gzipKiB: Number((initialGzipBytes / 1024).toFixed(1)) },
};
console.log(JSON.stringify(result, null, 2));
const ok = result.pointToChartMs.p95 < 100 && missing === 0 && result.framesMs.p95Gap < 100 && (inputs.length === 0 || result.inputLatencyMs.p95Duration < 100) && firstLoadMs < 1000 && initialGzipBytes < 250 * 1024;
console.log(ok ? 'targets met: point → chart p95 < 100 ms, input p95 < 100 ms, first load < 1 s, initial JS < 250 kB gzipped' : 'a target was missed (see above)');
process.exit(ok ? 0 : 1);
