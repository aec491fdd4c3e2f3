// The contract on a wire: the envelopes both shells carry (IPC in Electron, one WebSocket in serve mode), the IPC
// channel of each method, and window.gpuLab's type. No zod here: the renderer reads these types.
import type { ErrorPayload } from '../errors.ts';
import type { Event } from './spec.ts';
import type { ApiEvent, ApiMethod, GpuLabApi } from './index.ts';

// What a method answers on the wire: its value, or the error as {code, message, details}; never a stack.
export type ApiResponse<T = unknown> = { ok: true; value: T } | { ok: false; error: ErrorPayload };

// WebSocket frames of serve mode. Requests carry an id the answer repeats; events carry none.
export interface ApiRequestFrame {
  id: number;
  method: string;
  args: unknown[];
}
export type ApiAnswerFrame = { id: number | null } & ApiResponse;
export interface ApiEventFrame {
  event: ApiEvent;
  payload: unknown;
}

// The Electron IPC channel of a method, and the one channel every event arrives on.
export const IPC_PREFIX = 'gpu-lab:';
export const IPC_EVENT_CHANNEL = 'gpu-lab:event';

export function ipcChannel(method: ApiMethod): string {
  return `${IPC_PREFIX}${method}`;
}

type Service = keyof GpuLabApi;

// window.gpuLab in the Electron app: one function per contract method, answering an ApiResponse (an Error object
// crossing the context bridge keeps only its message, so errors cross as data), and one subscription per event,
// returning the function that ends it.
export type PreloadApi = {
  [S in Service]: {
    [M in keyof GpuLabApi[S]]: GpuLabApi[S][M] extends Event<infer T>
      ? (listener: (event: T) => void) => () => void
      : GpuLabApi[S][M] extends (...args: infer A) => Promise<infer R>
        ? (...args: A) => Promise<ApiResponse<R>>
        : never;
  };
};
