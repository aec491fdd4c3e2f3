// The sbatch script `gpu-lab batch --slurm` submits (and prints with --dry-run). Each task of the job runs
// `gpu-lab run` for every lab asked, on its node, into the shared data folder, where each run lands as one file
// written atomically: tasks on many nodes share the folder with no lock between them.
//
// Two shapes: `--array N`, N tasks wherever the scheduler puts them (an array job: task i is <job>_i); `--nodes a,b`,
// one job over those nodes that starts a job step on each (srun), since an array cannot pin its tasks to nodes.
//
// Every value is checked here, before anything reaches Slurm: those Slurm reads itself (partition, gres, time,
// nodes) against the forms it accepts, which hold no space or quote; those the shell reads (paths, parameters)
// single-quoted. A value that cannot be passed safely (a newline would end an #SBATCH line or a command) is refused,
// naming its option.
import { NODE_NAME } from '../common/run-record.ts';
import { UsageError } from './command.ts';

export const JOB_NAME = 'gpu-lab';
// Slurm's default MaxArraySize is 1001 (task ids 0 … 1000).
export const MAX_ARRAY_TASKS = 1000;
export const MAX_NODES = 1000;

export type BatchTasks = { kind: 'array'; count: number } | { kind: 'nodes'; nodes: string[] };

export interface BatchLab {
  id: string;
  // `name=value` as typed after --param, for the parameters this lab has.
  params: string[];
}

export interface BatchSpec {
  // The command that runs this gpu-lab again: node and bin/gpu-lab.js by absolute path, or the installed launcher.
  gpuLab: readonly string[];
  // Absolute: a task starts in the folder sbatch was called from, which need not be the same on its node.
  dataDir: string;
  labs: BatchLab[];
  tasks: BatchTasks;
  device?: string;
  peers?: string;
  partition?: string;
  account?: string;
  gres?: string;
  time?: string;
  appVersion: string;
}

// A value as one word of a bash command: single quotes keep every character but the quote itself as it is.
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

// Control characters (a newline, a tab, an escape) mean nothing in a path or a parameter, and would cut a line.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function checkPassable(option: string, value: string): string {
  if (CONTROL.test(value)) throw new UsageError('batch.usage.control', { name: option, value: JSON.stringify(value) });
  return value;
}

const WORD = '[A-Za-z0-9_.+-]+';
const FORMS = {
  // A partition or account, or a comma-separated list of partitions (Slurm takes the first that can run it).
  partition: new RegExp(`^${WORD}(,${WORD})*$`),
  account: new RegExp(`^${WORD}$`),
  // gpu, gpu:2, gpu:a100:1, and lists of them: gpu:1,shard:2.
  gres: /^[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+){0,2}(,[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+){0,2})*$/,
  // The forms sbatch --time takes: minutes, minutes:seconds, hours:minutes:seconds, days-hours,
  // days-hours:minutes, days-hours:minutes:seconds; or no limit.
  time: /^(\d{1,7}(:\d{1,2}){0,2}|\d{1,5}-\d{1,2}(:\d{1,2}){0,2}|UNLIMITED|INFINITE)$/,
} as const;

// A value Slurm reads itself, in the form it accepts; refused naming the option otherwise.
export function checkSlurmValue(option: 'partition' | 'account' | 'gres' | 'time', value: string): string {
  if (value.length > 200 || !FORMS[option].test(value)) throw new UsageError(`batch.usage.${option}`, { value });
  return value;
}

export function parseNodes(text: string): string[] {
  const nodes = text.split(',');
  for (const node of nodes) if (!NODE_NAME.test(node)) throw new UsageError('batch.usage.node', { value: node, list: text });
  const twice = nodes.find((n, i) => nodes.indexOf(n) !== i);
  if (twice !== undefined) throw new UsageError('batch.usage.nodeTwice', { value: twice });
  if (nodes.length > MAX_NODES) throw new UsageError('batch.usage.tooManyNodes', { count: nodes.length, max: MAX_NODES });
  return nodes;
}

export function parseArraySize(text: string): number {
  const n = /^\d{1,6}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= MAX_ARRAY_TASKS)) throw new UsageError('batch.usage.array', { value: text, max: MAX_ARRAY_TASKS });
  return n;
}

