// The compute host as an Electron utility process, behind the supervisor's launcher interface: the same entry as
// under plain Node (host-main, which answers over process.parentPort here), the same one exit however it ends.
// Electron's utilityProcess module is passed in, so that this file runs under plain Node with a fake.
import { HostProcessBase, hostEntryPath } from '../engine/launcher.ts';
import type { ComputeHostLauncher } from '../engine/launcher.ts';

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

class UtilityHost extends HostProcessBase<UtilityChild> {
  constructor(child: UtilityChild | null, spawnError?: Error) {
    super(child, spawnError);
    if (!child) return;
    // A V8 fatal error: Electron emits 'exit' after it, which then carries this reason.
    child.on('error', (type, location) => {
      this.error ??= `${type} at ${location}`;
    });
    // Electron reports an exit code only, never the signal that ended the process.
    child.on('exit', (code) => this.ended({ code, signal: null }));
  }

  send(message: unknown): void {
    if (this.exit) return;
    this.child?.postMessage(message);
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

// `appEnv`: what the app itself tells every host (the packaged addon's path, the Python interpreter of its
// settings), over main's own environment; a function is asked at each launch, so a host started after a setting
// changed gets the new value.
export function utilityLauncher(utilityProcess: UtilityProcessModule, appEnv: Record<string, string> | (() => Record<string, string>) = {}): ComputeHostLauncher {
  return {
    launch(env) {
      try {
        const child = utilityProcess.fork(hostEntryPath(), [], {
          env: { ...process.env, ...(typeof appEnv === 'function' ? appEnv() : appEnv), ...env },
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
