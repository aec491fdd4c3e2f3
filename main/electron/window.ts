// The app's one window and the rules every web page in the app lives under (Electron's security checklist,
// SECURITY.md): an isolated, sandboxed renderer without Node, whose only door to main is the preload's window.gpuLab; no
// navigation, no new windows, no permissions, no devices. Only Electron's types are imported: the window is made with
// the BrowserWindow class main.ts passes in, and the rules are applied to whatever webContents it hands over, so the
// tests read both under plain Node.
import { fileURLToPath } from 'node:url';

import type { BrowserWindowConstructorOptions } from 'electron';

// Beside the compiled main.js, where `npm run build:preload` writes the bundle (vite.preload.config.ts).
export function preloadPath(): string {
  return fileURLToPath(new URL('./preload.cjs', import.meta.url));
}

// The part of Electron's BrowserWindow class the app's window is made with; main.ts passes the real one.
export type WindowClass<W> = new (options: BrowserWindowConstructorOptions) => W;

// The options are written in the `new BrowserWindow({...})` call itself, not built elsewhere and passed in, so that
// Electronegativity (tests/unit/electron/electronegativity.test.ts) reads the values the window really gets.
export function createAppWindow<W>(BrowserWindow: WindowClass<W>, preload: string): W {
  return new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 720,
    minHeight: 520,
    title: 'GPU Lab',
    // Shown once the first paint is ready, instead of as an empty frame.
    show: false,
    webPreferences: {
      // Electronegativity asks for every preload to be reviewed; this one was (SECURITY.md): it exposes one function
      // per contract method and nothing else (preload-api.ts and its tests).
      preload, /* eng-disable PRELOAD_JS_CHECK */
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // A middle click on a link would ask for a new window (refused anyway by the window-open handler).
      disableBlinkFeatures: 'Auxclick',
    },
  });
}

interface Preventable {
  preventDefault(): void;
}

// The parts of Electron's WebContents and Session the rules use.
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-frame-navigate' | 'will-redirect' | 'will-attach-webview', listener: (event: Preventable) => void): unknown;
  setWindowOpenHandler(handler: () => { action: 'deny' }): void;
  readonly session: {
    setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
    setPermissionCheckHandler(handler: () => boolean): void;
    setDevicePermissionHandler(handler: () => boolean): void;
  };
}

// For every webContents the app creates (app.on('web-contents-created')): the page is the app, loaded once by main;
// routing happens inside it by hash, which is no navigation. A link to elsewhere, a redirect, a window.open or a
// <webview> is refused rather than shown inside the app.
export function guardWebContents(contents: GuardedContents): void {
  const refuse = (event: Preventable): void => event.preventDefault();
  contents.on('will-navigate', refuse);
  // Subframes too: will-navigate is the main frame's only.
  contents.on('will-frame-navigate', refuse);
  contents.on('will-redirect', refuse);
  contents.on('will-attach-webview', refuse);
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  contents.session.setPermissionCheckHandler(() => false);
  // USB, HID and serial devices are granted through this handler, not the permission ones above.
  contents.session.setDevicePermissionHandler(() => false);
}
