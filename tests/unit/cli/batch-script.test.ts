// The sbatch script gpu-lab batch writes, read by a real bash: every value reaches each `gpu-lab run` as the word it
// was (a path with spaces, a quote or a %), a task's exit code is the last failed run's, and a --nodes job starts
// one step per node (srun stood in by a script that runs the step here) and says how each ended, as batch status
// reads it. Values that cannot be passed safely are refused, naming their option.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { batchScript, checkDataDirForSlurm, checkPassable, checkSlurmValue, parseArraySize, parseNodes, type BatchSpec } from '../../../main/cli/batch-script.ts';
import { UsageError } from '../../../main/cli/command.ts';
import { parseNodeEnds } from '../../../main/cli/slurm-output.ts';

// A stand-in for gpu-lab in a folder whose name has a space and a quote: it writes each call's arguments, one per
// line, and fails as the test asks (exit 3 for matmul; exit 4 on node n02).
function fakeGpuLab(): { command: string; calls: () => string[][]; bin: string } {
  const dir = join(mkdtempSync(join(tmpdir(), 'gpu-lab-script-')), "Ana's gpu lab");
  mkdirSync(dir);
  const log = join(dir, 'calls');
  mkdirSync(log);
  const command = join(dir, 'gpu-lab');
  writeFileSync(
    command,
    // One file per call, named by the clock: the --nodes steps run at once, and bash flushes its output line by line,
    // so appends to one shared file interleave. Sorted names give the order of the calls of one task.
    ['#!/bin/bash', `printf '%s\\n' "$@" > ${JSON.stringify(log)}/"$(date +%s%N)-$$"`, '[ "$2" = matmul ] && exit 3', '[ "${NODE:-}" = n02 ] && exit 4', 'exit 0', ''].join('\n'),
  );
  chmodSync(command, 0o755);
  // srun as a step starts on its node: the options dropped, the node kept for the stand-in, the command run here.
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'srun'),
    ['#!/bin/bash', 'while [[ "$1" == --* ]]; do case "$1" in --nodelist=*) export NODE="${1#--nodelist=}";; esac; shift; done', 'exec "$@"', ''].join('\n'),
  );
  chmodSync(join(bin, 'srun'), 0o755);
  const calls = (): string[][] =>
    readdirSync(log)
      .sort()
      .map((f) => readFileSync(join(log, f), 'utf8').split('\n').filter(Boolean));
  return { command, calls, bin };
}

function spec(over: Partial<BatchSpec> = {}): BatchSpec {
  return { gpuLab: ['/usr/bin/gpu-lab'], dataDir: '/shared/gpu lab', labs: [{ id: 'vector-function', params: [] }], tasks: { kind: 'array', count: 2 }, appVersion: '1.2.3', ...over };
}

function bash(script: string, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'gpu-lab-script-')), 'job.sh');
  writeFileSync(file, script);
  const r = spawnSync('bash', [file], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the sbatch script', () => {
  it('gives every gpu-lab run its words as they were: the command, the folder and each parameter', () => {
    const fake = fakeGpuLab();
    const script = batchScript(
      spec({
        gpuLab: [fake.command],
        dataDir: '/shared/gpu lab 100%',
        labs: [
          { id: 'vector-function', params: ['elements=1000', 'repeats=2'] },
          { id: 'matmul-breakeven', params: ['sizes=100,500'] },
        ],
        device: 'cpu',
        peers: 'numpy,torch',
      }),
    );
    const r = bash(script);
    expect(r.status, r.stderr).toBe(0);
    expect(fake.calls()).toEqual([
      ['run', 'vector-function', '--data-dir', '/shared/gpu lab 100%', '--quiet', '--device', 'cpu', '--peers', 'numpy,torch', '--param', 'elements=1000', '--param', 'repeats=2'],
      ['run', 'matmul-breakeven', '--data-dir', '/shared/gpu lab 100%', '--quiet', '--device', 'cpu', '--peers', 'numpy,torch', '--param', 'sizes=100,500'],
    ]);
    // A quote is refused in the folder (sbatch's own parser reads #SBATCH lines), never in the command's path.
    expect(() => batchScript(spec({ dataDir: "/shared/it's" }))).toThrow(UsageError);
  });

  it('asks Slurm for what was given, the output beside the runs with % written as %%', () => {
    const script = batchScript(spec({ dataDir: '/shared/100% gpu', partition: 'gpu,debug', account: 'physics', gres: 'gpu:a100:1', time: '1-00:30:00', tasks: { kind: 'array', count: 12 } }));
    expect(script.split('\n').filter((l) => l.startsWith('#SBATCH'))).toEqual([
      '#SBATCH --job-name=gpu-lab',
      '#SBATCH --array=0-11',
      '#SBATCH --partition=gpu,debug',
      '#SBATCH --account=physics',
      '#SBATCH --gres=gpu:a100:1',
      '#SBATCH --time=1-00:30:00',
      "#SBATCH --output='/shared/100%% gpu/batch/slurm-%A_%a.out'",
    ]);
    expect(script.startsWith('#!/bin/bash\n')).toBe(true);
  });

  it('ends a task with the exit code of its last failed run, after running every lab', () => {
    const fake = fakeGpuLab();
    const labs = ['matmul', 'vector-function'].map((id) => ({ id, params: [] }));
    const r = bash(batchScript(spec({ gpuLab: [fake.command], labs })));
    expect(r.status).toBe(3);
    expect(fake.calls().map((c) => c[1])).toEqual(['matmul', 'vector-function']);
  });

  it('starts one step on each node named and says how each ended, in the line batch status reads', () => {
    const fake = fakeGpuLab();
    const script = batchScript(spec({ gpuLab: [fake.command], tasks: { kind: 'nodes', nodes: ['n01', 'n02', 'n03'] }, gres: 'gpu:1' }));
    expect(script).toContain('#SBATCH --nodes=3\n#SBATCH --nodelist=n01,n02,n03\n#SBATCH --ntasks-per-node=1\n');
    expect(script).toContain("--output='/shared/gpu lab/batch/slurm-%j-%N.out' bash -c run_labs &");
    const r = bash(script, { PATH: `${fake.bin}:${process.env.PATH ?? ''}` });
    expect(r.status).toBe(4);
    expect(fake.calls()).toHaveLength(3);
    expect(parseNodeEnds(r.stdout).map((w) => [w.task, w.state, w.exitCode])).toEqual([
      ['n01', 'COMPLETED', '0:0'],
      ['n02', 'FAILED', '4:0'],
      ['n03', 'COMPLETED', '0:0'],
    ]);
  });
});

