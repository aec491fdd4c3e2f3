// Watching real processes from a test, through /proc: whether one is gone, and the compute host a command started,
// once it is in the middle of measuring. Shared by the tests that signal the CLI and serve.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// /proc/<pid>/stat: its state, parent and CPU time in clock ticks (user + system); null once it is gone.
export function stat(pid: number): { state: string; ppid: number; ticks: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: f[0] ?? '', ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

// Gone, or a zombie no process has reaped yet (a container's first process may never reap): it computes nothing.
export function gone(pid: number): boolean {
  const s = stat(pid);
  return s === null || s.state === 'Z' || s.state === 'X';
}

export async function until<T>(what: string, probe: () => T | null | undefined | false, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// The compute host `parent` started, once it is in the middle of measuring: the run is stored as running under
// `dataDir` (it holds its devices; before that a stop leaves no record, by design), and the host has spent half a
// second of CPU time since. CPU time alone misleads on a loaded machine: the host's start (the BLAS choice, the
// device list) may take a second of it before the run begins.
export async function measuringHost(parent: number, dataDir: string): Promise<number> {
  const host = await until('the compute host', () => readdirSync('/proc').map(Number).find((pid) => pid > 0 && stat(pid)?.ppid === parent && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('host-main')), 60_000);
  await until('the run to be stored as running', () => storedStatuses(dataDir).includes('running'), 120_000);
  const from = stat(host)?.ticks ?? 0;
  await until('the host to be measuring', () => (stat(host)?.ticks ?? 0) > from + 50, 120_000);
  return host;
}

// The status of each run record stored under `dataDir`; a file being written is skipped.
export function storedStatuses(dataDir: string): string[] {
  const dir = join(dataDir, 'runs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      try {
        return [(JSON.parse(readFileSync(join(dir, f), 'utf8')) as { status: string }).status];
      } catch {
        return [];
      }
    });
}
