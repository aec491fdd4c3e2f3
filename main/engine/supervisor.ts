// The supervisor of the compute host: starts it, checks it is alive with heartbeats, gives every request a timeout,
// forwards cancellations, and when the host dies (a segfault, an abort, a hung kernel killed on timeout) fails the
// requests in flight with COMPUTE_HOST_CRASHED and the exit code or signal. The next request starts a fresh host.
import { PEERS_REPORT } from '../common/peer-protocol.ts';
import type { PeerLibrary, PeersReport } from '../common/peer-protocol.ts';
import { z } from 'zod';

import { DEVICE_REPORT, TELEMETRY } from '../common/device-report.ts';
import type { DeviceReport, Telemetry } from '../common/device-report.ts';
import { DEVICE_LIST } from '../common/devices.ts';
import type { DeviceList } from '../common/devices.ts';
import { GpuLabError } from '../common/errors.ts';
import type { ErrorPayload } from '../common/errors.ts';
import { MEASUREMENT_RESULT } from '../common/measurement.ts';
import type { MeasurementInput, MeasurementResult } from '../common/measurement.ts';
import { KERNEL_RUN_RESULT } from '../common/playground.ts';
import type { KernelJob } from '../common/kernel-job.ts';
import type { KernelRunResult } from '../common/playground.ts';
import { forkLauncher } from './launcher.ts';
import type { ComputeHostLauncher, ComputeHostProcess, HostExit } from './launcher.ts';
import { FROM_HOST, TEST_HOOKS_ENV } from '../common/host-protocol.ts';
import type { ToHost } from '../common/host-protocol.ts';

export interface HostEnvironment {
  devices: DeviceList;
  versions: Record<string, string>;
  pid: number;
}

const HOST_ENVIRONMENT = z.strictObject({ devices: DEVICE_LIST, versions: z.record(z.string(), z.string()), pid: z.int() });

export interface SupervisorOptions {
  launcher?: ComputeHostLauncher;
  heartbeatMs?: number;
  // No pong for this long: the host is hung (its JS thread, not a kernel: kernels run off that thread) and is killed.
  heartbeatTimeoutMs?: number;
  startTimeoutMs?: number;
  // After a cancel, how long the current sample may take to finish before the host is killed.
  cancelGraceMs?: number;
  // Enables the crash hook in the host (tests only).
  testHooks?: boolean;
  log?: (line: string) => void;
}

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: GpuLabError) => void;
  onProgress?: (done: number, total: number) => void;
}

interface Host {
  proc: ComputeHostProcess;
  pid: number;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  lastPong: number;
  // Said ready: until then the start's own time limit governs it (a host loading its modules on a busy machine answers
  // no heartbeat yet), and the heartbeats' from then on.
  started: boolean;
  heartbeat: NodeJS.Timeout;
  // Why the supervisor killed it, when it did: the crash error says so.
  killReason: string | null;
  stopping: boolean;
  // Renewed (renew()): no new request goes to it; it is stopped once those it has are answered.
  retiring: boolean;
  // Requests waiting for it to start, not yet sent.
  waiting: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

export class ComputeHostSupervisor {
  private readonly launcher: ComputeHostLauncher;
  private readonly opts: Required<Omit<SupervisorOptions, 'launcher'>>;
  private host: Host | null = null;
  // Renewed hosts still answering what they were asked before.
  private readonly retiring = new Set<Host>();
  private nextId = 1;
  // Exits seen so far: how many hosts died and were replaced.
  restarts = 0;

  constructor(options: SupervisorOptions = {}) {
    this.launcher = options.launcher ?? forkLauncher;
    this.opts = {
      heartbeatMs: options.heartbeatMs ?? 2000,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 20_000,
      startTimeoutMs: options.startTimeoutMs ?? 30_000,
      cancelGraceMs: options.cancelGraceMs ?? 10_000,
      testHooks: options.testHooks ?? false,
      log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
    };
  }

  get pid(): number | null {
    return this.host?.pid ?? null;
  }

  private log(host: Host | null, text: string): void {
    this.opts.log(`[compute-host${host ? ` pid ${host.pid}` : ''}] ${text}`);
  }

