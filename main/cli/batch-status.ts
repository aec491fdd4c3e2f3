// Where a batch job stands, task by task, from what Slurm says (squeue while the controller keeps the job, sacct
// where there is accounting, the job-completion file, the job's log) and what its runs say in the shared folder.
// Pure: batch-status-read.ts gathers the inputs, batch.ts prints the outcome.
import { z } from 'zod';

import { NODE_NAME, type RunRecord, type RunStatus } from '../common/run-record.ts';
import type { SlurmSource, SlurmWord } from './slurm-output.ts';

// What gpu-lab batch keeps of a job it submitted, in <data>/batch/<job>.json: the tasks and labs to expect.
export const BATCH_JOB = z.strictObject({
  jobId: z.string().regex(/^\d{1,12}$/),
  cluster: z.string().max(128).nullable(),
  submittedAt: z.string().max(40),
  appVersion: z.string().max(80),
  labs: z.array(z.string().regex(/^[a-z0-9-]{1,80}$/)).max(100),
  tasks: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('array'), count: z.int().min(1).max(1000) }),
    z.strictObject({ kind: z.literal('nodes'), nodes: z.array(z.string().regex(NODE_NAME)).min(1).max(1000) }),
  ]),
  script: z.string().max(1 << 20),
});
export type BatchJob = z.infer<typeof BATCH_JOB>;

export interface TaskRun {
  id: string;
  lab: string;
  status: RunStatus;
  errorCode: string | null;
  host: string | null;
  createdAt: string;
}

export type TaskState = 'pending' | 'running' | 'done' | 'failed' | 'unknown';
// Why a task is failed or unknown: Slurm ended it so; one of its runs failed; Slurm says it completed but its runs
// are not in the folder (the nodes see another); Slurm no longer knows it and no run of it is there.
export type TaskWhy = 'slurm' | 'run-failed' | 'not-shared' | 'forgotten' | null;

export interface TaskStatus {
  // The array task's id, or the node's name for a --nodes job.
  task: string;
  nodes: string;
  state: TaskState;
  why: TaskWhy;
  slurm: SlurmWord | null;
  // The latest run of each lab this task stored, in the labs' order.
  runs: TaskRun[];
  missingLabs: string[];
}

export interface JobStatus {
  jobId: string;
  kind: 'array' | 'nodes';
  state: TaskState;
  labs: string[];
  tasks: TaskStatus[];
}

const PENDING = new Set(['PENDING', 'REQUEUED', 'REQUEUE_HOLD', 'REQUEUE_FED', 'RESV_DEL_HOLD']);
const RUNNING = new Set(['RUNNING', 'CONFIGURING', 'COMPLETING', 'SUSPENDED', 'RESIZING', 'SIGNALING', 'STAGE_OUT', 'STOPPED']);
// The most current source first: the controller's memory, then accounting, then the files written as tasks end.
const SOURCES: readonly SlurmSource[] = ['squeue', 'sacct', 'jobcomp', 'log'];

// The runs of one job in a folder that holds many: by the Slurm job id each run recorded (and its cluster, where
// both say one: ids repeat from cluster to cluster).
export function runsOfJob(records: readonly RunRecord[], jobId: string, cluster: string | null): { run: TaskRun; arrayTaskId: number | null; node: string | null }[] {
  return records
    .filter((r) => r.environment.slurm?.jobId === jobId && (cluster === null || r.environment.slurm.cluster === null || r.environment.slurm.cluster === cluster))
    .map((r) => ({
      run: { id: r.id, lab: r.lab, status: r.status, errorCode: r.error?.code ?? null, host: r.environment.runnerHost?.name ?? null, createdAt: r.createdAt },
      arrayTaskId: r.environment.slurm?.arrayTaskId ?? null,
      node: r.environment.slurm?.node ?? r.environment.runnerHost?.name ?? null,
    }));
}

// The most current word about a task (its own before the job's), with the exit code another source adds where
// this one has none (squeue says FAILED, the job-completion file says 2:0).
function bestWord(words: readonly SlurmWord[], task: string): SlurmWord | null {
  for (const scope of [task, null]) {
    for (const source of SOURCES) {
      const word = words.find((w) => w.task === scope && w.source === source);
      if (!word) continue;
      const exitCode = word.exitCode ?? words.find((w) => w.task === scope && w.state === word.state && w.exitCode !== null)?.exitCode ?? null;
      return { ...word, exitCode };
    }
  }
  return null;
}

