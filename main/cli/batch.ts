// `gpu-lab batch --slurm …` submits labs to a cluster's nodes through Slurm (the script: batch-script.ts) and
// prints the job's id; `gpu-lab batch status JOB` says where the job stands (batch-status-read.ts gathers,
// batch-status.ts judges, batch-text.ts words it). Slurm is asked only through its commands (slurm.ts).
import { accessSync, constants, lstatSync, mkdirSync, rmdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { DEVICE_ID } from '../common/measurement.ts';
import { validateParams } from '../common/params.ts';
import { findLab, LABS } from '../labs/index.ts';
import { appVersion, defaultDataDir } from '../app/lab-host.ts';
import { writeFileAtomic } from '../runs/atomic-write.ts';
import type { CliCommand, CliContext, CliIo } from './command.ts';
import { UsageError } from './command.ts';
import { dataDirOption, option, parseArgs, type ParsedArgs } from './cli-options.ts';
import { labParams } from './run.ts';
import { parsePeers } from './python-option.ts';
import {
  batchScript,
  checkDataDirForSlurm,
  checkPassable,
  checkSlurmValue,
  parseArraySize,
  parseNodes,
  shellQuote,
  type BatchLab,
  type BatchSpec,
  type BatchTasks,
} from './batch-script.ts';
import type { BatchJob } from './batch-status.ts';
import { descriptionPath, readJobStatus } from './batch-status-read.ts';
import { statusJson, statusText } from './batch-text.ts';
import { parseSbatchAnswer } from './slurm-output.ts';
import { runSlurm } from './slurm.ts';

const SUBMIT_OPTIONS = ['partition', 'account', 'gres', 'time', 'labs', 'param', 'device', 'peers', 'array', 'nodes'] as const;

// The labs asked, each with the --param assignments it has; every value checked by the lab now, on the login node,
// so that a typo is refused here rather than failing on every node.
function batchLabs(args: ParsedArgs): BatchLab[] {
  const all = LABS.map((l) => l.descriptor.id);
  const ids = option(args, 'labs')?.split(',') ?? all;
  for (const [i, id] of ids.entries()) {
    if (!findLab(id)) throw new UsageError('batch.usage.unknownLab', { lab: id, labs: all.join(', ') });
    if (ids.indexOf(id) !== i) throw new UsageError('batch.usage.labTwice', { lab: id });
  }
  const assignments = (args.options.get('param') ?? []).map((p) => checkPassable('param', p));
  for (const text of assignments) {
    if (text.indexOf('=') <= 0) throw new UsageError('usage.paramSyntax', { value: text });
    const name = text.slice(0, text.indexOf('='));
    if (!ids.some((id) => findLab(id)?.descriptor.parameters.some((p) => p.name === name))) {
      throw new UsageError('batch.usage.paramNoLab', { name, labs: ids.join(', ') });
    }
  }
  return ids.map((id) => {
    const lab = findLab(id);
    if (!lab) throw new UsageError('batch.usage.unknownLab', { lab: id, labs: all.join(', ') });
    const own = assignments.filter((text) => lab.descriptor.parameters.some((p) => text.startsWith(`${p.name}=`)));
    validateParams(id, lab.descriptor.parameters, labParams(lab, own));
    return { id, params: own };
  });
}

// The data folder as every node will be given it: absolute, existing, a folder this user can write, and a path
// Slurm can take.
function sharedFolder(args: ParsedArgs): string {
  const given = dataDirOption(args, true);
  if (given === undefined) throw new UsageError('batch.usage.dataDirNeeded');
  const dir = resolve(given);
  if (!statSync(dir).isDirectory()) throw new UsageError('batch.usage.dataDirNotFolder', { dir });
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new UsageError('batch.usage.dataDirNotWritable', { dir, reason: (err as NodeJS.ErrnoException).code ?? String(err) });
  }
  return checkDataDirForSlurm(dir);
}

function batchSpec(args: ParsedArgs, cx: CliContext): BatchSpec {
  if (!args.flags.has('slurm')) throw new UsageError('batch.usage.slurmNeeded');
  const dataDir = sharedFolder(args);
  const labs = batchLabs(args);
  const arrayText = option(args, 'array');
  const nodesText = option(args, 'nodes');
  if (arrayText !== undefined && nodesText !== undefined) throw new UsageError('batch.usage.arrayOrNodes');
  const tasks: BatchTasks = nodesText !== undefined ? { kind: 'nodes', nodes: parseNodes(nodesText) } : { kind: 'array', count: parseArraySize(arrayText ?? '1') };
  const device = option(args, 'device');
  // The devices gpu-lab run takes: each task's run checks that its node has it.
  if (device !== undefined && !DEVICE_ID.safeParse(device).success) throw new UsageError('usage.device', { value: device });
  const peers = option(args, 'peers');
  parsePeers(peers);
  if (!cx.self) throw new UsageError('batch.usage.noSelf');
  // Each of Slurm's options, checked and kept where given.
  const slurm = (name: 'partition' | 'account' | 'gres' | 'time'): Partial<Record<typeof name, string>> => {
    const value = option(args, name);
    return value === undefined ? {} : { [name]: checkSlurmValue(name, value) };
  };
  return {
    gpuLab: cx.self,
    dataDir,
    labs,
    tasks,
    appVersion: appVersion(),
    ...(device !== undefined ? { device } : {}),
    ...(peers !== undefined ? { peers } : {}),
    ...slurm('partition'),
    ...slurm('account'),
    ...slurm('gres'),
    ...slurm('time'),
  };
}

