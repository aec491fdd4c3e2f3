// The contract over IPC, with a fake ipcMain and a fake API: one handler per method and no other, answers as
// dispatch's envelope, a refused sender or arguments nested too deep answered without reaching the service, run
// events forwarded to the window until the registration is disposed.
import { describe, expect, it } from 'vitest';

import { dispatch } from '../../../main/common/api-dispatch.ts';
import { API_METHODS } from '../../../main/common/contract/index.ts';
import { IPC_EVENT_CHANNEL, ipcChannel } from '../../../main/common/contract/wire.ts';
import type { ApiEventFrame, ApiResponse } from '../../../main/common/contract/wire.ts';
import type { GpuLabApi } from '../../../main/common/contract/index.ts';
import type { RunEvent } from '../../../main/common/contract/runs.ts';
import { appSenderCheck } from '../../../main/electron/app-origin.ts';
import type { FrameLike, SenderEvent } from '../../../main/electron/app-origin.ts';
import { registerIpcApi } from '../../../main/electron/ipc-api.ts';
import type { IpcHandlers } from '../../../main/electron/ipc-api.ts';

type Handler = (event: SenderEvent, ...args: unknown[]) => Promise<ApiResponse>;

// Every contract method answers what it was called with; run events go to whoever subscribed.
function fakeApi() {
  const calls: string[] = [];
  const runListeners = new Set<(event: RunEvent) => void>();
  const services: Record<string, Record<string, unknown>> = {};
  for (const method of API_METHODS) {
    const [service = '', name = ''] = method.split('.');
    services[service] = {
      ...services[service],
      [name]: async (...args: unknown[]) => {
        calls.push(method);
        return { method, args };
      },
    };
  }
  const runs = services.runs ?? {};
  runs.onDidChangeRun = (listener: (event: RunEvent) => void) => {
    runListeners.add(listener);
    return { dispose: () => runListeners.delete(listener) };
  };
  // The class's queue never changes here.
  const classroom = services.classroom ?? {};
  classroom.onDidChangeQueue = () => ({ dispose: () => undefined });
  const emitRunEvent = (event: RunEvent): void => runListeners.forEach((l) => l(event));
  return { api: services as unknown as GpuLabApi, calls, emitRunEvent, runListeners };
}

const appFrame: FrameLike = { url: 'app://gpu-lab/index.html', processId: 3, routingId: 1 };
const fromApp: SenderEvent = { senderFrame: appFrame };

function setUp() {
  const handlers = new Map<string, Handler>();
  const ipc: IpcHandlers<SenderEvent> = {
    handle: (channel, listener) => handlers.set(channel, listener),
    removeHandler: (channel) => handlers.delete(channel),
  };
  const fake = fakeApi();
  const sent: ApiEventFrame[] = [];
  const logs: string[] = [];
  const dispose = registerIpcApi({ ipc, api: fake.api, checkSender: appSenderCheck(() => appFrame), sendEvent: (f) => sent.push(f), log: (l) => logs.push(l) });
  const call = (channel: string, event: SenderEvent, ...args: unknown[]): Promise<ApiResponse> => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler on ${channel}`);
    return handler(event, ...args);
  };
  return { handlers, ...fake, sent, logs, dispose, call };
}

const progress: RunEvent = { kind: 'progress', runId: 'r1', progress: { pointsDone: 1, pointsTotal: 4, fraction: 0.25, etaSeconds: 3, current: { key: 'add CPU' } } };

describe('IPC registration', () => {
  it('handles every API method on its own channel and nothing else', () => {
    const { handlers } = setUp();
    expect([...handlers.keys()].sort()).toEqual(API_METHODS.map(ipcChannel).sort());
    expect(handlers.has(IPC_EVENT_CHANNEL)).toBe(false);
    expect(handlers.has('gpu-lab:runs.deleteAllRuns')).toBe(false);
  });

  it("answers the app's own page with dispatch's envelope", async () => {
    const { call, api } = setUp();
    expect(await call(ipcChannel('runs.getRun'), fromApp, 'matmul-1')).toEqual({ ok: true, value: { method: 'runs.getRun', args: ['matmul-1'] } });
    expect(await call(ipcChannel('runs.exportRun'), fromApp, 'matmul-1', 'csv')).toEqual(await dispatch(api, 'runs.exportRun', ['matmul-1', 'csv']));
  });

  it("answers a bad argument with dispatch's INVALID_ARGUMENT, before the service", async () => {
    const { call, calls } = setUp();
    const answer = await call(ipcChannel('runs.getRun'), fromApp, '../../etc/passwd');
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { argument: 'runId' } } });
    expect(calls).toEqual([]);
  });

  it('refuses arguments nested far deeper than the contract\'s, before the service', async () => {
    const { call, calls } = setUp();
    let deep: unknown = 'matmul-1';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const answer = await call(ipcChannel('runs.getRun'), fromApp, deep);
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', message: 'The arguments of runs.getRun nest deeper than 32 levels' } });
    expect(calls).toEqual([]);
  });

  it('refuses a subframe or another page without reaching the service, and logs it', async () => {
    const { call, calls, logs } = setUp();
    const subframe: SenderEvent = { senderFrame: { ...appFrame, routingId: 9 } };
    const elsewhere: SenderEvent = { senderFrame: { ...appFrame, url: 'https://evil.example/' } };
    for (const event of [subframe, elsewhere, { senderFrame: null }]) {
      const answer = await call(ipcChannel('runs.deleteRun'), event, 'matmul-1');
      expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('runs.deleteRun was refused') } });
    }
    expect(calls).toEqual([]);
    expect(logs).toHaveLength(3);
    expect(logs[1]).toContain('https://evil.example/');
  });

  it('forwards run events to the window until disposed, then removes every handler', () => {
    const { sent, emitRunEvent, dispose, handlers, runListeners } = setUp();
    emitRunEvent(progress);
    expect(sent).toEqual([{ event: 'runs.onDidChangeRun', payload: progress }]);
    dispose();
    emitRunEvent(progress);
    expect(sent).toHaveLength(1);
    expect(runListeners.size).toBe(0);
    expect(handlers.size).toBe(0);
  });
});
