// What Slurm's commands print, read back: sbatch's job id, the state of a job's tasks from squeue, sacct and the
// job-completion file (jobcomp/filetxt), and scontrol's configuration. Pure functions of the text; tests feed them
// output captured from a real Slurm (tests/fixtures/slurm/).
import { NODE_END_LINE } from './batch-script.ts';

export type SlurmSource = 'squeue' | 'sacct' | 'jobcomp' | 'log';

// One thing Slurm says about a job or one of its tasks.
export interface SlurmWord {
  // An array task's id, a node's name (the step of a --nodes job there), or null: the job as a whole.
  task: string | null;
  // Slurm's own word: PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL…
  state: string;
  // The nodes it runs or ran on; empty while pending.
  nodes: string;
  // squeue's reason (Resources, Priority, NonZeroExitCode…) or sacct's "by <uid>"; null where there is none.
  reason: string | null;
  // "exit:signal", as sacct and jobcomp write it ("3:0"); null where the source does not say.
  exitCode: string | null;
  source: SlurmSource;
}

export const SQUEUE_FORMAT = '%i|%T|%N|%r';
export const SACCT_FORMAT = 'JobID,State,ExitCode,NodeList';

// --states=all: squeue shows a job's ended tasks too, for as long as the controller keeps them (MinJobAge, 300 s by
// default); --array: one line per array task, a pending range included.
export function squeueArgs(jobId: string): string[] {
  return ['--jobs', jobId, '--states=all', '--array', '--noheader', `--format=${SQUEUE_FORMAT}`];
}

export function sacctArgs(jobId: string): string[] {
  return ['--jobs', jobId, '--parsable2', '--noheader', `--format=${SACCT_FORMAT}`];
}

// The words squeue and sacct say when they have nothing for us, which are not failures to report.
export const SQUEUE_UNKNOWN_JOB = /Invalid job id specified/i;
export const SACCT_DISABLED = /accounting storage is disabled/i;

// "12" or, on a federation or with --clusters, "12;cluster".
export function parseSbatchAnswer(stdout: string): { jobId: string; cluster: string | null } | null {
  const m = /^(\d{1,12})(?:;([A-Za-z0-9_.-]+))?$/.exec(stdout.trim());
  return m?.[1] === undefined ? null : { jobId: m[1], cluster: m[2] ?? null };
}

const NONE = new Set(['', 'None', '(null)', 'None assigned']);

function reasonOf(text: string | undefined): string | null {
  return text === undefined || NONE.has(text.trim()) ? null : text.trim();
}

function nodesOf(text: string | undefined): string {
  return text === undefined || NONE.has(text.trim()) ? '' : text.trim();
}

// The task ids of "3", "0-3", "1,4-5" or "0-7%2" (a throttle after %).
function expandTasks(list: string): string[] {
  const ids: string[] = [];
  for (const part of list.replace(/%\d+$/, '').split(',')) {
    const range = /^(\d+)-(\d+)(?::(\d+))?$/.exec(part);
    if (range) {
      const step = Number(range[3] ?? 1);
      for (let i = Number(range[1]); i <= Number(range[2]) && ids.length < 100_000; i += Math.max(1, step)) ids.push(String(i));
    } else if (/^\d+$/.test(part)) ids.push(part);
  }
  return ids;
}

// A job id as squeue and sacct print it: "12" (the job), "12_3" (array task 3), "12_[4-7]" (tasks not yet started),
// "12.0" or "12_3.batch" (a step). The tasks it names, or null where it is not this job or not a task.
function tasksOfId(id: string, jobId: string): { tasks: (string | null)[]; step: string | null } | null {
  const m = /^(\d+)(?:_(\[[^\]]*\]|\d+))?(?:\.(.+))?$/.exec(id);
  if (!m || m[1] !== jobId) return null;
  const array = m[2];
  const tasks = array === undefined ? [null] : expandTasks(array.replace(/^\[|\]$/g, ''));
  return { tasks, step: m[3] ?? null };
}

