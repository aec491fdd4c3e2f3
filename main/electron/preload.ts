// The preload of the app's window, bundled into dist/main/electron/preload.cjs (a sandboxed preload cannot load
// other files): window.gpuLab as built by preload-api.ts, over ipcRenderer, which itself stays in this world.
import { contextBridge, ipcRenderer } from 'electron';

import { buildPreloadApi } from './preload-api.ts';

contextBridge.exposeInMainWorld(
  'gpuLab',
  buildPreloadApi({
    invoke: (channel, ...args) => ipcRenderer.invoke(channel, ...args),
    on: (channel, listener) => ipcRenderer.on(channel, listener),
    off: (channel, listener) => ipcRenderer.off(channel, listener),
  }),
);
