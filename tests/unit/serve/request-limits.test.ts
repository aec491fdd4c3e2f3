// How much one serve-mode client may ask: requests a second and at once per WebSocket, runs started across the
// server. A request past a limit is answered RATE_LIMITED with its own id (so the page's call ends) and is not run;
// a run start that fails gives its place back; a run counts until its end event.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { GpuLabApi } from '../../../main/common/contract/index.ts';
import type { RunEvent } from '../../../main/common/contract/runs.ts';
import { GpuLabError } from '../../../main/common/errors.ts';
import { MAX_ARGUMENT_NESTING, RequestRate, RunStartLimit, nestsDeeperThan } from '../../../main/serve/request-limits.ts';
import type { RequestLimits } from '../../../main/serve/request-limits.ts';
import { startServer } from '../../../main/serve/server.ts';
import type { RunningServer } from '../../../main/serve/server.ts';
import { openApiSocket } from './ws-client.ts';

function fakeClock() {
  let ms = 0;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

// runs.startRun answers r1, r2, … (or INVALID_PARAMS for lab "bad"); devices.inspectDevices waits for release().
function fakeApi() {
  const listeners = new Set<(event: RunEvent) => void>();
  const started: string[] = [];
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const api = {
    devices: { inspectDevices: () => gate.then(() => 'inspected') },
    labs: { listLabs: async () => [] },
    runs: {
      startRun: async (request: { lab?: string }) => {
        if (request.lab === 'bad') throw new GpuLabError('INVALID_PARAMS', 'There is no lab "bad"');
        started.push(`r${started.length + 1}`);
        return { runId: `r${started.length}` };
      },
      onDidChangeRun: (listener: (event: RunEvent) => void) => {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
    },
    classroom: { onDidChangeQueue: () => ({ dispose: () => undefined }) },
  } as unknown as GpuLabApi;
  const end = (runId: string): void => {
    const event = { kind: 'completed', runId, summary: {} } as unknown as RunEvent;
    for (const listener of listeners) listener(event);
  };
  return { api, started, end, release: () => release() };
}

describe('request rate', () => {
  it('lets a burst through at once, then the rate a second', () => {
    const clock = fakeClock();
    const rate = new RequestRate({ burst: 3, perSecond: 2 }, clock.now);
    expect([rate.take(), rate.take(), rate.take(), rate.take()]).toEqual([true, true, true, false]);
    clock.advance(500);
    expect([rate.take(), rate.take()]).toEqual([true, false]);
    clock.advance(10_000);
    expect([rate.take(), rate.take(), rate.take(), rate.take()]).toEqual([true, true, true, false]);
    expect(rate.refusal().toPayload()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('at most 3 at once, then 2 a second') });
  });
});

describe('argument nesting', () => {
  it('lets the contract\'s own shapes through and finds nesting past the limit without running out of stack', () => {
    const runRequest = [{ lab: 'matmul-breakeven', device: 'cpu', params: { sizes: [100, 500], repeats: 3 } }];
    expect(nestsDeeperThan(runRequest, MAX_ARGUMENT_NESTING)).toBe(false);
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(nestsDeeperThan([deep], MAX_ARGUMENT_NESTING)).toBe(true);
    expect(nestsDeeperThan([[[0]]], 3)).toBe(false);
    expect(nestsDeeperThan([[[[0]]]], 3)).toBe(true);
    expect(nestsDeeperThan([new Float64Array(1_000_000)], 1)).toBe(false);
  });
});

describe('run start limit', () => {
  it('counts a run from its start until its end, and a failed start not at all', () => {
    const { api, end } = fakeApi();
    const limit = new RunStartLimit(api, { runsWaiting: 2, runStartsPerMinute: 100 });
    expect(limit.admit()).toBeNull();
    limit.settle('r1');
    expect(limit.admit()).toBeNull();
    limit.settle(null);
    expect(limit.admit()).toBeNull();
    limit.settle('r2');
    expect(limit.admit()?.toPayload()).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 'runs waiting' } });
    end('r1');
    expect(limit.admit()).toBeNull();
  });

  it('counts starts sent together before any is answered', () => {
    const limit = new RunStartLimit(fakeApi().api, { runsWaiting: 2, runStartsPerMinute: 100 });
    expect([limit.admit(), limit.admit()]).toEqual([null, null]);
    expect(limit.admit()?.code).toBe('RATE_LIMITED');
  });

  it('does not count a run that ended before its start was answered', () => {
    const { api, end } = fakeApi();
    const limit = new RunStartLimit(api, { runsWaiting: 1, runStartsPerMinute: 100 });
    expect(limit.admit()).toBeNull();
    end('r1');
    limit.settle('r1');
    expect(limit.admit()).toBeNull();
  });

  it('allows so many starts a minute, then more as the minute passes', () => {
    const clock = fakeClock();
    const { api, end } = fakeApi();
    const limit = new RunStartLimit(api, { runsWaiting: 100, runStartsPerMinute: 2 }, clock.now);
    for (const id of ['r1', 'r2']) {
      expect(limit.admit()).toBeNull();
      limit.settle(id);
      end(id);
    }
    expect(limit.admit()?.toPayload()).toMatchObject({ details: { limit: 'run starts per minute' } });
    clock.advance(60_001);
    expect(limit.admit()).toBeNull();
  });
});

