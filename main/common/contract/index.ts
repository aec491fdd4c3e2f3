// The one API of GPU Lab, the same in the Electron app (over IPC) and in serve mode (over a WebSocket), as one
// table: each service's methods with the schemas of their arguments and result, and its events with the schema of
// their payload (one file a service). Everything else is derived from it: the TypeScript of GpuLabApi, the names
// on the wire ("service.method"), the IPC channels and the preload's window.gpuLab, the door's checks
// (api-dispatch.ts), and the contract test that parses every answer. Errors arrive as {code, message, details}.
import { CLASSROOM_CONTRACT } from './classroom.ts';
import { DEVICES_CONTRACT } from './devices.ts';
import { IMPORTS_CONTRACT } from './imports.ts';
import { LABS_CONTRACT } from './labs.ts';
import { PLAYGROUND_CONTRACT } from './playground.ts';
import { REPORTS_CONTRACT } from './reports.ts';
import { RUNS_CONTRACT } from './runs.ts';
import { isEventSpec } from './spec.ts';
import type { EventSpec, MethodSpec, ServiceOf } from './spec.ts';

export const CONTRACT = {
  devices: DEVICES_CONTRACT,
  labs: LABS_CONTRACT,
  runs: RUNS_CONTRACT,
  imports: IMPORTS_CONTRACT,
  reports: REPORTS_CONTRACT,
  playground: PLAYGROUND_CONTRACT,
  classroom: CLASSROOM_CONTRACT,
} as const;

type Contract = typeof CONTRACT;

export type GpuLabApi = { [S in keyof Contract]: ServiceOf<Contract[S]> };

// "service.member" for every method (or every event) of the contract.
type MemberName<WantEvents extends boolean> = {
  [S in keyof Contract]: {
    [M in keyof Contract[S] & string]: (Contract[S][M] extends EventSpec ? true : false) extends WantEvents ? `${S}.${M}` : never;
  }[keyof Contract[S] & string];
}[keyof Contract];

export type ApiMethod = MemberName<false>;
export type ApiEvent = MemberName<true>;

const MEMBERS = Object.entries(CONTRACT).flatMap(([service, members]) =>
  Object.entries(members as Record<string, MethodSpec | EventSpec>).map(([name, spec]) => ({ name: `${service}.${name}`, spec })),
);

export const API_METHODS = MEMBERS.filter((m) => !isEventSpec(m.spec)).map((m) => m.name) as readonly ApiMethod[];
export const API_EVENTS = MEMBERS.filter((m) => isEventSpec(m.spec)).map((m) => m.name) as readonly ApiEvent[];

const SPECS = new Map(MEMBERS.map((m) => [m.name, m.spec]));

export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && (API_METHODS as readonly string[]).includes(name);
}

export function methodSpec(method: ApiMethod): MethodSpec {
  return SPECS.get(method) as MethodSpec;
}

export function eventSpec(event: ApiEvent): EventSpec {
  return SPECS.get(event) as EventSpec;
}
