// gpu-lab batch on a real Slurm: a one-node cluster of this machine's own (support/slurm-cluster.ts: munged,
// slurmctld and slurmd from Debian's packages, in a temporary folder), a real sbatch of real `gpu-lab run`s on the
// CPU, their runs in the shared folder and `batch status` reading squeue, then the job-completion file once the
// controller has forgotten the job. Where Slurm cannot start here (not root, the packages missing) the tests are
// skipped, and the reason is printed.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, mkdtempSync, mkdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunRecord } from '../../../main/common/run-record.ts';
import { slurmUnavailable, startSlurm, type SlurmCluster } from './support/slurm-cluster.ts';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const unavailable = slurmUnavailable();
if (unavailable) console.warn(`tests/unit/cli/slurm-batch.test.ts skipped: ${unavailable}`);

// Small enough to run in about a second on a CPU; no Python peers.
const SMALL = ['--param', 'elements=100000', '--param', 'repeats=3', '--peers', 'none'];

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

let cluster: SlurmCluster | null = null;

function gpuLab(args: string[], extraEnv: Record<string, string> = {}): Promise<Result> {
  const env = { ...process.env, ...cluster?.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8', ...extraEnv };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

interface StatusJson {
  state: string;
  tasks: { task: string; nodes: string; state: string; slurm: { state: string; source: string; exitCode: string | null } | null; log: { lines: string[] } | null }[];
}

// Asks until the job has ended (neither pending nor running), as a person would; every state seen, in order.
async function waitForEnd(job: string, dataDir: string): Promise<{ last: StatusJson; seen: string[] }> {
  const seen: string[] = [];
  const deadline = Date.now() + 150_000;
  for (;;) {
    const r = await gpuLab(['batch', 'status', job, '--data-dir', dataDir, '--json']);
    const status = JSON.parse(r.stdout) as StatusJson;
    if (seen.at(-1) !== status.state) seen.push(status.state);
    if (status.state !== 'pending' && status.state !== 'running') return { last: status, seen };
    expect(r.status, r.stderr).toBe(75);
    if (Date.now() > deadline) throw new Error(`job ${job} still ${status.state} after 150 s\n${cluster?.logs() ?? ''}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

// Until the controller has forgotten the job (MinJobAge), so that what ended is read from elsewhere.
async function waitUntilForgotten(job: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const env = { ...process.env, ...cluster?.env };
    const gone = await new Promise<boolean>((resolve) => {
      const child = spawn('squeue', ['--jobs', job, '--states=all', '--noheader'], { env });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.on('close', (code) => resolve(code !== 0 || out.trim() === ''));
    });
    if (gone) return;
    if (Date.now() > deadline) throw new Error(`squeue still knows job ${job}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

function records(dataDir: string): RunRecord[] {
  const dir = join(dataDir, 'runs');
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as RunRecord);
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? allFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

describe.skipIf(unavailable !== null)(`gpu-lab batch on a real one-node Slurm${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    // The controller forgets an ended job after 2 s (Slurm's default is 300): batch status must then read it elsewhere.
    cluster = await startSlurm({ minJobAge: 2 });
  }, 90_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  const sharedFolder = (name: string): string => {
    // A space in the path: every value reaches the script quoted.
    const dir = join(mkdtempSync(join(tmpdir(), 'gpu-lab-batch-')), `shared ${name}`);
    mkdirSync(dir);
    return dir;
  };

  it('runs vector-function as an array of 2: both runs land completed in the shared folder, and batch status says done', async () => {
    const dataDir = sharedFolder('array');
    const submitted = await gpuLab(['batch', '--slurm', '--labs', 'vector-function', '--array', '2', '--data-dir', dataDir, ...SMALL]);
    expect(submitted.status, submitted.stderr).toBe(0);
    const job = submitted.stdout.trim();
    expect(job).toMatch(/^\d+$/);
    expect(submitted.stderr).toContain(`submitted job ${job} to Slurm: 2 tasks, labs vector-function`);

    const { last, seen } = await waitForEnd(job, dataDir);
    expect(last.state, JSON.stringify(last, null, 2)).toBe('done');
    expect(seen.at(-1)).toBe('done');
    const runs = records(dataDir);
    expect(runs.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(runs.map((r) => r.environment.slurm?.arrayTaskId).sort()).toEqual([0, 1]);
    for (const r of runs) {
      expect(r.lab).toBe('vector-function');
      expect(r.params.elements).toBe(100000);
      expect(r.environment.runnerHost?.name).toBe(hostname());
      expect(r.environment.slurm).toMatchObject({ jobId: job, node: cluster?.node, cluster: 'gpulabtest', stepId: null });
      expect(r.environment.gpuUuid).toBeNull();
    }

    const text = await gpuLab(['batch', 'status', job, '--data-dir', dataDir]);
    expect(text.status, text.stdout + text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^job ${job}: done \\(2 done\\)$`, 'm'));
    for (const task of [0, 1]) expect(text.stdout).toMatch(new RegExp(`^  task ${task} on ${cluster?.node ?? ''}: done — Slurm says COMPLETED`, 'm'));

    // Once squeue has forgotten the job, the job-completion file says the same.
    await waitUntilForgotten(job);
    const later = await gpuLab(['batch', 'status', job, '--data-dir', dataDir, '--json']);
    const laterStatus = JSON.parse(later.stdout) as StatusJson;
    expect(laterStatus.state).toBe('done');
    expect(laterStatus.tasks.map((t) => [t.task, t.slurm?.state, t.slurm?.source, t.slurm?.exitCode])).toEqual([
      ['0', 'COMPLETED', 'jobcomp', '0:0'],
      ['1', 'COMPLETED', 'jobcomp', '0:0'],
    ]);

    // Nothing half-written: the two records, the job's description and the tasks' logs, no temporary file.
    const files = allFiles(dataDir).map((f) => f.slice(dataDir.length + 1)).sort();
    expect(files.filter((f) => !f.startsWith('runs/') && !f.startsWith('kernels/'))).toEqual([`batch/${job}.json`, `batch/slurm-${job}_0.out`, `batch/slurm-${job}_1.out`]);
    expect(files.filter((f) => f.includes('.tmp'))).toEqual([]);
  }, 240_000);

  it('says a failed task plainly: Slurm\'s state and exit code, and the task\'s own words from its log', async () => {
    const dataDir = sharedFolder('failing');
    // A device no machine has: every task's gpu-lab run refuses it (exit 2) before measuring anything.
    const submitted = await gpuLab(['batch', '--slurm', '--labs', 'vector-function', '--array', '2', '--device', 'cuda:99', '--data-dir', dataDir, ...SMALL]);
    expect(submitted.status, submitted.stderr).toBe(0);
    const job = submitted.stdout.trim();
    const { last } = await waitForEnd(job, dataDir);
    expect(last.state).toBe('failed');
    await waitUntilForgotten(job);
    const text = await gpuLab(['batch', 'status', job, '--data-dir', dataDir]);
    expect(text.status).toBe(1);
    for (const task of [0, 1]) {
      expect(text.stdout).toMatch(new RegExp(`^  task ${task} on ${cluster?.node ?? ''}: failed — Slurm says FAILED, exit code 2:0 \\(job-completion file\\)$`, 'm'));
    }
    expect(text.stdout).toMatch(/^ {8}gpu-lab run: INVALID_PARAMS: Parameter "device" = "cuda:99" is not allowed/m);
    expect(text.stdout).toMatch(new RegExp(`^job ${job}: failed \\(2 failed\\)$`, 'm'));
  }, 240_000);

  it('runs one task on each node named, as job steps, and records each node\'s step', async () => {
    const dataDir = sharedFolder('nodes');
    const node = cluster?.node ?? '';
    const submitted = await gpuLab(['batch', '--slurm', '--labs', 'vector-function', '--nodes', node, '--data-dir', dataDir, ...SMALL]);
    expect(submitted.status, submitted.stderr).toBe(0);
    const job = submitted.stdout.trim();
    const { last } = await waitForEnd(job, dataDir);
    expect(last.state, JSON.stringify(last, null, 2)).toBe('done');
    expect(last.tasks.map((t) => t.task)).toEqual([node]);
    const [run] = records(dataDir);
    expect(run?.environment.slurm).toMatchObject({ jobId: job, arrayTaskId: null, stepId: '0', node });
    const text = await gpuLab(['batch', 'status', job, '--data-dir', dataDir]);
    expect(text.stdout).toMatch(new RegExp(`^  node ${node}: done`, 'm'));
  }, 240_000);

  it('runs vector-function on the node\'s WebGPU adapter (--device webgpu:0): its GPU points measured there and verified', async () => {
    const dataDir = sharedFolder('webgpu');
    const submitted = await gpuLab(['batch', '--slurm', '--labs', 'vector-function', '--device', 'webgpu:0', '--nodes', cluster?.node ?? '', '--data-dir', dataDir, ...SMALL]);
    expect(submitted.status, submitted.stderr).toBe(0);
    const { last } = await waitForEnd(submitted.stdout.trim(), dataDir);
    expect(last.state, JSON.stringify(last, null, 2)).toBe('done');
    const [run, ...more] = records(dataDir);
    expect(more).toEqual([]);
    expect(run?.device).toBe('webgpu:0');
    const gpu = run?.points.filter((p) => p.device === 'webgpu:0') ?? [];
    expect(gpu).toHaveLength(3);
    for (const p of gpu) {
      expect(p.status).toBe('ok');
      expect(p.verification?.passed).toBe(true);
      expect(p.implementation).toContain('shaders/wgsl/vector_function.wgsl');
    }
  }, 240_000);

  it('says a refused submission in Slurm\'s words and leaves nothing in the shared folder', async () => {
    const dataDir = sharedFolder('refused');
    const r = await gpuLab(['batch', '--slurm', '--labs', 'vector-function', '--partition', 'no-such-partition', '--data-dir', dataDir, ...SMALL]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^gpu-lab batch: NOT_SUBMITTED: Slurm refused the job; sbatch said:\nsbatch: error: invalid partition specified: no-such-partition\nsbatch: error: Batch job submission failed: Invalid partition name specified$/m);
    expect(readdirSync(dataDir)).toEqual([]);
  }, 60_000);
});
