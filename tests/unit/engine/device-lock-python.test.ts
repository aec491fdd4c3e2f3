// The Python peers' tools (python/gpu_lab_peers/tools/) take GPU Lab's device locks by the same files and rules,
// through gpu_lab_peers.device_lock: a peer waits for, or with --no-wait refuses (exit 75), a device a GPU Lab run
// holds; GPU Lab refuses a device a peer holds, naming it; and a peer killed while holding one leaves a stale lock
// that GPU Lab takes over. The module is run as the tools import it, from the package's folder on PYTHONPATH.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { DeviceLocks } from '../../../main/engine/device-lock.ts';
import type { GpuLabError } from '../../../main/common/errors.ts';

const packageDir = fileURLToPath(new URL('../../../python', import.meta.url));
const lockModule = ['-m', 'gpu_lab_peers.device_lock'];

function pythonEnv(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, GPU_LAB_LOCK_DIR: dir, PYTHONPATH: [packageDir, process.env.PYTHONPATH].filter(Boolean).join(delimiter), PYTHONDONTWRITEBYTECODE: '1' };
}

function holdInPython(dir: string, device: string) {
  const child = spawn('python3', [...lockModule, device], { env: pythonEnv(dir), stdio: ['pipe', 'pipe', 'inherit'] });
  const held = new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, held, exited };
}

describe('the Python peers and GPU Lab share the device locks', () => {
  it('a peer refuses with exit 75, naming the holder, a device a GPU Lab run holds', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'gpu-lab-pylock-')), 'locks');
    const lease = await new DeviceLocks({ dir }).acquire(['cuda:0'], 'lab', 'matmul');
    try {
      const r = spawnSync('python3', [...lockModule, '--no-wait', 'cuda:0', '--', 'true'], { encoding: 'utf8', env: pythonEnv(dir) });
      expect(r.status, r.stderr).toBe(75);
      expect(r.stderr).toContain(`DEVICE_BUSY: cuda:0 is in use: ${userInfo().username} (pid ${process.pid}) is running lab matmul there`);
    } finally {
      await lease.release();
    }
    // Free again: the peer runs its command while holding the device, and lets it go after.
    const r = spawnSync('python3', [...lockModule, '--no-wait', 'cuda:0', '--', 'true'], { encoding: 'utf8', env: pythonEnv(dir) });
    expect(r.status, r.stderr).toBe(0);
    await (await new DeviceLocks({ dir }).acquire(['cuda:0'], 'lab', 'matmul', { wait: false })).release();
  }, 30_000);

  it('GPU Lab refuses a device a peer holds, naming the peer, and gets it when the peer is done or killed', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'gpu-lab-pylock-')), 'locks');
    const peer = holdInPython(dir, 'cpu');
    await peer.held;
    const holder = JSON.parse(readFileSync(join(dir, 'cpu.lock'), 'utf8')) as { use: string; pid: number; startTicks: number | null };
    expect(holder).toMatchObject({ use: 'peers', pid: peer.child.pid });
    expect(holder.startTicks).toBeGreaterThan(0);
    let refused: GpuLabError | null = null;
    await new DeviceLocks({ dir }).acquire(['cpu'], 'lab', 'dtypes', { wait: false }).catch((e: GpuLabError) => (refused = e));
    expect(refused).toMatchObject({ code: 'DEVICE_BUSY' });
    expect((refused as unknown as GpuLabError).message).toContain(`cpu is in use: ${userInfo().username} (pid ${peer.child.pid}) runs the peers (hold) there`);
    peer.child.stdin.end();
    await peer.exited;
    await (await new DeviceLocks({ dir }).acquire(['cpu'], 'lab', 'dtypes', { wait: false })).release();

    const killed = holdInPython(dir, 'cpu');
    await killed.held;
    killed.child.kill('SIGKILL');
    await killed.exited;
    const lease = await new DeviceLocks({ dir }).acquire(['cpu'], 'lab', 'dtypes', { wait: false });
    expect(JSON.parse(readFileSync(join(dir, 'cpu.lock'), 'utf8'))).toMatchObject({ use: 'lab', name: 'dtypes' });
    await lease.release();
  }, 30_000);
});
