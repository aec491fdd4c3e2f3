// `gpu-lab kernel list|show|run|runs`: the kernel playground on the command line. The exercises and their kernels
// are read here (no GPU needed to see them); a run goes through the playground service of a lab host, which
// compiles, verifies and times the kernel in the compute host and stores the run whatever its outcome.
import { basename } from 'node:path';

import { GpuLabError } from '../common/errors.ts';
import { EXERCISE_IDS, LISTING_KINDS, MAX_SOURCE_CHARS } from '../common/playground.ts';
import type { Dim3, ExerciseDescriptor, ExerciseId, KernelRunRequest, KernelRunSummary } from '../common/playground.ts';
import { formatMs, formatRate } from '../common/pure/format.ts';
import type { Locale } from '../common/pure/locale.ts';
import { exerciseDescriptor, exerciseDescriptors } from '../playground/descriptors.ts';
import { exerciseDefinition } from '../common/exercises.ts';
import { KernelStore } from '../playground/kernel-store.ts';
import { createLabHost, defaultDataDir } from '../app/lab-host.ts';
import { defaultSourceRoots } from '../sources/kernel-sources.ts';
import { waitingMessage } from '../engine/device-lock.ts';
import { labMessage } from '../labs/lab-text.ts';
import { checkWritable } from '../runs/atomic-write.ts';
import { MAX_KERNEL_SOURCE_BYTES, readRegularFile, unreadOf } from '../runs/regular-file.ts';
import type { CliCommand, CliContext, CliIo } from './command.ts';
import { UsageError } from './command.ts';
import { dataDirOption, option, parseArgs } from './cli-options.ts';
import { integerOption } from './decimal.ts';
import type { ParsedArgs } from './cli-options.ts';
import { hostLog } from './host-log.ts';
import { kernelRunText } from './kernel-run-text.ts';
import { listingText } from './listing-text.ts';
import { reportArgs, reportThroughService } from './report.ts';
import { wrap, type CliText } from './cli-text.ts';

function isExerciseId(value: string): value is ExerciseId {
  return (EXERCISE_IDS as readonly string[]).includes(value);
}

export function exerciseArg(value: string | undefined): ExerciseId {
  const exercises = EXERCISE_IDS.join(', ');
  if (value === undefined) throw new UsageError('usage.whichExercise', { exercises });
  if (!isExerciseId(value)) throw new UsageError('usage.unknownExercise', { exercise: value, exercises });
  return value;
}

// "256", "16,16" or "32,8,1": the dimensions CUDA's dim3 takes, the ones left out being 1. The limits (1024 threads
// per block…) are the playground service's to check, and it names them.
export function parseDim3(name: 'block' | 'grid', text: string): Dim3 {
  const parts = text.split(',');
  const wrong = (): UsageError => new UsageError('usage.dim3', { name, value: text });
  if (parts.length > 3) throw wrong();
  const [x = 1, y = 1, z = 1] = parts.map((p) => integerOption(name, p, { min: 1, max: 9_999_999_999 }, wrong));
  return [x, y, z];
}

export function parseSize(exercise: ExerciseId, text: string): number {
  const { size } = exerciseDefinition(exercise);
  return integerOption('size', text, size, () => new UsageError('usage.size', { min: size.min, max: size.max, name: size.name, exercise, value: text }));
}

function listText(exercises: readonly ExerciseDescriptor[], t: CliText): string {
  return exercises
    .map((e) => `${e.id}  —  ${e.title}\n  ${e.signature}\n  ${t('kernel.size', { name: e.size.name, default: e.size.default, min: e.size.min, max: e.size.max, metric: e.metric })}\n`)
    .join('\n');
}