describe('values that cannot be passed safely', () => {
  const refusal = (f: () => unknown): { key: string; named: Record<string, string | number> } | null => {
    try {
      f();
      return null;
    } catch (err) {
      if (err instanceof UsageError) return { key: err.key, named: err.named };
      throw err;
    }
  };

  it('refuses a control character in a path or a parameter, naming the option', () => {
    expect(refusal(() => checkPassable('param', 'elements=1\n#SBATCH --wrap=x'))).toEqual({ key: 'batch.usage.control', named: { name: 'param', value: '"elements=1\\n#SBATCH --wrap=x"' } });
    expect(refusal(() => checkDataDirForSlurm('/shared/a\tb'))?.named.name).toBe('data-dir');
    for (const dir of ['/shared/"x"', "/shared/it's", '/shared/a\\b']) expect(refusal(() => checkDataDirForSlurm(dir))?.key).toBe('batch.usage.dataDirChars');
    expect(refusal(() => checkDataDirForSlurm('/shared/gpu lab 100%'))).toBeNull();
  });

  it('takes Slurm\'s values only in the forms Slurm reads, which hold no space or quote', () => {
    const ok: [Parameters<typeof checkSlurmValue>[0], string][] = [
      ['partition', 'gpu'], ['partition', 'gpu,debug'], ['account', 'phys-101'], ['gres', 'gpu:1'], ['gres', 'gpu:a100:2'], ['gres', 'gpu:1,shard:2'],
      ['time', '30'], ['time', '30:00'], ['time', '1:00:00'], ['time', '2-12'], ['time', '2-12:30'], ['time', '2-12:30:00'], ['time', 'UNLIMITED'],
    ];
    for (const [option, value] of ok) expect(refusal(() => checkSlurmValue(option, value)), `${option} ${value}`).toBeNull();
    const bad: [Parameters<typeof checkSlurmValue>[0], string][] = [
      ['partition', 'gpu debug'], ['partition', "gpu'"], ['partition', ''], ['account', 'a,b'], ['gres', 'gpu:1 --wrap=id'], ['gres', 'gpu::1'],
      ['time', '1h'], ['time', '1:00:00:00'], ['time', '-5'], ['time', 'forever'],
    ];
    for (const [option, value] of bad) expect(refusal(() => checkSlurmValue(option, value)), `${option} ${value}`).toEqual({ key: `batch.usage.${option}`, named: { value } });
  });

  it('reads --nodes and --array only as node names and a count Slurm takes', () => {
    expect(parseNodes('n01,gpu-2.cluster')).toEqual(['n01', 'gpu-2.cluster']);
    expect(refusal(() => parseNodes('n01,n 02'))?.key).toBe('batch.usage.node');
    expect(refusal(() => parseNodes('n01,'))?.key).toBe('batch.usage.node');
    expect(refusal(() => parseNodes('n[01-04]'))?.key).toBe('batch.usage.node');
    expect(refusal(() => parseNodes('n01,n01'))).toEqual({ key: 'batch.usage.nodeTwice', named: { value: 'n01' } });
    expect(parseArraySize('1')).toBe(1);
    expect(parseArraySize('1000')).toBe(1000);
    for (const text of ['0', '1001', '1e3', '-2', '2.5', '']) expect(refusal(() => parseArraySize(text))?.key, text).toBe('batch.usage.array');
  });
});