function judgeTask(task: string, word: SlurmWord | null, runs: TaskRun[], labs: readonly string[]): Omit<TaskStatus, 'task' | 'nodes'> {
  const latest = labs.map((lab) => runs.filter((r) => r.lab === lab).sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]).filter((r): r is TaskRun => r !== undefined);
  const missingLabs = labs.filter((lab) => !latest.some((r) => r.lab === lab));
  const base = { slurm: word, runs: latest, missingLabs };
  const runFailed = latest.some((r) => r.status === 'failed' || r.status === 'cancelled' || r.status === 'waived');
  const runLive = latest.some((r) => r.status === 'queued' || r.status === 'running');
  if (word && PENDING.has(word.state)) return { ...base, state: 'pending', why: null };
  if (word && RUNNING.has(word.state)) return { ...base, state: 'running', why: null };
  if (word?.state === 'COMPLETED') {
    if (missingLabs.length) return { ...base, state: 'failed', why: 'not-shared' };
    return runFailed ? { ...base, state: 'failed', why: 'run-failed' } : { ...base, state: 'done', why: null };
  }
  if (word) return { ...base, state: 'failed', why: 'slurm' };
  // Slurm says nothing of it any more: the runs alone, each judged alive only on its own host (run-store.ts).
  if (runFailed) return { ...base, state: 'failed', why: 'run-failed' };
  if (runLive) return { ...base, state: 'running', why: null };
  if (latest.length === 0 || missingLabs.length) return { ...base, state: 'unknown', why: 'forgotten' };
  return { ...base, state: 'done', why: null };
}

export interface JobInputs {
  jobId: string;
  job: BatchJob | null;
  words: readonly SlurmWord[];
  runs: readonly { run: TaskRun; arrayTaskId: number | null; node: string | null }[];
}

// Every task's state and the job's, or null where nothing (Slurm, the folder) knows the job.
export function judgeJob({ jobId, job, words, runs }: JobInputs): JobStatus | null {
  if (!job && words.length === 0 && runs.length === 0) return null;
  const kind = job?.tasks.kind ?? (words.some((w) => w.task !== null && /^\d+$/.test(w.task)) || runs.some((r) => r.arrayTaskId !== null) ? 'array' : 'nodes');
  const taskOf = (r: JobInputs['runs'][number]): string | null => (kind === 'array' ? (r.arrayTaskId === null ? null : String(r.arrayTaskId)) : r.node);
  const expected =
    job?.tasks.kind === 'array' ? Array.from({ length: job.tasks.count }, (_, i) => String(i)) : job?.tasks.kind === 'nodes' ? job.tasks.nodes : [];
  const seen = [...words.map((w) => w.task), ...runs.map(taskOf)].filter((t): t is string => t !== null);
  let tasks = [...new Set([...expected, ...seen])];
  if (kind === 'array') tasks.sort((a, b) => Number(a) - Number(b));
  // A job that is no array and names no node yet (pending): one task, the job itself, on the nodes it will have.
  if (tasks.length === 0) tasks = [words.find((w) => w.task === null)?.nodes || '-'];
  const labs = job?.labs ?? [...new Set(runs.map((r) => r.run.lab))];
  const statuses = tasks.map((task): TaskStatus => {
    const word = bestWord(words, task);
    const own = runs.filter((r) => taskOf(r) === task).map((r) => r.run);
    const nodes = kind === 'nodes' ? task : word?.nodes || [...new Set(runs.filter((r) => taskOf(r) === task).map((r) => r.node ?? ''))].join(',');
    return { task, nodes, ...judgeTask(task, word, own, labs) };
  });
  return { jobId, kind, state: jobState(statuses.map((s) => s.state)), labs, tasks: statuses };
}

export function jobState(states: readonly TaskState[]): TaskState {
  if (states.some((s) => s === 'pending' || s === 'running')) return states.every((s) => s === 'pending') ? 'pending' : 'running';
  if (states.includes('failed')) return 'failed';
  if (states.includes('unknown')) return 'unknown';
  return 'done';
}
