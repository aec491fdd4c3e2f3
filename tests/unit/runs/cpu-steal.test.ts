import { describe, expect, it } from 'vitest';

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parseCpuTimes, readCpuClockMHz, readCpuTimes, stealShare } from '../../../main/runs/cpu-steal.ts';

// Two readings of /proc/stat on the GPU machine's VM, 17 s apart, around a CPU benchmark on its 16 vCPUs.
const BEFORE = 'cpu  36695 0 6700 339883 383 0 184 3878 0 0\ncpu0 2290 0 420 21240 20 0 11 240 0 0\n';
const AFTER = 'cpu  40068 0 6859 351446 383 0 197 4807 0 0\ncpu0 2500 0 430 21900 20 0 12 300 0 0\n';

describe('CPU steal time', () => {
  it('reads the share of busy time the hypervisor took between two readings', () => {
    // 929 ticks stolen against 3373 user + 159 system + 13 softirq run.
    expect(stealShare(parseCpuTimes(BEFORE), parseCpuTimes(AFTER))).toBeCloseTo(929 / (3373 + 159 + 13 + 929), 6);
  });

  it('says nothing where it cannot: no readings, nothing run, or counters that went back', () => {
    expect(parseCpuTimes('intr 12 0\n')).toBeNull();
    expect(parseCpuTimes('cpu  1 2 x 4 5 6 7 8\n')).toBeNull();
    expect(stealShare(null, parseCpuTimes(AFTER))).toBeNull();
    expect(stealShare(parseCpuTimes(BEFORE), parseCpuTimes(BEFORE))).toBeNull();
    expect(stealShare(parseCpuTimes(AFTER), parseCpuTimes(BEFORE))).toBeNull();
  });

  it('reads this machine (Linux) without failing', () => {
    const t = readCpuTimes();
    if (process.platform === 'linux') expect(t?.busy).toBeGreaterThan(0);
  });
});

describe('a run on a machine whose hypervisor steals CPU time', () => {
  it('warns, in both languages, from 5 % of the busy time stolen, and not below', async () => {
    const { runFindings } = await import('../../../main/runs/run-findings.ts');
    const { findingText } = await import('../../../main/labs/lab-text.ts');
    expect(runFindings([], 0.049).find((f) => f.id === 'cpu-steal')).toBeUndefined();
    expect(runFindings([], null).find((f) => f.id === 'cpu-steal')).toBeUndefined();
    const f = runFindings([], 0.21).find((x) => x.id === 'cpu-steal');
    if (!f) throw new Error('no steal finding at 21 %');
    expect(f.tone).toBe('warning');
    expect(findingText(f, 'en')).toMatch(/^The hypervisor gave 21 % of this machine's CPU time to other guests/);
    expect(findingText(f, 'es')).toMatch(/^El hipervisor cedió el 21 % del tiempo de CPU/);
  });
});

describe('the CPU clock', () => {
  it('is the mean of every CPU’s cpufreq reading, in MHz, and null where none can be read', () => {
    const root = mkdtempSync(join(tmpdir(), 'gpu-lab-cpufreq-'));
    for (const [cpu, khz] of [['cpu0', '3000000'], ['cpu1', '2000000\n']] as const) {
      mkdirSync(join(root, cpu, 'cpufreq'), { recursive: true });
      writeFileSync(join(root, cpu, 'cpufreq', 'scaling_cur_freq'), khz);
    }
    // A CPU without cpufreq and an entry that is not a CPU are left out.
    mkdirSync(join(root, 'cpu2'));
    mkdirSync(join(root, 'cpufreq'));
    expect(readCpuClockMHz(root)).toBe(2500);
    expect(readCpuClockMHz(join(root, 'cpu2'))).toBeNull();
    expect(readCpuClockMHz(join(root, 'missing'))).toBeNull();
  });
});
