// Starting the compute host process. The supervisor only sees this small interface, so that the Electron shell can
// start the same entry with utilityProcess.fork and plain Node with child_process.fork.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface HostExit {
  code: number | null;
  signal: string | null;
  // Why the process could not be started or talked to (`spawn … EAGAIN`, `write EPIPE`), when that is how it ended.
  error?: string;
}

export interface ComputeHostProcess {
  readonly pid: number | undefined;
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  // Called once, however the process ended; at once for a listener added after that.
  onExit(listener: (exit: HostExit) => void): void;
  // Lines the process wrote to stdout/stderr, for the supervisor to log with the pid.
  onOutput(listener: (line: string, stream: 'stdout' | 'stderr') => void): void;
  kill(): void;
}

export interface ComputeHostLauncher {
  launch(env: Record<string, string>): ComputeHostProcess;
}

// The host's entry is main/host/host-main beside this folder: host-main.ts from sources, host-main.js once compiled.
// Named by path, never imported: the parent side must not load what the host loads.
export function hostEntryPath(): string {
  const self = fileURLToPath(import.meta.url);
  return self.replace(/engine([\\/])launcher\.(ts|js)$/, (_m, sep: string, ext: string) => `host${sep}host-main.${ext}`);
}

function splitLines(stream: NodeJS.ReadableStream | null, name: 'stdout' | 'stderr', listener: (line: string, s: 'stdout' | 'stderr') => void): void {
  let pending = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) listener(line, name);
  });
}

// The part of a started host process that both shells share: one exit however it ends (reported once, also to a
// listener added after it), its output split into lines, its messages passed on. A shell adds how to send, how to
// kill and which of its process's events mean an exit.
interface HostChild {
  readonly pid?: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export abstract class HostProcessBase<C extends HostChild> implements ComputeHostProcess {
  private readonly exitListeners: ((exit: HostExit) => void)[] = [];
  protected exit: HostExit | null = null;
  protected error: string | undefined;
  protected readonly child: C | null;

  constructor(child: C | null, spawnError?: Error) {
    this.child = child;
    if (!child) {
      // The start itself threw (no memory, an app not ready): reported as an exit once the supervisor listens.
      this.error = spawnError?.message ?? 'the process could not be started';
      setImmediate(() => this.ended({ code: null, signal: null }));
    }
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  protected ended(exit: HostExit): void {
    if (this.exit) return;
    this.exit = this.error === undefined ? exit : { ...exit, error: this.error };
    for (const listener of this.exitListeners) listener(this.exit);
  }

  abstract send(message: unknown): void;
  abstract kill(): void;

  onMessage(listener: (message: unknown) => void): void {
    this.child?.on('message', listener);
  }

  onExit(listener: (exit: HostExit) => void): void {
    const exit = this.exit;
    if (exit) queueMicrotask(() => listener(exit));
    else this.exitListeners.push(listener);
  }

  onOutput(listener: (line: string, stream: 'stdout' | 'stderr') => void): void {
    splitLines(this.child?.stdout ?? null, 'stdout', listener);
    splitLines(this.child?.stderr ?? null, 'stderr', listener);
  }
}

// A forked child whose every failure ends as one exit. Node reports a failed spawn (EAGAIN, ENOENT) and a write to
// a channel whose other end just died (EPIPE) as an 'error' event, which kills the parent when nobody listens.
class ForkedHost extends HostProcessBase<ChildProcess> {
  constructor(child: ChildProcess | null, spawnError?: Error) {
    super(child, spawnError);
    if (!child) return;
    child.on('error', (err) => this.failed(err));
    child.on('exit', (code, signal) => this.ended({ code, signal }));
  }

  private failed(err: Error): void {
    this.error ??= err.message;
    // Never spawned: no 'exit' will follow. Spawned: make sure it goes, and report it when it has.
    if (this.child?.pid === undefined) this.ended({ code: null, signal: null });
    else this.child.kill('SIGKILL');
  }

  send(message: unknown): void {
    const child = this.child;
    if (!child?.connected || this.exit) return;
    child.send(message as object, (err) => {
      if (err) this.failed(err);
    });
  }

  kill(): void {
    this.child?.kill('SIGKILL');
  }
}

export interface ForkLauncherOptions {
  // The Node binary to start (default: this one). Tests point it at a missing file to see a failed spawn.
  execPath?: string;
}

export function createForkLauncher(options: ForkLauncherOptions = {}): ComputeHostLauncher {
  return {
    launch(env) {
      try {
        const child = fork(hostEntryPath(), [], {
          env: { ...process.env, ...env },
          execPath: options.execPath ?? process.execPath,
          // The parent's flags (a test runner's loaders, inspectors) are not the host's business.
          execArgv: ['--disable-warning=ExperimentalWarning'],
          stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
          serialization: 'json',
        });
        return new ForkedHost(child);
      } catch (err) {
        return new ForkedHost(null, err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
}

export const forkLauncher: ComputeHostLauncher = createForkLauncher();
