// Hostile input on serve mode's WebSocket: a real server over a real lab host (compute host included) on a data
// folder of stored runs, fed thousands of seeded cases: text that is not JSON, JSON that is not a request, requests
// with bad ids, unknown methods, every method with arguments of every kind, frames just under and over the size
// limit, arguments nested far too deep, binary frames, attempts at prototype pollution, and floods. Every frame must
// get a coded answer with its own id (null where it had none), or, over the size limit, a close with 1009; no answer
// may carry a stack; the server must still serve afterwards; and no stored run may change or go missing (runs the
// fuzz started itself aside). Before the WebSocket, the handshakes themselves: requests with every mix of method,
// path, Host, Origin, cookie and upgrade headers each get an HTTP answer, never a 500 and never a dead server. A
// failure names the seed: GPU_LAB_FUZZ_SEED=<seed> replays it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ErrorCode } from '../../../main/common/errors.ts';
import { createLabHost } from '../../../main/app/lab-host.ts';
import { startServer } from '../../../main/serve/server.ts';
import type { RunningServer } from '../../../main/serve/server.ts';
import { FUZZ_SEED, Random, STACK_FRAME, anyMethod, anyValue, argumentsFor, damagedRecords, deepValue, isCodedError, storedRunsFolder, unknownMethod } from './fuzz-cases.ts';
import { openApiSocket } from './ws-client.ts';
import type { ApiClient } from './ws-client.ts';

const CASES = 2400;
const TOKEN = 'fuzz-token';
const ANSWER_TIMEOUT_MS = 20_000;
// The server's frame limit (server.ts).
const MAX_FRAME_BYTES = 1024 * 1024;

interface FuzzCase {
  name: string;
  frames: (string | Buffer)[];
  // The id each frame's answer carries, or 'closed' for a frame over the size limit.
  expect: (number | null)[] | 'closed';
  // The code the answers must carry, where the case decides it.
  code?: ErrorCode;
}

const data = storedRunsFolder();
const recordsBefore = data.snapshot();
const fuzzStarted = new Set<string>();
const labHost = createLabHost({ dataDir: data.dataDir, supervisor: { log: () => undefined }, warn: () => undefined });
const staticDir = mkdtempSync(join(tmpdir(), 'gpu-lab-fuzz-web-'));
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>GPU Lab</title>');
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ api: labHost, staticDir, port: 0, token: TOKEN });
});
afterAll(async () => {
  await server.close();
  await labHost.dispose();
});

function makeCase(rng: Random, nextId: () => number): FuzzCase {
  const request = (method: unknown, args: unknown): { frame: string; id: number } => {
    const id = nextId();
    return { frame: JSON.stringify({ id, method, args }), id };
  };
  const roll = rng.next();
  if (roll < 0.1) {
    const valid = JSON.stringify({ id: 1, method: anyMethod(rng), args: [] });
    const frame = rng.chance(0.5) ? valid.slice(0, rng.int(valid.length)) : rng.text(60);
    // Now and then the noise is JSON after all (a number, a string): still no request.
    return { name: 'text that is not a request', frames: [frame === '' ? '{' : frame], expect: [null] };
  }
  if (roll < 0.15) return { name: 'JSON that is not an object', frames: [JSON.stringify(rng.pick([[], [1, 2], 'labs.listLabs', 42, null, true]))], expect: [null], code: 'INVALID_ARGUMENT' };
  if (roll < 0.22) {
    const id = rng.pick([undefined, -1, 1.5, '7', null, [], {}, 2 ** 60, 'NaN']);
    return { name: 'a request with a bad id', frames: [JSON.stringify({ id, method: anyMethod(rng), args: [] })], expect: [null], code: 'INVALID_ARGUMENT' };
  }
  if (roll < 0.3) {
    const { frame, id } = request(unknownMethod(rng), anyValue(rng, 1));
    return { name: 'an unknown method', frames: [frame], expect: [id], code: 'UNKNOWN_METHOD' };
  }
  if (roll < 0.8) {
    const method = anyMethod(rng);
    const { frame, id } = request(method, argumentsFor(rng, method, data.runIds));
    return { name: `${method} with fuzzed arguments`, frames: [frame], expect: [id] };
  }
  if (roll < 0.84) {
    const method = anyMethod(rng);
    const { frame, id } = request(method, ['x'.repeat(900 * 1024 + rng.int(100 * 1024))]);
    return { name: `${method} with a frame just under 1 MiB`, frames: [frame], expect: [id] };
  }
  if (roll < 0.86) return { name: 'a frame over 1 MiB', frames: [JSON.stringify({ id: nextId(), method: anyMethod(rng), args: ['y'.repeat(MAX_FRAME_BYTES + rng.int(4096))] })], expect: 'closed' };
  if (roll < 0.91) {
    const levels = rng.chance(0.3) ? 1 + rng.int(30) : 33 + rng.int(200_000);
    const { json } = deepValue(rng, levels);
    const id = nextId();
    const method = rng.chance(0.8) ? anyMethod(rng) : unknownMethod(rng);
    const frame = `{"id":${id},"method":${JSON.stringify(method)},"args":[${json}]}`;
    // Deep enough, the nesting alone passes the size limit.
    const expected = Buffer.byteLength(frame) > MAX_FRAME_BYTES ? 'closed' : [id];
    return { name: `${method} with arguments ${levels} levels deep (${frame.length} bytes)`, frames: [frame], expect: expected };
  }
  if (roll < 0.94) return { name: 'a binary frame', frames: [Buffer.from(rng.text(50))], expect: [null], code: 'INVALID_ARGUMENT' };
  if (roll < 0.97) {
    const id = nextId();
    const method = anyMethod(rng);
    const frame = `{"id":${id},"method":${JSON.stringify(method)},"args":[{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}],"__proto__":{"polluted":true}}`;
    return { name: `${method} carrying __proto__`, frames: [frame], expect: [id] };
  }
  const requests = Array.from({ length: 50 + rng.int(350) }, () => {
    if (rng.chance(0.1)) return request(unknownMethod(rng), anyValue(rng, 1));
    const method = anyMethod(rng);
    return request(method, argumentsFor(rng, method, data.runIds));
  });
  return { name: `a flood of ${requests.length} requests`, frames: requests.map((r) => r.frame), expect: requests.map((r) => r.id) };
}

