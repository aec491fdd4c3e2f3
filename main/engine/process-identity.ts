// Who a process is, beyond its pid: a pid is reused once its process is gone, so a record or a lock that names a
// process also keeps when it started, and a process counts as the one named only while both agree.
import { readFileSync } from 'node:fs';

// When a process started, in clock ticks after boot (the 22nd field of /proc/<pid>/stat); null where it cannot be
// read (no such process, not Linux).
export function processStartTicks(pid: number, proc = '/proc'): number | null {
  try {
    const text = readFileSync(`${proc}/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: the fields are counted after its closing one.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

// Whether the process named by a pid and a start time is still running: alive, and, where both start times are known,
// started when the record says (a pid reused by another process is not the one named).
export function processAlive(pid: number, startTicks: number | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (startTicks === null) return true;
  const now = processStartTicks(pid);
  return now === null || now === startTicks;
}
