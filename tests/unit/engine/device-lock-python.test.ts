// The Python peers (scripts/peers/) take GPU Lab's device locks by the same files and rules: a peer waits for, or
// with --no-wait refuses (exit 75), a device a GPU Lab run holds; GPU Lab refuses a device a peer holds, naming it;
// and a peer killed while holding one leaves a stale lock that GPU Lab takes over.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { DeviceLocks } from '../../../main/engine/device-lock.ts';
import type { GpuLabError } from '../../../main/common/errors.ts';

const script = fileURLToPath(new URL('../../../scripts/peers/device_lock.py', import.meta.url));

function holdInPython(dir: string, device: string) {
  const child = spawn('python3', [script, device], { env: { ...process.env, GPU_LAB_LOCK_DIR: dir }, stdio: ['pipe', 'pipe', 'inherit'] });
  const held = new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, held, exited };
}

describe('the Python peers and GPU Lab share the device locks', () => {
  it('a peer refuses with exit 75, naming the holder, a device a GPU Lab run holds', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'gpu-lab-pylock-')), 'locks');
    const lease = await new DeviceLocks({ dir }).acquire(['cuda:0'], 'lab', 'matmul');
    try {
      const r = spawnSync('python3', [script, '--no-wait', 'cuda:0', '--', 'true'], { encoding: 'utf8', env: { ...process.env, GPU_LAB_LOCK_DIR: dir } });
      expect(r.status, r.stderr).toBe(75);
      expect(r.stderr).toContain(`DEVICE_BUSY: cuda:0 is in use: ${userInfo().username} (pid ${process.pid}) is running lab matmul there`);
    } finally {
      await lease.release();
    }
    // Free again: the peer runs its command while holding the device, and lets it go after.
    const r = spawnSync('python3', [script, '--no-wait', 'cuda:0', '--', 'true'], { encoding: 'utf8', env: { ...process.env, GPU_LAB_LOCK_DIR: dir } });
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