  private launch(): Host {
    const env: Record<string, string> = this.opts.testHooks ? { [TEST_HOOKS_ENV]: '1' } : {};
    const proc = this.launcher.launch(env);
    let markReady: () => void = () => undefined;
    let failStart: (e: GpuLabError) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failStart = reject;
    });
    const host: Host = {
      proc,
      pid: proc.pid ?? -1,
      ready,
      pending: new Map(),
      lastPong: Date.now(),
      started: false,
      heartbeat: setInterval(() => this.beat(host), this.opts.heartbeatMs),
      killReason: null,
      stopping: false,
      retiring: false,
      waiting: 0,
    };
    host.heartbeat.unref();
    const startTimer = setTimeout(() => {
      failStart(new GpuLabError('TIMEOUT', `The compute host did not start within ${this.opts.startTimeoutMs} ms`));
      this.kill(host, 'did not start in time');
    }, this.opts.startTimeoutMs);
    startTimer.unref();
    proc.onOutput((line, stream) => this.log(host, `${stream}: ${line}`));
    proc.onMessage((raw) => {
      const parsed = FROM_HOST.safeParse(raw);
      if (!parsed.success) {
        this.log(host, `ignored a malformed message: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
        return;
      }
      const msg = parsed.data;
      switch (msg.type) {
        case 'ready':
          clearTimeout(startTimer);
          // An Electron utility process has no pid until it has started: the host's own word is the one to keep.
          host.pid = msg.pid;
          host.started = true;
          host.lastPong = Date.now();
          this.log(host, 'ready');
          markReady();
          return;
        case 'pong':
          host.lastPong = Date.now();
          return;
        case 'log':
          this.log(host, `${msg.level}: ${msg.message}`);
          return;
        case 'progress':
          host.pending.get(msg.id)?.onProgress?.(msg.done, msg.total);
          return;
        case 'result':
          host.pending.get(msg.id)?.resolve(msg.result);
          host.pending.delete(msg.id);
          return;
        case 'error':
          // The host kills itself after this answer (a kernel, or a WebGPU device lost, left its device unusable): no
          // request may go to it in the moment before its exit arrives.
          if (msg.error.details?.hostRestarted === true) this.retire(host, `ended itself after ${msg.error.code} left its device unusable`);
          host.pending.get(msg.id)?.reject(new GpuLabError(msg.error.code, msg.error.message, msg.error.details));
          host.pending.delete(msg.id);
          return;
      }
    });
    proc.onExit((exit) => {
      clearTimeout(startTimer);
      this.onExit(host, exit);
      failStart(crashError(host, exit));
    });
    ready.catch(() => undefined);
    return host;
  }

  private onExit(host: Host, exit: HostExit): void {
    clearInterval(host.heartbeat);
    if (this.host === host) this.host = null;
    this.retiring.delete(host);
    const how = `${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`}${exit.error ? `; ${exit.error}` : ''}`;
    if (host.stopping) {
      this.log(host, `stopped (${how})`);
    } else {
      this.restarts++;
      this.log(host, `died (${how}${host.killReason ? `; killed because it ${host.killReason}` : ''}); the next request starts a new host`);
    }
    const error = host.stopping ? new GpuLabError('CANCELLED', 'The compute host was stopped') : crashError(host, exit);
    for (const p of host.pending.values()) p.reject(error);
    host.pending.clear();
  }

  private beat(host: Host): void {
    if (host.retiring && idle(host)) {
      void this.stopHost(host);
      return;
    }
    if (host.started && Date.now() - host.lastPong > this.opts.heartbeatTimeoutMs) {
      this.kill(host, `stopped answering heartbeats for ${Math.round((Date.now() - host.lastPong) / 1000)} s`);
      return;
    }
    host.proc.send({ type: 'ping', id: 0 } satisfies ToHost);
  }

  // Detached, not killed: it is on its way out by itself.
  private retire(host: Host, reason: string): void {
    if (host.killReason === null) host.killReason = reason;
    if (this.host === host) this.host = null;
  }

  private kill(host: Host, reason: string): void {
    if (host.killReason === null) host.killReason = reason;
    // Detached at once: a request made before the exit arrives goes to a fresh host, not to this dying one. The
    // requests still pending on it fail when the exit arrives.
    if (this.host === host) this.host = null;
    clearInterval(host.heartbeat);
    this.log(host, `killing: it ${reason}`);
    host.proc.kill();
  }

  // The running host, started if need be.
  private current(): Host {
    if (!this.host) this.host = this.launch();
    return this.host;
  }

  // Once `host` is ready. A cancel while it starts (CUDA can take seconds to initialise) answers at once; the host
  // starts on for the next request.
  private async ready(host: Host, signal?: AbortSignal): Promise<void> {
    if (!signal) {
      await host.ready;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => reject(notSent());
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      host.ready.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  private async request(message: { type: 'measure'; measurement: unknown } | { type: 'kernel'; job: KernelJob } | { type: 'environment' } | { type: 'inspect' } | { type: 'telemetry'; device: string } | { type: 'peers'; libraries: PeerLibrary[] }, options: RequestOptions = {}): Promise<unknown> {
    const { signal, onProgress } = options;
    if (signal?.aborted) throw notSent();
    const host = this.current();
    // Counted while it waits for the host to start, so that a renewed host is not stopped under it.
    host.waiting++;
    try {
      await this.ready(host, signal);
    } finally {
      host.waiting--;
    }
    // From here to the send nothing yields, so an abort is either seen here or reaches the listener added below.
    if (signal?.aborted) throw notSent();
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      let graceTimer: NodeJS.Timeout | undefined;
      const finish = (): void => {
        clearTimeout(timer);
        clearTimeout(graceTimer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        host.proc.send({ type: 'cancel', id } satisfies ToHost);
        graceTimer = setTimeout(() => {
          const pending = host.pending.get(id);
          if (!pending) return;
          host.pending.delete(id);
          pending.reject(new GpuLabError('CANCELLED', `Cancelled; the compute host did not stop within ${this.opts.cancelGraceMs} ms and was restarted`));
          this.kill(host, 'did not stop after a cancel');
        }, this.opts.cancelGraceMs);
      };
      const timer = setTimeout(() => {
        const pending = host.pending.get(id);
        if (!pending) return;
        host.pending.delete(id);
        pending.reject(new GpuLabError('TIMEOUT', `The measurement took longer than its limit of ${Math.round(timeoutMs / 1000)} s`, { timeoutMs }));
        // Native work may still be running on a worker thread; only a fresh process is known to be clean.
        this.kill(host, `ran past a request's ${Math.round(timeoutMs / 1000)} s limit`);
      }, timeoutMs);
      host.pending.set(id, {
        resolve: (v) => {
          finish();
          resolve(v);
        },
        reject: (e) => {
          finish();
          reject(e);
        },
        onProgress,
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      host.proc.send({ ...message, id } as ToHost);
    });
  }

  async measure(measurement: MeasurementInput, options: RequestOptions = {}): Promise<MeasurementResult> {
    const raw = await this.request({ type: 'measure', measurement }, options);
    const parsed = MEASUREMENT_RESULT.safeParse(raw);
    if (!parsed.success) throw new GpuLabError('NATIVE_ERROR', `The compute host sent a malformed result: ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  }

  // A kernel playground run. A kernel that faults or outlives its watchdog fails the request with the CUDA error,
  // and the host exits after answering: the next request starts a fresh one.
  async runKernel(job: KernelJob, options: RequestOptions = {}): Promise<KernelRunResult> {
    const raw = await this.request({ type: 'kernel', job }, { timeoutMs: 180_000, ...options });
    const parsed = KERNEL_RUN_RESULT.safeParse(raw);
    if (!parsed.success) throw new GpuLabError('NATIVE_ERROR', `The compute host sent a malformed kernel result: ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  }

  async environment(options: RequestOptions = {}): Promise<HostEnvironment> {
    const raw = await this.request({ type: 'environment' }, { timeoutMs: 60_000, ...options });
    const parsed = HOST_ENVIRONMENT.safeParse(raw);
    if (!parsed.success) throw new GpuLabError('NATIVE_ERROR', `The compute host sent a malformed environment: ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  }

  async inspect(options: RequestOptions = {}): Promise<DeviceReport> {
    const raw = await this.request({ type: 'inspect' }, { timeoutMs: 60_000, ...options });
    const parsed = DEVICE_REPORT.safeParse(raw);
    if (!parsed.success) throw new GpuLabError('NATIVE_ERROR', `The compute host sent a malformed device report: ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  }

  // What the Python interpreter the host would use offers the labs' peer series; never throws for a missing one.
  async peers(libraries: readonly PeerLibrary[], options: RequestOptions = {}): Promise<PeersReport> {
    const raw = await this.request({ type: 'peers', libraries: [...libraries] }, { timeoutMs: 180_000, ...options });
    const parsed = PEERS_REPORT.safeParse(raw);
    if (!parsed.success) throw new GpuLabError('NATIVE_ERROR', `The compute host sent a malformed peers report: ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  }

  async telemetry(device: string, options: RequestOptions = {}): Promise<Telemetry> {
    const raw = await this.request({ type: 'telemetry', device }, { timeoutMs: 30_000, ...options });
    const parsed = TELEMETRY.safeParse(raw);
    if (!parsed.success) throw new GpuLabError('NATIVE_ERROR', `The compute host sent a malformed telemetry reading: ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  }

  // A run's points are all measured: the host lets go of the inputs it kept for the run's next point now, rather than
  // when they time out. Said to the host running now, if one has started; nothing to answer.
  runEnded(): void {
    const host = this.host;
    if (host?.started && !host.stopping) host.proc.send({ type: 'runEnded' } satisfies ToHost);
  }

  // Test hook: makes the host die for real (process.abort() or SIGSEGV). Needs testHooks: true.
  async crashForTest(how: 'abort' | 'segfault'): Promise<void> {
    const host = this.current();
    await host.ready;
    host.proc.send({ type: 'crash', how } satisfies ToHost);
  }

  // From now on requests go to a fresh host, started with the launcher's environment as it is then (the app's
  // Python interpreter changed, say). The host running now answers what it was already asked — a measurement, a
  // kernel, a probe — and is stopped once it has nothing left to answer.
  renew(): void {
    const host = this.host;
    if (!host) return;
    this.host = null;
    host.retiring = true;
    this.retiring.add(host);
    this.log(host, 'renewed: later requests go to a new host');
    if (idle(host)) void this.stopHost(host);
  }

  private stopHost(host: Host): Promise<void> {
    if (this.host === host) this.host = null;
    const exited = new Promise<void>((resolve) => host.proc.onExit(() => resolve()));
    if (!host.stopping) {
      host.stopping = true;
      clearInterval(host.heartbeat);
      host.proc.kill();
    }
    return exited;
  }

  // Stops the host, and any renewed one still finishing a request (which fails with CANCELLED).
  async stop(): Promise<void> {
    const hosts = [...this.retiring, ...(this.host ? [this.host] : [])];
    await Promise.all(hosts.map((host) => this.stopHost(host)));
  }
}

function idle(host: Host): boolean {
  return host.pending.size === 0 && host.waiting === 0;
}

function notSent(): GpuLabError {
  return new GpuLabError('CANCELLED', 'Cancelled before it was sent to the compute host');
}

function crashError(host: Host, exit: HostExit): GpuLabError {
  const how = exit.signal ? `was killed by signal ${exit.signal}` : `exited with code ${exit.code}`;
  const why = `${host.killReason ? ` after it ${host.killReason}` : ''}${exit.error ? ` (${exit.error})` : ''}`;
  const details = { pid: host.pid, exitCode: exit.code, signal: exit.signal, killReason: host.killReason, error: exit.error ?? null };
  const payload: ErrorPayload = {
    code: 'COMPUTE_HOST_CRASHED',
    // No pid: the process never started.
    message: host.pid < 0 ? `The compute host could not be started: ${exit.error ?? how}` : `The compute host (pid ${host.pid}) ${how}${why}`,
    details,
  };
  return new GpuLabError(payload.code, payload.message, payload.details);
}
