// Slurm's output read back, on what a real Slurm printed (tests/fixtures/slurm/: Debian 12's slurm-wlm 22.05.8;
// captured by support/capture-slurm-fixtures.ts, the sacct-*.txt with slurmdbd and MariaDB added by hand, as the
// fixtures' README says): sbatch's answer, squeue's lines as an array job goes from pending to ended, sacct's with
// its steps and ranges, the job-completion file, a --nodes job's log and scontrol's configuration.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import {
  jobcompFields,
  parseJobcomp,
  parseNodeEnds,
  parseSacct,
  parseSbatchAnswer,
  parseSlurmConfig,
  parseSqueue,
  SACCT_DISABLED,
  SQUEUE_UNKNOWN_JOB,
  type SlurmWord,
} from '../../../main/cli/slurm-output.ts';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/slurm/${name}`, import.meta.url), 'utf8');
const jobs = JSON.parse(fixture('jobs.json')) as { array: string; failed: string; nodes: string; node: string; jobcompFile: string };
const accounted = JSON.parse(fixture('sacct-jobs.json')) as { array: string; failed: string; nodes: string; held: string; node: string };

// Each task's state, sorted by task: what the tests compare.
const states = (words: SlurmWord[]): [string | null, string, string, string | null][] =>
  words.map((w): [string | null, string, string, string | null] => [w.task, w.state, w.nodes, w.reason ?? w.exitCode]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));

describe('sbatch --parsable', () => {
  it('reads the job id it printed, and a cluster after it where there is one', () => {
    expect(parseSbatchAnswer(fixture('sbatch-parsable.txt'))).toEqual({ jobId: fixture('sbatch-parsable.txt').trim(), cluster: null });
    expect(parseSbatchAnswer('812;gpu-cluster\n')).toEqual({ jobId: '812', cluster: 'gpu-cluster' });
  });

  it('takes nothing else for a job id', () => {
    for (const answer of ['', 'Submitted batch job 12', '12\n13', '12;', 'x']) expect(parseSbatchAnswer(answer)).toBeNull();
  });
});

describe('squeue', () => {
  const { array, failed, nodes, node } = jobs;

  it('follows an array job from pending, through running and a task cancelled while it waited, to ended', () => {
    expect(states(parseSqueue(fixture('squeue-array-0.txt'), array))).toEqual([
      ['0', 'PENDING', '', null],
      ['1', 'PENDING', '', null],
      ['2', 'PENDING', '', null],
    ]);
    // Two cores: the third task waits for them.
    expect(states(parseSqueue(fixture('squeue-array-1.txt'), array))).toEqual([
      ['0', 'RUNNING', node, null],
      ['1', 'RUNNING', node, null],
      ['2', 'PENDING', '', 'Resources'],
    ]);
    expect(states(parseSqueue(fixture('squeue-array-4.txt'), array))).toEqual([
      ['0', 'COMPLETED', node, null],
      ['1', 'COMPLETED', node, null],
      ['2', 'CANCELLED', '', 'Resources'],
    ]);
  });

  it('says a failed task with its reason, and a job that is no array as the job itself', () => {
    expect(states(parseSqueue(fixture('squeue-failed-3.txt'), failed))).toEqual([
      ['0', 'FAILED', node, 'NonZeroExitCode'],
      ['1', 'FAILED', node, 'NonZeroExitCode'],
    ]);
    expect(states(parseSqueue(fixture('squeue-nodes-0.txt'), nodes))).toEqual([[null, 'RUNNING', node, null]]);
  });

  it('reads no line of another job', () => {
    expect(parseSqueue(fixture('squeue-array-1.txt'), failed)).toEqual([]);
    expect(parseSqueue(fixture('squeue-array-1.txt'), `${array}0`)).toEqual([]);
  });

  it('knows the words of a job the controller has forgotten, and of a cluster without accounting', () => {
    expect(fixture('squeue-unknown-job.txt')).toMatch(SQUEUE_UNKNOWN_JOB);
    expect(fixture('sacct-no-accounting.txt')).toMatch(SACCT_DISABLED);
    expect(fixture('sbatch-refused.txt')).not.toMatch(SQUEUE_UNKNOWN_JOB);
  });
});

describe('sacct', () => {
  const { array, failed, nodes, held, node } = accounted;

  it('reads each array task once, its batch step adding nothing, with the exit code', () => {
    expect(states(parseSacct(fixture('sacct-array.txt'), array))).toEqual([
      ['0', 'COMPLETED', node, '0:0'],
      ['1', 'COMPLETED', node, '0:0'],
    ]);
    expect(parseSacct(fixture('sacct-failed.txt'), failed).every((w) => w.state === 'FAILED' && w.exitCode === '2:0')).toBe(true);
    expect(new Set(parseSacct(fixture('sacct-failed.txt'), failed).map((w) => w.task))).toEqual(new Set(['0', '1']));
  });

  it('spreads a range of tasks not yet started over each task, with no node', () => {
    expect(states(parseSacct(fixture('sacct-held.txt'), held))).toEqual(['0', '1', '2', '3'].map((t) => [t, 'PENDING', '', '0:0']));
  });

  it('reads a --nodes job as the job and its numbered steps as the nodes\' tasks', () => {
    expect(states(parseSacct(fixture('sacct-nodes-running.txt'), nodes))).toEqual([
      [null, 'RUNNING', node, '0:0'],
      [node, 'RUNNING', node, '0:0'],
    ]);
  });

  it('reads who cancelled apart from the state', () => {
    expect(parseSacct('7_1|CANCELLED by 1000|0:15|n01\n', '7')).toEqual([{ task: '1', state: 'CANCELLED', nodes: 'n01', reason: 'by 1000', exitCode: '0:15', source: 'sacct' }]);
  });
});

describe('the job-completion file', () => {
  const text = fixture('jobcomp.txt');
  const { array, failed, nodes, node } = jobs;

  it('reads an array job by its ArrayJobId, each task with its state, node and exit code', () => {
    expect(states(parseJobcomp(text, array))).toEqual([
      ['0', 'COMPLETED', node, '0:0'],
      ['1', 'COMPLETED', node, '0:0'],
      ['2', 'CANCELLED', '', '0:0'],
    ]);
    expect(states(parseJobcomp(text, failed))).toEqual([
      ['0', 'FAILED', node, '2:0'],
      ['1', 'FAILED', node, '2:0'],
    ]);
    expect(states(parseJobcomp(text, nodes))).toEqual([[null, 'COMPLETED', node, '0:0']]);
  });

  it('never takes an array task\'s own job id for another job', () => {
    // Each task of an array is a job of its own id to Slurm: the failed array's tasks are jobs 4 and 5.
    const own = [...text.matchAll(/JobId=(\d+) [^\n]*ArrayJobId=(\d+)/g)].filter((m) => m[1] !== m[2]).map((m) => m[1] ?? '');
    expect(own.length).toBeGreaterThan(0);
    for (const id of own) expect(parseJobcomp(text, id)).toEqual([]);
  });

  it('reads a value holding spaces up to the next key', () => {
    const fields = jobcompFields('JobId=9 Name=my job WorkDir=/home/ana/gpu lab JobState=COMPLETED ExitCode=0:0 ');
    expect([fields.get('Name'), fields.get('WorkDir'), fields.get('JobState')]).toEqual(['my job', '/home/ana/gpu lab', 'COMPLETED']);
  });
});

describe('the rest', () => {
  it('reads the line a --nodes job\'s script prints as each node\'s step ends', () => {
    expect(parseNodeEnds(fixture('nodes-job.out'))).toEqual([{ task: jobs.node, state: 'COMPLETED', nodes: jobs.node, reason: null, exitCode: '0:0', source: 'log' }]);
    expect(parseNodeEnds('gpu-lab batch: node n07 ended with exit code 3\nsrun: error: n07: task 0: Exited with exit code 3\n')).toEqual([
      { task: 'n07', state: 'FAILED', nodes: 'n07', reason: null, exitCode: '3:0', source: 'log' },
    ]);
  });

  it('reads where scontrol says the job-completion file is', () => {
    const config = parseSlurmConfig(fixture('scontrol-config.txt'));
    expect(config.get('JobCompType')).toBe('jobcomp/filetxt');
    expect(config.get('JobCompLoc')).toBe(jobs.jobcompFile);
    expect(config.get('AccountingStorageType')).toBe('accounting_storage/none');
  });
});