export function parseSqueue(text: string, jobId: string): SlurmWord[] {
  const words: SlurmWord[] = [];
  for (const line of text.split('\n')) {
    const [id, state, nodes, reason] = line.trim().split('|');
    if (id === undefined || state === undefined || state === '') continue;
    const named = tasksOfId(id, jobId);
    if (!named || named.step !== null) continue;
    for (const task of named.tasks) words.push({ task, state, nodes: nodesOf(nodes), reason: reasonOf(reason), exitCode: null, source: 'squeue' });
  }
  return words;
}

// sacct's lines: the job or each array task, and their steps. An array's steps (12_3.batch) say nothing their task
// does not; a --nodes job's numbered steps (12.0, 12.1) are its nodes' tasks, each on one node.
export function parseSacct(text: string, jobId: string): SlurmWord[] {
  const words: SlurmWord[] = [];
  for (const line of text.split('\n')) {
    const [id, stateText, exitCode, nodes] = line.trim().split('|');
    if (id === undefined || stateText === undefined || stateText === '') continue;
    const named = tasksOfId(id, jobId);
    if (!named) continue;
    // "CANCELLED by 1000": the state, then who.
    const [state = stateText, ...by] = stateText.split(' ');
    const reason = by.length ? by.join(' ') : null;
    const base = { state, reason, exitCode: exitCode?.trim() || null, source: 'sacct' as const };
    if (named.step === null) {
      for (const task of named.tasks) words.push({ ...base, task, nodes: nodesOf(nodes) });
    } else if (/^\d+$/.test(named.step) && named.tasks[0] === null && nodesOf(nodes) !== '' && !nodesOf(nodes).includes(',')) {
      words.push({ ...base, task: nodesOf(nodes), nodes: nodesOf(nodes) });
    }
  }
  return words;
}

// One line of the job-completion file: "JobId=3 UserId=root(0) … Name=gpu-lab JobState=FAILED … ExitCode=3:0", each
// value running to the next " Key=" (a name or a folder may hold spaces).
export function jobcompFields(line: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const m of line.matchAll(/(?:^|\s)([A-Za-z]+)=(.*?)(?=\s+[A-Za-z]+=|\s*$)/g)) {
    if (m[1] !== undefined) fields.set(m[1], m[2] ?? '');
  }
  return fields;
}

// The lines of one job in the file: an array's tasks by ArrayJobId (each task is a job of its own id to Slurm), a
// job that is no array by its JobId. A task that ran twice (requeued) is said by its last line.
export function parseJobcomp(text: string, jobId: string): SlurmWord[] {
  const byTask = new Map<string | null, SlurmWord>();
  for (const line of text.split('\n')) {
    if (!line.includes(`=${jobId}`)) continue;
    const f = jobcompFields(line);
    const arrayJob = f.get('ArrayJobId');
    const inArray = arrayJob !== undefined && arrayJob !== '' && arrayJob !== '0';
    if (inArray ? arrayJob !== jobId : f.get('JobId') !== jobId) continue;
    const state = f.get('JobState');
    if (!state) continue;
    const task = inArray ? (f.get('ArrayTaskId') ?? null) : null;
    byTask.set(task, { task, state, nodes: nodesOf(f.get('NodeList')), reason: null, exitCode: f.get('ExitCode') || null, source: 'jobcomp' });
  }
  return [...byTask.values()];
}

// A --nodes job's log: the line its script prints as each node's step ends (batch-script.ts).
export function parseNodeEnds(log: string): SlurmWord[] {
  const words: SlurmWord[] = [];
  for (const line of log.split('\n')) {
    const m = NODE_END_LINE.exec(line.trim());
    if (!m?.[1] || m[2] === undefined) continue;
    words.push({ task: m[1], state: m[2] === '0' ? 'COMPLETED' : 'FAILED', nodes: m[1], reason: null, exitCode: `${m[2]}:0`, source: 'log' });
  }
  return words;
}

// `scontrol show config`: "Key = value" lines.
export function parseSlurmConfig(text: string): Map<string, string> {
  const config = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^(\S+)\s+=\s?(.*)$/.exec(line);
    if (m?.[1] !== undefined) config.set(m[1], (m[2] ?? '').trim());
  }
  return config;
}