function showText(e: ExerciseDescriptor, hints: boolean, t: CliText): string {
  const width = Math.max(...e.kernels.map((k) => k.id.length));
  return [
    e.title,
    ...e.statement.flatMap((p) => ['', wrap(p, '  ')]),
    '',
    `${t('kernel.signature')}\n  ${e.signature}`,
    t('kernel.sizeLine', { label: e.size.label, default: e.size.default, min: e.size.min, max: e.size.max }),
    t('kernel.work', { work: e.work, metric: e.metric }),
    '',
    t('kernel.kernels', { exercise: e.id }),
    ...e.kernels.map((k) => `  ${k.id.padEnd(width)}  ${k.title} (${k.file})\n${wrap(k.note, ' '.repeat(width + 4))}`),
    ...(e.builtins.length ? ['', t('kernel.builtins'), ...e.builtins.map((b) => `  ${b.title}`)] : []),
    '',
    ...(hints ? [t('kernel.hints'), ...e.hints.map((h, i) => `  ${i + 1}. ${wrap(h, '     ').trimStart()}`)] : [t('kernel.hintsCount', { count: e.hints.length, exercise: e.id })]),
  ].join('\n');
}

async function show(args: ParsedArgs, io: CliIo, locale: Locale, t: CliText): Promise<number> {
  const [, id, extra] = args.positional;
  if (extra !== undefined) throw new UsageError('usage.unexpected', { value: extra });
  const exercise = await exerciseDescriptor(exerciseArg(id), locale, defaultSourceRoots());
  const kernelId = option(args, 'kernel');
  if (kernelId === undefined) {
    io.out(`${showText(exercise, args.flags.has('hints'), t)}\n`);
    return 0;
  }
  if (args.flags.has('hints')) throw new UsageError('usage.kernelAlone');
  const kernel = exercise.kernels.find((k) => k.id === kernelId);
  if (!kernel) throw new UsageError('usage.unknownKernel', { exercise: exercise.id, kernel: kernelId, kernels: exercise.kernels.map((k) => k.id).join(', ') });
  // The file as it is, byte for byte, so that redirecting it gives the student the file itself.
  io.out(kernel.text);
  return 0;
}

// The student's file: a regular file (a FIFO would block the read forever, /dev/zero never end), of at most
// MAX_KERNEL_SOURCE_BYTES, checked before a byte is read (runs/regular-file.ts).
async function readSource(path: string): Promise<string> {
  if (path.trim() === '') throw new UsageError('usage.pathEmpty', { name: 'FILE' });
  let source: string;
  try {
    source = (await readRegularFile(path, { maxBytes: MAX_KERNEL_SOURCE_BYTES, what: 'kernel source', followLinks: true })).text;
  } catch (err) {
    const unread = unreadOf(err);
    if (unread?.reason === 'missing') throw new UsageError('usage.noFile', { path });
    if (unread?.reason === 'not-a-regular-file') throw new UsageError(`usage.fileNotRegular.${unread.kind ?? 'other'}`, { path });
    if (unread?.reason === 'too-large') throw new UsageError('usage.fileTooLarge', { path, bytes: unread.bytes ?? 0, max: MAX_KERNEL_SOURCE_BYTES });
    throw new UsageError('usage.fileUnreadable', { path, reason: unread?.cause ?? (err instanceof Error ? err.message : String(err)) });
  }
  if (source.length > MAX_SOURCE_CHARS) throw new UsageError('usage.fileTooLong', { path, count: source.length, max: MAX_SOURCE_CHARS });
  if (!source.trim()) throw new UsageError('usage.fileEmpty', { path });
  return source;
}

// The name the compiler's messages give the file: its base name, in the characters the request allows.
function compilerFileName(path: string, exercise: ExerciseId): string {
  const name = basename(path).replace(/[^\w.-]/g, '_').slice(-120);
  return name || `${exercise}.cu`;
}

// A kernel that comes with the exercise, as `kernel show --kernel ID` prints it: its source and its file's name.
async function exerciseKernel(exercise: ExerciseId, id: string): Promise<{ source: string; path: string }> {
  const descriptor = await exerciseDescriptor(exercise, 'en', defaultSourceRoots());
  const kernel = descriptor.kernels.find((k) => k.id === id);
  if (!kernel) throw new UsageError('usage.unknownKernel', { exercise, kernel: id, kernels: descriptor.kernels.map((k) => k.id).join(', ') });
  return { source: kernel.text, path: kernel.file };
}

