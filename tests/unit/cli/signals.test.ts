// gpu-lab run against the signals a user sends it, through real processes: killed with -9, its compute host goes at
// once, not after the sample in progress; a Ctrl-C to the terminal's process group cancels the run, keeps what was
// measured, records `cancelled` (never a crash of the host) and exits 130; before the run began to measure, it stores
// nothing (the run never started);
// a second Ctrl-C exits at once; SIGTERM does what Ctrl-C does. A long CPU product keeps one sample going for seconds, so that "at once" can be told apart
// from "after the sample".
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

import { gone, measuringHost as measuringHostOf, stat, storedStatuses, until } from '../processes.ts';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

interface Cli {
  child: ChildProcess;
  dataDir: string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: Cli[] = [];

// The CLI in a process group of its own, as a shell starts a job: a signal to -pid reaches it and its compute host,
// as Ctrl-C in a terminal does.
function runCli(n: number): Cli {
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-signals-'));
  const child = spawn(process.execPath, [bin, 'run', 'matmul', '--device', 'cpu', '--param', `n=${n}`, '--data-dir', dataDir, '--quiet'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout?.resume();
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const cli = { child, dataDir, stderr: () => err, exit };
  started.push(cli);
  return cli;
}

// The compute host the CLI started, once it is in the middle of measuring.
const measuringHost = (cli: Cli): Promise<number> => measuringHostOf(cli.child.pid ?? -1, cli.dataDir);

afterEach(() => {
  for (const cli of started.splice(0)) {
    try {
      process.kill(-(cli.child.pid ?? 0), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

describe('gpu-lab run and the signals a user sends', () => {
  it('killed with -9, leaves no compute host behind, not even for the sample in progress', async () => {
    // 8000² on this machine's cores: each sample of the product takes several seconds.
    const cli = runCli(8000);
    const host = await measuringHost(cli);
    const before = stat(host)?.ticks ?? 0;
    process.kill(cli.child.pid ?? 0, 'SIGKILL');
    await cli.exit;
    // The host's channel closes with its parent and it kills itself; before, it went on to the end of its sample.
    await until('the host to go', () => gone(host), 5_000);
    expect(gone(host)).toBe(true);
    expect(before).toBeGreaterThan(0);
  }, 180_000);

  it('cancels on Ctrl-C to its process group: exit 130, the run recorded as cancelled, no crash, no host left', async () => {
    const cli = runCli(2500);
    const host = await measuringHost(cli);
    process.kill(-(cli.child.pid ?? 0), 'SIGINT');
    const { code } = await cli.exit;
    expect(code, cli.stderr()).toBe(130);
    expect(cli.stderr()).toContain('cancelling…');
    expect(cli.stderr()).toMatch(/^gpu-lab run: CANCELLED: the run was cancelled$/m);
    expect(cli.stderr()).not.toContain('COMPUTE_HOST_CRASHED');
    expect(storedStatuses(cli.dataDir)).toEqual(['cancelled']);
    await until('the host to go', () => gone(host), 10_000);
  }, 180_000);

  it('exits at once on a second Ctrl-C, without waiting for the sample in progress, and the host goes too', async () => {
    const cli = runCli(8000);
    const host = await measuringHost(cli);
    process.kill(-(cli.child.pid ?? 0), 'SIGINT');
    await until('the first Ctrl-C to be taken', () => cli.stderr().includes('cancelling…'), 10_000);
    process.kill(-(cli.child.pid ?? 0), 'SIGINT');
    const { code } = await cli.exit;
    expect(code).toBe(130);
    expect(cli.stderr()).toContain('stopped at once');
    await until('the host to go', () => gone(host), 5_000);
  }, 180_000);

  it('cancels on a Ctrl-C that comes while the run is still being set up, and stores nothing: it never started', async () => {
    const cli = runCli(2500);
    const parent = cli.child.pid ?? -1;
    // The compute host has just been started: the run asks it for the devices before it exists.
    await until('the compute host', () => readdirSync('/proc').map(Number).find((pid) => pid > 0 && stat(pid)?.ppid === parent), 60_000);
    process.kill(-parent, 'SIGINT');
    const { code } = await cli.exit;
    expect(code, cli.stderr()).toBe(130);
    expect(cli.stderr()).toContain('nothing was stored: the run ended before it began to measure');
    expect(storedStatuses(cli.dataDir)).toEqual([]);
  }, 180_000);

  it('does on SIGTERM what it does on Ctrl-C', async () => {
    const cli = runCli(2500);
    await measuringHost(cli);
    process.kill(cli.child.pid ?? 0, 'SIGTERM');
    const { code } = await cli.exit;
    expect(code, cli.stderr()).toBe(130);
    expect(storedStatuses(cli.dataDir)).toEqual(['cancelled']);
  }, 180_000);
});
