// The teacher's view under a class's load, measured in Debian's Chromium (scripts/bench-ui.mjs --classroom N): a class's
// server on this machine's CPU (a real lab host and compute host), the teacher's page open on #/class, N students
// joining over HTTP and each queueing a small CPU run over its own WebSocket, all at once. Prints, as figures and
// with no target: how long after each run's end its row shows in the teacher's table; how long the class's table
// takes to answer (classroom.classOverview, asked beside the page as it asks); the page's input latency while it is
// clicked five times a second (Event Timing) and its longest frames; and how long the whole class took.
/* global window, document, requestAnimationFrame, MutationObserver -- the functions passed to page.evaluate run in the page */
import { request } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium } from '@playwright/test';
import WebSocket from 'ws';

import { createLabHost } from '../main/app/lab-host.ts';
import { Classroom } from '../main/classroom/classroom.ts';
import { rendererDir } from '../main/serve/renderer-dir.ts';
import { startServer } from '../main/serve/server.ts';

const QUICK = { lab: 'vector-function', device: 'cpu', params: { elements: 1000, repeats: 1, warmup: 0 } };

function joinClass(port, classToken, name) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ name });
    const req = request(
      { host: '127.0.0.1', port, path: '/join', method: 'POST', headers: { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, cookie: `gpulab_class_${port}=${classToken}`, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        const cookie = (res.headers['set-cookie'] ?? []).map((c) => new RegExp(`^gpulab_student_${port}=([^;]*)`).exec(c)).find(Boolean);
        if (res.statusCode === 200 && cookie) resolve(decodeURIComponent(cookie[1]));
        else reject(new Error(`join of ${name} answered ${res.statusCode}`));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// A student's page: one WebSocket with the student's token; resolves with its run id once its run has completed.
async function student(port, token, onQueued) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api?as=student&token=${token}`, { origin: `http://127.0.0.1:${port}` });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return new Promise((resolve, reject) => {
    let runId = null;
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      if (frame.id === 1) {
        if (!frame.ok) return reject(new Error(JSON.stringify(frame.error)));
        runId = frame.value.runId;
        onQueued(runId);
      }
      if (frame.event === 'runs.onDidChangeRun' && frame.payload.runId === runId && frame.payload.kind === 'completed') {
        ws.close();
        resolve(runId);
      }
    });
    ws.send(JSON.stringify({ id: 1, method: 'runs.startRun', args: [QUICK] }));
  });
}

function percentile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
}

