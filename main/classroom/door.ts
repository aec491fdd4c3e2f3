// The door of a class's server: every method a connection calls passes here, with the connection's seat (the teacher,
// a student, a guest), before any service sees it. The seat is still valid (a removed student's is not, even on a
// socket opened before), the table (access.ts) lets its role call the method, and every run id, kernel run id and
// queue entry the arguments name is the caller's. Events reach a seat only while it is valid.
import { CONTRACT } from '../common/contract/index.ts';
import type { GpuLabApi } from '../common/contract/index.ts';
import { isEventSpec } from '../common/contract/spec.ts';
import type { Disposable, EventSpec, MethodSpec } from '../common/contract/spec.ts';
import { GpuLabError } from '../common/errors.ts';
import { accessOf } from './access.ts';
import type { NamedIds } from './access.ts';

export type Seat = { role: 'teacher' } | { role: 'student'; id: string } | { role: 'guest' };

export interface DoorChecks {
  // Whether the seat still holds (a student not removed).
  valid(seat: Seat): boolean;
  // Whether the student of `seat` owns the thing named.
  owns(seat: Seat & { role: 'student' }, kind: keyof NamedIds, id: string): boolean;
}

const ROLE_WORDS = { teacher: 'the teacher', student: 'a student', guest: 'a browser that has not joined the class yet' } as const;

const NOT_YOURS: Record<keyof NamedIds, (id: string) => string> = {
  runs: (id) => `There is no run ${id} of yours`,
  kernelRuns: (id) => `There is no kernel run ${id} of yours`,
  queueEntries: (id) => `There is no run ${id} of yours in the queue`,
};

// Throws what the caller is refused, or returns when the call may go on.
export function checkCall(seat: Seat, method: string, args: readonly unknown[], checks: DoorChecks): void {
  if (!checks.valid(seat)) throw new GpuLabError('FORBIDDEN', 'You are no longer in this class: the teacher removed you', { method, reason: 'removed' });
  const access = accessOf(method);
  if (!access) throw new GpuLabError('FORBIDDEN', `${method} has no entry in the class's table of who may call what, so nobody may`, { method, reason: 'not-in-table' });
  if (!access.roles.includes(seat.role)) {
    const who = access.roles.map((r) => ROLE_WORDS[r]).join(' or ');
    throw new GpuLabError('FORBIDDEN', `${method} is for ${who}; ${ROLE_WORDS[seat.role]} may not call it`, { method, role: seat.role, reason: 'role' });
  }
  if (seat.role !== 'student' || !access.names) return;
  const named = access.names(args);
  for (const kind of ['runs', 'kernelRuns', 'queueEntries'] as const) {
    for (const id of named[kind] ?? []) {
      if (!checks.owns(seat, kind, id)) throw new GpuLabError('NOT_FOUND', NOT_YOURS[kind](id), { method, id });
    }
  }
}

type Member = (...args: unknown[]) => unknown;

// The contract for one seat: `services` (what the seat's calls do) behind the door.
export function behindTheDoor(seat: Seat, services: GpuLabApi, checks: DoorChecks): GpuLabApi {
  const api: Record<string, Record<string, Member>> = {};
  for (const [service, members] of Object.entries(CONTRACT) as [keyof GpuLabApi, Record<string, MethodSpec | EventSpec>][]) {
    const impl = services[service] as unknown as Record<string, Member>;
    const door: Record<string, Member> = {};
    for (const [name, spec] of Object.entries(members)) {
      const method = `${service}.${name}`;
      const fn = impl[name];
      if (typeof fn !== 'function') throw new Error(`The class's services lack ${method}`);
      if (isEventSpec(spec)) {
        door[name] = (listener: unknown) =>
          fn.call(impl, (payload: unknown) => {
            if (checks.valid(seat)) (listener as (p: unknown) => void)(payload);
          }) as Disposable;
        continue;
      }
      door[name] = async (...args: unknown[]) => {
        checkCall(seat, method, args, checks);
        return fn.apply(impl, args);
      };
    }
    api[service] = door;
  }
  return api as unknown as GpuLabApi;
}
