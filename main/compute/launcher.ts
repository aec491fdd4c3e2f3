// Starting the compute host process. The supervisor only sees this small interface, so that the Electron shell can
// start the same entry with utilityProcess.fork and plain Node with child_process.fork.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface HostExit {
  code: number | null;
  signal: string | null;
}

export interface ComputeHostProcess {
  readonly pid: number | undefined;
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (exit: HostExit) => void): void;
  // Lines the process wrote to stdout/stderr, for the supervisor to log with the pid.
  onOutput(listener: (line: string, stream: 'stdout' | 'stderr') => void): void;
  kill(): void;
}

export interface ComputeHostLauncher {
  launch(env: Record<string, string>): ComputeHostProcess;
}

// The host's entry sits beside this file: host-main.ts from sources, host-main.js once compiled.
export function hostEntryPath(): string {
  const self = fileURLToPath(import.meta.url);
  return self.replace(/launcher\.(ts|js)$/, (_m, ext: string) => `host-main.${ext}`);
}

export const forkLauncher: ComputeHostLauncher = {
  launch(env) {
    const child = fork(hostEntryPath(), [], {
      env: { ...process.env, ...env },
      // The parent's flags (a test runner's loaders, inspectors) are not the host's business.
      execArgv: ['--disable-warning=ExperimentalWarning'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const splitLines = (stream: NodeJS.ReadableStream | null, name: 'stdout' | 'stderr', listener: (line: string, s: 'stdout' | 'stderr') => void): void => {
      let pending = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) listener(line, name);
      });
    };
    return {
      get pid() {
        return child.pid;
      },
      send(message) {
        if (child.connected) child.send(message as object);
      },
      onMessage(listener) {
        child.on('message', listener);
      },
      onExit(listener) {
        child.on('exit', (code, signal) => listener({ code, signal }));
      },
      onOutput(listener) {
        splitLines(child.stdout, 'stdout', listener);
        splitLines(child.stderr, 'stderr', listener);
      },
      kill() {
        child.kill('SIGKILL');
      },
    };
  },
};
