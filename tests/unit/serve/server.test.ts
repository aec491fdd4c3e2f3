// Serve mode's shell over a stand-in API (the services are tested on their own): the token, the Host and Origin
// checks, the security headers on every answer, the static files confined to their folder, and the contract over the
// WebSocket with coded errors for every malformed frame and every answer, the socket staying open; a frame over the
// size limit closes it with 1009, and sockets past the limit are refused.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import type { GpuLabApi } from '../../../main/common/contract/index.ts';
import type { RunEvent } from '../../../main/common/contract/runs.ts';
import { GpuLabError } from '../../../main/common/errors.ts';
import { startServer } from '../../../main/serve/server.ts';
import type { RunningServer } from '../../../main/serve/server.ts';
import { openApiSocket } from './ws-client.ts';

const root = mkdtempSync(join(tmpdir(), 'gpu-lab-serve-'));
const staticDir = join(root, 'web');
mkdirSync(join(staticDir, 'assets'), { recursive: true });
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>GPU Lab</title>');
writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(join(root, 'secret.txt'), 'not for the browser');

const listeners = new Set<(e: RunEvent) => void>();
const api = {
  devices: { listDevices: async () => ({ devices: [], cudaReason: 'none', blas: 'test' }) },
  labs: { listLabs: async () => [] },
  runs: {
    getRun: async (id: string) => {
      throw new GpuLabError('NOT_FOUND', `No readable run "${id}"`, { runId: id });
    },
    listRuns: async () => {
      throw new Error('disk on fire at /home/someone/.local/share/gpu-lab');
    },
    // An answer JSON cannot write: a record that refers to itself.
    getRunProgress: async () => {
      const progress: Record<string, unknown> = { pointsDone: 1 };
      progress.self = progress;
      return progress;
    },
    onDidChangeRun: (l: (e: RunEvent) => void) => {
      listeners.add(l);
      return { dispose: () => listeners.delete(l) };
    },
  },
  classroom: { onDidChangeQueue: () => ({ dispose: () => undefined }) },
} as unknown as GpuLabApi;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ api, staticDir, port: 0, token: 'secret-token-123' });
});
afterAll(async () => {
  await server.close();
});

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers: { host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const cookie = (): string => `gpulab_token_${server.port}=secret-token-123`;

async function socket(): Promise<{ ws: WebSocket; next: () => Promise<Record<string, unknown>> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api?token=secret-token-123`, { origin: `http://127.0.0.1:${server.port}` });
  const frames: Record<string, unknown>[] = [];
  const waiting: ((f: Record<string, unknown>) => void)[] = [];
  ws.on('message', (d) => {
    const frame = JSON.parse(String(d)) as Record<string, unknown>;
    const w = waiting.shift();
    if (w) w(frame);
    else frames.push(frame);
  });
  await new Promise((r) => ws.once('open', r));
  return { ws, next: () => new Promise((r) => (frames.length ? r(frames.shift() as Record<string, unknown>) : waiting.push(r))) };
}

describe('serve mode over HTTP', () => {
  it('answers 401 without the token and trades the token in the query for a cookie', async () => {
    expect((await get('/')).status).toBe(401);
    const first = await get('/?token=secret-token-123');
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    expect(String(first.headers['set-cookie'])).toMatch(new RegExp(`gpulab_token_${server.port}=secret-token-123; Path=/; HttpOnly; SameSite=Strict`));
    const page = await get('/', { cookie: cookie() });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>GPU Lab</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('refuses a wrong token of the same length and a foreign Host header (DNS rebinding)', async () => {
    expect((await get('/?token=secret-token-124')).status).toBe(401);
    expect((await get('/', { cookie: cookie(), host: `attacker.example:${server.port}` })).status).toBe(421);
  });

  it('refuses a cookie that is not valid percent-encoding, over HTTP and on the WebSocket, and stays up', async () => {
    const malformed = `gpulab_token_${server.port}=%E0%A4%A`;
    expect((await get('/', { cookie: malformed })).status).toBe(401);
    const handshake = new WebSocket(`ws://127.0.0.1:${server.port}/api`, { origin: `http://127.0.0.1:${server.port}`, headers: { cookie: malformed } });
    const status = await new Promise((resolve) => {
      handshake.on('unexpected-response', (_req, res) => resolve(res.statusCode));
      handshake.on('error', () => resolve('error'));
    });
    expect(status).toBe(401);
    expect((await get('/', { cookie: cookie() })).status).toBe(200);
  });

  it('sends the security headers with every answer, whatever its status', async () => {
    const answers = [
      await get('/', { cookie: cookie() }),
      await get('/?token=secret-token-123'),
      await get('/'),
      await get('/nope.js', { cookie: cookie() }),
      await get('/', { cookie: cookie() }, 'POST'),
      await get('/', { cookie: cookie(), host: `attacker.example:${server.port}` }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 303, 401, 404, 405, 421]);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy'], String(answer.status)).toContain("frame-ancestors 'none'");
      expect(answer.headers['x-content-type-options'], String(answer.status)).toBe('nosniff');
      expect(answer.headers['x-frame-options'], String(answer.status)).toBe('DENY');
      expect(answer.headers['referrer-policy'], String(answer.status)).toBe('no-referrer');
    }
  });

  it('serves files of the renderer folder only', async () => {
    expect((await get('/assets/app.js', { cookie: cookie() })).headers['content-type']).toContain('text/javascript');
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt', '/nope.js']) {
      const res = await get(path, { cookie: cookie() });
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('not for the browser');
    }
  });
});

describe('the contract over the WebSocket', () => {
  it('answers a call with its value and an error with its code and message, never a stack', async () => {
    const { ws, next } = await socket();
    ws.send(JSON.stringify({ id: 1, method: 'devices.listDevices', args: [] }));
    expect(await next()).toEqual({ id: 1, ok: true, value: { devices: [], cudaReason: 'none', blas: 'test' } });
    ws.send(JSON.stringify({ id: 2, method: 'runs.getRun', args: ['r1'] }));
    expect(await next()).toEqual({ id: 2, ok: false, error: { code: 'NOT_FOUND', message: 'No readable run "r1"', details: { runId: 'r1' } } });
    ws.send(JSON.stringify({ id: 3, method: 'runs.listRuns', args: [] }));
    const internal = (await next()) as { error: { code: string; message: string } };
    expect(internal.error.code).toBe('NATIVE_ERROR');
    expect(JSON.stringify(internal)).not.toMatch(/at .*\.ts:\d+/);
    ws.close();
  });

  it('answers every malformed frame with a coded error and stays open', async () => {
    const { ws, next } = await socket();
    const cases: [string, string, RegExp][] = [
      ['{not json', 'INVALID_ARGUMENT', /JSON/],
      ['[1,2]', 'INVALID_ARGUMENT', /object/],
      ['{"method":"labs.listLabs"}', 'INVALID_ARGUMENT', /"id"/],
      ['{"id":4,"method":"fs.readFile","args":["/etc/passwd"]}', 'UNKNOWN_METHOD', /no method "fs\.readFile"/],
      ['{"id":5,"method":"runs.getRun","args":["../../etc/passwd"]}', 'INVALID_ARGUMENT', /Argument "runId" of runs\.getRun/],
      ['{"id":6,"method":"runs.getRun","args":["a","b"]}', 'INVALID_ARGUMENT', /takes 1 argument/],
      ['{"id":7,"method":"devices.readTelemetry","args":[42]}', 'INVALID_ARGUMENT', /"device".*CUDA device id/],
      ['{"id":8,"method":"toString","args":[]}', 'UNKNOWN_METHOD', /no method/],
    ];
    for (const [frame, code, message] of cases) {
      ws.send(frame);
      const answer = (await next()) as { ok: boolean; error: { code: string; message: string } };
      expect(answer.ok, frame).toBe(false);
      expect(answer.error.code, frame).toBe(code);
      expect(answer.error.message, frame).toMatch(message);
    }
    ws.send(JSON.stringify({ id: 9, method: 'labs.listLabs', args: [] }));
    expect(await next()).toEqual({ id: 9, ok: true, value: [] });
    ws.close();
  });

  it('refuses a frame nested deeper than the limit as bad input, wherever the nesting is, and goes on answering', async () => {
    const { ws, next } = await socket();
    const deep = (levels: number): string => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
    // A method sent as a list nested 100 000 deep once came back NATIVE_ERROR: Maximum call stack size exceeded.
    ws.send(`{"id":1,"method":${deep(100_000)},"args":[]}`);
    expect(await next()).toEqual({ id: 1, ok: false, error: { code: 'INVALID_ARGUMENT', message: 'A request nests deeper than 32 levels', details: { limit: 'argument nesting' } } });
    ws.send(`{"id":2,"method":"runs.getRun","args":${deep(100_000)}}`);
    expect(await next()).toMatchObject({ id: 2, ok: false, error: { code: 'INVALID_ARGUMENT', message: 'The arguments of runs.getRun nest deeper than 32 levels' } });
    ws.send(JSON.stringify({ id: 3, method: 'labs.listLabs', args: [] }));
    expect(await next()).toEqual({ id: 3, ok: true, value: [] });
    ws.close();
  });

  it('answers a value JSON cannot write with a coded error, and goes on answering', async () => {
    const { ws, next } = await socket();
    ws.send(JSON.stringify({ id: 1, method: 'runs.getRunProgress', args: ['r1'] }));
    expect(await next()).toEqual({ id: 1, ok: false, error: { code: 'NATIVE_ERROR', message: 'The answer could not be written as JSON' } });
    ws.send(JSON.stringify({ id: 2, method: 'labs.listLabs', args: [] }));
    expect(await next()).toEqual({ id: 2, ok: true, value: [] });
    ws.close();
  });

  it('closes a socket that sends a frame over 1 MiB with 1009, and serves the next one', async () => {
    const client = await openApiSocket(server.port, 'secret-token-123');
    client.ws.send(JSON.stringify({ id: 1, method: 'labs.listLabs', args: ['x'.repeat(1024 * 1024)] }));
    expect(await client.closed).toBe(1009);
    const again = await openApiSocket(server.port, 'secret-token-123');
    again.ws.send(JSON.stringify({ id: 2, method: 'labs.listLabs', args: [] }));
    expect(await again.next()).toEqual({ id: 2, ok: true, value: [] });
    again.ws.close();
  });

  // A page on a loaded machine reads its socket late, so the server's answers queue up in front of the close frame.
  // The server must close with the handshake, not tear the socket down: a socket destroyed with its queue unsent
  // loses the close frame, and the page sees 1006 (gone) instead of 1009 (too big).
  it('says 1009 to a client that reads late, behind the answers queued before it', async () => {
    const client = await openApiSocket(server.port, 'secret-token-123');
    client.ws.pause();
    const finished: RunEvent = { kind: 'end', runId: 'r1', status: 'completed', note: 'y'.repeat(256 * 1024) } as unknown as RunEvent;
    for (let i = 0; i < 64; i++) for (const l of listeners) l(finished);
    client.ws.send(JSON.stringify({ id: 1, method: 'labs.listLabs', args: ['x'.repeat(1024 * 1024)] }));
    await new Promise((r) => setTimeout(r, 200));
    client.ws.resume();
    expect(await client.closed).toBe(1009);
  });

  it('refuses a WebSocket past 32 open ones', async () => {
    const open = await Promise.all(Array.from({ length: 32 }, () => openApiSocket(server.port, 'secret-token-123')));
    await expect(openApiSocket(server.port, 'secret-token-123')).rejects.toThrow('WebSocket refused: 503');
    for (const client of open) client.ws.close();
    await Promise.all(open.map((c) => c.closed));
  });

  it('pushes run events to every open socket and stops when a socket closes', async () => {
    const { ws, next } = await socket();
    const event: RunEvent = { kind: 'progress', runId: 'r1', progress: { pointsDone: 1, pointsTotal: 2, fraction: 0.5, etaSeconds: 1, current: { key: 'x' } } };
    for (const l of listeners) l(event);
    expect(await next()).toEqual({ event: 'runs.onDidChangeRun', payload: event });
    ws.close();
    await new Promise((r) => ws.once('close', r));
    // Every socket of this file is closed by now: no subscription may outlive its socket. The one left is the
    // server's own, counting the runs started through it.
    await new Promise((r) => setTimeout(r, 50));
    expect(listeners.size).toBe(1);
  });
});
