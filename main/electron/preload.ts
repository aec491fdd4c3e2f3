// The preload of the app's window, bundled into dist/main/electron/preload.cjs (a sandboxed preload cannot load
// other files): window.gpuLab as built by preload-api.ts, over ipcRenderer, which itself stays in this world, with
// the desktop app's own methods (its settings) as window.gpuLab.desktop (desktop-preload.ts).
import { contextBridge, ipcRenderer } from 'electron';

import { buildDesktopPreloadApi } from './desktop-preload.ts';
import { buildPreloadApi } from './preload-api.ts';
import type { PreloadIpc } from './preload-api.ts';

const ipc: PreloadIpc = {
  invoke: (channel, ...args) => ipcRenderer.invoke(channel, ...args),
  on: (channel, listener) => ipcRenderer.on(channel, listener),
  off: (channel, listener) => ipcRenderer.off(channel, listener),
};

contextBridge.exposeInMainWorld('gpuLab', { ...buildPreloadApi(ipc), desktop: buildDesktopPreloadApi(ipc) });
