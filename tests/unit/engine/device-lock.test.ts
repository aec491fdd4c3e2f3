// One run at a time per device per machine, through real lock files and real processes: a held device refuses or
// keeps waiting, a lock whose process is gone (or whose pid now names another process) is taken over, two takers of
// one stale lock never both win, and a process that exits or is killed never leaves a device locked for good.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import type { GpuLabError } from '../../../main/common/errors.ts';
import { DeviceLocks, type LockHolder } from '../../../main/engine/device-lock.ts';
import { processStartTicks } from '../../../main/engine/process-identity.ts';

const lockModule = fileURLToPath(new URL('../../../main/engine/device-lock.ts', import.meta.url));

function freshDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'gpu-lab-locks-test-')), 'locks');
}

function readLock(dir: string, device: string): LockHolder {
  return JSON.parse(readFileSync(join(dir, `${device.replace(':', '-')}.lock`), 'utf8')) as LockHolder;
}

// A lock as another process would have left it.
function plantLock(dir: string, device: string, holder: Partial<LockHolder>): void {
  mkdirSync(dir, { recursive: true });
  const full = { user: 'someone', host: hostname(), use: 'lab', name: 'matmul', device, since: '2026-01-01T00:00:00Z', token: 'planted', startTicks: null, ...holder };
  writeFileSync(join(dir, `${device.replace(':', '-')}.lock`), JSON.stringify(full));
}

// The pid of a process that has exited (and was reaped): no process has it now, barring a reuse within the test.
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

async function refusal(p: Promise<unknown>): Promise<GpuLabError> {
  try {
    await p;
  } catch (err) {
    return err as GpuLabError;
  }
  throw new Error('expected a refusal');
}

