// The compute host as an Electron utility process, behind the supervisor's launcher interface: the same entry as
// under plain Node (host-main, which answers over process.parentPort here), the same one exit however it ends.
// Electron's utilityProcess module is passed in, so that this file runs under plain Node with a fake.
import { hostEntryPath, splitLines } from '../compute/launcher.ts';
import type { ComputeHostLauncher, ComputeHostProcess, HostExit } from '../compute/launcher.ts';

// The parts of Electron's UtilityProcess and utilityProcess module used here.
export interface UtilityChild {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  on(event: 'message', listener: (message: unknown) => void): this;
  on(event: 'exit', listener: (code: number) => void): this;
  on(event: 'error', listener: (type: 'FatalError', location: string, report: string) => void): this;
  postMessage(message: unknown): void;
  kill(): boolean;
}

export interface UtilityProcessModule {
  fork(modulePath: string, args?: string[], options?: { env?: Record<string, string | undefined>; stdio?: 'pipe'; serviceName?: string }): UtilityChild;
}

class UtilityHost implements ComputeHostProcess {
  private readonly exitListeners: ((exit: HostExit) => void)[] = [];
  private exit: HostExit | null = null;
  private error: string | undefined;
  private readonly child: UtilityChild | null;

  constructor(child: UtilityChild | null, spawnError?: Error) {
    this.child = child;
    if (!child) {
      // fork() threw (called before the app was ready, no memory): reported as an exit once the supervisor listens.
      this.error = spawnError?.message ?? 'the process could not be started';
      setImmediate(() => this.ended(null));
      return;
    }
    // A V8 fatal error: Electron emits 'exit' after it, which then carries this reason.
    child.on('error', (type, location) => {
      this.error ??= `${type} at ${location}`;
    });
    child.on('exit', (code) => this.ended(code));
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  private ended(code: number | null): void {
    if (this.exit) return;
    // Electron reports an exit code only, never the signal that ended the process.
    const exit: HostExit = { code, signal: null };
    this.exit = this.error === undefined ? exit : { ...exit, error: this.error };
    for (const listener of this.exitListeners) listener(this.exit);
  }

  send(message: unknown): void {
    if (this.exit) return;
    this.child?.postMessage(message);
  }

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

  kill(): void {
    if (this.exit) return;
    const pid = this.child?.pid;
    // SIGKILL, as under plain Node: utilityProcess's kill() sends SIGTERM, which a host stuck in a kernel may never
    // act on. Before it has a pid, Electron's kill() is the only way to stop it.
    if (pid === undefined) {
      this.child?.kill();
      return;
    }
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone (ESRCH): its 'exit' is on the way.
    }
  }
}

export function utilityLauncher(utilityProcess: UtilityProcessModule): ComputeHostLauncher {
  return {
    launch(env) {
      try {
        const child = utilityProcess.fork(hostEntryPath(), [], {
          env: { ...process.env, ...env },
          stdio: 'pipe',
          serviceName: 'GPU Lab compute host',
        });
        return new UtilityHost(child);
      } catch (err) {
        return new UtilityHost(null, err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
}
