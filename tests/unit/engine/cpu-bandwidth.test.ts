// The CPU's memory bandwidth is measured by the compute host (a STREAM-style add on every core), labelled measured
// with its method, and kept for this boot: a second host reads it back instead of measuring again, and a figure kept
// for another boot or CPU is measured anew.
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ComputeHostSupervisor } from '../../../main/engine/supervisor.ts';

const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-bandwidth-'));
const before = process.env.GPU_LAB_CACHE_DIR;
process.env.GPU_LAB_CACHE_DIR = dir;
afterAll(() => {
  if (before === undefined) delete process.env.GPU_LAB_CACHE_DIR;
  else process.env.GPU_LAB_CACHE_DIR = before;
});

async function cpuOfAFreshHost() {
  const supervisor = new ComputeHostSupervisor({ log: () => undefined });
  try {
    const cpu = (await supervisor.environment()).devices.devices.find((d) => d.kind === 'cpu');
    if (!cpu) throw new Error('no CPU');
    return cpu;
  } finally {
    await supervisor.stop();
  }
}

describe('the CPU’s memory bandwidth', () => {
  it('is measured once for this boot, labelled with how, and read back by the next host', async () => {
    const first = await cpuOfAFreshHost();
    expect(first.peakMemoryGBps).toBeGreaterThan(0);
    expect(first.details.peakMemorySource).toBe('measured');
    expect(first.details.peakMemoryFormula).toMatch(/^measured \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: STREAM-style add, 3 fp32 arrays of \d+ MiB, \d+ threads, best of 4 runs$/);
    const [file] = readdirSync(dir).filter((f) => f.startsWith('gpu-lab-cpu-bandwidth-'));
    expect(file).toBeDefined();
    const second = await cpuOfAFreshHost();
    expect(second.details.peakMemoryFormula).toBe(first.details.peakMemoryFormula);
    expect(second.peakMemoryGBps).toBe(first.peakMemoryGBps);

    // Kept for another boot: measured again, not believed.
    const path = join(dir, file ?? '');
    const kept = JSON.parse(readFileSync(path, 'utf8')) as { key: string };
    writeFileSync(path, JSON.stringify({ ...kept, key: `another boot${kept.key.slice(kept.key.indexOf('|'))}`, gbps: 12345, method: 'measured long ago' }));
    const third = await cpuOfAFreshHost();
    expect(third.peakMemoryGBps).not.toBe(12345);
    expect(third.details.peakMemoryFormula).toMatch(/^measured \d{4}/);
    expect(existsSync(path)).toBe(true);
  }, 120_000);
});
