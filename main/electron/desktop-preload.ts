// window.gpuLab.desktop: the desktop app's own methods (common/desktop-api.ts), each bound to its one channel, as the
// contract's are (preload-api.ts). Only the Electron app's preload exposes it; the renderer offers the app's settings
// where it finds it, and serve mode, which has no preload, has no such door.
import { DESKTOP_METHODS, desktopChannel } from '../common/desktop-api.ts';
import type { DesktopPreloadApi } from '../common/desktop-api.ts';
import type { PreloadIpc } from './preload-api.ts';

export function buildDesktopPreloadApi(ipc: Pick<PreloadIpc, 'invoke'>): DesktopPreloadApi {
  const api: Record<string, unknown> = {};
  for (const method of DESKTOP_METHODS) {
    const channel = desktopChannel(method);
    api[method] = (...args: unknown[]) => ipc.invoke(channel, ...args);
  }
  return api as DesktopPreloadApi;
}
