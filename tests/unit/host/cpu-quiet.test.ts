// The CPU handed over between whoever computed last and whoever measures next: a measurement waits until the other
// side's threads have stopped running (read from /proc), and only the other side's; never past the cap. The other
// side here is a real process whose thread spins, as a BLAS's threads spin after a call, and then sleeps.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { afterEach, describe, expect, it } from 'vitest';

import { computeProcessEnded, computeProcessStarted, cpuQuiet, cpuWorkDone, quietWaitMs, runningThreads } from '../../../main/host/cpu-quiet.ts';

const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-quiet-'));
const linux = existsSync('/proc/self/task');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) {
    if (c.pid !== undefined) computeProcessEnded(c.pid);
    c.kill('SIGKILL');
  }
});

// A process that spins for `spinMs` (once it has said so), writes `marker`, then sleeps until killed.
async function spinner(spinMs: number, marker: string): Promise<number> {
  const code = `process.stdout.write('spinning\\n'); const end = Date.now() + ${spinMs}; while (Date.now() < end); require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'done'); setTimeout(() => {}, 60000);`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve) => createInterface({ input: child.stdout ?? process.stdin }).once('line', () => resolve()));
  if (child.pid === undefined) throw new Error('the spinner did not start');
  return child.pid;
}

describe('the CPU quiet between the engine, its BLAS libraries and a peer', () => {
  it('by the clock alone, where /proc says nothing: the rest of 150 ms after another\'s work, none after its own', () => {
    cpuWorkDone('peer', 1000);
    expect(quietWaitMs('engine', 1000)).toBe(150);
    expect(quietWaitMs('engine', 1100)).toBe(50);
    expect(quietWaitMs('engine', 1200)).toBe(0);
    expect(quietWaitMs('peer', 1001)).toBe(0);
    cpuWorkDone('blas:2', 2000);
    expect(quietWaitMs('blas:3', 2010)).toBe(140);
    expect(quietWaitMs('blas:2', 2010)).toBe(0);
  });

  it.skipIf(!linux)('waits until a peer\'s spinning thread has stopped, not longer than the cap', async () => {
    const marker = join(dir, 'stopped');
    const pid = await spinner(300, marker);
    computeProcessStarted(pid);
    expect(runningThreads([pid])?.length).toBeGreaterThan(0);
    cpuWorkDone('peer');
    const quiet = await cpuQuiet('engine', { capMs: 10_000 });
    expect(quiet.quiet).toBe(true);
    // It had stopped spinning by then: it wrote its marker after its loop.
    expect(existsSync(marker)).toBe(true);
  });

  it.skipIf(!linux)('does not wait for its own work, nor for a process it is not told computes', async () => {
    const pid = await spinner(5000, join(dir, 'never'));
    cpuWorkDone('peer');
    expect(await cpuQuiet('peer', { capMs: 10_000 })).toEqual({ waitedMs: 0, quiet: true });
    // Not a peer's worker: its threads are nobody's handover.
    cpuWorkDone('peer');
    expect((await cpuQuiet('engine', { capMs: 10_000 })).quiet).toBe(true);
    computeProcessStarted(pid);
    cpuWorkDone('peer');
    // A thread that spins for good: the cap ends the wait, and says so.
    const capped = await cpuQuiet('engine', { capMs: 200 });
    expect(capped.quiet).toBe(false);
    expect(capped.waitedMs).toBeGreaterThanOrEqual(200);
    // Running through a whole wait, it is taken for a thread that never sleeps: the next wait does not wait for it.
    cpuWorkDone('peer');
    expect((await cpuQuiet('engine', { capMs: 200 })).quiet).toBe(true);
  });
});
