// The desktop app's own methods over IPC (its settings), with a fake ipcMain and ipcRenderer: one handler per method
// on channels apart from the contract's, answered to the app's window only, arguments checked before main's code is
// reached, refusals as coded envelopes; window.gpuLab.desktop as the preload builds it, each method bound to its
// channel; and the compute host told the setting by the utility launcher at each launch.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

import { describe, expect, it, vi } from 'vitest';

import { API_METHODS } from '../../../main/common/contract/index.ts';
import { IPC_PREFIX } from '../../../main/common/contract/wire.ts';
import type { ApiResponse } from '../../../main/common/contract/wire.ts';
import { DESKTOP_METHODS, desktopChannel } from '../../../main/common/desktop-api.ts';
import type { DesktopApi, PythonSetting } from '../../../main/common/desktop-api.ts';
import { GpuLabError } from '../../../main/common/errors.ts';
import { PYTHON_ENV } from '../../../main/common/peer-protocol.ts';
import { appSenderCheck } from '../../../main/electron/app-origin.ts';
import type { FrameLike, SenderEvent } from '../../../main/electron/app-origin.ts';
import { registerDesktopIpc } from '../../../main/electron/desktop-ipc.ts';
import { buildDesktopPreloadApi } from '../../../main/electron/desktop-preload.ts';
import { utilityLauncher } from '../../../main/electron/utility-launcher.ts';
import type { UtilityChild, UtilityProcessModule } from '../../../main/electron/utility-launcher.ts';

type Handler = (event: SenderEvent, ...args: unknown[]) => Promise<ApiResponse>;

const appFrame: FrameLike = { url: 'app://gpu-lab/index.html', processId: 3, routingId: 1 };
const fromApp: SenderEvent = { senderFrame: appFrame };
const answer: PythonSetting = { interpreter: 'python3', source: 'default', setting: null, environment: null, problem: null };

function setUp() {
  const handlers = new Map<string, Handler>();
  const api = {
    pythonSetting: vi.fn<DesktopApi['pythonSetting']>(async () => answer),
    setPython: vi.fn<DesktopApi['setPython']>(async () => answer),
    choosePython: vi.fn<DesktopApi['choosePython']>(async () => null),
    resetPython: vi.fn<DesktopApi['resetPython']>(async () => answer),
  };
  const logs: string[] = [];
  const dispose = registerDesktopIpc<SenderEvent>({
    ipc: { handle: (channel, listener) => handlers.set(channel, listener), removeHandler: (channel) => handlers.delete(channel) },
    api,
    checkSender: appSenderCheck(() => appFrame),
    log: (l) => logs.push(l),
  });
  const call = (method: string, event: SenderEvent, ...args: unknown[]): Promise<ApiResponse> => {
    const handler = handlers.get(desktopChannel(method as never));
    if (!handler) throw new Error(`no handler for ${method}`);
    return handler(event, ...args);
  };
  return { handlers, api, logs, dispose, call };
}