describe('limits over the WebSocket', () => {
  const staticDir = mkdtempSync(join(tmpdir(), 'gpu-lab-limits-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>GPU Lab</title>');
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  async function serve(api: GpuLabApi, limits: Partial<RequestLimits>) {
    server = await startServer({ api, staticDir, port: 0, token: 'limits-token', limits });
    return openApiSocket(server.port, 'limits-token');
  }

  it('answers requests past the rate RATE_LIMITED, each with its own id, and runs none of them', async () => {
    const { ws, next } = await serve(fakeApi().api, { burst: 5, perSecond: 0.001, inFlight: 100 });
    for (let id = 1; id <= 8; id++) ws.send(JSON.stringify({ id, method: 'labs.listLabs', args: [] }));
    const answers = await Promise.all(Array.from({ length: 8 }, () => next()));
    const byId = new Map(answers.map((a) => [a?.id, a]));
    for (const id of [1, 2, 3, 4, 5]) expect(byId.get(id), `request ${id}`).toMatchObject({ ok: true, value: [] });
    for (const id of [6, 7, 8]) expect(byId.get(id), `request ${id}`).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
    ws.close();
  });

  it('answers a request past those still being worked on RATE_LIMITED at once', async () => {
    const fake = fakeApi();
    const { ws, next } = await serve(fake.api, { inFlight: 2 });
    for (let id = 1; id <= 3; id++) ws.send(JSON.stringify({ id, method: 'devices.inspectDevices', args: [] }));
    expect(await next()).toMatchObject({ id: 3, ok: false, error: { code: 'RATE_LIMITED', details: { limit: 'requests at once' } } });
    fake.release();
    const rest = [await next(), await next()].map((a) => a?.id).sort();
    expect(rest).toEqual([1, 2]);
    ws.close();
  });

  it('refuses a run start while the runs started through this server are waiting, and runs none for it', async () => {
    const fake = fakeApi();
    const { ws, next } = await serve(fake.api, { runsWaiting: 2 });
    const start = async (id: number, lab: string) => {
      ws.send(JSON.stringify({ id, method: 'runs.startRun', args: [{ lab }] }));
      return next();
    };
    expect(await start(1, 'bad')).toMatchObject({ error: { code: 'INVALID_PARAMS' } });
    expect(await start(2, 'matmul')).toMatchObject({ ok: true, value: { runId: 'r1' } });
    expect(await start(3, 'matmul')).toMatchObject({ ok: true, value: { runId: 'r2' } });
    expect(await start(4, 'matmul')).toMatchObject({ id: 4, error: { code: 'RATE_LIMITED', details: { limit: 'runs waiting' } } });
    expect(fake.started).toEqual(['r1', 'r2']);
    fake.end('r1');
    expect(await next()).toMatchObject({ event: 'runs.onDidChangeRun', payload: { kind: 'completed', runId: 'r1' } });
    expect(await start(5, 'matmul')).toMatchObject({ ok: true, value: { runId: 'r3' } });
    ws.close();
  });
});
