// Where a batch job stands, judged from Slurm's words (parsed from a real Slurm's output, tests/fixtures/slurm/)
// and the job's runs: each task pending, running, done, failed or unknown, with why; the job's state from its
// tasks' for every mix of them (fast-check).
import { readFileSync } from 'node:fs';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { judgeJob, jobState, type BatchJob, type TaskRun, type TaskState } from '../../../main/cli/batch-status.ts';
import { parseJobcomp, parseNodeEnds, parseSqueue } from '../../../main/cli/slurm-output.ts';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/slurm/${name}`, import.meta.url), 'utf8');
const jobs = JSON.parse(fixture('jobs.json')) as { array: string; failed: string; nodes: string; node: string };

function description(jobId: string, tasks: BatchJob['tasks'], labs = ['vector-function']): BatchJob {
  return { jobId, cluster: null, submittedAt: '2026-11-29T07:17:35.000Z', appVersion: 'test', labs, tasks, script: '#!/bin/bash\n' };
}

function run(lab: string, status: TaskRun['status'], task: number | null, node: string | null = jobs.node, createdAt = '2026-11-29T07:17:38.000Z') {
  return { run: { id: `r-${lab}-${String(task)}-${status}-${createdAt}`, lab, status, errorCode: status === 'failed' ? 'VERIFICATION_FAILED' : null, host: node, createdAt }, arrayTaskId: task, node };
}

const summary = (status: ReturnType<typeof judgeJob>) => status?.tasks.map((t) => [t.task, t.state, t.why]);

describe('a batch job\'s state', () => {
  const { array, node } = jobs;
  const job = description(array, { kind: 'array', count: 3 });

  it('is running while some tasks run and one waits for resources', () => {
    const status = judgeJob({ jobId: array, job, words: parseSqueue(fixture('squeue-array-1.txt'), array), runs: [] });
    expect(summary(status)).toEqual([
      ['0', 'running', null],
      ['1', 'running', null],
      ['2', 'pending', null],
    ]);
    expect(status?.tasks[2]?.slurm?.reason).toBe('Resources');
    expect(status?.state).toBe('running');
  });

  it('is pending while every task waits', () => {
    expect(judgeJob({ jobId: array, job, words: parseSqueue(fixture('squeue-array-0.txt'), array), runs: [] })?.state).toBe('pending');
  });

  it('fails where Slurm ended a task otherwise than completed (cancelled), though the others are done', () => {
    const status = judgeJob({ jobId: array, job, words: parseSqueue(fixture('squeue-array-4.txt'), array), runs: [run('vector-function', 'completed', 0), run('vector-function', 'completed', 1)] });
    expect(summary(status)).toEqual([
      ['0', 'done', null],
      ['1', 'done', null],
      ['2', 'failed', 'slurm'],
    ]);
    expect(status?.state).toBe('failed');
  });

  it('takes a failed task\'s exit code from the job-completion file where squeue has none', () => {
    const { failed } = jobs;
    const words = [...parseSqueue(fixture('squeue-failed-3.txt'), failed), ...parseJobcomp(fixture('jobcomp.txt'), failed)];
    const status = judgeJob({ jobId: failed, job: description(failed, { kind: 'array', count: 2 }), words, runs: [] });
    expect(status?.tasks.map((t) => [t.slurm?.state, t.slurm?.source, t.slurm?.exitCode, t.missingLabs])).toEqual([
      ['FAILED', 'squeue', '2:0', ['vector-function']],
      ['FAILED', 'squeue', '2:0', ['vector-function']],
    ]);
  });

  it('does not call a task done that Slurm completed but whose runs are not in the folder: the nodes see another', () => {
    const status = judgeJob({ jobId: array, job, words: parseJobcomp(fixture('jobcomp.txt'), array), runs: [run('vector-function', 'completed', 0)] });
    expect(summary(status)).toEqual([
      ['0', 'done', null],
      ['1', 'failed', 'not-shared'],
      ['2', 'failed', 'slurm'],
    ]);
  });

  it('goes by the runs where Slurm says nothing any more: done, a failed run, a run still running on its node', () => {
    const two = description(array, { kind: 'array', count: 2 });
    expect(judgeJob({ jobId: array, job: two, words: [], runs: [run('vector-function', 'completed', 0), run('vector-function', 'completed', 1)] })?.state).toBe('done');
    expect(summary(judgeJob({ jobId: array, job: two, words: [], runs: [run('vector-function', 'completed', 0), run('vector-function', 'failed', 1)] }))).toEqual([
      ['0', 'done', null],
      ['1', 'failed', 'run-failed'],
    ]);
    expect(judgeJob({ jobId: array, job: two, words: [], runs: [run('vector-function', 'completed', 0), run('vector-function', 'running', 1)] })?.state).toBe('running');
  });

  it('judges a task by the latest run of each lab: a failed first try and a completed second is done', () => {
    const runs = [run('vector-function', 'failed', 0, node, '2026-11-29T07:00:00.000Z'), run('vector-function', 'completed', 0, node, '2026-11-29T08:00:00.000Z')];
    expect(summary(judgeJob({ jobId: array, job: description(array, { kind: 'array', count: 1 }), words: [], runs }))).toEqual([['0', 'done', null]]);
  });

  it('says it cannot tell where neither Slurm nor the folder knows a task any more', () => {
    const status = judgeJob({ jobId: array, job: description(array, { kind: 'array', count: 2 }), words: [], runs: [run('vector-function', 'completed', 0)] });
    expect(summary(status)).toEqual([
      ['0', 'done', null],
      ['1', 'unknown', 'forgotten'],
    ]);
    expect(status?.state).toBe('unknown');
  });

  it('knows no job that nothing knows', () => {
    expect(judgeJob({ jobId: '424242', job: null, words: [], runs: [] })).toBeNull();
  });

  it('finds the tasks of a job it has no description of, from Slurm and the runs', () => {
    const status = judgeJob({ jobId: array, job: null, words: parseSqueue(fixture('squeue-array-4.txt'), array), runs: [run('vector-function', 'completed', 0), run('vector-function', 'completed', 1)] });
    expect(status?.kind).toBe('array');
    expect(summary(status)).toEqual([
      ['0', 'done', null],
      ['1', 'done', null],
      ['2', 'failed', 'slurm'],
    ]);
  });

  it('reads a --nodes job node by node: the job still running, a node whose step ended, one still at work', () => {
    const { nodes } = jobs;
    const words = [...parseSqueue(fixture('squeue-nodes-0.txt'), nodes), ...parseNodeEnds(`gpu-lab batch: node ${node} ended with exit code 0\n`)];
    const status = judgeJob({ jobId: nodes, job: description(nodes, { kind: 'nodes', nodes: [node, 'n02'] }), words, runs: [run('vector-function', 'completed', null, node)] });
    expect(summary(status)).toEqual([
      [node, 'done', null],
      ['n02', 'running', null],
    ]);
    expect(status?.tasks.map((t) => t.nodes)).toEqual([node, 'n02']);
  });
});

describe('the job\'s state from its tasks\'', () => {
  const STATES: TaskState[] = ['pending', 'running', 'done', 'failed', 'unknown'];
  it('is done only when every task is, pending only when every task waits, and not ended while any task is', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...STATES), { minLength: 1, maxLength: 40 }), (states) => {
        const job = jobState(states);
        expect(job === 'done').toBe(states.every((s) => s === 'done'));
        expect(job === 'pending').toBe(states.every((s) => s === 'pending'));
        const live = states.some((s) => s === 'pending' || s === 'running');
        expect(job === 'pending' || job === 'running').toBe(live);
        if (!live) expect(job === 'failed').toBe(states.includes('failed'));
      }),
    );
  });
});