// The socket the cases go through: a fresh one every 100 cases and after each flood (so that one case's share of
// the rate limit is not the next one's), and after a close.
class Connection {
  private client: ApiClient | null = null;
  private uses = 0;

  async get(): Promise<ApiClient> {
    if (this.client && this.uses < 100 && this.client.ws.readyState === this.client.ws.OPEN) {
      this.uses += 1;
      return this.client;
    }
    await this.drop();
    this.client = await openApiSocket(server.port, TOKEN);
    this.uses = 1;
    return this.client;
  }

  async drop(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (!client) return;
    client.ws.close();
    await client.closed;
  }
}

function timeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_resolve, reject) => setTimeout(() => reject(new Error(`no ${what} within ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS).unref())]);
}

// Problems with one case's answers; empty when all is well.
async function runCase(connection: Connection, fuzzCase: FuzzCase, codes: Map<string, number>): Promise<string[]> {
  const client = await connection.get();
  for (const frame of fuzzCase.frames) client.ws.send(frame);
  if (fuzzCase.expect === 'closed') {
    const code = await timeout(client.closed, 'close');
    await connection.drop();
    return code === 1009 ? [] : [`closed with ${code}, not 1009`];
  }
  const problems: string[] = [];
  const waitingFor = [...fuzzCase.expect];
  while (waitingFor.length > 0) {
    const frame = await timeout(client.next(), 'answer');
    if (frame === null) {
      const code = await client.closed;
      await connection.drop();
      return [...problems, `the socket closed (${code}) with ${waitingFor.length} answer(s) missing`];
    }
    if ('event' in frame) continue;
    const text = JSON.stringify(frame);
    const at = waitingFor.indexOf(frame.id as number | null);
    if (at < 0) problems.push(`an answer with id ${String(frame.id)}, not one of those asked`);
    else waitingFor.splice(at, 1);
    if (STACK_FRAME.test(text)) problems.push(`a stack trace in ${text.slice(0, 300)}`);
    if (frame.ok === true) {
      const runId = (frame.value as { runId?: unknown } | null)?.runId;
      if (typeof runId === 'string') fuzzStarted.add(runId);
      codes.set('ok', (codes.get('ok') ?? 0) + 1);
      continue;
    }
    if (frame.ok !== false || !isCodedError(frame.error)) {
      problems.push(`an answer without a coded error: ${text.slice(0, 300)}`);
      continue;
    }
    const code = (frame.error as { code: string }).code;
    codes.set(code, (codes.get(code) ?? 0) + 1);
    if (fuzzCase.code && code !== fuzzCase.code && code !== 'RATE_LIMITED') problems.push(`${code}, not ${fuzzCase.code}: ${text.slice(0, 300)}`);
    // A coded internal error is still a bug: every input this fuzz makes has a proper refusal.
    if (code === 'NATIVE_ERROR') problems.push(`an internal error: ${text.slice(0, 300)}`);
  }
  if (fuzzCase.frames.length > 1) await connection.drop();
  return problems;
}

function httpStatus(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { host: `127.0.0.1:${server.port}`, cookie: `gpulab_token_${server.port}=${TOKEN}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

// One HTTP request or WebSocket handshake with hostile headers; its status, 101 for a handshake that succeeded.
function handshake(rng: Random): Promise<{ what: string; status: number | string }> {
  const port = server.port;
  const token = rng.pick([TOKEN, TOKEN.toUpperCase(), `${TOKEN}x`, '', '%E0%A4%A', '%', 'x'.repeat(4000), rng.text(20).replace(/[^\w%.-]/g, '')]);
  // Mostly the WebSocket's path, Host and Origin, so that most handshakes reach the token and the upgrade.
  const path = rng.chance(0.6)
    ? rng.pick(['/api', `/api?token=${encodeURIComponent(token)}`])
    : rng.pick(['/', `/?token=${encodeURIComponent(token)}`, '/index.html', '/%', '/..%2f..%2fetc%2fpasswd', '/api/../api', `/${encodeURIComponent(rng.text(20).replace(/[\ud800-\udfff]/g, ''))}`]);
  const headers: Record<string, string> = {
    host: rng.chance(0.7) ? rng.pick([`127.0.0.1:${port}`, `localhost:${port}`]) : rng.pick([`evil.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1', '[::1]', '', 'a'.repeat(300)]),
  };
  if (rng.chance(0.9)) headers.origin = rng.chance(0.7) ? `http://${headers.host}` : rng.pick(['http://evil.example', 'null', `https://127.0.0.1:${port}`, 'file://', '']);
  if (rng.chance(0.6)) headers.cookie = rng.pick([`gpulab_token_${port}=${token}`, `gpulab_token_${port}=%E0%A4%A`, `gpulab_token_${port}`, `=; ;;=${token}`, `gpulab_token_${port + 1}=${TOKEN}`, `a=b; gpulab_token_${port}=${TOKEN}; c=%`]);
  if (rng.chance(0.6)) {
    Object.assign(headers, { connection: 'Upgrade', upgrade: rng.pick(['websocket', 'WebSocket', 'h2c', '']), 'sec-websocket-version': rng.pick(['13', '8', 'x']) });
    headers['sec-websocket-key'] = rng.pick(['dGhlIHNhbXBsZSBub25jZQ==', 'short', '']);
  }
  const method = rng.pick(['GET', 'GET', 'HEAD', 'POST', 'PUT', 'OPTIONS', 'DELETE']);
  const what = `${method} ${path.slice(0, 80)} ${JSON.stringify(headers).slice(0, 300)}`;
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, setHost: false });
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error('no answer')));
    req.on('response', (res) => {
      res.resume();
      resolve({ what, status: res.statusCode ?? 0 });
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve({ what, status: 101 });
    });
    req.on('error', (err) => resolve({ what, status: err.message }));
    req.end();
  });
}

