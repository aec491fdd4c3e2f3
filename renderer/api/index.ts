// The one place in the renderer that knows which shell it runs in: the Electron preload's window.gpuLab when it is
// there, else serve mode's WebSocket on the page's own server. The desktop app's own methods (its settings) exist
// only where the preload exposes window.gpuLab.desktop; `desktop` is null in serve mode.
import type { PreloadApi } from '../../main/common/contract/wire.ts';
import type { DesktopApi, DesktopPreloadApi } from '../../main/common/desktop-api.ts';
import type { GpuLabApi } from '../../main/common/contract/index.ts';
import { createApiClient } from './client.ts';
import { desktopClient } from './desktop-client.ts';
import { classSeatQuery } from './class-seat.ts';
import { preloadTransport } from './preload-transport.ts';
import type { Transport } from './transport.ts';
import { websocketTransport } from './websocket-transport.ts';

declare global {
  interface Window {
    gpuLab?: PreloadApi & { desktop?: DesktopPreloadApi };
  }
}

function pickTransport(): Transport {
  if (window.gpuLab) return preloadTransport(window.gpuLab);
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return websocketTransport({ url: `${scheme}//${location.host}/api${classSeatQuery()}` });
}

export const transport: Transport = pickTransport();
export const api: GpuLabApi = createApiClient(transport);
export const desktop: DesktopApi | null = window.gpuLab?.desktop ? desktopClient(window.gpuLab.desktop) : null;
export { ApiError, errorText } from './api-error.ts';
export { joinClass } from './class-seat.ts';
export type { ConnectionState } from './transport.ts';
