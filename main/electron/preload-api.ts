// window.gpuLab, built from the contract's table: one function per API method, bound to that method's channel
// only, and one subscription per event. The page gets no way to name a channel, so it can reach nothing but the
// contract; a listener gets the event's payload only, never Electron's IPC event (whose `sender` is ipcRenderer
// itself). Bundled into the sandboxed preload: it imports nothing of main/ but the contract (whose schemas, and zod,
// come with its names).
import { API_EVENTS, API_METHODS } from '../common/contract/index.ts';
import { IPC_EVENT_CHANNEL, ipcChannel } from '../common/contract/wire.ts';
import type { ApiEventFrame, ApiResponse, PreloadApi } from '../common/contract/wire.ts';

export type IpcListener = (ipcEvent: unknown, frame: unknown) => void;

// The part of ipcRenderer the preload uses.
export interface PreloadIpc {
  invoke(channel: string, ...args: unknown[]): Promise<ApiResponse>;
  on(channel: string, listener: IpcListener): void;
  off(channel: string, listener: IpcListener): void;
}

function isEventFrame(frame: unknown): frame is ApiEventFrame {
  return typeof frame === 'object' && frame !== null && 'event' in frame && 'payload' in frame;
}

export function buildPreloadApi(ipc: PreloadIpc): PreloadApi {
  const services: Record<string, Record<string, unknown>> = {};
  const member = (name: string, value: unknown): void => {
    const [service = '', key = ''] = name.split('.');
    services[service] = { ...services[service], [key]: value };
  };
  for (const method of API_METHODS) {
    const channel = ipcChannel(method);
    member(method, (...args: unknown[]) => ipc.invoke(channel, ...args));
  }
  for (const event of API_EVENTS) {
    member(event, (listener: (payload: unknown) => void) => {
      const forward: IpcListener = (_ipcEvent, frame) => {
        if (isEventFrame(frame) && frame.event === event) listener(frame.payload);
      };
      ipc.on(IPC_EVENT_CHANNEL, forward);
      return () => ipc.off(IPC_EVENT_CHANNEL, forward);
    });
  }
  // The names are the table's, whose types GpuLabApi and PreloadApi are derived from.
  return services as unknown as PreloadApi;
}
