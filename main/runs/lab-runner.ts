// Runs labs: checks the parameters against the lab's schema, plans the lab for this machine, sends each point to the compute host, turns
// the answers into points with statistics, analyses the lab, stores the record, and tells listeners as it goes.
// Runs execute one at a time: two measurements sharing the machine would spoil each other.
import { PEER_LIBRARIES } from '../common/peer-protocol.ts';
import type { PeerLibrary } from '../common/peer-protocol.ts';
import { randomBytes } from 'node:crypto';

import type { Disposable, Event } from '../common/contract/spec.ts';
import type { ExportFormat, ExportedRun, RunEvent, RunProgress, RunsService, StartRunRequest } from '../common/contract/runs.ts';
import type { DeviceList, DeviceSummary } from '../common/devices.ts';
import { isGpu } from '../common/devices.ts';
import type { ParamValues } from '../common/lab-descriptor.ts';
import { GpuLabError } from '../common/errors.ts';
import { validateParams } from '../common/params.ts';
import { isWebgpuDevice } from '../common/measurement.ts';
import { RUN_SCHEMA_VERSION } from '../common/run-record.ts';
import type { Finding, PointResult, RunRecord, RunSummary } from '../common/run-record.ts';
import type { ComputeHostSupervisor, HostEnvironment } from '../engine/supervisor.ts';
import { DeviceLocks, lockNames, waitingMessage, type DeviceLease, type LockHolder } from '../engine/device-lock.ts';
import type { Lab, PlanContext, PlannedPoint } from '../labs/lab.ts';
import { ANALYSIS_VERSION, LABS, findLab } from '../labs/index.ts';
import { cancelledPoint, failedPoint, measuredPoint, waivedPoint } from './point-result.ts';
import { pointBudgetSeconds } from './point-budget.ts';
import { readCpuClockMHz, readCpuTimes, stealShare } from './cpu-steal.ts';
import type { RunStore } from './run-store.ts';
import { processStartTicks, thisMachine } from '../engine/process-identity.ts';
import { exportRun } from './run-export.ts';
import { runFindings } from './run-findings.ts';
import { runSummary } from './run-summary.ts';
import { noCudaWhy } from '../common/pure/host-reasons.ts';
import { availableHostBytes, checkPlanFits } from './memory-check.ts';
import { gpuUuidOf, runPlace } from './run-place.ts';
import { msg, renderMessage, type Message } from '../common/pure/message.ts';
import { translator } from '../common/pure/i18n/index.ts';

export interface LabRunnerOptions {
  store: RunStore;
  host: ComputeHostSupervisor;
  appVersion: string;
  // How far the record on disk may lag behind a running run's points (default PROGRESS_SAVE_INTERVAL_MS).
  progressSaveIntervalMs?: number;
  // The devices' locks, shared with every other process of the machine (default: the system's temporary folder).
  locks?: DeviceLocks;
}

interface ActiveRun {
  record: RunRecord;
  controller: AbortController;
  // The last progress event, for a client that starts watching in the middle of the run.
  progress: RunProgress | null;
}

// Errors after which the rest of the run cannot be trusted: the host died or was killed, or a CUDA context was lost
// (a sticky error, or the GPU gone from the bus). A WebGPU device lost ends only its point: the host answers and ends
// itself, and the next point opens a new device in a new host, as an application recovers from a driver's reset.
const FATAL = new Set(['COMPUTE_HOST_CRASHED', 'TIMEOUT', 'DEVICE_LOST']);
const endsTheRun = (e: GpuLabError, device: string): boolean => FATAL.has(e.code) && !(e.code === 'DEVICE_LOST' && isWebgpuDevice(device));

// How often the findings of a running run are recomputed from the points measured so far.
const PROVISIONAL_ANALYSIS_INTERVAL_MS = 500;

const NOT_STARTED_KEPT = 32;

// A running run's record is saved with its new points at most this often.
export const PROGRESS_SAVE_INTERVAL_MS = 1000;

function notSaved(record: RunRecord, dir: string, err: unknown): GpuLabError {
  if (err instanceof GpuLabError) return err;
  const cause = (err as NodeJS.ErrnoException).code;
  return new GpuLabError('NATIVE_ERROR', `Run ${record.id} could not be saved in ${dir}: ${(err as Error).message}`, {
    runId: record.id,
    dir,
    ...(typeof cause === 'string' ? { cause } : {}),
  });
}

