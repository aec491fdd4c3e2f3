// The app entry with Electron faked at its boundary (vi.mock('electron')): the sandbox and app:// set up before
// the app is ready, every webContents guarded, a second copy handing over, the one window on app://gpu-lab with
// the bundled preload and IPC answered only to it, a packaged app reading its kernels from its resources and
// starting the compute host on its unpacked addon, and quitting that waits for the lab host but never blocks.
import { EventEmitter } from 'node:events';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { beforeEach, describe, expect, it, vi } from 'vitest';

import { API_METHODS } from '../../../main/common/contract/index.ts';
import { ipcChannel } from '../../../main/common/contract/wire.ts';
import { preloadPath } from '../../../main/electron/window.ts';
import { rendererDir } from '../../../main/serve/renderer-dir.ts';

// Built when main.ts first imports electron (inside loadMain), after this module's own imports.
const fake = (() => {
  type Handler = (event: unknown, ...args: unknown[]) => Promise<unknown>;
  const state = { lock: true, ready: () => undefined as void, dataDir: '', packaged: false };
  const windows: FakeWindow[] = [];
  class FakeWindow extends EventEmitter {
    readonly webContents = { mainFrame: { url: 'app://gpu-lab/index.html', processId: 4, routingId: 1 }, send: vi.fn() };
    readonly loadURL = vi.fn(async () => undefined);
    readonly options: { webPreferences?: Record<string, unknown> };
    constructor(options: { webPreferences?: Record<string, unknown> }) {
      super();
      this.options = options;
      windows.push(this);
    }
    isDestroyed = (): boolean => false;
    show(): void {}
  }
  const handlers = new Map<string, Handler>();
  const app = Object.assign(new EventEmitter(), {
    enableSandbox: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => state.lock),
    quit: vi.fn(),
    getPath: () => state.dataDir,
    whenReady: () => new Promise<void>((resolve) => (state.ready = resolve)),
  });
  // A getter, read when main.ts asks (Object.assign would copy the value once).
  Object.defineProperty(app, 'isPackaged', { get: () => state.packaged });
  const electron = {
    app,
    BrowserWindow: FakeWindow,
    dialog: { showErrorBox: vi.fn() },
    ipcMain: { handle: (c: string, h: Handler) => handlers.set(c, h), removeHandler: (c: string) => handlers.delete(c) },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    utilityProcess: {
      fork: vi.fn(() => {
        throw new Error('no utility process under plain Node');
      }),
    },
  };
  return { state, windows, handlers, electron };
})();
vi.mock('electron', () => fake.electron);

async function loadMain(options: { lock?: boolean; packaged?: boolean } = {}): Promise<void> {
  fake.state.lock = options.lock ?? true;
  fake.state.packaged = options.packaged ?? false;
  fake.state.dataDir = await mkdtemp(join(tmpdir(), 'gpu-lab-electron-main-'));
  vi.resetModules();
  await import('../../../main/electron/main.ts');
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

beforeEach(() => {
  fake.windows.length = 0;
  fake.handlers.clear();
  fake.electron.app.removeAllListeners();
  vi.clearAllMocks();
  Object.defineProperty(process, 'resourcesPath', { value: tmpdir(), configurable: true });
});

describe('Electron main', () => {
  it('sandboxes every renderer and registers app:// as a standard, secure scheme with fetch, before the app is ready', async () => {
    await loadMain();
    expect(fake.electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
    expect(fake.electron.app.enableSandbox).toHaveBeenCalled();
    expect(fake.windows).toHaveLength(0);
  });

  it('guards every webContents the app creates', async () => {
    await loadMain();
    const contents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn(), session: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn(), setDevicePermissionHandler: vi.fn() } });
    fake.electron.app.emit('web-contents-created', {}, contents);
    const navigation = { preventDefault: vi.fn() };
    contents.emit('will-navigate', navigation);
    expect(navigation.preventDefault).toHaveBeenCalled();
    expect(contents.setWindowOpenHandler).toHaveBeenCalled();
  });

  it('quits a second copy before it opens a window or listens for anything', async () => {
    await loadMain({ lock: false });
    expect(fake.electron.app.quit).toHaveBeenCalled();
    expect(fake.electron.app.eventNames()).toEqual([]);
  });

  it.skipIf(!rendererDir())('opens one window on app://gpu-lab with the bundled preload, answering IPC from it only', async () => {
    await loadMain();
    fake.state.ready();
    await settle();
    expect(fake.electron.protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
    const [appWindow] = fake.windows;
    expect(fake.windows).toHaveLength(1);
    expect(appWindow?.options.webPreferences).toMatchObject({ preload: preloadPath(), sandbox: true, contextIsolation: true });
    expect(appWindow?.loadURL).toHaveBeenCalledWith('app://gpu-lab/index.html');
    expect([...fake.handlers.keys()].sort()).toEqual(API_METHODS.map(ipcChannel).sort());
    const listLabs = fake.handlers.get(ipcChannel('labs.listLabs'));
    const mainFrame = appWindow?.webContents.mainFrame;
    expect(await listLabs?.({ senderFrame: mainFrame })).toMatchObject({ ok: true, value: expect.arrayContaining([expect.objectContaining({ id: 'matmul' })]) });
    expect(await listLabs?.({ senderFrame: { ...mainFrame, routingId: 2 } })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    appWindow?.emit('closed');
    expect(fake.handlers.size).toBe(0);
  });

  it.skipIf(!rendererDir())('packaged, shows the kernel sources from its resources and starts the compute host on the unpacked addon', async () => {
    const resources = await mkdtemp(join(tmpdir(), 'gpu-lab-resources-'));
    await mkdir(join(resources, 'shaders', 'cuda'), { recursive: true });
    await writeFile(join(resources, 'shaders', 'cuda', 'sgemm.cu'), '// the packaged sgemm.cu\n');
    Object.defineProperty(process, 'resourcesPath', { value: resources, configurable: true });
    await loadMain({ packaged: true });
    fake.state.ready();
    await settle();
    const frame = { senderFrame: fake.windows[0]?.webContents.mainFrame };
    const kernelSource = fake.handlers.get(ipcChannel('labs.kernelSource'));
    expect(await kernelSource?.(frame, 'shaders/cuda/sgemm.cu')).toMatchObject({ ok: true, value: { text: '// the packaged sgemm.cu\n' } });
    await fake.handlers.get(ipcChannel('devices.listDevices'))?.(frame);
    const forkOptions = fake.electron.utilityProcess.fork.mock.calls[0] as unknown[] | undefined;
    expect(forkOptions?.[2]).toMatchObject({ env: { GPU_LAB_ADDON: join(resources, 'app.asar.unpacked', 'native', 'build', 'Release', 'gpu_lab.node') } });
  });

  it('lets the app quit once the lab host has stopped, not before and not never', async () => {
    await loadMain();
    const first = { preventDefault: vi.fn() };
    fake.electron.app.emit('will-quit', first);
    expect(first.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.electron.app.quit).toHaveBeenCalled());
    const again = { preventDefault: vi.fn() };
    fake.electron.app.emit('will-quit', again);
    expect(again.preventDefault).not.toHaveBeenCalled();
  });
});
