// A run on this machine's WebGPU adapter (lavapipe) takes turns with every other user of it, as a CPU or CUDA run
// does: here the test process holds the adapter's lock, by the key `gpu-lab devices --json` gives it, as another
// user's run would; `gpu-lab run --device webgpu:0 --no-wait` exits 75 naming the holder and stores nothing, and
// without --no-wait the run waits, says for whom, and measures once the adapter is free.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { DeviceLocks } from '../../../main/engine/device-lock.ts';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const me = `${userInfo().username} (pid ${process.pid})`;

function setting(): { lockDir: string; dataDir: string; env: NodeJS.ProcessEnv } {
  const base = mkdtempSync(join(tmpdir(), 'gpu-lab-webgpu-locks-'));
  const dataDir = join(base, 'data');
  mkdirSync(dataDir);
  const lockDir = join(base, 'locks');
  return { lockDir, dataDir, env: { ...process.env, GPU_LAB_LOCK_DIR: lockDir, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' } };
}

// The lock key of webgpu:0 as the device list gives it.
function adapterKey(env: NodeJS.ProcessEnv): string {
  const r = spawnSync(process.execPath, [bin, 'devices', '--json'], { encoding: 'utf8', env });
  expect(r.status, r.stderr).toBe(0);
  const list = JSON.parse(r.stdout) as { devices: { id: string; details: Record<string, unknown> }[] };
  const key = list.devices.find((d) => d.id === 'webgpu:0')?.details.lockKey;
  if (typeof key !== 'string') throw new Error(`no webgpu:0 with a lock key (scripts/bootstrap.sh installs lavapipe): ${r.stdout.slice(0, 400)}`);
  return key;
}

const run = ['run', 'vector-function', '--device', 'webgpu:0', '--param', 'elements=20000', '--param', 'repeats=3', '--peers', 'none', '--quiet'];
const stored = (dataDir: string): number => (existsSync(join(dataDir, 'runs')) ? readdirSync(join(dataDir, 'runs')).length : 0);

describe('the WebGPU adapter another run holds', () => {
  it('refuses gpu-lab run --device webgpu:0 --no-wait with exit 75, naming the adapter’s lock and its holder', async () => {
    const { lockDir, dataDir, env } = setting();
    const key = adapterKey(env);
    const lease = await new DeviceLocks({ dir: lockDir }).acquire([key], 'lab', 'elementwise-breakeven');
    try {
      const r = spawnSync(process.execPath, [bin, ...run, '--no-wait', '--data-dir', dataDir], { encoding: 'utf8', env });
      expect(r.status, r.stderr).toBe(75);
      expect(r.stderr).toContain(`gpu-lab run: DEVICE_BUSY: ${key} is in use: ${me} runs the elementwise-breakeven lab there since `);
      expect(stored(dataDir)).toBe(0);
    } finally {
      await lease.release();
    }
  }, 60_000);

  it('makes gpu-lab run --device webgpu:0 wait, saying for whom, and measure once the adapter is free', async () => {
    const { lockDir, dataDir, env } = setting();
    const key = adapterKey(env);
    const lease = await new DeviceLocks({ dir: lockDir }).acquire([key], 'lab', 'elementwise-breakeven');
    const child = spawn(process.execPath, [bin, ...run, '--data-dir', dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const waiting = new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes(`waiting for ${key}`)) resolve();
      }),
    );
    // A run that does not wait ends on its own: fail then, not at the test's timeout.
    await Promise.race([waiting, exited.then((code) => Promise.reject(new Error(`gpu-lab run ended (${code}) without waiting for ${key}: ${stderr}`)))]);
    expect(stderr).toContain(`gpu-lab run: waiting for ${key}: ${me} is running the elementwise-breakeven lab there, since `);
    expect(stored(dataDir)).toBe(0);
    await lease.release();
    expect(await exited, stderr).toBe(0);
    expect(stdout).toMatch(/^completed — stored as /m);
  }, 90_000);
});