// Resolves when the caller's queue gives the run its turn; CANCELLED if the run is cancelled first.
function untilTurn(turn: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = (): void => reject(new GpuLabError('CANCELLED', 'The run was cancelled before it started'));
    if (signal.aborted) return cancelled();
    signal.addEventListener('abort', cancelled, { once: true });
    turn.then(
      () => {
        signal.removeEventListener('abort', cancelled);
        resolve();
      },
      (err: unknown) => {
        signal.removeEventListener('abort', cancelled);
        reject(GpuLabError.from(err));
      },
    );
  });
}

function newRunId(lab: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${lab}-${randomBytes(3).toString('hex')}`;
}

// Why there is no WebGPU adapter (host/webgpu/dawn.ts's words) as a message, read in the reader's language where
// GPU Lab knows the case.
export function noWebgpuWhy(reason: string): Message {
  const off = /^WebGPU is turned off \((\S+)=off\)$/.exec(reason);
  if (off) return msg('reasons.webgpuOff', { env: off[1] ?? '' });
  const bindings = /^Dawn's Node bindings \(npm webgpu\) did not load: (.*)$/s.exec(reason);
  if (bindings) return msg('reasons.webgpuNoBindings', { detail: bindings[1] ?? '' });
  return msg('reasons.noWebgpu', { detail: reason.replace(/^no WebGPU adapter:\s*/, '') });
}

// The device a run without one compares against: the first CUDA device, else the CPU alone.
export function defaultDevice(env: HostEnvironment): string {
  return env.devices.devices.find((d) => d.kind === 'cuda')?.id ?? 'cpu';
}

export function planContext(env: HostEnvironment, device: string, peers?: PlanContext['peers']): PlanContext {
  const cpu = env.devices.devices.find((d) => d.kind === 'cpu');
  if (!cpu) throw new GpuLabError('NATIVE_ERROR', 'The compute host listed no CPU');
  const cudas = env.devices.devices.filter((d) => d.kind === 'cuda');
  const webgpus = env.devices.devices.filter((d) => d.kind === 'webgpu');
  // The GPU series run on the CUDA device or the WebGPU adapter the run names.
  const gpu: DeviceSummary | null = [...cudas, ...webgpus].find((d) => d.id === device) ?? null;
  let gpuWaivedWhy: Message | null = null;
  if (!gpu) {
    if (device.startsWith('webgpu:') && webgpus.length === 0) {
      gpuWaivedWhy = noWebgpuWhy(env.devices.webgpuReason ?? 'none found');
    } else if (cudas.length === 0 && !device.startsWith('webgpu:')) {
      gpuWaivedWhy = noCudaWhy(env.devices.cudaReason ?? 'none found');
    } else if (device === 'cpu') gpuWaivedWhy = msg('reasons.cpuOnly');
    else gpuWaivedWhy = msg('reasons.notADevice', { device, devices: [...cudas, ...webgpus].map((d) => d.id).join(', ') });
  }
  const gpuWaivedReason = gpuWaivedWhy ? renderMessage(gpuWaivedWhy, translator('en'), 'en') : '';
  const cores = cpu.details.logicalCores;
  return { cpu, cpuThreads: typeof cores === 'number' ? cores : 1, gpu, gpuWaivedReason, gpuWaivedWhy, ...(peers ? { peers } : {}) };
}


// The peer libraries a run of `lab` asks for and has series of: those the request named (absent: every one).
export function peersAsked(lab: Lab, asked: readonly PeerLibrary[] | undefined): PeerLibrary[] {
  const has = new Set(lab.descriptor.series.flatMap((s) => (s.peer ? [s.peer] : [])));
  return (asked ?? PEER_LIBRARIES).filter((l) => has.has(l));
}

// A device asked for by name must be one of this machine's: "cuda:3" on a machine with one GPU (or none) is a bad
// parameter, refused before the run exists, not a run whose GPU points are all waived.
export function checkDevice(list: DeviceList, device: string): void {
  const ids = list.devices.map((d) => d.id);
  if (ids.includes(device)) return;
  const reason = list.cudaReason ?? 'none found';
  const cuda = list.devices.some((d) => d.kind === 'cuda') ? '' : ` (${/^(no CUDA device|built without CUDA)/.test(reason) ? reason : `no CUDA device: ${reason}`})`;
  // Why a WebGPU adapter asked for is missing, where none was found.
  const webgpu = device.startsWith('webgpu:') && list.webgpuReason ? ` (${list.webgpuReason})` : '';
  throw new GpuLabError('INVALID_PARAMS', `Parameter "device" = "${device}" is not allowed: this machine's devices are ${ids.join(', ')}${cuda}${webgpu}`, {
    parameter: 'device',
    value: device,
    available: ids,
  });
}

