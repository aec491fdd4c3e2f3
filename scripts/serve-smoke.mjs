#!/usr/bin/env node
// Serve mode end to end without a browser, as the app drives it: starts `gpu-lab serve`, opens the WebSocket with
// the token, inspects the devices (and reads telemetry on each GPU), fetches every kernel source, runs a lab on the
// first GPU (else the CPU) and checks that every point arrived as an event, in the stored record, verified.
//   node scripts/serve-smoke.mjs [--lab elementwise-breakeven] [--param name=value …]
// Prints one JSON summary; exits 1 when a check fails.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import WebSocket from 'ws';

import { findingText } from '../main/labs/lab-text.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { lab: { type: 'string', default: 'elementwise-breakeven' }, param: { type: 'string', multiple: true, default: [] } } });
// name=value pairs, typed by the lab's own parameter descriptors once the labs are listed.
function labParams(lab) {
  return Object.fromEntries(
    values.param.map((pair) => {
      const [name, text] = pair.split('=');
      const kind = lab.parameters.find((p) => p.name === name)?.kind;
      const num = (t) => (Number.isNaN(Number(t)) ? t : Number(t));
      return [name, kind?.endsWith('-list') ? text.split(',').map(num) : num(text)];
    }),
  );
}

const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-smoke-'));
const server = spawn(process.execPath, [join(root, 'bin', 'gpu-lab.js'), 'serve', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let text = '';
  server.stdout.on('data', (d) => {
    text += d;
    const m = /http:\/\/\S+\?token=\S+/.exec(text);
    if (m) resolve(new URL(m[0]));
  });
  server.on('exit', (code) => reject(new Error(`gpu-lab serve exited with ${code}`)));
});

const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
};

// Refused without the token, and from a foreign origin.
const refused = async (address, origin) =>
  new Promise((resolve) => {
    const ws = new WebSocket(address, { origin });
    ws.on('open', () => {
      ws.close();
      resolve(false);
    });
    ws.on('error', () => resolve(true));
  });
const wsBase = `ws://${url.host}/api`;
check(await refused(wsBase, url.origin), 'a WebSocket without the token was accepted');
check(await refused(`${wsBase}?token=${url.searchParams.get('token')}`, 'http://evil.example'), 'a WebSocket from a foreign origin was accepted');

const ws = new WebSocket(`${wsBase}?token=${url.searchParams.get('token')}`, { origin: url.origin });
await new Promise((resolve, reject) => {
  ws.on('open', resolve);
  ws.on('error', reject);
});
let nextId = 1;
const pending = new Map();
const events = [];
ws.on('message', (data) => {
  const frame = JSON.parse(String(data));
  if (frame.event) events.push({ at: performance.now(), ...frame.payload });
  else pending.get(frame.id)?.(frame);
});
const call = (method, ...args) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, (frame) => (frame.ok ? resolve(frame.value) : reject(Object.assign(new Error(frame.error.message), { code: frame.error.code }))));
    ws.send(JSON.stringify({ id, method, args }));
  });

const summary = {};
const t0 = performance.now();
const report = await call('devices.inspectDevices');
summary.inspectMs = Math.round(performance.now() - t0);
summary.devices = report.list.devices.map((d) => `${d.id} ${d.name}`);
summary.cuda = report.cuda.available ? `runtime ${report.cuda.runtimeVersion}, driver ${report.cuda.driverVersion}` : report.cuda.reason;
summary.libraries = Object.fromEntries(Object.entries(report.cuda.libraries).map(([k, v]) => [k, v.found ? v.version : 'missing']));
const gpu = report.list.devices.find((d) => d.kind === 'cuda');
if (gpu) {
  const t = await call('devices.readTelemetry', gpu.id);
  summary.telemetry = t.available ? `${t.smClockMHz} MHz, ${t.temperatureC} °C, ${t.powerW} W, reasons ${JSON.stringify(t.throttleReasons)}` : t.reason;
}
const labs = await call('labs.listLabs');
const files = [...new Set(labs.flatMap((l) => l.kernels.filter((k) => k.kind !== 'library').map((k) => k.file)))];
for (const f of files) check((await call('labs.kernelSource', f)).text.length > 100, `kernel source ${f} is empty`);
summary.kernelSources = files.length;
await call('labs.kernelSource', '../../etc/passwd').then(
  () => check(false, 'a path outside the kernel sources was served'),
  (err) => check(err.code === 'NOT_FOUND', `a path outside the kernel sources answered ${err.code}, not NOT_FOUND`),
);

const device = gpu?.id ?? 'cpu';
const started = performance.now();
const { runId } = await call('runs.startRun', { lab: values.lab, device, params: labParams(labs.find((l) => l.id === values.lab)) });
await new Promise((resolve) => {
  const poll = setInterval(() => {
    if (events.some((e) => e.runId === runId && ['completed', 'cancelled', 'failed'].includes(e.kind))) {
      clearInterval(poll);
      resolve();
    }
  }, 50);
});
const record = await call('runs.getRun', runId);
const runEvents = events.filter((e) => e.runId === runId);
const pointEvents = runEvents.filter((e) => e.kind === 'point');
summary.run = {
  lab: values.lab,
  device,
  status: record.status,
  seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  pointEvents: pointEvents.length,
  storedPoints: record.points.length,
  ok: record.points.filter((p) => p.status === 'ok').length,
  waived: record.points.filter((p) => p.status === 'waived').length,
  failed: record.points.filter((p) => p.status === 'failed').length,
  noisy: record.points.filter((p) => p.stats?.noisy).length,
  withPeak: record.points.filter((p) => p.peak).length,
  progressEvents: runEvents.filter((e) => e.kind === 'progress').length,
  findings: record.findings.map((f) => findingText(f, 'en')),
};
check(record.status === 'completed', `the run ended ${record.status}`);
check(pointEvents.length === record.points.length, `${pointEvents.length} point events for ${record.points.length} stored points`);
check(record.points.every((p) => p.status !== 'ok' || p.verification === null || p.verification.passed), 'a point counted ok failed verification');
check(record.points.every((p) => p.status !== 'failed'), 'a point failed');

ws.close();
server.kill('SIGINT');
await new Promise((r) => server.on('exit', r));
rmSync(dataDir, { recursive: true, force: true });
summary.failures = failures;
console.log(JSON.stringify(summary, null, 2));
process.exit(failures.length ? 1 : 0);