// Where the source comes from, checked at once and read when asked: the student's FILE, or --kernel ID.
function sourceArg(exercise: ExerciseId, filePath: string | undefined, kernelId: string | undefined): () => Promise<{ source: string; path: string }> {
  if (kernelId !== undefined) {
    if (filePath !== undefined) throw new UsageError('usage.kernelOrFile', { kernel: kernelId, path: filePath });
    return () => exerciseKernel(exercise, kernelId);
  }
  if (filePath === undefined) throw new UsageError('usage.kernelFile', { exercise });
  return async () => ({ source: await readSource(filePath), path: filePath });
}

// The request of `kernel run EXERCISE FILE.cu` or `kernel run EXERCISE --kernel ID`. Its block and grid only where
// given: the service takes the rest from the source's launch header.
export async function kernelRequest(args: ParsedArgs): Promise<{ request: KernelRunRequest; path: string }> {
  const [, id, filePath, extra] = args.positional;
  const exercise = exerciseArg(id);
  const source = sourceArg(exercise, filePath, option(args, 'kernel'));
  if (extra !== undefined) throw new UsageError('usage.unexpected', { value: extra });
  const device = option(args, 'device');
  if (device !== undefined && !/^cuda:\d{1,2}$/.test(device)) throw new UsageError('usage.cudaDevice', { value: device });
  const size = option(args, 'size');
  const block = option(args, 'block');
  const grid = option(args, 'grid');
  const request: KernelRunRequest = {
    exercise,
    source: '',
    ...(device === undefined ? {} : { device }),
    ...(size === undefined ? {} : { size: parseSize(exercise, size) }),
    ...(block === undefined ? {} : { block: parseDim3('block', block) }),
    ...(grid === undefined ? {} : { grid: parseDim3('grid', grid) }),
    compare: !args.flags.has('no-compare'),
    ...(args.flags.has('no-wait') ? { wait: false } : {}),
    ...(args.flags.has('ptx') || args.flags.has('sass') ? { listings: LISTING_KINDS.filter((k) => args.flags.has(k)) } : {}),
  };
  // Read last: a mistyped option is said before a missing file.
  const { source: text, path } = await source();
  return { request: { ...request, source: text, fileName: compilerFileName(path, exercise) }, path };
}

async function run(args: ParsedArgs, io: CliIo, cx: CliContext): Promise<number> {
  const { t } = cx;
  const { request, path } = await kernelRequest(args);
  // Checked before the run: an unwritable path must not cost a compile and a restart.
  const report = reportArgs(args);
  if (report.pdf !== undefined) await checkWritable(report.pdf, { what: 'the report' });
  const host = createLabHost({
    dataDir: dataDirOption(args),
    supervisor: { launcher: cx.launcher, log: (line: string) => hostLog(io, line, args.flags.has('verbose')) },
    onDeviceWait: (holder) => io.err(`gpu-lab kernel: ${labMessage(waitingMessage(holder), cx.locale)}\n`),
  });
  try {
    const stored = await host.playground.runKernel(request).catch((err: unknown) => {
      // A size, block or grid past CUDA's limits is refused by the service, which names the field and the limit.
      if (err instanceof GpuLabError && err.code === 'INVALID_ARGUMENT') throw new UsageError('error.coded', { code: err.code, detail: err.message });
      throw err;
    });
    const text = kernelRunText(stored, cx, path);
    // The run as stored: locale-neutral, whatever the language of the CLI.
    io.out(args.flags.has('json') ? `${JSON.stringify(stored, null, 2)}\n` : `${text.out}\n${t('run.stored', { status: t(`kernelStatus.${stored.status}`), run: stored.id, dir: host.kernels.runsDir })}\n`);
    if (!args.flags.has('json')) {
      for (const listing of stored.result?.listings ?? []) {
        if (listing.unavailable !== null) io.err(`gpu-lab kernel: ${t('kernel.listing.unavailable', { kind: listing.kind.toUpperCase(), reason: listing.unavailable })}\n`);
        else io.out(`\n${listingText(listing, stored.source, request.fileName ?? `${request.exercise}.cu`, t)}\n`);
      }
    }
    if (report.pdf !== undefined) await reportThroughService(host.reports, { runIds: [], kernelRunIds: [stored.id] }, { ...report, pdf: report.pdf }, io, cx);
    for (const line of text.failures) io.err(`gpu-lab kernel: ${line}\n`);
    return text.failures.length === 0 ? 0 : 1;
  } finally {
    await host.dispose();
  }
}