// The lab and parameters of a request, or INVALID_PARAMS naming the lab, or the parameter, its value and what is
// allowed. The request's shape was checked at the contract's door (START_RUN_REQUEST); the values are the lab's to
// check, here and nowhere else.
export function validateRunRequest(request: StartRunRequest): { lab: Lab; device: string | undefined; params: ParamValues } {
  const lab = findLab(request.lab);
  if (!lab) {
    throw new GpuLabError('INVALID_PARAMS', `There is no lab "${request.lab}"; the labs are ${LABS.map((l) => l.descriptor.id).join(', ')}`, {
      field: 'lab',
    });
  }
  const params = validateParams(lab.descriptor.id, lab.descriptor.parameters, request.params);
  return { lab, device: request.device, params };
}

export class LabRunner implements RunsService {
  private readonly store: RunStore;
  private readonly host: ComputeHostSupervisor;
  private readonly appVersion: string;
  private readonly progressSaveIntervalMs: number;
  private readonly locks: DeviceLocks;
  private readonly listeners = new Set<(event: RunEvent) => void>();
  private readonly active = new Map<string, ActiveRun>();
  // Finished runs whose final save failed: served from memory, saved again when the next run finishes.
  private readonly unsaved = new Map<string, RunRecord>();
  // Runs that ended before they held their devices (refused, cancelled, failed while being set up): never stored, since
  // they never started; kept for whoever asks about them in this process, the latest NOT_STARTED_KEPT of them.
  private readonly notStarted = new Map<string, RunRecord>();
  private queue: Promise<void> = Promise.resolve();
  // Set by cancelAll(): the shell is stopping, and a run started from then on is cancelled at once.
  private stopping = false;
  private readonly starting = new Set<Promise<unknown>>();

  constructor(options: LabRunnerOptions) {
    this.store = options.store;
    this.host = options.host;
    this.appVersion = options.appVersion;
    this.progressSaveIntervalMs = options.progressSaveIntervalMs ?? PROGRESS_SAVE_INTERVAL_MS;
    this.locks = options.locks ?? new DeviceLocks();
  }