describe('the desktop methods over IPC', () => {
  it('registers one channel per method, none of them a contract channel, and removes them all', () => {
    const { handlers, dispose } = setUp();
    expect([...handlers.keys()].sort()).toEqual(DESKTOP_METHODS.map(desktopChannel).sort());
    for (const channel of handlers.keys()) expect(channel.startsWith(IPC_PREFIX)).toBe(false);
    expect(API_METHODS.some((m) => /python|setting|desktop/i.test(m) && m !== 'devices.inspectPython')).toBe(false);
    dispose();
    expect(handlers.size).toBe(0);
  });

  it('answers the app’s page with the service’s value', async () => {
    const { call, api } = setUp();
    expect(await call('pythonSetting', fromApp)).toEqual({ ok: true, value: answer });
    expect(await call('setPython', fromApp, '/usr/bin/python3')).toEqual({ ok: true, value: answer });
    expect(api.setPython).toHaveBeenCalledWith('/usr/bin/python3');
    expect(await call('choosePython', fromApp)).toEqual({ ok: true, value: null });
    expect(await call('resetPython', fromApp)).toEqual({ ok: true, value: answer });
  });

  it('refuses another frame without reaching the service, and logs it', async () => {
    const { call, api, logs } = setUp();
    const other: SenderEvent = { senderFrame: { url: 'app://gpu-lab/index.html', processId: 3, routingId: 7 } };
    expect(await call('setPython', other, '/usr/bin/python3')).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('desktop.setPython: refused') } });
    expect(await call('resetPython', { senderFrame: null })).toMatchObject({ ok: false });
    expect(api.setPython).not.toHaveBeenCalled();
    expect(api.resetPython).not.toHaveBeenCalled();
    expect(logs).toHaveLength(2);
  });

  it.each([
    ['setPython', []],
    ['setPython', [42]],
    ['setPython', [{ path: '/usr/bin/python3' }]],
    ['setPython', ['/usr/bin/python3', '--evil']],
    ['resetPython', ['/usr/bin/python3']],
    ['choosePython', ['/usr/bin/python3']],
    ['pythonSetting', [1]],
  ])('refuses %s with arguments %j before the service', async (method, args) => {
    const { call, api } = setUp();
    expect(await call(method, fromApp, ...args)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    for (const fn of Object.values(api)) expect(fn).not.toHaveBeenCalled();
  });

  it('answers the service’s refusal as its coded payload, and anything else without its stack', async () => {
    const { call, api } = setUp();
    api.setPython.mockRejectedValueOnce(new GpuLabError('INVALID_ARGUMENT', 'The setting "python" = "x" is not allowed', { field: 'python', reason: 'relative' }));
    expect(await call('setPython', fromApp, 'x')).toEqual({ ok: false, error: { code: 'INVALID_ARGUMENT', message: 'The setting "python" = "x" is not allowed', details: { field: 'python', reason: 'relative' } } });
    api.resetPython.mockRejectedValueOnce(new Error('boom'));
    const response = await call('resetPython', fromApp);
    expect(response).toEqual({ ok: false, error: { code: 'NATIVE_ERROR', message: 'boom' } });
  });
});

describe('window.gpuLab.desktop as the preload builds it', () => {
  it('binds each method to its own channel, passing the path only to setPython', async () => {
    const invoked: unknown[][] = [];
    const api = buildDesktopPreloadApi({ invoke: async (channel, ...args) => (invoked.push([channel, ...args]), { ok: true, value: null }) });
    expect(Object.keys(api).sort()).toEqual([...DESKTOP_METHODS].sort());
    await api.pythonSetting();
    await api.setPython('/usr/bin/python3');
    await api.choosePython();
    await api.resetPython();
    expect(invoked).toEqual([[desktopChannel('pythonSetting')], [desktopChannel('setPython'), '/usr/bin/python3'], [desktopChannel('choosePython')], [desktopChannel('resetPython')]]);
  });
});

describe('the compute host’s environment', () => {
  class FakeChild extends EventEmitter implements UtilityChild {
    pid = 77;
    readonly stdout = new PassThrough();
    readonly stderr = new PassThrough();
    postMessage(): void {}
    kill(): boolean {
      return true;
    }
  }

  it('asks the app for its settings at each launch, so a host started after a change gets the new interpreter', () => {
    const forks: Record<string, string | undefined>[] = [];
    const module: UtilityProcessModule = {
      fork: (_path, _args, options) => {
        forks.push(options?.env ?? {});
        return new FakeChild();
      },
    };
    let python: string | null = '/home/ana/venv/bin/python3';
    const launcher = utilityLauncher(module, () => ({ GPU_LAB_PEERS_DIR: '/opt/gpu-lab/python', ...(python ? { [PYTHON_ENV]: python } : {}) }));
    launcher.launch({});
    python = '/usr/bin/python3.12';
    launcher.launch({});
    expect(forks.map((env) => env[PYTHON_ENV])).toEqual(['/home/ana/venv/bin/python3', '/usr/bin/python3.12']);
    expect(forks[1]?.GPU_LAB_PEERS_DIR).toBe('/opt/gpu-lab/python');
  });
});