function runsText(runs: readonly KernelRunSummary[], { t, locale }: CliContext): string {
  const headings = [t('bench.id'), t('kernel.exercise'), t('kernel.date'), t('table.status'), t('kernel.device'), t('table.median'), t('table.rate')];
  const rows = runs.map((r) => [
    r.id,
    r.exercise,
    r.createdAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    t(`kernelStatus.${r.status}`),
    r.device ?? '—',
    r.medianMs === null ? '—' : formatMs(r.medianMs, locale),
    r.rate === null ? '—' : formatRate(r.rate, r.metric, locale),
  ]);
  const widths = headings.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]): string => `${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd()}\n`;
  return [line(headings), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line)].join('');
}

async function runs(args: ParsedArgs, io: CliIo, cx: CliContext): Promise<number> {
  const [, extra] = args.positional;
  if (extra !== undefined) throw new UsageError('usage.unexpected', { value: extra });
  const exerciseText = option(args, 'exercise');
  const exercise = exerciseText === undefined ? undefined : exerciseArg(exerciseText);
  const store = new KernelStore(dataDirOption(args, true) ?? defaultDataDir(), { warn: (m) => io.err(`gpu-lab: ${cx.t('error.warning', { detail: m })}\n`) });
  const list = await store.list(exercise);
  if (args.flags.has('json')) io.out(`${JSON.stringify(list, null, 2)}\n`);
  else if (list.length === 0) io.out(`${cx.t('kernel.none', { dir: store.runsDir })}\n`);
  else io.out(runsText(list, cx));
  return 0;
}

// What each action takes; an option of another action is refused as unknown.
const ACTIONS = {
  list: { valued: [], flags: ['json'] },
  show: { valued: ['kernel'], flags: ['hints'] },
  run: { valued: ['kernel', 'size', 'block', 'grid', 'device', 'data-dir', 'pdf', 'author', 'course'], flags: ['no-compare', 'json', 'verbose', 'no-wait', 'ptx', 'sass'] },
  runs: { valued: ['exercise', 'data-dir'], flags: ['json'] },
} as const satisfies Record<string, { valued: readonly string[]; flags: readonly string[] }>;

function isAction(value: string): value is keyof typeof ACTIONS {
  return Object.hasOwn(ACTIONS, value);
}

export const kernelCommand: CliCommand = {
  name: 'kernel',
  usage: (t) => t('commands.kernel.usage', { reportOptions: t('report.options') }),
  async run(argv, io, cx) {
    // The action is the first word that is not an option or an option's value, wherever it stands.
    const [action] = parseArgs(argv, [...new Set(Object.values(ACTIONS).flatMap((a) => a.valued))], [...new Set(Object.values(ACTIONS).flatMap((a) => a.flags))]).positional;
    if (action === undefined) throw new UsageError('usage.kernelAction');
    if (!isAction(action)) throw new UsageError('usage.kernelActionNot', { action });
    const args = parseArgs(argv, ACTIONS[action].valued, ACTIONS[action].flags);
    switch (action) {
      case 'list': {
        if (args.positional.length > 1) throw new UsageError('usage.unexpected', { value: args.positional[1] ?? '' });
        if (args.flags.has('json')) io.out(`${JSON.stringify(await exerciseDescriptors('en', defaultSourceRoots()), null, 2)}\n`);
        else io.out(listText(await exerciseDescriptors(cx.locale, defaultSourceRoots()), cx.t));
        return 0;
      }
      case 'show':
        return show(args, io, cx.locale, cx.t);
      case 'run':
        return run(args, io, cx);
      case 'runs':
        return runs(args, io, cx);
    }
  },
};
