// The class's runs in order: each run waits in the queue of its device, and the server runs one at a time, in the
// order they were queued, whatever their device. One at a time because every lab measures the CPU beside its GPU, and
// because every run goes through the one compute host, where a student's kernel that faults restarts the host and
// would take any other run in it down too. A run ahead of yours is one that will run before yours starts.
//
// Each run has a time limit (from its plan's budgets, or a kernel run's limit), past which it is stopped: the wait a
// student is shown ("3 ahead of you, at most 2 min") is the sum of the limits of the runs ahead, what is left of the
// one running included, and so holds. Where another program of this machine holds a device the running one waits for
// (a `gpu-lab run` in a terminal, another user's app), the wait cannot be known, and is not given.
import { randomBytes } from 'node:crypto';

import type { Disposable } from '../common/contract/spec.ts';
import type { QueueEntry, QueueView } from '../common/contract/classroom.ts';
import type { Owner } from './class-store.ts';

export interface QueuedRun {
  kind: 'lab' | 'kernel';
  device: string;
  // The lab's id, or the exercise's.
  what: string;
  owner: Owner;
  limitSeconds: number;
}

interface Entry extends QueuedRun {
  id: string;
  state: 'waiting' | 'running';
  // Whether it may be given its turn: a lab run is once its run exists and its owner is recorded, so that its first
  // event is already its owner's.
  ready: boolean;
  runId: string | null;
  // When it began measuring (performance.now()): its limit counts from then.
  startedAt: number | null;
  // A device another program holds, which this run waits for.
  busy: { device: string; since: string } | null;
  giveTurn: () => void;
  timer: NodeJS.Timeout | null;
}

// Who looks at the queue: the teacher sees every run with its student's name; a student sees their own.
export type Viewer = { role: 'teacher' } | { role: 'student'; owner: Owner };

export interface ClassQueueOptions {
  // A run that ran past its limit: its owner's run is to be stopped.
  onPastLimit?: (entry: { id: string; runId: string | null; kind: 'lab' | 'kernel'; limitSeconds: number }) => void;
  now?: () => number;
}

export class ClassQueue {
  private readonly entries: Entry[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly onPastLimit: NonNullable<ClassQueueOptions['onPastLimit']>;
  private readonly now: () => number;

  constructor(options: ClassQueueOptions = {}) {
    this.onPastLimit = options.onPastLimit ?? (() => undefined);
    this.now = options.now ?? (() => performance.now());
  }

  onDidChange(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  // Queues a run; `turn` resolves when it may begin, once it is ready (now, or at ready()). The entry is in the queue
  // from now until finish().
  add(run: QueuedRun, options: { ready: boolean }): { id: string; turn: Promise<void> } {
    let giveTurn: () => void = () => undefined;
    const turn = new Promise<void>((resolve) => (giveTurn = resolve));
    const entry: Entry = { ...run, id: `q-${randomBytes(6).toString('hex')}`, state: 'waiting', ready: options.ready, runId: null, startedAt: null, busy: null, giveTurn, timer: null };
    this.entries.push(entry);
    this.pump();
    this.changed();
    return { id: entry.id, turn };
  }

  has(id: string): boolean {
    return this.entries.some((e) => e.id === id);
  }

  ownerOf(id: string): Owner | null {
    return this.entries.find((e) => e.id === id)?.owner ?? null;
  }

  entry(id: string): { kind: 'lab' | 'kernel'; state: 'waiting' | 'running'; runId: string | null } | null {
    const e = this.entries.find((x) => x.id === id);
    return e ? { kind: e.kind, state: e.state, runId: e.runId } : null;
  }

  // Runs of `owner` waiting or running.
  countOf(owner: Owner): number {
    return this.idsOf(owner).length;
  }

  get length(): number {
    return this.entries.length;
  }

  idsOf(owner: Owner): string[] {
    return this.entries.filter((e) => e.owner === owner).map((e) => e.id);
  }

  // A lab run exists under `runId` and may be given its turn.
  ready(id: string, runId: string): void {
    const e = this.entries.find((x) => x.id === id);
    if (!e) return;
    e.runId = runId;
    e.ready = true;
    this.pump();
    this.changed();
  }

  idOfRun(runId: string): string | null {
    return this.entries.find((e) => e.runId === runId)?.id ?? null;
  }

  // The run began measuring (a lab run's device lock is taken): its limit starts now.
  started(id: string): void {
    const e = this.entries.find((x) => x.id === id);
    if (!e || e.startedAt !== null) return;
    e.startedAt = this.now();
    e.busy = null;
    if (e.kind === 'lab') {
      e.timer = setTimeout(() => this.onPastLimit({ id: e.id, runId: e.runId, kind: e.kind, limitSeconds: e.limitSeconds }), e.limitSeconds * 1000);
      e.timer.unref();
    }
    this.changed();
  }

  // The running run waits for a device another program holds.
  waitsForOtherProgram(device: string, since: string): void {
    const e = this.entries.find((x) => x.state === 'running');
    if (!e) return;
    e.busy = { device, since };
    this.changed();
  }

  // The run ended (or left the queue before it began): the next one gets its turn.
  finish(id: string): void {
    const at = this.entries.findIndex((e) => e.id === id);
    if (at < 0) return;
    const [e] = this.entries.splice(at, 1);
    if (e?.timer) clearTimeout(e.timer);
    this.pump();
    this.changed();
  }

  private pump(): void {
    if (this.entries.some((e) => e.state === 'running')) return;
    const next = this.entries[0];
    if (!next?.ready) return;
    next.state = 'running';
    // A kernel run's limit is the compute host's request timeout, which starts as it is handed over.
    if (next.kind === 'kernel') next.startedAt = this.now();
    next.giveTurn();
  }

  private changed(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch {
        // A listener's bug must not stop the queue.
      }
    }
  }

  // What is left of an entry's limit, were it to run its whole limit.
  private leftSeconds(e: Entry): number {
    if (e.startedAt === null) return e.limitSeconds;
    return Math.max(0, e.limitSeconds - (this.now() - e.startedAt) / 1000);
  }

  view(viewer: Viewer, names: (owner: Owner) => string | null): QueueView {
    const unknowable = this.entries.some((e) => e.busy !== null);
    const entries: QueueEntry[] = [];
    let waitSeconds = 0;
    this.entries.forEach((e, ahead) => {
      const mine = viewer.role === 'student' && e.owner === viewer.owner;
      if (viewer.role === 'teacher' || mine) {
        entries.push({
          id: e.id,
          kind: e.kind,
          device: e.device,
          what: e.what,
          state: e.state,
          runId: e.runId,
          ahead,
          atMostSeconds: unknowable ? null : Math.ceil(waitSeconds),
          limitSeconds: e.limitSeconds,
          student: names(e.owner),
          mine,
        });
      }
      waitSeconds += this.leftSeconds(e);
    });
    const devices = [...new Set(this.entries.map((e) => e.device))].sort().map((device) => ({ device, runs: this.entries.filter((e) => e.device === device).length }));
    const busy = this.entries.flatMap((e) => (e.busy ? [e.busy] : []));
    return { entries, devices, busyWithOtherProgram: busy };
  }
}
