// The desktop app's own methods (common/desktop-api.ts: its settings) over IPC, beside the contract's: one channel
// each, answered to the app's window only, as envelopes. The work is main/app/desktop-settings.ts's; this only
// checks the sender and the arguments' count and type. Electron is not imported: main.ts passes ipcMain.
import { DESKTOP_METHODS, desktopChannel } from '../common/desktop-api.ts';
import type { DesktopApi, DesktopMethod } from '../common/desktop-api.ts';
import type { ApiResponse } from '../common/contract/wire.ts';
import { GpuLabError } from '../common/errors.ts';
import type { SenderCheck } from './app-origin.ts';
import type { IpcHandlers } from './ipc-api.ts';

// What each method takes: setPython a path, the others nothing.
const ARGUMENTS: Record<DesktopMethod, 'none' | 'path'> = { pythonSetting: 'none', setPython: 'path', choosePython: 'none', resetPython: 'none' };

function refused(method: DesktopMethod, message: string): ApiResponse {
  return { ok: false, error: { code: 'INVALID_ARGUMENT', message: `desktop.${method}: ${message}` } };
}

export interface DesktopIpcOptions<E> {
  ipc: IpcHandlers<E>;
  api: DesktopApi;
  checkSender: SenderCheck<E>;
  log: (line: string) => void;
}

// Registers every desktop method; the answer removes them (the window is closing).
export function registerDesktopIpc<E>({ ipc, api, checkSender, log }: DesktopIpcOptions<E>): () => void {
  for (const method of DESKTOP_METHODS) {
    ipc.handle(desktopChannel(method), async (event, ...args) => {
      const refusal = checkSender(event);
      if (refusal !== null) {
        log(`gpu-lab: refused an IPC call of desktop.${method}: ${refusal}`);
        return refused(method, `refused: ${refusal}`);
      }
      const takes = ARGUMENTS[method];
      if (takes === 'none' && args.length > 0) return refused(method, `takes no argument, not ${args.length}`);
      if (takes === 'path' && (args.length !== 1 || typeof args[0] !== 'string')) return refused(method, 'takes one argument, the path of a Python interpreter (a string)');
      try {
        const value: unknown = await (api[method] as (...a: unknown[]) => Promise<unknown>)(...args);
        return { ok: true, value };
      } catch (err) {
        return { ok: false, error: GpuLabError.from(err).toPayload() };
      }
    });
  }
  return () => {
    for (const method of DESKTOP_METHODS) ipc.removeHandler(desktopChannel(method));
  };
}