describe('fuzzing the WebSocket API', () => {
  it(`answers 500 hostile handshakes and requests with an HTTP status, never 500 (seed ${FUZZ_SEED})`, async () => {
    const rng = new Random(FUZZ_SEED);
    const failures: string[] = [];
    const statuses = new Map<number | string, number>();
    for (let i = 0; i < 500; i++) {
      const { what, status } = await handshake(rng);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (typeof status !== 'number' || status >= 500) failures.push(`seed ${FUZZ_SEED}, handshake ${i}: ${status} for ${what}`);
    }
    console.log(`Handshake fuzz, seed ${FUZZ_SEED}: 500 requests; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(failures).toEqual([]);
    expect(await httpStatus('/')).toBe(200);
  });

  it(`answers ${CASES} hostile cases with coded errors, stays up, and loses no stored run (seed ${FUZZ_SEED})`, { timeout: 240_000 }, async () => {
    const rng = new Random(FUZZ_SEED);
    let id = 0;
    const connection = new Connection();
    const failures: string[] = [];
    const codes = new Map<string, number>();
    let frames = 0;
    for (let i = 0; i < CASES && failures.length < 20; i++) {
      const fuzzCase = makeCase(rng, () => ++id);
      frames += fuzzCase.frames.length;
      let problems: string[];
      try {
        problems = await runCase(connection, fuzzCase, codes);
      } catch (err) {
        problems = [err instanceof Error ? err.message : String(err)];
        await connection.drop();
      }
      for (const problem of problems) failures.push(`seed ${FUZZ_SEED}, case ${i} (${fuzzCase.name}): ${problem}`);
      // A run the fuzz started is cancelled at once: the cases, not the labs, are under test.
      for (const runId of fuzzStarted) await labHost.runs.cancelRun(runId).catch(() => undefined);
    }
    await connection.drop();
    console.log(`WebSocket fuzz, seed ${FUZZ_SEED}: ${CASES} cases, ${frames} frames; answers ${JSON.stringify(Object.fromEntries(codes))}; runs started ${fuzzStarted.size}`);
    expect(failures).toEqual([]);

    expect(await httpStatus('/')).toBe(200);
    const after = await openApiSocket(server.port, TOKEN);
    after.ws.send(JSON.stringify({ id: 1, method: 'runs.listRuns', args: [] }));
    expect(await after.next()).toMatchObject({ id: 1, ok: true });
    after.ws.close();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    await labHost.close();
    expect(damagedRecords(recordsBefore, data.snapshot(), fuzzStarted), `seed ${FUZZ_SEED}`).toEqual([]);
  });
});