// The data folder as a Slurm file name and in a quoted #SBATCH line: sbatch's own parser reads the quotes there,
// not a shell, and a backslash turns Slurm's %-patterns off; `%` itself is written %%.
export function checkDataDirForSlurm(dir: string): string {
  checkPassable('data-dir', dir);
  if (/['"\\]/.test(dir)) throw new UsageError('batch.usage.dataDirChars', { dir });
  return dir;
}

function slurmFileName(dir: string, name: string): string {
  return `${dir.replaceAll('%', '%%').replace(/\/+$/, '')}/batch/${name}`;
}

// Where Slurm writes a task's standard output and error (the gpu-lab run's table and messages), in <data>/batch.
export function logPatterns(tasks: BatchTasks): { job: string; step?: string } {
  return tasks.kind === 'array' ? { job: 'slurm-%A_%a.out' } : { job: 'slurm-%j.out', step: 'slurm-%j-%N.out' };
}

// The line the --nodes script prints for each node's step as it ends: `gpu-lab batch status` reads it back from the
// job's log where Slurm keeps no accounting.
export const NODE_END_LINE = /^gpu-lab batch: node (\S+) ended with exit code (\d+)$/;

function runLines(spec: BatchSpec, indent: string): string[] {
  const gpuLab = spec.gpuLab.map((word) => shellQuote(checkPassable('gpu-lab', word))).join(' ');
  const common = [
    '--data-dir',
    shellQuote(spec.dataDir),
    '--quiet',
    ...(spec.device ? ['--device', shellQuote(spec.device)] : []),
    ...(spec.peers ? ['--peers', shellQuote(spec.peers)] : []),
  ];
  return spec.labs.map((lab) => {
    const params = lab.params.flatMap((p) => ['--param', shellQuote(checkPassable('param', p))]);
    return `${indent}${[gpuLab, 'run', shellQuote(lab.id), ...common, ...params].join(' ')} || status=$?`;
  });
}

export function batchScript(spec: BatchSpec): string {
  checkDataDirForSlurm(spec.dataDir);
  const logs = logPatterns(spec.tasks);
  const directives = [
    `--job-name=${JOB_NAME}`,
    ...(spec.tasks.kind === 'array'
      ? [`--array=0-${spec.tasks.count - 1}`]
      : [`--nodes=${spec.tasks.nodes.length}`, `--nodelist=${spec.tasks.nodes.join(',')}`, '--ntasks-per-node=1']),
    ...(spec.partition ? [`--partition=${spec.partition}`] : []),
    ...(spec.account ? [`--account=${spec.account}`] : []),
    ...(spec.gres ? [`--gres=${spec.gres}`] : []),
    ...(spec.time ? [`--time=${spec.time}`] : []),
    `--output=${shellQuote(slurmFileName(spec.dataDir, logs.job))}`,
  ];
  const head = [
    '#!/bin/bash',
    `# Written by gpu-lab batch (GPU Lab ${spec.appVersion}): each ${spec.tasks.kind === 'array' ? 'task of this array' : 'node named below'} runs the labs`,
    `# ${spec.labs.map((l) => l.id).join(', ')} with gpu-lab run, each run stored as one file in the shared data folder.`,
    ...directives.map((d) => `#SBATCH ${d}`),
    'set -u',
  ];
  if (spec.tasks.kind === 'array') return [...head, 'status=0', ...runLines(spec, ''), 'exit "$status"', ''].join('\n');
  const step = [
    'srun --nodes=1 --ntasks=1 --nodelist="$node"',
    ...(spec.gres ? [`--gres=${spec.gres}`] : []),
    `--output=${shellQuote(slurmFileName(spec.dataDir, logs.step ?? logs.job))}`,
    'bash -c run_labs &',
  ].join(' ');
  return [
    ...head,
    // srun starts a fresh bash on each node; an exported function travels in its environment.
    'run_labs() {',
    '  local status=0',
    ...runLines(spec, '  '),
    '  return "$status"',
    '}',
    'export -f run_labs',
    `nodes=(${spec.tasks.nodes.map(shellQuote).join(' ')})`,
    'pids=()',
    'for node in "${nodes[@]}"; do',
    `  ${step}`,
    '  pids+=("$!")',
    'done',
    'status=0',
    'for i in "${!nodes[@]}"; do',
    '  if wait "${pids[$i]}"; then code=0; else code=$?; status=$code; fi',
    '  echo "gpu-lab batch: node ${nodes[$i]} ended with exit code $code"',
    'done',
    'exit "$status"',
    '',
  ].join('\n');
}
