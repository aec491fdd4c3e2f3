// The app entry with Electron faked at its boundary (vi.mock('electron')): the sandbox and app:// set up before
// the app is ready, every webContents guarded, a second copy handing over, the one window on app://gpu-lab with
// the bundled preload and IPC answered only to it, a packaged app reading its kernels from its resources and
// starting the compute host on its unpacked addon, and quitting that waits for the lab host but never blocks.
import { EventEmitter } from 'node:events';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { API_METHODS } from '../../../main/common/contract/index.ts';
import { ipcChannel } from '../../../main/common/contract/wire.ts';
import { DESKTOP_METHODS, desktopChannel } from '../../../main/common/desktop-api.ts';
import { PYTHON_ENV } from '../../../main/common/peer-protocol.ts';
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
    dialog: { showErrorBox: vi.fn(), showOpenDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: true, filePaths: [] as string[] })) },
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

async function loadMain(options: { lock?: boolean; packaged?: boolean; dataDir?: string } = {}): Promise<void> {
  fake.state.lock = options.lock ?? true;
  fake.state.packaged = options.packaged ?? false;
  fake.state.dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'gpu-lab-electron-main-')));
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
    expect([...fake.handlers.keys()].sort()).toEqual([...API_METHODS.map(ipcChannel), ...DESKTOP_METHODS.map(desktopChannel)].sort());
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

  describe('the Python interpreter setting', () => {
    const launchPython = process.env[PYTHON_ENV];
    afterEach(() => {
      if (launchPython === undefined) delete process.env[PYTHON_ENV];
      else process.env[PYTHON_ENV] = launchPython;
    });

    // The GPU_LAB_PYTHON the next compute host is forked with (the fake fork throws: each request forks anew).
    async function forkedPython(frame: unknown): Promise<string | undefined> {
      fake.electron.utilityProcess.fork.mockClear();
      await fake.handlers.get(ipcChannel('devices.inspectPython'))?.(frame);
      const options = fake.electron.utilityProcess.fork.mock.calls[0] as unknown[] | undefined;
      return (options?.[2] as { env: Record<string, string | undefined> } | undefined)?.env[PYTHON_ENV];
    }

    async function executable(dir: string): Promise<string> {
      const path = join(dir, 'python3');
      await writeFile(path, '#!/bin/sh\n', { mode: 0o755 });
      return path;
    }

    it.skipIf(!rendererDir())('reads settings.json from the user-data folder, passes it to the compute host, and sets it over IPC for the next host', async () => {
      delete process.env[PYTHON_ENV];
      const dataDir = await mkdtemp(join(tmpdir(), 'gpu-lab-electron-main-'));
      const first = await executable(await mkdtemp(join(tmpdir(), 'gpu-lab-python-a-')));
      const second = await executable(await mkdtemp(join(tmpdir(), 'gpu-lab-python-b-')));
      await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ python: first }));
      await loadMain({ dataDir });
      fake.state.ready();
      await settle();
      const frame = { senderFrame: fake.windows[0]?.webContents.mainFrame };
      expect(await fake.handlers.get(desktopChannel('pythonSetting'))?.(frame)).toMatchObject({ ok: true, value: { interpreter: first, source: 'settings', setting: first } });
      expect(await forkedPython(frame)).toBe(first);

      expect(await fake.handlers.get(desktopChannel('setPython'))?.(frame, second)).toMatchObject({ ok: true, value: { interpreter: second, source: 'settings' } });
      expect(JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'))).toEqual({ python: second });
      expect(await forkedPython(frame)).toBe(second);

      // The system's dialog, over the app's window, starting at the current setting.
      fake.electron.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [first] });
      expect(await fake.handlers.get(desktopChannel('choosePython'))?.(frame)).toMatchObject({ ok: true, value: { interpreter: first } });
      expect(fake.electron.dialog.showOpenDialog).toHaveBeenCalledWith(fake.windows[0], expect.objectContaining({ defaultPath: second, properties: expect.arrayContaining(['openFile']) }));

      expect(await fake.handlers.get(desktopChannel('resetPython'))?.(frame)).toMatchObject({ ok: true, value: { interpreter: 'python3', source: 'default', setting: null } });
      expect(await forkedPython(frame)).toBeUndefined();

      // Another frame is refused, as for the contract's methods.
      expect(await fake.handlers.get(desktopChannel('setPython'))?.({ senderFrame: { url: 'app://gpu-lab/index.html', processId: 4, routingId: 2 } }, second)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
      expect(JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'))).toEqual({ python: null });
    });

    it.skipIf(!rendererDir())('lets GPU_LAB_PYTHON, set when the app was started, win over the setting and says so', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'gpu-lab-electron-main-'));
      const set = await executable(await mkdtemp(join(tmpdir(), 'gpu-lab-python-a-')));
      await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ python: set }));
      process.env[PYTHON_ENV] = '/usr/bin/python3.12';
      await loadMain({ dataDir });
      fake.state.ready();
      await settle();
      const frame = { senderFrame: fake.windows[0]?.webContents.mainFrame };
      expect(await fake.handlers.get(desktopChannel('pythonSetting'))?.(frame)).toMatchObject({
        ok: true,
        value: { interpreter: '/usr/bin/python3.12', source: 'environment', setting: set, environment: '/usr/bin/python3.12' },
      });
      expect(await forkedPython(frame)).toBe('/usr/bin/python3.12');
    });
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