  readonly onDidChangeRun: Event<RunEvent> = (listener): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  private emit(event: RunEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // A listener's bug must not stop the run.
      }
    }
  }

  // Whether a run is being started, queued, running or being saved: what the compute host is asked meanwhile
  // belongs to that run (a setting that changes the host waits until it is over).
  get busy(): boolean {
    return this.starting.size > 0 || this.active.size > 0;
  }

  // Resolves when every run being started is stored and queued (or refused).
  async whenStarted(): Promise<void> {
    while (this.starting.size) await Promise.allSettled([...this.starting]);
  }

  // Resolves when every run being started, and every queued run, has finished.
  async whenIdle(): Promise<void> {
    await this.whenStarted();
    await this.queue;
  }

  // A run is started in steps that wait (the host's device list, the first save): a shell closing meanwhile waits
  // for them, or the first save would land after it had let go of the run store. `turn`: a queue of the caller's
  // (a class's) says when the run may begin; it stays queued until then, or until it is cancelled.
  startRun(request: StartRunRequest, options: { turn?: Promise<void> } = {}): Promise<{ runId: string }> {
    const started = this.start(request, options.turn);
    this.starting.add(started);
    void started.catch(() => undefined).finally(() => this.starting.delete(started));
    return started;
  }

  private async start(request: StartRunRequest, turn: Promise<void> | undefined): Promise<{ runId: string }> {
    const { lab, device, params } = validateRunRequest(request);
    // A host that cannot say which devices it has fails the run itself, where the error is recorded.
    const env = await this.host.environment().catch(() => null);
    if (env) {
      if (device !== undefined && device !== 'cpu') checkDevice(env.devices, device);
      // A run whose largest point cannot fit is refused now, with the figure it needs, not after the points before it.
      // A plan that cannot be made here fails the run itself, where the error is recorded.
      const planned = ((): PlannedPoint[] | null => {
        try {
          return lab.plan(params, planContext(env, device ?? defaultDevice(env)));
        } catch {
          return null;
        }
      })();
      if (planned) checkPlanFits(planned, availableHostBytes(), env.devices.devices);
    }
    const record: RunRecord = {
      schemaVersion: RUN_SCHEMA_VERSION,
      id: newRunId(lab.descriptor.id),
      lab: lab.descriptor.id,
      labTitle: lab.descriptor.title,
      device: device ?? '',
      params,
      peers: peersAsked(lab, request.peers),
      status: 'queued',
      error: null,
      createdAt: new Date().toISOString(),
      finishedAt: null,
      appVersion: this.appVersion,
      environment: { devices: null, versions: {}, hostPid: null, runnerPid: process.pid, runnerStartTicks: processStartTicks(process.pid), runnerHost: thisMachine(), ...runPlace() },
      points: [],
      summary: {},
      findings: [],
      warnings: [],
    };
    // Saved before it is known as active: a run that cannot be stored is refused, not left half-existing. Then taken
    // back: a run is stored from the moment it holds its devices, and one refused, stopped or killed before (while it
    // waits for another run's device) never started, and leaves no record of nothing measured.
    try {
      await this.store.save(record);
      await this.store.discard(record.id);
    } catch (err) {
      throw notSaved(record, this.store.dir, err);
    }
    const controller = new AbortController();
    if (this.stopping) controller.abort();
    this.active.set(record.id, { record, controller, progress: null });
    this.queue = this.queue.then(() => this.execute(lab, record, controller.signal, request.wait !== false, turn)).catch(() => undefined);
    return { runId: record.id };
  }

  // `wait`: whether a device another run holds is waited for (the default) or refused at once with DEVICE_BUSY.
  private async execute(lab: Lab, record: RunRecord, signal: AbortSignal, wait: boolean, turn?: Promise<void>): Promise<void> {
    const finish = async (started = true): Promise<void> => {
      record.finishedAt = new Date().toISOString();
      if (!started) {
        this.notStarted.set(record.id, record);
        for (const id of [...this.notStarted.keys()].slice(0, -NOT_STARTED_KEPT)) this.notStarted.delete(id);
        this.active.delete(record.id);
        this.emitEnd(record);
        return;
      }
      await this.saveEarlierUnsaved();
      // Still active while it is saved: until then the copy on disk is an unfinished one.
      const failure = await this.saveFinished(record);
      this.active.delete(record.id);
      if (failure) {
        this.unsaved.set(record.id, record);
        const text = `The finished run could not be saved (tried twice: ${failure}); it is kept in memory while this program runs and saved again when the next run finishes. Until then the copy on disk is unfinished, and is marked interrupted if this program stops first.`;
        record.warnings.push(text);
        const finding: Finding = { id: 'run-not-saved', message: msg('common.run.notSaved', { failure }), value: null, unit: 'none', tone: 'warning' };
        this.emit({ kind: 'finding', runId: record.id, finding });
      }
      this.emitEnd(record);
    };
    let planned: PlannedPoint[];
    let lease: DeviceLease | null = null;
    // Whether the run got as far as holding its devices: from there it is stored, whatever happens.
    let held = false;
    try {
      if (signal.aborted) throw new GpuLabError('CANCELLED', 'The run was cancelled before it started');
      if (turn) await untilTurn(turn, signal);
      const env = await this.host.environment();
      if (!record.device) record.device = defaultDevice(env);
      record.environment = { ...record.environment, devices: env.devices, versions: env.versions, hostPid: env.pid, gpuUuid: gpuUuidOf(env.devices, record.device) };
      // The interpreter is asked what it offers only where the run has peer series to plan.
      const asked = record.peers ?? [];
      const peers = asked.length ? { asked, report: await this.host.peers(asked) } : undefined;
      planned = lab.plan(record.params, planContext(env, record.device, peers));
      record.plan = planned.map((p) => ({ key: p.key, series: p.series, label: p.label, name: p.name, x: p.x, reason: p.measurement ? null : (p.waived ?? ''), ...(!p.measurement && p.waivedWhy ? { why: p.waivedWhy } : {}) }));
      // Every device a point is measured on, held for the whole run: another process's run waits, or is refused.
      const devices = lockNames([...new Set(planned.filter((p) => p.measurement).map((p) => p.device))], env.devices);
      if (devices.length) lease = await this.locks.acquire(devices, 'lab', record.lab, { wait, signal, onWait: (holder) => this.waiting(record, planned.length, holder) });
      held = true;
      record.status = 'running';
      await this.store.save(record).catch((err: unknown) => Promise.reject(notSaved(record, this.store.dir, err)));
    } catch (err) {
      await lease?.release();
      const e = GpuLabError.from(err);
      record.status = e.code === 'CANCELLED' ? 'cancelled' : 'failed';
      record.error = e.code === 'CANCELLED' ? null : e.toPayload();
      await finish(held);
      return;
    }
    const waived = new Map<string, { reason: string; points: number; why?: Message }>();
    for (const p of planned) {
      if (p.measurement) continue;
      const reason = p.waived ?? '';
      const entry = waived.get(reason) ?? { reason, points: 0, ...(p.waivedWhy ? { why: p.waivedWhy } : {}) };
      entry.points++;
      waived.set(reason, entry);
    }
    this.emit({
      kind: 'started',
      runId: record.id,
      lab: record.lab,
      device: record.device,
      params: record.params,
      pointsTotal: planned.length,
      waived: [...waived.values()],
      plan: record.plan,
    });
    const gpu = record.environment.devices?.devices.find((d) => d.id === record.device && isGpu(d)) ?? null;
    const cpu = record.environment.devices?.devices.find((d) => d.kind === 'cpu') ?? null;
    const cpuTimes = readCpuTimes();
    try {
      await this.measureAll(record, planned, signal, () => this.provisionalFindings(lab, record, planned, gpu, cpu));
    } finally {
      // Before the devices go: the next run's first point would otherwise be open on the host when it hears it.
      this.host.runEnded();
      await lease?.release();
    }
    record.environment.cpuSteal = stealShare(cpuTimes, readCpuTimes());
    try {
      const analysis = lab.analyze(record.points, record.params, gpu, cpu);
      record.summary = analysis.summary;
      record.findings = [...analysis.findings, ...runFindings(record.points, record.environment.cpuSteal ?? null, lab.descriptor)];
      record.analysisVersion = ANALYSIS_VERSION;
    } catch (err) {
      record.warnings.push(`The analysis failed: ${(err as Error).message}`);
      record.findings = runFindings(record.points, record.environment.cpuSteal ?? null, lab.descriptor);
    }
    for (const finding of record.findings) this.emit({ kind: 'finding', runId: record.id, finding });
    // Nothing measured (the transfer lab on a machine without a GPU: every point waived) is not a completed run.
    if (record.status === 'running') record.status = record.points.length > 0 && record.points.every((p) => p.status === 'waived') ? 'waived' : 'completed';
    await finish();
  }

  private emitEnd(record: RunRecord): void {
    const summary = runSummary(record);
    if (record.status === 'failed' && record.error) this.emit({ kind: 'failed', runId: record.id, summary, error: record.error });
    else if (record.status === 'cancelled') this.emit({ kind: 'cancelled', runId: record.id, summary });
    else this.emit({ kind: 'completed', runId: record.id, summary });
  }

  // Whether a run of this process ended before it held its devices, and so was never stored.
  neverStarted(runId: string): boolean {
    return this.notStarted.has(runId);
  }

  // How a shell stops: every run being measured or waiting is cancelled, and every run started from now on (from
  // memory: no file is read, whatever the data folder holds).
  cancelAll(): void {
    this.stopping = true;
    for (const run of this.active.values()) run.controller.abort();
  }

  // A device this run needs is another run's: the run stays queued, and its progress says for whom it waits.
  private waiting(record: RunRecord, pointsTotal: number, h: LockHolder): void {
    const progress: RunProgress = { pointsDone: 0, pointsTotal, fraction: 0, etaSeconds: null, current: waitingMessage(h) };
    const active = this.active.get(record.id);
    if (active) active.progress = progress;
    this.emit({ kind: 'progress', runId: record.id, progress });
  }

  // The findings of the points measured so far, while the run goes on: a finding whose text changed is sent again
  // under its id, so a page shows them growing; the record holds them until the final analysis replaces them. A lab
  // whose analysis cannot read a partial run yet simply has none to show. The run's own findings come with them, the
  // plan's waived points counted from the start, so that the provisional findings take about the place of the final
  // ones (the page lays them out unseen to hold it).
  private provisionalFindings(lab: Lab, record: RunRecord, planned: readonly PlannedPoint[], gpu: DeviceSummary | null, cpu: DeviceSummary | null): void {
    let findings: Finding[];
    try {
      const arrived = new Set(record.points.map((p) => p.key));
      const waivedToCome = planned.filter((p) => !p.measurement && !arrived.has(p.key)).map(waivedPoint);
      findings = [...lab.analyze(record.points, record.params, gpu, cpu).findings, ...runFindings([...record.points, ...waivedToCome], null, lab.descriptor)];
    } catch {
      return;
    }
    const before = new Map(record.findings.map((f) => [f.id, JSON.stringify(f.message)]));
    record.findings = findings;
    for (const finding of findings) {
      if (before.get(finding.id) !== JSON.stringify(finding.message)) this.emit({ kind: 'finding', runId: record.id, finding });
    }
  }

  // Saves a finished record, trying once more if the first save fails: the reason it still failed, or null.
  private async saveFinished(record: RunRecord): Promise<string | null> {
    try {
      await this.store.save(record);
      return null;
    } catch {
      try {
        await this.store.save(record);
        return null;
      } catch (err) {
        return notSaved(record, this.store.dir, err).message;
      }
    }
  }

  private async saveEarlierUnsaved(): Promise<void> {
    for (const record of [...this.unsaved.values()]) {
      if ((await this.saveFinished(record)) === null) this.unsaved.delete(record.id);
    }
  }

  private async measureAll(record: RunRecord, planned: PlannedPoint[], signal: AbortSignal, analyzeSoFar: () => void): Promise<void> {
    const totalWeight = planned.reduce((s, p) => s + (p.measurement ? p.expectedSeconds : 0), 0) || 1;
    let doneWeight = 0;
    let measuredMs = 0;
    let lastSaved = performance.now();
    let lastAnalyzed = 0;
    const progress = (index: number, within: number, current: Message): void => {
      const doneNow = doneWeight + within;
      const p: RunProgress = {
        pointsDone: index,
        pointsTotal: planned.length,
        fraction: Math.min(1, doneNow / totalWeight),
        // Seconds left = expected seconds left × (time taken / time expected so far).
        etaSeconds: doneNow > 0 && measuredMs > 0 ? ((totalWeight - doneNow) * (measuredMs / 1000)) / doneNow : null,
        current,
      };
      const active = this.active.get(record.id);
      if (active) active.progress = p;
      this.emit({ kind: 'progress', runId: record.id, progress: p });
    };
    for (const [index, point] of planned.entries()) {
      let result: PointResult;
      if (record.status !== 'running') {
        result = cancelledPoint(point, record.error);
      } else if (!point.measurement) {
        result = waivedPoint(point);
      } else {
        progress(index, 0, point.name);
        const started = performance.now();
        try {
          // The engine samples until the median is steady or the point's share of the plan's time is spent.
          const measurement = { ...point.measurement, budgetSeconds: pointBudgetSeconds(point) };
          const cpuBefore = readCpuTimes();
          const clockBefore = readCpuClockMHz();
          const r = await this.host.measure(measurement, {
            signal,
            // Ten times the expected time plus a minute: generous for a slow machine, finite for a hung kernel.
            timeoutMs: 60_000 + point.expectedSeconds * 10_000,
            onProgress: (done, total) => progress(index, total > 0 ? (point.expectedSeconds * done) / total : 0, point.name),
          });
          // The CPU time stolen while this point was sampled (what makes one point noisy on a shared machine), and
          // the CPUs' clock before and after it, where Linux tells it.
          const clockAfter = clockBefore === null ? null : readCpuClockMHz();
          const cpuClockMHz = clockBefore !== null && clockAfter !== null ? { start: clockBefore, end: clockAfter } : null;
          result = measuredPoint(point, r.sampling ? { ...r, sampling: { ...r.sampling, cpuSteal: stealShare(cpuBefore, readCpuTimes()), cpuClockMHz } } : r);
        } catch (err) {
          const e = GpuLabError.from(err);
          if (e.code === 'CANCELLED') {
            record.status = 'cancelled';
            result = cancelledPoint(point);
          } else {
            result = failedPoint(point, e.toPayload());
            if (endsTheRun(e, point.device)) {
              record.status = 'failed';
              record.error = e.toPayload();
            }
          }
        }
        measuredMs += performance.now() - started;
        doneWeight += point.expectedSeconds;
      }
      record.points.push(result);
      this.emit({ kind: 'point', runId: record.id, point: result });
      // At most twice a second: an analysis of a few hundred points is cheap, but not free at every fast point.
      if (result.status === 'ok' && performance.now() - lastAnalyzed >= PROVISIONAL_ANALYSIS_INTERVAL_MS) {
        lastAnalyzed = performance.now();
        analyzeSoFar();
      }
      // Kept on disk as it grows, at most a save interval behind: if this process dies, the points measured until
      // then survive in the record. Not after every point: each save rewrites the whole record (60 KiB by the end
      // of the elementwise break-even lab, about 0.5 ms), more than the engine's whole budget for a fast point, and
      // the cost of a run would grow with the square of its points.
      const now = performance.now();
      if (now - lastSaved >= this.progressSaveIntervalMs) {
        lastSaved = now;
        await this.store.save(record, { durable: false }).catch((err: unknown) => {
          record.warnings.push(`Progress could not be saved: ${(err as Error).message}`);
        });
      }
    }
    if (record.status === 'running') progress(planned.length, 0, msg('common.run.analysis'));
  }

  // `why`: said in the record's warnings when the run is stopped by something other than its owner (a class's time
  // limit).
  async cancelRun(runId: string, why?: string): Promise<void> {
    const run = this.active.get(runId);
    if (run) {
      if (why && !run.controller.signal.aborted) run.record.warnings.push(why);
      run.controller.abort();
      return;
    }
    // One that is over is left as it is; one that does not exist is NOT_FOUND.
    await this.getRun(runId);
  }

  async listRuns(): Promise<RunSummary[]> {
    const stored = await this.store.list();
    const live = new Map([...this.active.values()].map((a) => a.record).concat([...this.unsaved.values()]).map((r) => [r.id, runSummary(r)]));
    // A run not yet on disk (being set up, or waiting for a device) is listed from memory.
    const onDisk = new Set(stored.map((s) => s.id));
    const notYet = [...live.values()].filter((s) => !onDisk.has(s.id));
    return [...notYet, ...stored.map((s) => live.get(s.id) ?? s)].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async getRun(runId: string): Promise<RunRecord> {
    return this.active.get(runId)?.record ?? this.unsaved.get(runId) ?? this.notStarted.get(runId) ?? this.store.get(runId);
  }

  async getRunProgress(runId: string): Promise<RunProgress | null> {
    const active = this.active.get(runId);
    if (active) return active.progress;
    // A run that is not in progress has none; one that does not exist is NOT_FOUND.
    await this.getRun(runId);
    return null;
  }

  async deleteRun(runId: string): Promise<void> {
    if (this.active.has(runId)) throw new GpuLabError('INVALID_ARGUMENT', `Run ${runId} is in progress: cancel it before deleting it`, { runId });
    if (this.notStarted.delete(runId)) return;
    if (this.unsaved.delete(runId)) {
      // Its stale copy on disk, if one is left: this runner's own, which delete() would refuse while it runs.
      await this.store.discard(runId);
      return;
    }
    await this.store.delete(runId);
  }

  async exportRun(runId: string, format: ExportFormat): Promise<ExportedRun> {
    if (!['json', 'csv', 'csv-samples'].includes(format)) throw new GpuLabError('INVALID_ARGUMENT', `Unknown export format "${String(format)}": json, csv or csv-samples`);
    return exportRun(await this.getRun(runId), format);
  }
}
