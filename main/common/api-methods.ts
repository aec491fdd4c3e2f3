// The contract as names on a wire: every method of GpuLabApi as "service.method", every event as
// "service.onDidX", and the envelopes both shells carry (IPC in Electron, one WebSocket in serve mode). No zod
// here: the Electron preload bundles this file and nothing else of main/.
import type { Event, GpuLabApi } from './contract.ts';
import type { ErrorPayload } from './errors.ts';

export const API_METHODS = [
  'devices.listDevices',
  'devices.inspectDevices',
  'devices.readTelemetry',
  'labs.listLabs',
  'labs.kernelSource',
  'labs.validateParams',
  'runs.startRun',
  'runs.cancelRun',
  'runs.listRuns',
  'runs.getRun',
  'runs.getRunProgress',
  'runs.deleteRun',
  'runs.exportRun',
  'reports.writeReport',
  'reports.labsReportContents',
  'reports.writeLabsReport',
  'playground.listExercises',
  'playground.status',
  'playground.runKernel',
  'playground.listKernelRuns',
  'playground.getKernelRun',
  'playground.deleteKernelRun',
  'playground.loadDraft',
  'playground.saveDraft',
] as const;

export const API_EVENTS = ['runs.onDidChangeRun'] as const;

export type ApiMethod = (typeof API_METHODS)[number];
export type ApiEvent = (typeof API_EVENTS)[number];

type Service = keyof GpuLabApi;
type MembersOf<S extends Service, WantEvents extends boolean> = {
  [M in keyof GpuLabApi[S] & string]: GpuLabApi[S][M] extends Event<infer _T>
    ? WantEvents extends true ? `${S}.${M}` : never
    : WantEvents extends true ? never : `${S}.${M}`;
}[keyof GpuLabApi[S] & string];
type ContractMethod = { [S in Service]: MembersOf<S, false> }[Service];
type ContractEvent = { [S in Service]: MembersOf<S, true> }[Service];

// The lists above are the contract's members exactly: a method added to GpuLabApi and forgotten here (or the other
// way round) does not compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const METHODS_MATCH_CONTRACT: Same<ApiMethod, ContractMethod> = true;
export const EVENTS_MATCH_CONTRACT: Same<ApiEvent, ContractEvent> = true;

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
