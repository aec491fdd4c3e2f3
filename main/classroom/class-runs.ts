// The class's runs through its queue: a run is admitted (planned, held to the caps), takes its place, waits for its
// turn, runs, and leaves the queue when it ends. A lab run is handed to the lab runner at once, which keeps it queued
// (its record says so, its id is the student's from the start) until the class's queue gives it its turn; a kernel
// run's request waits here for its turn. Lab runs are handed over one at a time, so that the runner holds them in the
// queue's order.
import type { ClassCaps } from '../common/contract/classroom.ts';
import type { RunEvent, StartRunRequest } from '../common/contract/runs.ts';
import type { Disposable } from '../common/contract/spec.ts';
import { GpuLabError } from '../common/errors.ts';
import { WAITING_MESSAGE_KEY } from '../common/pure/message.ts';
import type { KernelRun, KernelRunRequest } from '../common/playground.ts';
import type { LabHost } from '../app/lab-host.ts';
import type { LockHolder } from '../engine/device-lock.ts';
import type { ClassQueue } from './class-queue.ts';
import { TEACHER } from './class-store.ts';
import type { ClassStore, Owner } from './class-store.ts';
import { admitKernelRun, admitLabRun } from './run-admission.ts';
import type { AdmissionContext } from './run-admission.ts';

// A bound on the queue whoever fills it: every student has one place at most, the teacher any number.
export const MAX_QUEUED_RUNS = 1000;

export class ClassRuns {
  private readonly host: LabHost;
  private readonly store: ClassStore;
  private readonly queue: ClassQueue;
  private readonly admission: AdmissionContext;
  private handing: Promise<unknown> = Promise.resolve();
  // How a waiting kernel run's request is answered CANCELLED when it leaves the queue.
  private readonly leaving = new Map<string, () => void>();
  private readonly subscription: Disposable;

  constructor(host: LabHost, store: ClassStore, queue: ClassQueue) {
    this.host = host;
    this.store = store;
    this.queue = queue;
    this.admission = { environment: () => host.supervisor.environment(), peers: (libraries) => host.supervisor.peers(libraries) };
    this.subscription = host.runs.onDidChangeRun((e) => this.onRunEvent(e));
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private onRunEvent(e: RunEvent): void {
    const entry = this.queue.idOfRun(e.runId);
    if (entry === null) return;
    if (e.kind === 'started') this.queue.started(entry);
    else if (e.kind === 'progress' && e.progress.current.key === WAITING_MESSAGE_KEY) {
      const values = e.progress.current.values ?? {};
      if (values.pid !== process.pid) this.queue.waitsForOtherProgram(String(values.device ?? ''), String(values.since ?? ''));
    } else if (e.kind === 'completed' || e.kind === 'cancelled' || e.kind === 'failed') this.queue.finish(entry);
  }

  // A kernel run waits for a device another program holds (the lab host's onDeviceWait).
  deviceWaited(holder: LockHolder): void {
    if (holder.pid !== process.pid) this.queue.waitsForOtherProgram(holder.device, holder.since);
  }

  // One place per student in the queue, waiting or running; the teacher's runs are not counted.
  private checkPlace(owner: Owner): void {
    if (owner !== TEACHER && this.queue.countOf(owner) > 0) {
      throw new GpuLabError('RATE_LIMITED', 'You have a run in the queue already: one at a time per student. Wait for it to end, or take it out of the queue', {
        limit: 'runs queued per student',
      });
    }
    if (this.queue.length >= MAX_QUEUED_RUNS) {
      throw new GpuLabError('RATE_LIMITED', `The class's queue holds ${MAX_QUEUED_RUNS} runs; try again when some have ended`, { limit: 'runs queued' });
    }
  }

  // `caps` null: the teacher's run.
  async startLab(owner: Owner, caps: ClassCaps | null, request: StartRunRequest): Promise<{ runId: string }> {
    this.checkPlace(owner);
    const admitted = await admitLabRun(request, caps, this.admission);
    // Checked again: another request of the same student may have taken the place while this one was planned.
    this.checkPlace(owner);
    const { id, turn } = this.queue.add({ kind: 'lab', device: admitted.request.device, what: admitted.lab, owner, limitSeconds: admitted.limitSeconds }, { ready: false });
    const handed = this.handing.then(() => this.host.runs.startRun(admitted.request, { turn }));
    this.handing = handed.catch(() => undefined);
    let runId: string;
    try {
      ({ runId } = await handed);
    } catch (err) {
      this.queue.finish(id);
      throw err;
    }
    const owned = this.store.own('runs', runId, owner);
    // Taken out of the queue while it was being handed over: the runner must not keep waiting for its turn.
    if (!this.queue.has(id)) await this.host.runs.cancelRun(runId);
    this.queue.ready(id, runId);
    // The run exists and is queued: a class file that could not be written costs the record of its owner on disk,
    // not the run (the owner is known until the server stops).
    await owned.catch(() => undefined);
    return { runId };
  }

  async runKernel(owner: Owner, caps: ClassCaps | null, request: KernelRunRequest): Promise<KernelRun> {
    this.checkPlace(owner);
    const admitted = await admitKernelRun(request, caps, this.admission);
    this.checkPlace(owner);
    const { id, turn } = this.queue.add({ kind: 'kernel', device: admitted.request.device, what: admitted.exercise, owner, limitSeconds: admitted.limitSeconds }, { ready: true });
    const left = new Promise<never>((_resolve, reject) => this.leaving.set(id, () => reject(new GpuLabError('CANCELLED', 'The kernel run was taken out of the queue before it started'))));
    try {
      await Promise.race([turn, left]);
      this.leaving.delete(id);
      const run = await this.host.playground.runKernel(admitted.request, { timeoutMs: admitted.limitSeconds * 1000 });
      await this.store.own('kernelRuns', run.id, owner).catch(() => undefined);
      return run;
    } finally {
      this.leaving.delete(id);
      this.queue.finish(id);
    }
  }

  // Takes a run out of the queue: one waiting leaves at once (a lab run is cancelled, and the runner drops it when it
  // comes to it); a lab run running is cancelled; a kernel run running cannot be stopped, and ends within its limit.
  async leave(entryId: string): Promise<void> {
    const entry = this.queue.entry(entryId);
    if (!entry) throw new GpuLabError('NOT_FOUND', `There is no run ${entryId} in the queue`, { entryId });
    if (entry.kind === 'kernel') {
      const cancel = this.leaving.get(entryId);
      if (!cancel) throw new GpuLabError('INVALID_ARGUMENT', 'This kernel run is running already; it ends within its time limit', { entryId });
      cancel();
      this.queue.finish(entryId);
      return;
    }
    if (entry.runId !== null) await this.host.runs.cancelRun(entry.runId);
    if (entry.state === 'waiting') this.queue.finish(entryId);
  }

  // runs.cancelRun of a class's run: through the queue while it is in it.
  async cancel(runId: string): Promise<void> {
    const entry = this.queue.idOfRun(runId);
    if (entry !== null) return this.leave(entry);
    await this.host.runs.cancelRun(runId);
  }

  // Past its limit: a lab run is cancelled, its record keeping the points measured and saying why; a kernel run's
  // limit is the compute host's own timeout.
  pastLimit(runId: string | null, limitSeconds: number): void {
    if (runId === null) return;
    const why = `Stopped by the class's queue: the run took longer than its limit of ${limitSeconds} s (from its plan's time budgets), which the waits shown to the class count on.`;
    void this.host.runs.cancelRun(runId, why).catch(() => undefined);
  }
}
