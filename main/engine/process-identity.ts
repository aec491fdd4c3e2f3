// Who a process is, beyond its pid: a pid is reused once its process is gone, so a record or a lock that names a
// process also keeps when it started, and a process counts as the one named only while both agree. And which machine
// it runs on: a pid means something only there, and a data folder may be shared by several (a cluster's home
// directory, a synced folder), so a record also names its machine.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

import type { RunnerHost } from '../common/run-record.ts';

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

// A machine as a record names it (common/run-record.ts, RunnerHost). The host name alone is not enough: containers and cloned images repeat names, and
// a node of a cluster keeps its name across reboots, after which no pid of before means anything. So beside it: the
// machine's id (systemd's /etc/machine-id, fixed at installation) and the boot's id (a new one at every boot), each
// null where the system has none. Both are kept as systemd advises an application to keep them, hashed with the
// application's name: a record is shared (exports, reports), the machine id is not to be.
export type MachineIdentity = RunnerHost;

function firstLine(paths: readonly string[]): string | null {
  for (const path of paths) {
    try {
      const text = readFileSync(path, 'utf8').trim();
      if (text) return text;
    } catch {
      // Not on this system; try the next.
    }
  }
  return null;
}

function appSpecific(id: string | null): string | null {
  return id === null ? null : createHmac('sha256', id).update('gpu-lab').digest('hex').slice(0, 32);
}

let here: MachineIdentity | undefined;

// This machine, read once: neither its id nor its boot changes while a process runs.
export function thisMachine(): MachineIdentity {
  here ??= {
    name: hostname(),
    machineId: appSpecific(firstLine(['/etc/machine-id', '/var/lib/dbus/machine-id'])),
    bootId: appSpecific(firstLine(['/proc/sys/kernel/random/boot_id'])),
  };
  return here;
}

// Where a process named on `recorded` runs, seen from `current`: this boot of this machine (its pid can be asked
// about), an earlier boot of this machine (it is certainly gone), or another machine, or one this one cannot tell
// from itself (nothing can be said of its process). The same machine is the same name and, where both know it, the
// same machine id; an earlier boot needs both machine ids to agree, since two machines of one name without ids (two
// containers) also differ in their boot ids.
export function whereRuns(recorded: MachineIdentity, current: MachineIdentity = thisMachine()): 'this-boot' | 'earlier-boot' | 'elsewhere' {
  if (recorded.name !== current.name) return 'elsewhere';
  const bothIds = recorded.machineId !== null && current.machineId !== null;
  if (bothIds && recorded.machineId !== current.machineId) return 'elsewhere';
  if (recorded.bootId !== null && current.bootId !== null && recorded.bootId !== current.bootId) return bothIds ? 'earlier-boot' : 'elsewhere';
  return 'this-boot';
}