export async function benchClassroom(students) {
  const staticDir = rendererDir();
  if (!staticDir) throw new Error('the renderer is not built: npm run build');
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-bench-class-'));
  let classroom = null;
  const host = createLabHost({ dataDir, supervisor: { log: () => undefined }, warn: () => undefined, lockDir: mkdtempSync(join(tmpdir(), 'gpu-lab-bench-locks-')), onDeviceWait: (h) => classroom?.deviceWaited(h) });
  classroom = await Classroom.open({ host, dataDir, name: 'Bench class' });
  const server = await startServer({ api: host, staticDir, port: 0, classroom, limits: { runsWaiting: 2000, runStartsPerMinute: 6000 } });
  const completedAt = new Map();
  const sub = host.runs.onDidChangeRun((e) => {
    if (e.kind === 'completed') completedAt.set(e.runId, Date.now());
  });

  const browser = await chromium.launch({ executablePath: process.env.GPU_LAB_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const loadStart = Date.now();
  await page.goto(`${server.origin}/?token=${classroom.teacherToken}#/class`);
  await page.getByTestId('class-labs').waitFor();
  const viewOpenMs = Date.now() - loadStart;
  await page.evaluate(() => {
    const w = window;
    w.__bench = { frames: [], shown: [], events: [] };
    const frame = (t) => {
      w.__bench.frames.push(t);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__bench.events.push({ name: e.name, duration: e.duration });
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
    const el = document.querySelector('[data-testid="class-labs"]');
    new MutationObserver(() => w.__bench.shown.push({ count: Number(el.getAttribute('data-completed-runs')), at: Date.now() })).observe(el, { attributes: true, attributeFilter: ['data-completed-runs'] });
  });

  // The class's table as a second teacher's page asks for it, timed from here.
  const asker = new WebSocket(`ws://127.0.0.1:${server.port}/api?token=${classroom.teacherToken}`, { origin: server.origin });
  await new Promise((resolve) => asker.once('open', resolve));
  const answerMs = [];
  let asking = true;
  let nextId = 1;
  const askLoop = (async () => {
    while (asking) {
      const id = nextId++;
      const t0 = performance.now();
      await new Promise((resolve) => {
        const on = (data) => {
          if (JSON.parse(String(data)).id !== id) return;
          asker.off('message', on);
          resolve();
        };
        asker.on('message', on);
        asker.send(JSON.stringify({ id, method: 'classroom.classOverview', args: [] }));
      });
      answerMs.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();

  // Clicks on a place that changes nothing (the students' heading), five a second, as a teacher reading the page.
  const target = await page.locator('#class-students-title').boundingBox();
  let clicking = true;
  const clickLoop = (async () => {
    while (clicking) {
      if (target) await page.mouse.click(target.x + 5, target.y + target.height / 2);
      await page.waitForTimeout(200);
    }
  })();

  const started = Date.now();
  const tokens = await Promise.all(Array.from({ length: students }, (_, i) => joinClass(server.port, classroom.classToken, `Student ${i + 1}`)));
  const queued = [];
  const runIds = await Promise.all(tokens.map((token) => student(server.port, token, (id) => queued.push(id))));
  const classMs = Date.now() - started;
  // Until the table shows every run.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && Number(await page.getByTestId('class-labs').getAttribute('data-completed-runs')) < students) await page.waitForTimeout(100);
  clicking = false;
  asking = false;
  await Promise.all([clickLoop, askLoop]);
  const bench = await page.evaluate(() => window.__bench);
  sub.dispose();
  asker.close();
  await browser.close();
  await server.close();
  classroom.dispose();
  await host.close(5000);

  // The k-th run to end is on the table when a reading first shows k completed runs.
  const ends = runIds.map((id) => completedAt.get(id)).sort((a, b) => a - b);
  const rowMs = ends.map((at, k) => {
    const shown = bench.shown.find((s) => s.count >= k + 1);
    return shown ? shown.at - at : NaN;
  });
  const gaps = bench.frames.slice(1).map((t, i) => t - bench.frames[i]);
  const inputs = bench.events.filter((e) => ['click', 'pointerdown', 'pointerup', 'mousedown', 'mouseup'].includes(e.name));
  const shown = rowMs.filter(Number.isFinite);
  const result = {
    students,
    classSeconds: Number((classMs / 1000).toFixed(1)),
    teacherViewOpenMs: viewOpenMs,
    runEndToRowMs: { median: percentile(shown, 0.5), p95: percentile(shown, 0.95), max: Math.max(...shown), notShown: rowMs.length - shown.length },
    classOverviewAnswerMs: { asked: answerMs.length, median: Math.round(percentile(answerMs, 0.5)), p95: Math.round(percentile(answerMs, 0.95)), max: Math.round(Math.max(...answerMs)) },
    inputLatencyMs: { eventTimingEntriesOver16ms: inputs.length, p95Duration: inputs.length ? percentile(inputs.map((e) => e.duration), 0.95) : 0 },
    framesMs: { p95Gap: percentile(gaps, 0.95), longestGap: Math.max(...gaps), over100: gaps.filter((g) => g > 100).length, frames: gaps.length },
  };
  if (process.env.GPU_LAB_BENCH_OUT) writeFileSync(process.env.GPU_LAB_BENCH_OUT, JSON.stringify(result));
  console.log(JSON.stringify(result, null, 2));
  console.log('figures only: a class of this size on this machine has no target to meet (README, "npm scripts")');
}
