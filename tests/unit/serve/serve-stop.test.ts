// `gpu-lab serve` as a real process, as a shell starts it (a process group of its own): a FIFO named like a record in
// its runs folder, five readers of it and the page itself, and a run in progress, against Ctrl-C, SIGTERM and a
// closed terminal. It keeps serving while such files exist, and each signal ends it within 3 s with exit 0 (README.md,
// "Serve mode"), a run in progress stored as cancelled and no compute host left behind.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

import { gone, measuringHost, until } from '../processes.ts';
import { call, openApiSocket } from './ws-client.ts';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

interface Serve {
  child: ChildProcess;
  dataDir: string;
  port: number;
  token: string;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

const started: Serve[] = [];
const fifos: string[] = [];

async function startServe(dataDir: string): Promise<Serve> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data-dir', dataDir], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
  const serve = { child, dataDir, port: 0, token: '', output: () => text, exit };
  started.push(serve);
  const link = await until('the link serve prints', () => /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+)/.exec(text), 30_000);
  return { ...serve, port: Number(link[1]), token: link[2] ?? '' };
}

function within<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms))]);
}

function page(serve: Serve): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: serve.port, path: '/', headers: { cookie: `gpulab_token_${serve.port}=${serve.token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

function dataDirWithFifo(): { dataDir: string; fifoId: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-serve-stop-'));
  mkdirSync(join(dataDir, 'runs'));
  const fifo = join(dataDir, 'runs', 'a-fifo.json');
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  fifos.push(fifo);
  return { dataDir, fifoId: 'a-fifo' };
}

afterEach(() => {
  // A reader still blocked on a FIFO (the code before this fix) is let go: a writer opening it ends the wait.
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // Nobody waits on it.
    }
  }
  for (const serve of started.splice(0)) {
    try {
      process.kill(-(serve.child.pid ?? 0), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

describe('gpu-lab serve beside a FIFO named like a record', () => {
  it('answers five reads of it and the page, and lists the other runs', async () => {
    const { dataDir, fifoId } = dataDirWithFifo();
    const serve = await startServe(dataDir);
    const client = await openApiSocket(serve.port, serve.token);
    // Sent at once, as five tabs would: each of them once held a thread of Node's file pool for good.
    for (let id = 1; id <= 5; id++) client.ws.send(JSON.stringify({ id, method: 'runs.getRun', args: [fifoId] }));
    const answers = await within('five reads of the FIFO', Promise.all(Array.from({ length: 5 }, () => client.next())), 5_000);
    expect(answers.map((a) => a?.id).sort()).toEqual([1, 2, 3, 4, 5]);
    for (const answer of answers) expect(answer?.error).toMatchObject({ code: 'NOT_FOUND' });
    expect(await within('the page', page(serve), 5_000)).toBe(200);
    expect(await within('the list', call(client, 'runs.listRuns', []), 5_000)).toMatchObject({ ok: true, value: [] });
    expect(serve.output()).toContain('a-fifo.json: it is a FIFO (a named pipe), not a regular file');
    client.ws.close();
  }, 60_000);
});

describe('gpu-lab serve told to stop', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('by %s while five reads of a FIFO were asked: exit 0 within 3 s', async (signal) => {
    const { dataDir, fifoId } = dataDirWithFifo();
    const serve = await startServe(dataDir);
    const client = await openApiSocket(serve.port, serve.token);
    for (let id = 1; id <= 5; id++) client.ws.send(JSON.stringify({ id, method: 'runs.getRun', args: [fifoId] }));
    await new Promise((r) => setTimeout(r, 300));
    const sent = Date.now();
    process.kill(serve.child.pid ?? 0, signal);
    const { code, at } = await within('serve to exit', serve.exit, 10_000);
    expect(code, serve.output()).toBe(0);
    expect(at - sent).toBeLessThan(3_000);
    expect(serve.output()).toContain('gpu-lab serve: stopping');
  }, 60_000);

  it('by Ctrl-C during a run whose sample takes seconds: exit 0 within 3 s, the run stored as cancelled, no compute host left', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-serve-stop-'));
    const serve = await startServe(dataDir);
    const client = await openApiSocket(serve.port, serve.token);
    const startedRun = await call(client, 'runs.startRun', [{ lab: 'matmul', device: 'cpu', params: { n: 8000, repeats: 2, cpuRepeats: 2 } }]);
    expect(startedRun.ok, JSON.stringify(startedRun)).toBe(true);
    const runId = (startedRun.value as { runId: string }).runId;
    const parent = serve.child.pid ?? -1;
    // In the middle of a sample of an 8000² product, which takes seconds here.
    const host = await measuringHost(parent, dataDir);
    const sent = Date.now();
    // Ctrl-C in a terminal reaches the whole process group, the compute host included.
    process.kill(-parent, 'SIGINT');
    const { code, at } = await within('serve to exit', serve.exit, 10_000);
    expect(code, serve.output()).toBe(0);
    expect(at - sent).toBeLessThan(3_000);
    const record = JSON.parse(readFileSync(join(dataDir, 'runs', `${runId}.json`), 'utf8')) as { status: string; error: unknown };
    expect(record).toMatchObject({ status: 'cancelled', error: null });
    await until('the host to go', () => gone(host), 5_000);
  }, 180_000);
});
