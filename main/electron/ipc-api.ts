// The contract over Electron IPC: one ipcMain.handle channel per API method, each answering dispatch's envelope
// after the sender is checked, and the contract's events sent to the app's window on one channel. Electron is not
// imported: main.ts passes ipcMain, and the tests pass a fake.
import { dispatch, subscribeEvents } from '../common/api-dispatch.ts';
import { API_METHODS } from '../common/contract/index.ts';
import type { GpuLabApi } from '../common/contract/index.ts';
import { ipcChannel } from '../common/contract/wire.ts';
import type { ApiEventFrame, ApiResponse } from '../common/contract/wire.ts';
import { MAX_ARGUMENT_NESTING, nestsDeeperThan, tooDeep } from '../serve/request-limits.ts';
import type { SenderCheck } from './app-origin.ts';

// The part of ipcMain this uses.
export interface IpcHandlers<E> {
  handle(channel: string, listener: (event: E, ...args: unknown[]) => Promise<ApiResponse>): void;
  removeHandler(channel: string): void;
}

export interface IpcApiOptions<E> {
  ipc: IpcHandlers<E>;
  api: GpuLabApi;
  checkSender: SenderCheck<E>;
  // Delivers an event to the app's window on IPC_EVENT_CHANNEL.
  sendEvent: (frame: ApiEventFrame) => void;
  log: (line: string) => void;
}

// Registers every method and event; the answer undoes all of it (the window that received the events is closing).
export function registerIpcApi<E>(options: IpcApiOptions<E>): () => void {
  const { ipc, api, checkSender, sendEvent, log } = options;
  for (const method of API_METHODS) {
    ipc.handle(ipcChannel(method), async (event, ...args) => {
      const refusal = checkSender(event);
      if (refusal !== null) {
        log(`gpu-lab: refused an IPC call of ${method}: ${refusal}`);
        return { ok: false, error: { code: 'INVALID_ARGUMENT', message: `${method} was refused: ${refusal}` } };
      }
      // Before dispatch, whose argument checks and messages walk a value recursively and would run out of stack.
      if (nestsDeeperThan(args, MAX_ARGUMENT_NESTING)) return { ok: false, error: tooDeep(method).toPayload() };
      return dispatch(api, method, args);
    });
  }
  const subscriptions = subscribeEvents(api, (event, payload) => sendEvent({ event, payload }));
  return () => {
    for (const method of API_METHODS) ipc.removeHandler(ipcChannel(method));
    subscriptions.dispose();
  };
}
