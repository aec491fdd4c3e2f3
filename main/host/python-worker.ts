// The Python peers' worker, from the compute host's side: `python3 -m gpu_lab_peers` started with the package's
// folder on PYTHONPATH, asked one request at a time over its stdin, its answers read line by line from its stdout
// and checked (common/peer-protocol.ts) before they are believed. Whatever goes wrong — no interpreter, a module
// that will not import, a line that is not the protocol, a worker that hangs or dies — fails the request with the
// reason and the worker is stopped; the next request starts a fresh one. The worker exits when its stdin closes, so
// it dies with this process however this one ends. The interpreter is the one the person at the machine named
// (GPU_LAB_PYTHON, set from `--python` or the app's settings), never one a request names.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

import { GpuLabError, isErrorCode } from '../common/errors.ts';
import { computeProcessEnded, computeProcessStarted } from './cpu-quiet.ts';
import { DEFAULT_PYTHON, PEER_ANSWER, PEER_PROBE, PEER_READY, PYTHON_ENV } from '../common/peer-protocol.ts';
import type { PeerCall, PeerLibrary, PeersReport } from '../common/peer-protocol.ts';

export const PEERS_DIR_ENV = 'GPU_LAB_PEERS_DIR';
const START_TIMEOUT_MS = 30_000;
const STDERR_KEPT = 4000;

// The interpreter: the one named, else python3 from PATH.
export function pythonCommand(env: Record<string, string | undefined> = process.env): string {
  return env[PYTHON_ENV] || DEFAULT_PYTHON;
}

// The folder holding the gpu_lab_peers package: named by the shell (the installed app's resources), else found
// above this file (a checkout, run from main/host or dist/main/host).
export function peersDir(env: Record<string, string | undefined> = process.env): string | null {
  const named = env[PEERS_DIR_ENV];
  if (named) return existsSync(join(named, 'gpu_lab_peers', '__main__.py')) ? named : null;
  for (let dir = import.meta.dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'python', 'gpu_lab_peers', '__main__.py'))) return join(dir, 'python');
  }
  return null;
}

function failure(message: string, details?: Record<string, unknown>): GpuLabError {
  return new GpuLabError('PEER_FAILED', message, details);
}

interface Pending {
  id: number;
  resolve: (answer: Record<string, unknown>) => void;
  reject: (err: GpuLabError) => void;
  timer: NodeJS.Timeout;
}

export class PeerWorker {
  readonly python: string;
  readonly version: string;
  private readonly proc: ChildProcessWithoutNullStreams;
  private pending: Pending | null = null;
  // Requests wait their turn: the worker answers one at a time (a probe from the devices page may come while a
  // measurement is sampling), and each one's timeout starts when it is written.
  private turn: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private stderr = '';
  private dead: GpuLabError | null = null;

  private constructor(proc: ChildProcessWithoutNullStreams, python: string, version: string) {
    this.proc = proc;
    this.python = python;
    this.version = version;
  }

