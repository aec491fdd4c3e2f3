// Watching real processes from a test, through /proc: whether one is gone, and the compute host a command started,
// once it is in the middle of measuring. Shared by the tests that signal the CLI and serve.
import { readFileSync, readdirSync } from 'node:fs';

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

// The compute host `parent` started, once it has spent a second of CPU time: it is in the middle of measuring.
export async function measuringHost(parent: number): Promise<number> {
  const host = await until('the compute host', () => readdirSync('/proc').map(Number).find((pid) => pid > 0 && stat(pid)?.ppid === parent && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('host-main')), 60_000);
  await until('the host to be measuring', () => (stat(host)?.ticks ?? 0) > 100, 120_000);
  return host;
}