async function submit(args: ParsedArgs, io: CliIo, cx: CliContext): Promise<number> {
  const { t } = cx;
  const spec = batchSpec(args, cx);
  const script = batchScript(spec);
  if (args.flags.has('dry-run')) {
    io.out(script);
    return 0;
  }
  // Slurm opens each task's output file in <data>/batch as the task starts, before any of our code runs there: the
  // folder must exist first. Made here only for this job, and taken back if nothing was submitted.
  const batchDir = join(spec.dataDir, 'batch');
  const existing = lstatSync(batchDir, { throwIfNoEntry: false });
  // A link there would send the tasks' output, and the job's description, out of the shared folder.
  if (existing && !existing.isDirectory()) throw new UsageError('batch.usage.batchDirNotFolder', { dir: batchDir });
  const made = existing === undefined;
  if (made) mkdirSync(batchDir);
  const answer = await runSlurm('sbatch', ['--parsable'], script);
  if (!answer.ok) {
    if (made) rmdirSync(batchDir);
    io.err(`gpu-lab batch: ${answer.missing ? t('batch.noSbatch', { words: answer.words }) : `${t('batch.refused')}\n${answer.words}`}\n`);
    io.err(`gpu-lab batch: ${t('batch.nothingWritten', { dir: spec.dataDir })}\n`);
    return 1;
  }
  const submitted = parseSbatchAnswer(answer.stdout);
  if (!submitted) {
    io.err(`gpu-lab batch: ${t('batch.oddAnswer', { answer: answer.stdout.trim().slice(0, 200) })}\n`);
    return 1;
  }
  const { jobId } = submitted;
  const job: BatchJob = { jobId, cluster: submitted.cluster, submittedAt: new Date().toISOString(), appVersion: spec.appVersion, labs: spec.labs.map((l) => l.id), tasks: spec.tasks, script };
  const path = descriptionPath(spec.dataDir, jobId);
  try {
    await writeFileAtomic(path, `${JSON.stringify(job, null, 2)}\n`, { what: 'the batch job' });
  } catch (err) {
    io.err(`gpu-lab batch: ${t('batch.notDescribed', { job: jobId, path, reason: (err as Error).message })}\n`);
  }
  io.out(`${jobId}\n`);
  const tasks = spec.tasks.kind === 'array' ? t('batch.tasksArray', { count: spec.tasks.count }) : t('batch.tasksNodes', { nodes: spec.tasks.nodes.join(', ') });
  io.err(`${t('batch.submitted', { job: jobId, tasks, labs: job.labs.join(', '), dir: join(spec.dataDir, 'runs') })}\n`);
  io.err(`${t('batch.follow', { job: jobId, dir: shellQuote(spec.dataDir) })}\n`);
  return 0;
}

async function status(args: ParsedArgs, jobText: string | undefined, io: CliIo, cx: CliContext): Promise<number> {
  for (const name of SUBMIT_OPTIONS) if (args.options.has(name)) throw new UsageError('batch.usage.statusOptions', { name });
  for (const name of ['slurm', 'dry-run']) if (args.flags.has(name)) throw new UsageError('batch.usage.statusOptions', { name });
  if (jobText === undefined || !/^\d{1,12}$/.test(jobText)) throw new UsageError('batch.usage.statusJob', { value: jobText ?? '' });
  const dataDir = resolve(dataDirOption(args, true) ?? defaultDataDir());
  const reading = await readJobStatus(jobText, dataDir, (m) => io.err(`gpu-lab: ${cx.t('error.warning', { detail: m })}\n`));
  if (args.flags.has('json')) io.out(`${JSON.stringify(statusJson(reading, jobText), null, 2)}\n`);
  else io.out(statusText(reading, jobText, dataDir, cx));
  const state = reading.status?.state ?? 'unknown';
  if (state === 'done') return 0;
  // Not yet: ask again later (EX_TEMPFAIL, as a device another run holds).
  if (state === 'pending' || state === 'running') return 75;
  return 1;
}

export const batchCommand: CliCommand = {
  name: 'batch',
  usage: (t) => t('batch.help'),
  async run(argv, io, cx) {
    const args = parseArgs(argv, [...SUBMIT_OPTIONS, 'data-dir'], ['slurm', 'dry-run', 'json']);
    const [action, job, extra] = args.positional;
    if (action === 'status') {
      if (extra !== undefined) throw new UsageError('usage.unexpected', { value: extra });
      return status(args, job, io, cx);
    }
    if (action !== undefined) throw new UsageError('batch.usage.action', { value: action });
    if (args.flags.has('json')) throw new UsageError('batch.usage.submitOptions');
    return submit(args, io, cx);
  },
};
