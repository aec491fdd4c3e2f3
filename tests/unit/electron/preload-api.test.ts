// window.gpuLab as the preload builds it: exactly the contract's methods and events, each method bound to its own
// channel, events delivered as their payload only, no generic door to IPC; and the bundle a sandboxed preload
// needs: one CommonJS file that requires nothing but electron.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'vite';
import { describe, expect, it } from 'vitest';

import { API_EVENTS, API_METHODS } from '../../../main/common/contract/index.ts';
import { IPC_EVENT_CHANNEL, ipcChannel } from '../../../main/common/contract/wire.ts';
import type { ApiResponse } from '../../../main/common/contract/wire.ts';
import { buildPreloadApi } from '../../../main/electron/preload-api.ts';
import type { IpcListener, PreloadIpc } from '../../../main/electron/preload-api.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function fakeIpc() {
  const invoked: unknown[][] = [];
  const listeners = new Set<IpcListener>();
  const answer: ApiResponse = { ok: true, value: 'answer' };
  const ipc: PreloadIpc = {
    invoke: async (channel, ...args) => {
      invoked.push([channel, ...args]);
      return answer;
    },
    on: (channel, listener) => {
      if (channel === IPC_EVENT_CHANNEL) listeners.add(listener);
    },
    off: (channel, listener) => {
      if (channel === IPC_EVENT_CHANNEL) listeners.delete(listener);
    },
  };
  const ipcEvent = { sender: 'ipcRenderer itself' };
  const emit = (frame: unknown): void => listeners.forEach((l) => l(ipcEvent, frame));
  return { ipc, invoked, listeners, emit, answer };
}

type Member = (...args: unknown[]) => unknown;

function members(api: object): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const [service, value] of Object.entries(api)) {
    for (const [name, member] of Object.entries(value as object)) found.set(`${service}.${name}`, member);
  }
  return found;
}

function member(api: object, name: string): Member {
  const fn = members(api).get(name);
  if (typeof fn !== 'function') throw new Error(`${name} is not a function`);
  return fn as Member;
}

describe('preload API', () => {
  it("exposes exactly the contract's methods and events, every one a function", () => {
    const exposed = members(buildPreloadApi(fakeIpc().ipc));
    expect([...exposed.keys()].sort()).toEqual([...API_METHODS, ...API_EVENTS].sort());
    for (const value of exposed.values()) expect(typeof value).toBe('function');
  });

  it('has no generic door to IPC at any level', () => {
    const api = buildPreloadApi(fakeIpc().ipc);
    const names = [...Object.keys(api), ...[...members(api).keys()].map((n) => n.split('.')[1])];
    for (const door of ['invoke', 'send', 'sendSync', 'on', 'off', 'ipcRenderer', 'postMessage']) expect(names).not.toContain(door);
  });

  it('sends each method on its own channel only, with the arguments given, and answers what main answered', async () => {
    const { ipc, invoked, answer } = fakeIpc();
    const api = buildPreloadApi(ipc);
    for (const method of API_METHODS) {
      invoked.length = 0;
      // A channel name as an argument stays an argument: a page cannot steer a method to another channel.
      expect(await member(api, method)('gpu-lab:runs.deleteRun', 2)).toBe(answer);
      expect(invoked).toEqual([[ipcChannel(method), 'gpu-lab:runs.deleteRun', 2]]);
    }
  });

  it("hands a listener its event's payload only, never Electron's IPC event, until it unsubscribes", () => {
    const { ipc, emit, listeners } = fakeIpc();
    const received: unknown[][] = [];
    const unsubscribe = member(buildPreloadApi(ipc), 'runs.onDidChangeRun')((...args: unknown[]) => received.push(args)) as () => void;
    emit({ event: 'runs.onDidChangeRun', payload: { kind: 'progress', runId: 'r1' } });
    emit({ event: 'runs.onDidSomethingElse', payload: 'not for this listener' });
    emit('not a frame');
    expect(received).toEqual([[{ kind: 'progress', runId: 'r1' }]]);
    unsubscribe();
    expect(listeners.size).toBe(0);
    emit({ event: 'runs.onDidChangeRun', payload: 'late' });
    expect(received).toHaveLength(1);
  });

  it('bundles into one CommonJS file that requires electron and nothing else', async () => {
    const result = await build({ configFile: join(root, 'vite.preload.config.ts'), root, logLevel: 'silent', build: { write: false } });
    const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
    expect(outputs.map((o) => o.fileName)).toEqual(['preload.cjs']);
    const code = outputs[0]?.type === 'chunk' ? outputs[0].code : '';
    expect(code.match(/\brequire\([^)]*\)/g)).toEqual(['require("electron")']);
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    expect(code).toContain('exposeInMainWorld("gpuLab"');
    // The desktop app's own methods (its settings) ride in the same object, on channels of their own.
    expect(code).toContain('gpu-lab-desktop:');
  });
});