  // Starts the worker and waits for its ready line.
  static start(env: Record<string, string | undefined> = process.env): Promise<PeerWorker> {
    const python = pythonCommand(env);
    const dir = peersDir(env);
    if (!dir) return Promise.reject(failure(`GPU Lab's Python package (gpu_lab_peers) was not found${env[PEERS_DIR_ENV] ? ` in ${env[PEERS_DIR_ENV]}` : ''}`));
    return new Promise((resolve, reject) => {
      const proc = spawn(python, ['-m', 'gpu_lab_peers'], {
        // The package first, then whatever PYTHONPATH the user's environment already names (a venv's extras).
        env: { ...process.env, PYTHONPATH: [dir, process.env.PYTHONPATH].filter(Boolean).join(delimiter), PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      const lines = createInterface({ input: proc.stdout });
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(failure(`${python} did not start GPU Lab's worker within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      const early = (err: GpuLabError): void => {
        clearTimeout(timer);
        lines.close();
        reject(err);
      };
      proc.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)));
      proc.once('error', (err: NodeJS.ErrnoException) => {
        early(err.code === 'ENOENT' ? new GpuLabError('LIBRARY_UNAVAILABLE', `There is no Python interpreter "${python}" on this machine (set ${PYTHON_ENV} or --python to one)`, { library: 'python' }) : failure(`${python} could not be started: ${err.message}`));
      });
      // On 'close', not 'exit': only then has all it wrote to stderr arrived (a start timer bounds the wait).
      proc.once('close', (code, signal) => early(failure(`${python} exited (${signal ?? `code ${code}`}) before GPU Lab's worker was ready: ${stderr.trim().split('\n').slice(-2).join(' ') || 'it said nothing'}`)));
      lines.once('line', (line) => {
        clearTimeout(timer);
        proc.removeAllListeners('close');
        proc.removeAllListeners('error');
        let ready;
        try {
          ready = PEER_READY.parse(JSON.parse(line));
        } catch {
          proc.kill('SIGKILL');
          reject(failure(`${python} printed something other than GPU Lab's worker's ready line: ${line.slice(0, 200)}`));
          return;
        }
        const worker = new PeerWorker(proc, python, ready.python);
        // Its threads count in the CPU's quiet between it and the engine (cpu-quiet.ts).
        const pid = proc.pid;
        if (pid !== undefined) {
          computeProcessStarted(pid);
          proc.once('exit', () => computeProcessEnded(pid));
        }
        worker.stderr = stderr;
        worker.listen(lines);
        resolve(worker);
      });
    });
  }

  private listen(lines: ReturnType<typeof createInterface>): void {
    this.proc.stderr.removeAllListeners('data');
    this.proc.stderr.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_KEPT)));
    lines.on('line', (line) => this.onLine(line));
    this.proc.once('exit', (code, signal) => this.fail(failure(`the Python worker exited (${signal ?? `code ${code}`})${this.stderrTail()}`)));
    this.proc.once('error', (err) => this.fail(failure(`the Python worker failed: ${err.message}`)));
  }

  private stderrTail(): string {
    const tail = this.stderr.trim().split('\n').slice(-2).join(' ');
    return tail ? `: ${tail}` : '';
  }

  private onLine(line: string): void {
    let answer;
    try {
      answer = PEER_ANSWER.parse(JSON.parse(line));
    } catch {
      this.fail(failure(`the Python worker wrote a line that is not the protocol: ${line.slice(0, 200)}`));
      return;
    }
    const p = this.pending;
    if (!p || answer.id !== p.id) {
      this.fail(failure(`the Python worker answered a request it was not asked (id ${String(answer.id)})`));
      return;
    }
    this.pending = null;
    clearTimeout(p.timer);
    if (answer.ok) p.resolve(answer);
    else {
      const code = isErrorCode(answer.error.code) ? answer.error.code : 'PEER_FAILED';
      p.reject(new GpuLabError(code, answer.error.message, { peer: true }));
    }
  }

  // Fails what is in flight and every later call; the worker is stopped.
  private fail(err: GpuLabError): void {
    if (!this.dead) this.dead = err;
    const p = this.pending;
    this.pending = null;
    if (p) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.stop();
  }

  get alive(): boolean {
    return this.dead === null;
  }

  // One request, after those before it; its answer (ok, checked as the protocol's) or the error. A request not
  // answered in `timeoutMs` stops the worker (a hung workload cannot be interrupted from outside), as does the
  // measurement's cancellation while it is in flight.
  call(request: PeerCall, timeoutMs: number, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const answered = this.turn.then(() => this.send(request, timeoutMs, signal));
    this.turn = answered.catch(() => undefined);
    return answered;
  }

  private send(request: PeerCall, timeoutMs: number, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    const cancel = (): void => this.fail(new GpuLabError('CANCELLED', 'The measurement was cancelled'));
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new GpuLabError('TIMEOUT', `the Python worker did not answer \`${request.call}\` within ${Math.round(timeoutMs / 1000)} s; it was stopped`)), timeoutMs);
      this.pending = { id, resolve, reject, timer };
      signal?.addEventListener('abort', cancel, { once: true });
      this.proc.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
    }).finally(() => signal?.removeEventListener('abort', cancel));
  }

  // Closes its stdin (it exits by itself), and kills it if it has not within a second.
  stop(): void {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.stdin.end();
    const kill = setTimeout(() => this.proc.kill('SIGKILL'), 1000);
    kill.unref();
    this.proc.once('exit', () => clearTimeout(kill));
  }
}

// One worker per interpreter for the life of the compute host: NumPy and torch imports are paid once.
let shared: PeerWorker | null = null;

// That worker where one is running; none is started for asking.
export function currentPeerWorker(): PeerWorker | null {
  return shared?.alive ? shared : null;
}
export async function peerWorker(env: Record<string, string | undefined> = process.env): Promise<PeerWorker> {
  if (shared?.alive && shared.python === pythonCommand(env)) return shared;
  shared?.stop();
  shared = await PeerWorker.start(env);
  return shared;
}

// What the interpreter offers, each library imported in the worker to see that it really loads; never throws.
export async function probePeers(libraries: readonly PeerLibrary[], env: Record<string, string | undefined> = process.env): Promise<PeersReport> {
  const interpreter = pythonCommand(env);
  try {
    const worker = await peerWorker(env);
    const { id: _id, ok: _ok, ...answer } = await worker.call({ call: 'probe', libraries: [...libraries] }, 120_000);
    const probe = PEER_PROBE.safeParse(answer);
    if (!probe.success) return { interpreter, available: false, reason: `the worker's probe did not read: ${probe.error.issues[0]?.message ?? ''}` };
    return { interpreter, available: true, probe: probe.data };
  } catch (err) {
    return { interpreter, available: false, reason: GpuLabError.from(err).message };
  }
}
