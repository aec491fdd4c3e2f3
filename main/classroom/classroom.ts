// A class on a serve-mode server (`gpu-lab serve --classroom NAME`): its store, its queue and its runs put together
// over one lab host, the tokens of the teacher's link and the class link (new at every start, kept in memory only),
// the seat each token holds, and the contract each seat gets, behind the door.
import { timingSafeEqual } from 'node:crypto';

import type { LabHost } from '../app/lab-host.ts';
import type { ClassCaps } from '../common/contract/classroom.ts';
import type { GpuLabApi } from '../common/contract/index.ts';
import type { Disposable } from '../common/contract/spec.ts';
import type { LockHolder } from '../engine/device-lock.ts';
import { ClassExports, classSources } from './class-exports.ts';
import { ClassQueue } from './class-queue.ts';
import { ClassRuns } from './class-runs.ts';
import { guestServices, studentServices, teacherServices } from './class-services.ts';
import type { ClassParts } from './class-services.ts';
import { ClassStore, hashToken, newToken } from './class-store.ts';
import { behindTheDoor } from './door.ts';
import type { DoorChecks, Seat } from './door.ts';

export type { Seat } from './door.ts';

export interface ClassroomOptions {
  host: LabHost;
  dataDir: string;
  name: string;
  // The teacher's caps given when the server starts; the rest are kept from the last start.
  caps?: Partial<ClassCaps>;
}

function sameSecret(given: string, secret: string): boolean {
  return timingSafeEqual(Buffer.from(hashToken(given), 'hex'), Buffer.from(hashToken(secret), 'hex'));
}

export class Classroom {
  readonly store: ClassStore;
  readonly queue: ClassQueue;
  readonly runs: ClassRuns;
  readonly exports: ClassExports;
  readonly teacherToken = newToken();
  readonly classToken = newToken();
  private readonly host: LabHost;
  private readonly removedListeners = new Set<(studentId: string) => void>();
  private readonly checks: DoorChecks;

  private constructor(host: LabHost, store: ClassStore) {
    this.host = host;
    this.store = store;
    let runs: ClassRuns | null = null;
    this.queue = new ClassQueue({ onPastLimit: (entry) => runs?.pastLimit(entry.runId, entry.limitSeconds) });
    runs = new ClassRuns(host, store, this.queue);
    this.runs = runs;
    this.exports = new ClassExports(() => classSources(store, host.runs), (overview, records, options) => host.writeClassReport(overview, records, options));
    this.checks = {
      valid: (seat) => seat.role !== 'student' || store.student(seat.id) !== null,
      owns: (seat, kind, id) => (kind === 'queueEntries' ? this.queue.ownerOf(id) : store.ownerOf(kind, id)) === seat.id,
    };
  }

  static async open(options: ClassroomOptions): Promise<Classroom> {
    return new Classroom(options.host, await ClassStore.open(options.dataDir, options.name, options.caps));
  }

  get name(): string {
    return this.store.name;
  }

  // The seat `token` holds, presented as the teacher's, a student's or the class link's; null when it holds none.
  seatOf(token: string | null, as: 'teacher' | 'student' | 'class'): Seat | null {
    if (token === null || token === '') return null;
    if (as === 'teacher') return sameSecret(token, this.teacherToken) ? { role: 'teacher' } : null;
    if (as === 'class') return sameSecret(token, this.classToken) ? { role: 'guest' } : null;
    const student = this.store.byToken(token);
    return student ? { role: 'student', id: student.id } : null;
  }

  valid(seat: Seat): boolean {
    return this.checks.valid(seat);
  }

  async join(name: string): Promise<{ token: string; name: string; studentId: string }> {
    const { student, token } = await this.store.join(name);
    return { token, name: student.name, studentId: student.id };
  }

  apiFor(seat: Seat): GpuLabApi {
    const parts: ClassParts = { host: this.host, store: this.store, queue: this.queue, runs: this.runs, exports: this.exports, removeStudent: (id) => this.removeStudent(id) };
    const services = seat.role === 'teacher' ? teacherServices(parts) : seat.role === 'student' ? studentServices(parts, seat.id) : guestServices(this.store);
    return behindTheDoor(seat, services, this.checks);
  }

  // A kernel run waits for a device another program holds: the lab host's onDeviceWait.
  deviceWaited(holder: LockHolder): void {
    this.runs.deviceWaited(holder);
  }

  onDidRemoveStudent(listener: (studentId: string) => void): Disposable {
    this.removedListeners.add(listener);
    return { dispose: () => this.removedListeners.delete(listener) };
  }

  // Their pages are disconnected and their runs that wait leave the queue; the runs they made stay.
  async removeStudent(id: string): Promise<void> {
    await this.store.remove(id);
    for (const l of this.removedListeners) l(id);
    for (const entry of this.queue.idsOf(id)) await this.runs.leave(entry).catch(() => undefined);
  }

  dispose(): void {
    this.runs.dispose();
  }
}
