// A WebGPU device lost, or an error WebGPU reports outside any error scope, in the middle of a run on this machine's
// real adapter (lavapipe, scripts/bootstrap.sh), as a user of `gpu-lab run` meets it: the test hook
// (GPU_LAB_TEST_WEBGPU_FAULT) destroys the device, or makes WebGPU report a validation error, during one point. That
// point fails with Dawn's own message; the compute host that held the device ends and a new one (another pid) takes
// the next point; every other point of the run is measured and verified; the command finishes its table, stores the
// run and exits 1 (a point failed), not by a signal.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { gone } from '../processes.ts';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));

interface StoredPoint {
  name: { key: string };
  device: string;
  status: string;
  error: { code: string; message: string; details?: Record<string, unknown> } | null;
  verification: { passed: boolean; checked: number } | null;
}

function faultyRun(fault: string): { status: number | null; signal: string | null; stdout: string; stderr: string; points: StoredPoint[]; runStatus: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-webgpu-fault-'));
  mkdirSync(join(dir, 'data'));
  const env = { ...process.env, GPU_LAB_TEST_HOOKS: '1', GPU_LAB_TEST_WEBGPU_FAULT: fault, GPU_LAB_LOCK_DIR: join(dir, 'locks'), LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };
  const args = ['run', 'vector-function', '--device', 'webgpu:0', '--param', 'elements=100003', '--param', 'repeats=3', '--peers', 'none', '--data-dir', join(dir, 'data'), '--json', join(dir, 'run.json'), '--verbose'];
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env, timeout: 120_000 });
  const record = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { status: string; points: StoredPoint[] };
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, points: record.points, runStatus: record.status };
}

// The compute hosts that said they were ready, in order.
const hostPids = (stderr: string): number[] => [...stderr.matchAll(/^\[compute-host pid (\d+)\] ready$/gm)].map((m) => Number(m[1]));

describe('a WebGPU device lost or in error during one point of a run', () => {
  it.each([
    // The middle GPU point (three passes, resident): one GPU point before it on the old host, one after on the new.
    { fault: 'lost:unfused', series: 'gpu-unfused', row: 'GPU resident, three passes', code: 'DEVICE_LOST', dawn: /^The WebGPU device webgpu:0 \(.+\) was lost \(destroyed\): device was destroyed$/, phrase: 'was lost (destroyed): device was destroyed' },
    // The first GPU point (with the copies, timed by the host clock): both GPU points after it on a new host.
    { fault: 'error:with-copies', series: 'gpu-transfers', row: 'GPU fused, with copies', code: 'WEBGPU_ERROR', dawn: /^WebGPU reported an error on webgpu:0 \(.+\) \(validation\): Buffer usages \(BufferUsage::\(MapRead\|Storage\)\) is invalid\./, phrase: 'Buffer usages (BufferUsage::(MapRead|Storage)) is invalid.' },
  ])('$fault: that point fails with $code and WebGPU’s message, only the compute host restarts, the other points verify', ({ fault, series, row, code, dawn, phrase }) => {
    const r = faultyRun(fault);
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(1);

    const failed = r.points.filter((p) => p.status !== 'ok');
    expect(failed.map((p) => p.name.key)).toEqual([`vector-function.series.${series}`]);
    const error = failed[0]?.error;
    expect(error?.code).toBe(code);
    expect(error?.message).toMatch(dawn);
    expect(error?.details).toMatchObject({ device: 'webgpu:0', sticky: true, hostRestarted: true });

    // Every other point, the GPU ones after the fault included, measured and verified element by element.
    const others = r.points.filter((p) => p.status === 'ok');
    expect(others.map((p) => p.device)).toEqual(['cpu', 'cpu', 'webgpu:0', 'webgpu:0']);
    for (const p of others) expect(p.verification, p.name.key).toMatchObject({ passed: true, checked: 100_003 });
    expect(r.runStatus).toBe('completed');

    // The host that held the lost device ended; the next point ran in a new one, under the same command.
    const [first, second, ...more] = hostPids(r.stderr);
    expect(more, r.stderr).toEqual([]);
    expect(second, r.stderr).toBeDefined();
    expect(second).not.toBe(first);
    expect(r.stderr).toContain(`[compute-host pid ${first}] died (signal SIGKILL; killed because it ended itself after ${code} left its device unusable); the next request starts a new host`);
    expect(gone(first ?? 0)).toBe(true);

    // What the user reads: the point's row with WebGPU's message, the run stored, the failure's count.
    const line = r.stdout.split('\n').find((l) => l.startsWith(row));
    expect(line).toMatch(new RegExp(` FAILED ${code}: `));
    expect(line).toContain(phrase);
    expect(r.stdout).toMatch(/^completed — stored as /m);
    expect(r.stderr).toContain(`gpu-lab run: ${code}: 1 of 5 points failed: ${row}`);
  }, 150_000);
});
