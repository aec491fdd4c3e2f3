// `gpu-lab batch status` in words (the CLI's language) and as JSON (English, as stored): the job, each task with
// its state, Slurm's own words and where they come from, its runs, and for a failed task the end of its log.
import { hostname } from 'node:os';
import { join } from 'node:path';

import type { CliContext } from './command.ts';
import type { StatusReading, SourceNote } from './batch-status-read.ts';
import type { TaskRun, TaskState, TaskStatus } from './batch-status.ts';
import { shellQuote } from './batch-script.ts';

// A log is written by whoever can write the shared folder: its lines are printed with no control character, so that
// none can move the cursor or recolour the terminal.
// eslint-disable-next-line no-control-regex
const printable = (line: string): string => line.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');

function noteText(note: SourceNote, { t }: CliContext): string {
  switch (note.kind) {
    case 'missing':
      return t('batch.status.missing', { command: note.command, words: note.words });
    case 'said':
      return t('batch.status.said', { command: note.command, words: note.words });
    case 'noAccounting':
      return t('batch.status.noAccounting', { words: note.words });
    case 'badDescription':
      return t('batch.status.badDescription', { path: note.path, reason: note.reason });
  }
}

// A record in the shared folder is anyone's who can write there: what it says is printed as plain text.
function runText(record: TaskRun, { t }: CliContext): string {
  const run = { ...record, lab: printable(record.lab), host: record.host === null ? null : printable(record.host) };
  const status = t(`runStatus.${run.status}`);
  // A run left running on another machine is that machine's to judge (run-store.ts): said so, never marked here.
  if ((run.status === 'running' || run.status === 'queued') && run.host !== null && run.host !== hostname()) {
    return t('batch.status.runElsewhere', { lab: run.lab, status, host: run.host, run: run.id });
  }
  if (run.errorCode) return t('batch.status.runError', { lab: run.lab, status, code: run.errorCode, run: run.id });
  return t('batch.status.run', { lab: run.lab, status, run: run.id });
}

function slurmText(task: TaskStatus, { t }: CliContext): string {
  const word = task.slurm;
  if (!word) return '';
  const parts = [t('batch.status.slurm', { state: word.state })];
  if (word.reason) parts.push(t('batch.status.reason', { reason: word.reason }));
  if (word.exitCode) parts.push(t('batch.status.exitCode', { code: word.exitCode }));
  return ` — ${parts.join(', ')} (${t(`batch.status.source.${word.source}`)})`;
}

function taskLines(task: TaskStatus, reading: StatusReading, dataDir: string, cx: CliContext): string[] {
  const { t } = cx;
  const kind = reading.status?.kind ?? 'array';
  const who = kind === 'nodes' ? t('batch.status.node', { node: task.task }) : task.nodes ? t('batch.status.taskOn', { task: task.task, nodes: task.nodes }) : t('batch.status.task', { task: task.task });
  const lines = [`  ${who}: ${t(`batch.status.state.${task.state}`)}${slurmText(task, cx)}`];
  for (const run of task.runs) lines.push(`      ${runText(run, cx)}`);
  const ended = task.state === 'failed' || task.state === 'unknown';
  if (ended) for (const lab of task.missingLabs) lines.push(`      ${t('batch.status.noRun', { lab: printable(lab) })}`);
  if (task.why === 'not-shared' || task.why === 'forgotten') {
    lines.push(`      ${t(`batch.status.why.${task.why}`, { labs: task.missingLabs.map(printable).join(', '), dir: join(dataDir, 'runs') })}`);
  }
  const log = reading.logs.get(task.task);
  if (log) lines.push(`      ${t('batch.status.log', { path: log.path })}`, ...log.lines.map((l) => `        ${printable(l)}`));
  return lines;
}

const STATES: readonly TaskState[] = ['done', 'failed', 'unknown', 'running', 'pending'];

export function statusText(reading: StatusReading, jobId: string, dataDir: string, cx: CliContext): string {
  const { t } = cx;
  const notes = reading.notes.map((n) => `  ! ${noteText(n, cx)}`);
  const status = reading.status;
  if (!status) return [...notes, t('batch.status.noJob', { job: jobId, dir: shellQuote(dataDir) }), ''].join('\n');
  const job = reading.job;
  const runsDir = join(dataDir, 'runs');
  const heading = job
    ? t('batch.status.heading', {
        job: jobId,
        tasks: job.tasks.kind === 'array' ? t('batch.tasksArray', { count: job.tasks.count }) : t('batch.tasksNodes', { nodes: job.tasks.nodes.join(', ') }),
        labs: job.labs.join(', '),
        dir: runsDir,
      })
    : t('batch.status.headingUnknown', { job: jobId, dir: runsDir });
  const counts = STATES.map((state) => ({ state, count: status.tasks.filter((task) => task.state === state).length }))
    .filter((c) => c.count > 0)
    .map((c) => t(`batch.status.count.${c.state}`, { count: c.count }))
    .join(', ');
  return [
    heading,
    ...status.tasks.flatMap((task) => taskLines(task, reading, dataDir, cx)),
    ...notes,
    t('batch.status.job', { job: jobId, state: t(`batch.status.jobState.${status.state}`), counts }),
    '',
  ].join('\n');
}

// The same, for a script: Slurm's words and the runs as they are, the states as the words above name them.
export function statusJson(reading: StatusReading, jobId: string): unknown {
  return {
    jobId,
    state: reading.status?.state ?? 'unknown',
    known: reading.status !== null,
    kind: reading.status?.kind ?? null,
    labs: reading.status?.labs ?? [],
    tasks: (reading.status?.tasks ?? []).map((task) => ({ ...task, log: reading.logs.get(task.task) ?? null })),
    notes: reading.notes,
  };
}