describe('a device lock', () => {
  it('records who holds it, refuses a second taker with DEVICE_BUSY naming the holder, and is gone once released', async () => {
    const dir = freshDir();
    const locks = new DeviceLocks({ dir });
    const lease = await locks.acquire(['cuda:0', 'cpu'], 'lab', 'matmul');
    expect(lease.devices).toEqual(['cpu', 'cuda:0']);
    const holder = readLock(dir, 'cuda:0');
    expect(holder).toMatchObject({ user: userInfo().username, pid: process.pid, startTicks: processStartTicks(process.pid), use: 'lab', name: 'matmul', device: 'cuda:0' });
    expect(Date.now() - Date.parse(holder.since)).toBeLessThan(60_000);

    const busy = await refusal(new DeviceLocks({ dir }).acquire(['cuda:0'], 'kernel', 'saxpy', { wait: false }));
    expect(busy.code).toBe('DEVICE_BUSY');
    expect(busy.message).toBe(`cuda:0 is in use: ${userInfo().username} (pid ${process.pid}) runs the matmul lab there since ${holder.since}`);
    expect(busy.details).toMatchObject({ device: 'cuda:0', heldBy: `${userInfo().username} (pid ${process.pid})` });
    await lease.release();
    expect(existsSync(join(dir, 'cuda-0.lock'))).toBe(false);
    expect(existsSync(join(dir, 'cpu.lock'))).toBe(false);

    // A taker of two devices refused the second keeps neither: the CPU it took first is free again.
    const gpuOnly = await locks.acquire(['cuda:0'], 'kernel', 'saxpy', { wait: false });
    expect((await refusal(new DeviceLocks({ dir }).acquire(['cpu', 'cuda:0'], 'lab', 'matmul', { wait: false }))).code).toBe('DEVICE_BUSY');
    expect(existsSync(join(dir, 'cpu.lock'))).toBe(false);
    await gpuOnly.release();
  });

  it('is waited for: the waiter is told once who holds it, and goes on when it is released', async () => {
    const dir = freshDir();
    const first = await new DeviceLocks({ dir }).acquire(['cpu'], 'lab', 'transfer');
    const told: LockHolder[] = [];
    let got = false;
    const waiting = new DeviceLocks({ dir, pollMs: 20 }).acquire(['cpu'], 'bench', 'cpu', { onWait: (h) => told.push(h) }).then((lease) => {
      got = true;
      return lease;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(got).toBe(false);
    expect(told.map((h) => [h.name, h.pid])).toEqual([['transfer', process.pid]]);
    await first.release();
    const second = await waiting;
    expect(readLock(dir, 'cpu')).toMatchObject({ use: 'bench', pid: process.pid });
    await second.release();
  });

  it('stops waiting when the run is cancelled', async () => {
    const dir = freshDir();
    const first = await new DeviceLocks({ dir }).acquire(['cpu'], 'lab', 'matmul');
    const controller = new AbortController();
    const waiting = refusal(new DeviceLocks({ dir, pollMs: 20 }).acquire(['cpu'], 'lab', 'dtypes', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    expect((await waiting).code).toBe('CANCELLED');
    expect(readLock(dir, 'cpu').name).toBe('matmul');
    await first.release();
  });

  it('is taken over when its process is gone, or when its pid now names a process started at another time', async () => {
    const dir = freshDir();
    const locks = new DeviceLocks({ dir });
    plantLock(dir, 'cpu', { pid: deadPid() });
    const lease = await locks.acquire(['cpu'], 'lab', 'matmul', { wait: false });
    expect(readLock(dir, 'cpu').pid).toBe(process.pid);
    await lease.release();

    // This very process's pid, with another start time: a reused pid, not the holder.
    plantLock(dir, 'cuda:0', { pid: process.pid, startTicks: (processStartTicks(process.pid) ?? 0) + 1 });
    const reused = await locks.acquire(['cuda:0'], 'lab', 'dtypes', { wait: false });
    expect(readLock(dir, 'cuda:0').token).not.toBe('planted');
    await reused.release();

    // The same pid and start time is the holder: refused.
    plantLock(dir, 'cuda:1', { pid: process.pid, startTicks: processStartTicks(process.pid) });
    expect((await refusal(locks.acquire(['cuda:1'], 'lab', 'dtypes', { wait: false }))).code).toBe('DEVICE_BUSY');
    // So is an unreadable lock's: it is taken over, not trusted.
    writeFileSync(join(dir, 'cuda-2.lock'), '{"half a lock');
    await (await locks.acquire(['cuda:2'], 'lab', 'dtypes', { wait: false })).release();
  });

  it('lets exactly one of many takers of the same stale lock win', async () => {
    const pid = deadPid();
    for (let round = 0; round < 20; round++) {
      const dir = freshDir();
      plantLock(dir, 'cpu', { pid });
      // Started a little apart, so that one taker may read the stale lock before another has replaced it, and try to
      // remove it after.
      const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
      const tries = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => later(i % 4).then(() => new DeviceLocks({ dir }).acquire(['cpu'], 'lab', `taker-${i}`, { wait: false }))));
      const won = tries.filter((t) => t.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const t of tries) if (t.status === 'rejected') expect((t.reason as GpuLabError).code).toBe('DEVICE_BUSY');
      expect(readLock(dir, 'cpu').name).toMatch(/^taker-\d+$/);
      await (won[0] as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release();
    }
  });

  it('is not removed by a late taker that read it when it was stale, once another has taken it over', async () => {
    // The interleaving the guard is for, made to happen: B reads the stale lock, A takes it over, then B goes on.
    const dir = freshDir();
    plantLock(dir, 'cpu', { pid: deadPid() });
    const stale = readFileSync(join(dir, 'cpu.lock'), 'utf8');
    const a = await new DeviceLocks({ dir }).acquire(['cpu'], 'lab', 'first', { wait: false });
    const late = new DeviceLocks({ dir });
    const takeOver = Reflect.get(late, 'takeOver') as (path: string, staleText: string, holder: null) => Promise<void>;
    await takeOver.call(late, join(dir, 'cpu.lock'), stale, null);
    expect(readLock(dir, 'cpu').name).toBe('first');
    await a.release();
  });

  it('is removed by a process that exits holding it, and left stale (then taken over) by one that is killed', async () => {
    const dir = freshDir();
    const hold = (then: string): ReturnType<typeof spawn> =>
      spawn(process.execPath, ['--input-type=module', '-e', `const { DeviceLocks } = await import(${JSON.stringify(lockModule)}); await new DeviceLocks({ dir: ${JSON.stringify(dir)} }).acquire(['cpu'], 'lab', 'child'); console.log('held'); ${then}`], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
    const untilHeld = (child: ReturnType<typeof spawn>): Promise<void> => new Promise((resolve) => child.stdout?.on('data', () => resolve()));
    const exits = (child: ReturnType<typeof spawn>): Promise<void> => new Promise((resolve) => child.on('exit', () => resolve()));

    const polite = hold('process.exit(0);');
    await exits(polite);
    expect(existsSync(join(dir, 'cpu.lock'))).toBe(false);

    const killed = hold('setInterval(() => {}, 1000);');
    await untilHeld(killed);
    expect(readLock(dir, 'cpu').pid).toBe(killed.pid);
    expect((await refusal(new DeviceLocks({ dir }).acquire(['cpu'], 'lab', 'mine', { wait: false }))).code).toBe('DEVICE_BUSY');
    killed.kill('SIGKILL');
    await exits(killed);
    expect(readLock(dir, 'cpu').pid).toBe(killed.pid);
    const lease = await new DeviceLocks({ dir }).acquire(['cpu'], 'lab', 'mine', { wait: false });
    expect(readLock(dir, 'cpu').name).toBe('mine');
    await lease.release();
  }, 30_000);

  it('refuses a lock folder that is a symbolic link or a file, naming it', async () => {
    const base = mkdtempSync(join(tmpdir(), 'gpu-lab-locks-test-'));
    const elsewhere = join(base, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(base, 'link'));
    const viaLink = await refusal(new DeviceLocks({ dir: join(base, 'link') }).acquire(['cpu'], 'lab', 'matmul'));
    expect(viaLink.message).toContain(`${join(base, 'link')} is not a folder`);
    expect(existsSync(join(elsewhere, 'cpu.lock'))).toBe(false);
    writeFileSync(join(base, 'file'), '');
    expect((await refusal(new DeviceLocks({ dir: join(base, 'file') }).acquire(['cpu'], 'lab', 'matmul'))).message).toContain(join(base, 'file'));
  });
});
