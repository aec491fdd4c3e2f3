// Time the hypervisor gave to other guests while this one's CPUs wanted to run ("steal" in /proc/stat, Linux only).
// On a shared virtual machine it is what no method of measuring can remove: a threaded loop waits for its slowest
// thread, and a thread whose virtual CPU is not running waits for the host. On the GPU machine one VM lost 21 % of
// its busy time this way during a CPU experiment; another read 0.1–1.4 % over the break-even labs while their noisy
// points stayed near 20 % (scripts/experiments/NOTES.md): steal explains some machines, not all. A run records the
// share, so that a noisy run says which kind of machine it ran on, and a finding says so when it is high.
import { readFileSync, readdirSync } from 'node:fs';

export interface CpuTimes {
  // Clock ticks, all CPUs together: spent running (user, nice, system, irq, softirq) and stolen.
  busy: number;
  steal: number;
}

export function parseCpuTimes(procStat: string): CpuTimes | null {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  const f = line?.trim().split(/\s+/).slice(1).map(Number);
  if (!f || f.length < 8 || f.some((v) => !Number.isFinite(v))) return null;
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f;
  return { busy: user + nice + system + irq + softirq, steal };
}

export function readCpuTimes(): CpuTimes | null {
  try {
    return parseCpuTimes(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}

// The share of the time the CPUs wanted to run that was stolen between two readings; null where it cannot be read
// or nothing ran.
export function stealShare(before: CpuTimes | null, after: CpuTimes | null): number | null {
  if (!before || !after) return null;
  const steal = after.steal - before.steal;
  const wanted = after.busy - before.busy + steal;
  return wanted > 0 && steal >= 0 ? steal / wanted : null;
}

// The CPUs' current clock, the mean of cpufreq's scaling_cur_freq over every CPU that has one, in MHz; null where
// Linux does not expose it (most virtual machines, other systems). Read before and after a point, it says whether the
// clock fell while the point was measured.
export function readCpuClockMHz(root = '/sys/devices/system/cpu'): number | null {
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => /^cpu\d+$/.test(n));
  } catch {
    return null;
  }
  let sum = 0;
  let count = 0;
  for (const name of names) {
    try {
      const khz = Number.parseInt(readFileSync(`${root}/${name}/cpufreq/scaling_cur_freq`, 'utf8'), 10);
      if (Number.isFinite(khz) && khz > 0) {
        sum += khz / 1000;
        count++;
      }
    } catch {
      // This CPU has no cpufreq entry.
    }
  }
  return count ? sum / count : null;
}
