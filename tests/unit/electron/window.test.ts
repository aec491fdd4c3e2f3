// The window's web preferences and the rules every webContents gets, read as plain data under Node: an isolated,
// sandboxed renderer without Node, the bundled preload, and navigation, new windows, permissions and devices all
// refused.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { createAppWindow, guardWebContents, preloadPath } from '../../../main/electron/window.ts';
import type { GuardedContents, WindowClass } from '../../../main/electron/window.ts';
import preloadBuild from '../../../vite.preload.config.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

type Listener = (event: { preventDefault(): void }) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  const handlers: {
    windowOpen?: () => { action: string };
    request?: (c: unknown, p: string, cb: (granted: boolean) => void) => void;
    check?: () => boolean;
    device?: () => boolean;
  } = {};
  const contents: GuardedContents = {
    on: (event, listener) => listeners.set(event, listener),
    setWindowOpenHandler: (handler) => (handlers.windowOpen = handler),
    session: {
      setPermissionRequestHandler: (handler) => (handlers.request = handler),
      setPermissionCheckHandler: (handler) => (handlers.check = handler),
      setDevicePermissionHandler: (handler) => (handlers.device = handler),
    },
  };
  return { contents, listeners, handlers };
}

type WindowOptions = ConstructorParameters<WindowClass<unknown>>[0];

// Stands in for Electron's BrowserWindow: keeps what the window was made with.
class FakeWindow {
  readonly options: WindowOptions;
  constructor(options: WindowOptions) {
    this.options = options;
  }
}

describe('app window', () => {
  it('runs the page isolated, sandboxed and without Node, with the preload as its only bridge', () => {
    const prefs = createAppWindow(FakeWindow, '/opt/gpu-lab/preload.cjs').options.webPreferences;
    expect(prefs).toMatchObject({
      preload: '/opt/gpu-lab/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
    });
  });

  it('loads the preload from where the preload build writes it, beside the compiled shell', () => {
    const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.node.json'), 'utf8')) as { compilerOptions: { rootDir: string; outDir: string } };
    // preloadPath() is relative to this module: main/electron/ in sources, its compiled twin under outDir once built.
    const compiledDir = resolve(root, tsconfig.compilerOptions.outDir, relative(resolve(root, tsconfig.compilerOptions.rootDir), dirname(preloadPath())));
    const lib = preloadBuild.build?.lib;
    const fileName = lib && typeof lib.fileName === 'function' ? lib.fileName('cjs', 'preload') : undefined;
    expect(resolve(root, preloadBuild.build?.outDir ?? '', fileName ?? '')).toBe(join(compiledDir, 'preload.cjs'));
  });

  it('refuses every navigation, redirect and <webview> of a page', () => {
    const { contents, listeners } = fakeContents();
    guardWebContents(contents);
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      let prevented = false;
      listeners.get(event)?.({ preventDefault: () => (prevented = true) });
      expect(prevented, event).toBe(true);
    }
  });

  it('refuses new windows and every permission', () => {
    const { contents, handlers } = fakeContents();
    guardWebContents(contents);
    expect(handlers.windowOpen?.()).toEqual({ action: 'deny' });
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read']) {
      let granted: boolean | undefined;
      handlers.request?.({}, permission, (g) => (granted = g));
      expect(granted, permission).toBe(false);
    }
    expect(handlers.check?.()).toBe(false);
    expect(handlers.device?.()).toBe(false);
  });
});
