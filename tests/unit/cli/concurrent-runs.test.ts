// Two runs on one device at once halve each other's rates and both read as fine, so the command line takes turns with
// every other user of the device: here the test process holds the device's lock, as another user's run would, and
// gpu-lab run, kernel run and bench either wait for it (saying for whom) or, with --no-wait, exit 75 at once. A run
// refused, or killed while it waits, never started: it leaves no record.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { DeviceLocks } from '../../../main/engine/device-lock.ts';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));

function setting(): { lockDir: string; dataDir: string; env: NodeJS.ProcessEnv } {
  const base = mkdtempSync(join(tmpdir(), 'gpu-lab-concurrent-'));
  const lockDir = join(base, 'locks');
  const dataDir = join(base, 'data');
  mkdirSync(dataDir);
  return { lockDir, dataDir, env: { ...process.env, GPU_LAB_LOCK_DIR: lockDir, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' } };
}

const me = `${userInfo().username} (pid ${process.pid})`;

// The records in the runs folder, as they are on disk.
function storedRuns(dataDir: string): { status: string }[] {
  const dir = join(dataDir, 'runs');
  return existsSync(dir) ? readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { status: string }) : [];
}

// Resolves once the run says it waits for the device; `seen` gets what it writes to stderr.
function waitingFor(child: ChildProcessByStdio<null, Readable, Readable>, seen: (text: string) => void): Promise<void> {
  let text = '';
  return new Promise<void>((resolve) =>
    child.stderr.on('data', (d: Buffer) => {
      text += d.toString();
      seen(d.toString());
      if (text.includes('waiting for cpu')) resolve();
    }),
  );
}

describe('a device another run holds', () => {
  it('refuses gpu-lab run --no-wait with exit 75, naming who holds it, and stores nothing: the run never started', async () => {
    const { lockDir, dataDir, env } = setting();
    const lease = await new DeviceLocks({ dir: lockDir }).acquire(['cpu'], 'lab', 'matmul');
    try {
      const r = spawnSync(process.execPath, [bin, 'run', 'timing-pitfalls', '--device', 'cpu', '--param', 'n=64', '--no-wait', '--data-dir', dataDir, '--quiet'], { encoding: 'utf8', env });
      expect(r.status, r.stderr).toBe(75);
      expect(r.stderr).toContain(`gpu-lab run: DEVICE_BUSY: cpu is in use: ${me} runs the matmul lab there since `);
      expect(r.stderr).toContain('gpu-lab run: nothing was stored: the run ended before it began to measure');
      expect(r.stdout).not.toContain('stored as');
      expect(storedRuns(dataDir)).toEqual([]);
    } finally {
      await lease.release();
    }
  }, 60_000);

  it('makes gpu-lab run wait, saying for whom, storing nothing while it waits, and measure once the device is free', async () => {
    const { lockDir, dataDir, env } = setting();
    const lease = await new DeviceLocks({ dir: lockDir }).acquire(['cpu'], 'lab', 'matmul');
    const child = spawn(process.execPath, [bin, 'run', 'timing-pitfalls', '--device', 'cpu', '--param', 'n=64', '--data-dir', dataDir, '--quiet'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await waitingFor(child, (text) => (stderr += text));
    expect(stderr).toContain(`gpu-lab run: waiting for cpu: ${me} is running the matmul lab there, since `);
    // Still waiting, with nothing on disk: until it holds the device, the run has not started.
    await new Promise((r) => setTimeout(r, 1000));
    expect(child.exitCode).toBeNull();
    expect(storedRuns(dataDir)).toEqual([]);
    await lease.release();
    expect(await exited, stderr).toBe(0);
    expect(stdout).toMatch(/^completed — stored as /m);
    expect(storedRuns(dataDir).map((r) => r.status)).toEqual(['completed']);
  }, 60_000);

  it('leaves no record behind when gpu-lab run is killed while it waits: gpu-lab runs list has no interrupted run of 0 points', async () => {
    const { lockDir, dataDir, env } = setting();
    const lease = await new DeviceLocks({ dir: lockDir }).acquire(['cpu'], 'lab', 'matmul');
    try {
      const child = spawn(process.execPath, [bin, 'run', 'timing-pitfalls', '--device', 'cpu', '--param', 'n=64', '--data-dir', dataDir, '--quiet'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await waitingFor(child, () => undefined);
      child.kill('SIGKILL');
      await exited;
      const list = spawnSync(process.execPath, [bin, 'runs', 'list', '--data-dir', dataDir], { encoding: 'utf8', env });
      expect(list.status, list.stderr).toBe(0);
      expect(list.stdout).toContain('no runs in');
      expect(storedRuns(dataDir)).toEqual([]);
    } finally {
      await lease.release();
    }
  }, 60_000);

  it('refuses gpu-lab kernel run --no-wait and gpu-lab bench --no-wait with exit 75', async () => {
    const { lockDir, dataDir, env } = setting();
    const lease = await new DeviceLocks({ dir: lockDir }).acquire(['cpu', 'cuda:0'], 'lab', 'matmul');
    try {
      const source = join(dataDir, 'saxpy.cu');
      writeFileSync(source, spawnSync(process.execPath, [bin, 'kernel', 'show', 'saxpy', '--kernel', 'starter'], { encoding: 'utf8', env }).stdout);
      const kernel = spawnSync(process.execPath, [bin, 'kernel', 'run', 'saxpy', source, '--device', 'cuda:0', '--no-wait', '--data-dir', dataDir], { encoding: 'utf8', env });
      expect(kernel.status, kernel.stderr).toBe(75);
      expect(kernel.stderr).toContain(`DEVICE_BUSY: cuda:0 is in use: ${me} runs the matmul lab there`);
      const bench = spawnSync(process.execPath, [bin, 'bench', '--device', 'cpu', '--scale', '0.01', '--no-wait'], { encoding: 'utf8', env });
      expect(bench.status, bench.stderr).toBe(75);
      expect(bench.stderr).toContain(`DEVICE_BUSY: cpu is in use: ${me} runs the matmul lab there`);
    } finally {
      await lease.release();
    }
  }, 60_000);
});
