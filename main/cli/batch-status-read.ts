// Gathers what `gpu-lab batch status` judges (batch-status.ts): the job's description in the data folder, Slurm's
// words (squeue, sacct, the job-completion file, the job's log) and the job's runs. Each source that cannot answer
// is noted with its own words and the others still count: a cluster without accounting, a controller that has
// forgotten a finished job, a login node without sacct.
import { constants, createReadStream } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { RunStore } from '../runs/run-store.ts';
import { BATCH_JOB, judgeJob, runsOfJob, type BatchJob, type JobStatus } from './batch-status.ts';
import { runSlurm, type SlurmCommand } from './slurm.ts';
import {
  parseJobcomp,
  parseNodeEnds,
  parseSacct,
  parseSlurmConfig,
  parseSqueue,
  sacctArgs,
  SACCT_DISABLED,
  squeueArgs,
  SQUEUE_UNKNOWN_JOB,
  type SlurmWord,
} from './slurm-output.ts';

export type SourceNote =
  | { kind: 'missing' | 'said'; command: SlurmCommand; words: string }
  | { kind: 'noAccounting'; words: string }
  | { kind: 'badDescription'; path: string; reason: string };

export interface StatusReading {
  job: BatchJob | null;
  status: JobStatus | null;
  notes: SourceNote[];
  // The last lines of each failed task's log, by task.
  logs: Map<string, { path: string; lines: string[] }>;
}

// A job's description or log is read only where it is a regular file in the folder (never a link followed out of
// it, never a FIFO that would block): O_NOFOLLOW and O_NONBLOCK at open, then the kind checked on what was opened.
async function openRegular(path: string): Promise<FileHandle | null> {
  let file: FileHandle;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  if (!(await file.stat()).isFile()) {
    await file.close();
    return null;
  }
  return file;
}

// The last `maxBytes` of a file, as text, or null.
export async function readTail(path: string, maxBytes: number): Promise<string | null> {
  const file = await openRegular(path);
  if (!file) return null;
  try {
    const { size } = await file.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    await file.read(buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    await file.close();
  }
}

const DESCRIPTION_MAX_BYTES = 2 << 20;

export function descriptionPath(dataDir: string, jobId: string): string {
  return join(dataDir, 'batch', `${jobId}.json`);
}

// Where Slurm writes a task's output (batch-script.ts logPatterns): the array task's, or the node's step's.
export function taskLogPath(dataDir: string, jobId: string, kind: 'array' | 'nodes', task: string): string {
  return join(dataDir, 'batch', kind === 'array' ? `slurm-${jobId}_${task}.out` : `slurm-${jobId}-${task}.out`);
}

async function readDescription(dataDir: string, jobId: string, notes: SourceNote[]): Promise<BatchJob | null> {
  const path = descriptionPath(dataDir, jobId);
  const file = await openRegular(path);
  if (!file) return null;
  try {
    if ((await file.stat()).size > DESCRIPTION_MAX_BYTES) {
      notes.push({ kind: 'badDescription', path, reason: `larger than ${DESCRIPTION_MAX_BYTES >> 20} MiB` });
      return null;
    }
    const parsed = BATCH_JOB.safeParse(JSON.parse(await file.readFile('utf8')));
    if (parsed.success && parsed.data.jobId === jobId) return parsed.data;
    notes.push({ kind: 'badDescription', path, reason: parsed.success ? `it describes job ${parsed.data.jobId}` : (parsed.error.issues[0]?.message ?? 'not a batch job') });
  } catch (err) {
    notes.push({ kind: 'badDescription', path, reason: (err as Error).message });
  } finally {
    await file.close();
  }
  return null;
}

async function fromSqueue(jobId: string, notes: SourceNote[]): Promise<SlurmWord[]> {
  const answer = await runSlurm('squeue', squeueArgs(jobId));
  if (answer.ok) return parseSqueue(answer.stdout, jobId);
  // A job the controller has forgotten (minutes after it ended) is not a failure: the other sources say the rest.
  if (!answer.missing && SQUEUE_UNKNOWN_JOB.test(answer.words)) return [];
  notes.push({ kind: answer.missing ? 'missing' : 'said', command: 'squeue', words: answer.words });
  return [];
}

async function fromSacct(jobId: string, notes: SourceNote[]): Promise<SlurmWord[]> {
  const answer = await runSlurm('sacct', sacctArgs(jobId));
  if (answer.ok) return parseSacct(answer.stdout, jobId);
  if (!answer.missing && SACCT_DISABLED.test(answer.words)) notes.push({ kind: 'noAccounting', words: answer.words });
  else notes.push({ kind: answer.missing ? 'missing' : 'said', command: 'sacct', words: answer.words });
  return [];
}

// Slurm's job-completion file, where the cluster keeps one (JobCompType=jobcomp/filetxt) and this user may read
// it: one line per ended job, read a line at a time (it grows for as long as the cluster runs).
async function fromJobcomp(jobId: string, notes: SourceNote[]): Promise<SlurmWord[]> {
  const answer = await runSlurm('scontrol', ['show', 'config']);
  if (!answer.ok) {
    if (!answer.missing) notes.push({ kind: 'said', command: 'scontrol', words: answer.words });
    return [];
  }
  const config = parseSlurmConfig(answer.stdout);
  const location = config.get('JobCompLoc');
  if (config.get('JobCompType') !== 'jobcomp/filetxt' || !location?.startsWith('/')) return [];
  const file = await openRegular(location);
  if (!file) return [];
  const lines: string[] = [];
  const reader = createInterface({ input: createReadStream('', { fd: file.fd, autoClose: false }), crlfDelay: Infinity });
  try {
    for await (const line of reader) if (line.includes(`=${jobId} `)) lines.push(line);
  } finally {
    reader.close();
    await file.close();
  }
  return parseJobcomp(lines.join('\n'), jobId);
}

const LOG_TAIL_BYTES = 8192;
const LOG_TAIL_LINES = 6;

export async function readJobStatus(jobId: string, dataDir: string, warn: (message: string) => void): Promise<StatusReading> {
  const notes: SourceNote[] = [];
  // The job's description and logs are read only from a real folder of the data folder, never through a link to
  // somewhere else.
  const batchDir = join(dataDir, 'batch');
  const batchIsFolder = (await lstat(batchDir).catch(() => null))?.isDirectory() ?? false;
  const job = batchIsFolder ? await readDescription(dataDir, jobId, notes) : null;
  const cluster = job?.cluster ?? null;
  const [squeue, sacct, jobcomp] = await Promise.all([fromSqueue(jobId, notes), fromSacct(jobId, notes), fromJobcomp(jobId, notes)]);
  const words = [...squeue, ...sacct, ...jobcomp];
  if (job?.tasks.kind === 'nodes') words.push(...parseNodeEnds((await readTail(join(batchDir, `slurm-${jobId}.out`), 1 << 20)) ?? ''));
  const records = await new RunStore(dataDir, { warn, create: false }).records();
  const status = judgeJob({ jobId, job, words, runs: runsOfJob(records, jobId, cluster) });
  const logs = new Map<string, { path: string; lines: string[] }>();
  for (const task of status?.tasks ?? []) {
    if (task.state !== 'failed' || !batchIsFolder) continue;
    const path = taskLogPath(dataDir, jobId, status?.kind ?? 'array', task.task);
    const tail = await readTail(path, LOG_TAIL_BYTES);
    const lines = (tail ?? '').split('\n').map((l) => l.trimEnd()).filter(Boolean).slice(-LOG_TAIL_LINES);
    if (lines.length) logs.set(task.task, { path, lines });
  }
  return { job, status, notes, logs };
}
