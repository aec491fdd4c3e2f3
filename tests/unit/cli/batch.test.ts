// gpu-lab batch from outside, where no Slurm answers (its commands left off PATH): the script printed with
// --dry-run, a missing sbatch said plainly with nothing left behind, bad usage refused naming the option, and
// batch status going by the runs folder alone, a node's live run left for that node to judge. The same on a real
// Slurm: slurm-batch.test.ts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import type { RunRecord } from '../../../main/common/run-record.ts';
import type { BatchJob } from '../../../main/cli/batch-status.ts';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
// Node alone on PATH: no sbatch, squeue, sacct or scontrol, whatever this machine has installed.
const noSlurm = { ...process.env, PATH: dirname(process.execPath), LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

function gpuLab(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: noSlurm });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const shared = (): string => {
  const dir = join(mkdtempSync(join(tmpdir(), 'gpu-lab-batch-cli-')), 'shared folder');
  mkdirSync(dir);
  return dir;
};

describe('gpu-lab batch --slurm', () => {
  it('prints the script with --dry-run, running this gpu-lab by absolute paths, and writes nothing', () => {
    const dir = shared();
    const r = gpuLab('batch', '--slurm', '--labs', 'vector-function,matmul', '--array', '4', '--data-dir', dir, '--param', 'elements=1000', '--gres', 'gpu:1', '--dry-run');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^#!\/bin\/bash\n/);
    expect(r.stdout).toContain('#SBATCH --array=0-3\n');
    expect(r.stdout).toContain(`'${process.execPath}' '${bin}' run 'vector-function' --data-dir '${dir}' --quiet --param 'elements=1000' || status=$?`);
    // matmul has no parameter "elements": it runs with its own defaults.
    expect(r.stdout).toContain(`'${process.execPath}' '${bin}' run 'matmul' --data-dir '${dir}' --quiet || status=$?`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('says plainly that sbatch is missing, and leaves nothing in the shared folder', () => {
    const dir = shared();
    const r = gpuLab('batch', '--slurm', '--labs', 'vector-function', '--data-dir', dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^gpu-lab batch: NOT_SUBMITTED: sbatch was not found \(sbatch: spawn sbatch ENOENT\): this machine is not a Slurm login node/m);
    expect(r.stderr).toContain(`nothing was written in ${dir}`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    [['--labs', 'vector-function'], 'batch submits jobs to Slurm, the only scheduler it speaks: add --slurm', true],
    [['--slurm'], 'batch needs --data-dir DIR', false],
    [['--slurm', '--array', '2', '--nodes', 'n01'], '--array and --nodes do not go together', true],
    [['--slurm', '--labs', 'vector-function,gemm'], '--labs: unknown lab "gemm"; the labs are', true],
    [['--slurm', '--labs', 'vector-function', '--param', 'n=4'], '--param n=…: none of the labs asked (vector-function) has a parameter "n"', true],
    [['--slurm', '--labs', 'vector-function', '--param', 'elements=0x10'], '--param elements=0x10: write the number in decimal digits', true],
    [['--slurm', '--labs', 'vector-function', '--param', 'elements=0'], 'INVALID_PARAMS: Parameter "elements" of lab "vector-function" = 0 is not allowed', true],
    [['--slurm', '--gres', 'gpu:1 --wrap=id'], '--gres: expected generic resources as Slurm writes them', true],
    [['--slurm', '--array', '0'], '--array: expected a number of tasks from 1 to 1000 but received "0"', true],
    [['--slurm', '--device', 'gpu0'], '--device: expected "cpu", "cuda:N" or "webgpu:N" but received "gpu0"', true],
    [['--slurm', '--json'], '--json goes with batch status', true],
    [['status', '12;rm'], 'batch status needs the job id gpu-lab batch printed (a number), not "12;rm"', true],
    [['status', '12', '--partition', 'gpu'], '--partition goes with the submission, not with batch status', true],
    [['submit'], 'batch takes no argument "submit"', true],
  ])('refuses %j with exit 2, naming what is wrong', (args, said, withDir) => {
    const dir = shared();
    const r = gpuLab('batch', ...args, ...(withDir ? ['--data-dir', dir] : []));
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(said);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a batch folder that is a link out of the shared folder, before anything is submitted', () => {
    const dir = shared();
    const elsewhere = mkdtempSync(join(tmpdir(), 'gpu-lab-elsewhere-'));
    symlinkSync(elsewhere, join(dir, 'batch'));
    const r = gpuLab('batch', '--slurm', '--labs', 'vector-function', '--data-dir', dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'batch')} is not a folder (a link, or a file)`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('refuses a data folder that is not there (a typo), rather than spreading runs over a folder no one looks in', () => {
    const r = gpuLab('batch', '--slurm', '--data-dir', '/nonexistent/shared');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--data-dir /nonexistent/shared: no such folder');
  });
});

describe('gpu-lab batch status with no Slurm to ask', () => {
  const base = JSON.parse(readFileSync(new URL('../../fixtures/runs/cpu-vector-function.json', import.meta.url), 'utf8')) as RunRecord;

  // A shared folder as a job of two tasks on node01 and node02 left it: its description and a record per task.
  function folder(second: Partial<RunRecord>): { dir: string; file: (id: string) => string } {
    const dir = shared();
    mkdirSync(join(dir, 'batch'));
    mkdirSync(join(dir, 'runs'));
    const job: BatchJob = { jobId: '41', cluster: 'hpc', submittedAt: '2026-11-29T07:00:00.000Z', appVersion: 'test', labs: ['vector-function'], tasks: { kind: 'array', count: 2 }, script: '#!/bin/bash\n' };
    writeFileSync(join(dir, 'batch', '41.json'), JSON.stringify(job));
    for (const task of [0, 1]) {
      const node = `node0${task + 1}`;
      const record: RunRecord = {
        ...base,
        id: `task-${task}`,
        environment: { ...base.environment, runnerHost: { name: `${node}.hpc.example`, machineId: null, bootId: null }, slurm: { jobId: '41', arrayTaskId: task, stepId: null, node, cluster: 'hpc' } },
        ...(task === 1 ? second : {}),
      };
      writeFileSync(join(dir, 'runs', `task-${task}.json`), JSON.stringify(record));
    }
    return { dir, file: (id) => readFileSync(join(dir, 'runs', `${id}.json`), 'utf8') };
  }

  it('says the job is done from its runs, and which of Slurm\'s commands could not be asked', () => {
    const { dir } = folder({});
    const r = gpuLab('batch', 'status', '41', '--data-dir', dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`job 41: 2 tasks, labs vector-function, runs in ${join(dir, 'runs')}`);
    expect(r.stdout).toMatch(/^ {2}task 0 on node01: done\n {6}vector-function completed \(task-0\)$/m);
    expect(r.stdout).toMatch(/^ {2}! squeue was not found on this machine \(squeue: spawn squeue ENOENT\): its part of the answer is missing$/m);
    expect(r.stdout).toMatch(/^job 41: done \(2 done\)$/m);
  });

  it('says a failed run with its error code, exit 1', () => {
    const { dir } = folder({ status: 'failed', error: { code: 'VERIFICATION_FAILED', message: 'wrong' } });
    const r = gpuLab('batch', 'status', '41', '--data-dir', dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^ {2}task 1 on node02: failed\n {6}vector-function failed with VERIFICATION_FAILED \(task-1\)$/m);
    expect(r.stdout).toMatch(/^job 41: failed \(1 done, 1 failed\)$/m);
  });

  it('leaves a node\'s live run for that node to judge: running, exit 75, its record untouched', () => {
    const { dir, file } = folder({ status: 'running', environment: { ...base.environment, runnerPid: 2 ** 22 + 7, runnerHost: { name: 'node02.hpc.example', machineId: null, bootId: null }, slurm: { jobId: '41', arrayTaskId: 1, stepId: null, node: 'node02', cluster: 'hpc' } } });
    const before = file('task-1');
    const r = gpuLab('batch', 'status', '41', '--data-dir', dir);
    expect(r.status).toBe(75);
    expect(r.stdout).toContain('vector-function running on node02.hpc.example, which alone can tell whether it still runs (task-1)');
    expect(r.stdout).toMatch(/^job 41: running \(1 done, 1 running\)$/m);
    expect(file('task-1')).toBe(before);
    expect(gpuLab('runs', 'list', '--data-dir', dir).stdout).toMatch(/^task-1 +running/m);
    expect(file('task-1')).toBe(before);
  });

  it('says so where nothing knows the job, and speaks Spanish when asked', () => {
    const { dir } = folder({});
    const unknown = gpuLab('batch', 'status', '42', '--data-dir', dir);
    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toContain(`job 42: Slurm does not know it, and '${dir}' holds neither its description nor a run of it`);
    const es = gpuLab('--lang', 'es', 'batch', 'status', '41', '--data-dir', dir);
    expect(es.stdout).toMatch(/^trabajo 41: terminado \(2 terminadas\)$/m);
    expect(es.stdout).toMatch(/^ {2}tarea 0 en node01: terminada$/m);
  });

  it('reads no description or log through a link, and prints what a record says as plain text', () => {
    const { dir } = folder({ lab: 'vector-function\u001b[2J\u0007' });
    const moved = mkdtempSync(join(tmpdir(), 'gpu-lab-elsewhere-'));
    writeFileSync(join(moved, '41.json'), readFileSync(join(dir, 'batch', '41.json')));
    const linked = shared();
    mkdirSync(join(linked, 'runs'));
    for (const n of readdirSync(join(dir, 'runs'))) writeFileSync(join(linked, 'runs', n), readFileSync(join(dir, 'runs', n)));
    symlinkSync(moved, join(linked, 'batch'));
    const r = gpuLab('batch', 'status', '41', '--data-dir', linked);
    expect(r.stdout).toContain('job 41 (not submitted from this data folder, or its description is gone)');
    expect(r.stdout).toContain('vector-function?[2J? completed (task-1)');
    // eslint-disable-next-line no-control-regex
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it('answers --json with every task, its state and runs', () => {
    const { dir } = folder({});
    const r = gpuLab('batch', 'status', '41', '--data-dir', dir, '--json');
    const json = JSON.parse(r.stdout) as { state: string; tasks: { task: string; state: string; runs: { id: string }[] }[]; notes: { kind: string }[] };
    expect(json.state).toBe('done');
    expect(json.tasks.map((t) => [t.task, t.state, t.runs.map((x) => x.id)])).toEqual([
      ['0', 'done', ['task-0']],
      ['1', 'done', ['task-1']],
    ]);
    expect(json.notes.map((n) => n.kind)).toEqual(['missing', 'missing']);
  });
});
