// The Python peers' command-line tools (python/gpu_lab_peers/tools/), folded into the worker's package without
// disturbing it: the worker starts without importing them (nor torch), each of them imports without torch, CuPy or
// NumPy and measures nothing until run, and the NumPy peer, run for real at a small scale, waits for the CPU's device
// lock while a GPU Lab run holds it and prints the rows `npm run bench` puts beside the bench's, under the same sizes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { DeviceLocks } from '../../../main/engine/device-lock.ts';
import { cpuBenchPlan } from '../../../main/labs/bench-plan.ts';

const packageDir = fileURLToPath(new URL('../../../python', import.meta.url));
const TOOLS = ['gpu_lab_peers.device_lock', 'gpu_lab_peers.tools', 'gpu_lab_peers.tools.numpy_cpu', 'gpu_lab_peers.tools.cuda_peers', 'gpu_lab_peers.tools.elementwise_breakeven_torch'];

function env(lockDir: string): NodeJS.ProcessEnv {
  return { ...process.env, GPU_LAB_LOCK_DIR: lockDir, PYTHONPATH: [packageDir, process.env.PYTHONPATH].filter(Boolean).join(delimiter), PYTHONDONTWRITEBYTECODE: '1' };
}

function python(code: string, lockDir: string) {
  return spawnSync('python3', ['-c', code], { encoding: 'utf8', env: env(lockDir), stdio: ['ignore', 'pipe', 'pipe'] });
}

describe("the Python peers' tools in the worker's package", () => {
  it('leaves the worker alone: it starts and ends without importing the tools, torch, CuPy or Numba', () => {
    const lockDir = join(mkdtempSync(join(tmpdir(), 'gpu-lab-tools-')), 'locks');
    // The worker as the compute host starts it, its stdin closed at once, so that it says it is ready and exits.
    const r = python(
      [
        'import json, runpy, sys',
        'try:',
        "    runpy.run_module('gpu_lab_peers', run_name='__main__', alter_sys=True)",
        'finally:',
        "    sys.stderr.write(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('gpu_lab_peers', 'torch', 'cupy', 'numba'))))",
      ].join('\n'),
      lockDir,
    );
    expect(r.stdout).toContain('"ready": true');
    const loaded = JSON.parse(r.stderr.slice(r.stderr.lastIndexOf('['))) as string[];
    expect(loaded).toContain('gpu_lab_peers.protocol');
    expect(loaded.filter((m) => m.startsWith('gpu_lab_peers.tools') || !m.startsWith('gpu_lab_peers'))).toEqual([]);
  });

  it('imports every tool without torch, CuPy or NumPy, and measures nothing nor takes a lock on import', () => {
    const lockDir = join(mkdtempSync(join(tmpdir(), 'gpu-lab-tools-')), 'locks');
    const r = python(
      [
        'import importlib, sys',
        "for name in ('torch', 'cupy', 'numpy', 'numba'):",
        '    sys.modules[name] = None',
        ...TOOLS.map((m) => `importlib.import_module('${m}')`),
        "print('imported')",
      ].join('\n'),
      lockDir,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('imported');
    expect(existsSync(lockDir)).toBe(false);
  });

  it('refuses a --scale the bench would refuse, before it takes a lock', () => {
    const lockDir = join(mkdtempSync(join(tmpdir(), 'gpu-lab-tools-')), 'locks');
    for (const tool of ['numpy_cpu', 'cuda_peers']) {
      for (const scale of ['0', '2', 'x']) {
        const r = spawnSync('python3', ['-m', `gpu_lab_peers.tools.${tool}`, '--scale', scale], { encoding: 'utf8', env: env(lockDir) });
        expect(r.status, `${tool} --scale ${scale}`).toBe(2);
        expect(r.stderr).toContain(`--scale is a number in (0, 1], not ${scale}`);
      }
    }
    expect(existsSync(lockDir)).toBe(false);
  });

  it("runs the NumPy peer for real, after GPU Lab's run on the CPU lets it go, with the bench's sizes", async () => {
    const lockDir = join(mkdtempSync(join(tmpdir(), 'gpu-lab-tools-')), 'locks');
    const scale = 0.05;
    const lease = await new DeviceLocks({ dir: lockDir }).acquire(['cpu'], 'lab', 'matmul');
    const child = spawn('python3', ['-m', 'gpu_lab_peers.tools.numpy_cpu', '--scale', String(scale)], { env: env(lockDir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const waiting = new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('waiting for cpu')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await waiting;
    expect(stdout).toBe('');
    expect(stderr).toContain('is running lab matmul there');
    await lease.release();
    expect(await exited, stderr).toBe(0);

    const peers = JSON.parse(stdout) as Record<string, number>;
    // Every key names a row of `gpu-lab bench --device cpu --scale F` by id and size, as scripts/bench.mjs looks them up.
    const rows = cpuBenchPlan({ scale }).filter((p) => ['gemm-fp32', 'gemm-fp64', 'vector-function'].includes(p.id));
    expect(Object.keys(peers).sort()).toEqual([...new Set(rows.map((p) => `${p.id}-${p.size}`))].sort());
    for (const [key, ms] of Object.entries(peers)) expect(ms, key).toBeGreaterThan(0);
    // The peer let the CPU go when it was done.
    await (await new DeviceLocks({ dir: lockDir }).acquire(['cpu'], 'lab', 'matmul', { wait: false })).release();
  }, 60_000);
});
