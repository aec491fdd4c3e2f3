// The chapter of one kernel playground run, as a student hands it in: what was run and how it ended, the exercise,
// the source whole with its line numbers, what the compiler said, the launch and its occupancy, the verification
// with its first mismatches, and the throughput beside the references (kernel-throughput.ts). A run that failed
// before any result came back still gets its chapter: its source and its error.
import type { Translate } from '../common/pure/i18n/translate.ts';
import { formatBytes, formatCount, formatMs, formatPercent, formatRelativeError, formatTolerance } from '../common/pure/format.ts';
import type { ErrorCode } from '../common/errors.ts';
import { localizeDecimal } from '../common/pure/locale.ts';
import type { Dim3, ExerciseDescriptor, KernelRun, KernelRunResult, LaunchReport, VerificationResult } from '../common/playground.ts';
import { exerciseDefinition } from '../common/exercises.ts';
import { isGemmCheck, maxErrorOf, verdictSentences } from '../common/pure/verification-verdict.ts';
import { drawSource } from './code-listing.ts';
import { throughputSection } from './kernel-throughput.ts';
import { COLOURS, SIZES } from './layout.ts';
import type { ReportContext } from './report-context.ts';
import { dateText } from './report-context.ts';
import type { TableRow } from './table.ts';
import { drawTable } from './table.ts';
import { errorText } from '../common/pure/i18n/error-text.ts';

// A kernel run as its chapter reads it: the exercise's words in the report's language, and the result with each
// comparison's title in that language too (the stored title is in the language the run was made in).
export interface ReportedKernelRun {
  run: KernelRun;
  exercise: ExerciseDescriptor;
  result: KernelRunResult | null;
}

// Failures that took the compute host down with the kernel (main/compute restarts it): a fault, or the watchdog.
const RESTARTING: readonly ErrorCode[] = ['TIMEOUT', 'DEVICE_LOST', 'COMPUTE_HOST_CRASHED', 'CUDA_ERROR'];

// A whole number as a student reads it in a table: exact, and shortened beside it once it is long ("16777216 (16.8 M)").
export function wholeText(value: number): string {
  return value >= 10_000 ? `${value} (${formatCount(value)})` : String(value);
}

export function dimText(dim: Dim3): string {
  return dim.join(' × ');
}

// An element of the output: seven significant digits, a float's precision, so that 1.0000001 and 1 differ.
export function elementText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+∞' : '−∞';
  return localizeDecimal(String(Number(value.toPrecision(7))));
}

export function kernelStatusText(run: KernelRun, t: Translate): string {
  switch (run.status) {
    case 'verified':
      return t('pdf.kernelRun.status.verified');
    case 'compile-error':
      return t('pdf.kernelRun.status.compileError');
    case 'verification-failed': {
      const v = run.result?.verification;
      return v ? t('pdf.kernelRun.status.verificationFailed', { verdict: verdictText(v, t) }) : t('pdf.kernelRun.status.verificationFailedBare');
    }
    case 'failed':
      return t('pdf.kernelRun.status.failed', { code: run.error?.code ?? '?', message: run.error ? errorText(run.error, t) : '' });
  }
}

function facts({ run, exercise, result }: ReportedKernelRun, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const device = result ? `${result.deviceName} (${result.device})` : (run.request.device ?? t('pdf.kernelRun.facts.notRun'));
  const size = result?.size ?? run.request.size ?? exercise.size.default;
  layout.labelled(t('pdf.kernelRun.facts.exercise'), `${exercise.title} (${exercise.id})`);
  layout.labelled(t('pdf.kernelRun.facts.run'), run.id);
  layout.labelled(t('pdf.kernelRun.facts.date'), dateText(run.createdAt));
  layout.labelled(t('pdf.kernelRun.facts.device'), device);
  layout.labelled(t('pdf.kernelRun.facts.size'), `${exercise.size.name} = ${wholeText(size)}`);
  layout.labelled(t('pdf.kernelRun.facts.status'), kernelStatusText(run, t));
}

function exerciseSection({ exercise }: ReportedKernelRun, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const [first] = exercise.statement;
  if (first) layout.paragraph(first);
  layout.paragraph(t('pdf.kernelRun.exercise.work', { work: exercise.work, metric: exercise.metric }));
  layout.paragraph(t('pdf.kernelRun.exercise.signature'), { size: SIZES.small, colour: COLOURS.muted, after: 2 });
  layout.paragraph(exercise.signature, { font: 'mono', size: SIZES.code + 0.5 });
}

// What a failure cost and what is left of the run; the error itself is the chapter's status, just above.
function failureNotes({ run, result }: ReportedKernelRun, t: Translate): string[] {
  if (run.status !== 'failed') return [];
  const restarted = run.error !== null && RESTARTING.includes(run.error.code);
  return [...(restarted ? [t('pdf.kernelRun.error.restart')] : []), ...(result ? [] : [t('pdf.kernelRun.error.noResult')])];
}

// A two-column table of names and figures, without a header: the facts of a launch or a verification.
function factTable(ctx: ReportContext, rows: readonly [string, string][]): void {
  drawTable(ctx.layout, {
    columns: [{ title: '', width: 'fit' }, { title: '', width: 'wrap' }],
    rows: rows.map(([name, value]) => ({ cells: [{ text: name, font: 'bold' }, value] })),
    header: false,
    fill: false,
    size: SIZES.table + 1,
  });
}

function compileSection(result: KernelRunResult, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const { compile } = result;
  factTable(ctx, [
    [t('pdf.kernelRun.compile.result'), t(compile.ok ? 'pdf.kernelRun.compile.ok' : 'pdf.kernelRun.compile.failed')],
    [t('pdf.kernelRun.compile.arch'), compile.arch],
    [t('pdf.kernelRun.compile.nvrtc'), compile.nvrtcVersion],
    [t('pdf.kernelRun.compile.time'), formatMs(compile.ms)],
  ]);
  if (compile.diagnostics.length > 0) {
    layout.paragraph(t('pdf.kernelRun.compile.diagnostics'), { size: SIZES.small, colour: COLOURS.muted });
    const c = (key: string, align: 'left' | 'right', width: 'fit' | 'wrap') => ({ title: t(`pdf.kernelRun.compile.columns.${key}`), align, width });
    const rows: TableRow[] = compile.diagnostics.map((d) => ({
      cells: [
        String(d.line),
        d.column === null ? '—' : String(d.column),
        { text: t(`pdf.kernelRun.compile.severity.${d.severity}`), colour: d.severity === 'error' ? COLOURS.warning : undefined },
        d.message,
      ],
      shaded: d.severity === 'error',
    }));
    drawTable(layout, { columns: [c('line', 'right', 'fit'), c('column', 'right', 'fit'), c('severity', 'left', 'fit'), c('message', 'left', 'wrap')], rows });
  } else if (compile.ok) {
    layout.paragraph(t('pdf.kernelRun.compile.clean'), { size: SIZES.small });
  }
  // A refusal the compiler's messages could not be read from: its log is all the student has.
  if (!compile.ok && compile.diagnostics.length === 0 && compile.log.trim() !== '') {
    layout.paragraph(t('pdf.kernelRun.compile.log'), { size: SIZES.small, colour: COLOURS.muted });
    drawSource(layout, compile.log.trim());
  }
}

function launchSection(run: KernelRun, launch: LaunchReport, size: number, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const threads = [...launch.grid, ...launch.block].reduce((a, b) => a * b, 1);
  const elements = exerciseDefinition(run.exercise).outputShape(size).length;
  factTable(ctx, [
    [t('pdf.kernelRun.launch.grid'), dimText(launch.grid)],
    [t('pdf.kernelRun.launch.block'), dimText(launch.block)],
    [t('pdf.kernelRun.launch.threads'), t(`pdf.kernelRun.launch.${elements === 1 ? 'threadsValueOne' : 'threadsValue'}`, { threads: wholeText(threads), elements: wholeText(elements) })],
    [t('pdf.kernelRun.launch.registers'), String(launch.registersPerThread)],
    [t('pdf.kernelRun.launch.shared'), formatBytes(launch.staticSharedBytes)],
    [t('pdf.kernelRun.launch.local'), formatBytes(launch.localBytesPerThread)],
    [t('pdf.kernelRun.launch.blocksPerSm'), String(launch.blocksPerSm)],
    [t('pdf.kernelRun.launch.warps'), t('pdf.kernelRun.launch.warpsValue', { active: launch.activeWarpsPerSm, max: launch.maxWarpsPerSm })],
    [t('pdf.kernelRun.launch.occupancy'), formatPercent(launch.occupancy)],
  ]);
  layout.paragraph(t('pdf.kernelRun.launch.occupancyNote'), { size: SIZES.small, colour: COLOURS.muted });
  if (Number.isFinite(launch.threadsLaunched) && launch.threadsLaunched < 1) layout.paragraph(t('pdf.kernelRun.launch.undercovered'), { size: SIZES.small, colour: COLOURS.warning });
  if (launch.localBytesPerThread > 0) layout.paragraph(t('pdf.kernelRun.launch.spills'), { size: SIZES.small, colour: COLOURS.warning });
}

// What the check found, its sentences one after the other (main/common/pure/verification-verdict.ts).
function verdictText(v: VerificationResult, t: Translate): string {
  return verdictSentences(v)
    .map((s) => t(`pdf.kernelRun.verification.verdict.${s.key}`, s.named, s.count))
    .join(' ');
}

function maxErrorText(v: VerificationResult, t: Translate): string {
  const m = maxErrorOf(v);
  return m.key === 'maxError' ? formatRelativeError(m.error) : t(`pdf.kernelRun.verification.${m.key}`);
}

// How the output was checked, and the tolerance, in the report's language from the verification's data (its
// `method` and `tolerance` are English sentences).
function checkText(v: VerificationResult, t: Translate): string {
  switch (v.check) {
    case 'every-element':
      return t('pdf.kernelRun.verification.check.everyElement');
    case 'total':
      return t('pdf.kernelRun.verification.check.total');
    case 'sampled-gemm':
      // `checked` counts the elements compared with a dot product: the last row, the last column and the samples.
      return t('pdf.kernelRun.verification.check.sampledGemm', { checked: v.checked, samples: v.samples ?? '?' });
    case 'gemm-crossings':
      return t('pdf.kernelRun.verification.check.gemmCrossings', { checked: v.checked, samples: v.samples ?? '?' });
    case 'gemm-every-element':
      return t('pdf.kernelRun.verification.check.gemmEveryElement');
  }
}

function toleranceText(v: VerificationResult, t: Translate): string {
  if (v.relativeTolerance === 0) return t('pdf.kernelRun.verification.toleranceValue.exact');
  const form = isGemmCheck(v.check) ? 'rms' : v.check === 'total' ? 'total' : 'relative';
  return t(`pdf.kernelRun.verification.toleranceValue.${form}`, { tolerance: formatTolerance(v.relativeTolerance) });
}

// The verification's facts, a row each: wrong elements among those checked, elements never written of the whole
// output, each as counted (or why it was not).
export function verificationRows(v: VerificationResult, t: Translate): [string, string][] {
  const wrong =
    v.mismatchCount === null
      ? t('pdf.kernelRun.verification.wrongOlder', { count: v.olderWrongOrUnwritten ?? 0 })
      : t('pdf.kernelRun.verification.countOf', { count: wholeText(v.mismatchCount), of: wholeText(v.checked) });
  const unwritten = v.neverWritten === null ? t('pdf.kernelRun.verification.uncounted') : t('pdf.kernelRun.verification.countOf', { count: wholeText(v.neverWritten), of: wholeText(v.total) });
  return [
    [t('pdf.kernelRun.verification.method'), checkText(v, t)],
    [t('pdf.kernelRun.verification.checked'), t('pdf.kernelRun.verification.checkedValue', { checked: wholeText(v.checked), total: wholeText(v.total) })],
    [t('pdf.kernelRun.verification.tolerance'), toleranceText(v, t)],
    [t('pdf.kernelRun.verification.maxError'), maxErrorText(v, t)],
    [t('pdf.kernelRun.verification.wrong'), wrong],
    [t('pdf.kernelRun.verification.neverWritten'), unwritten],
  ];
}

function verificationSection(v: VerificationResult, ctx: ReportContext): void {
  const { layout, t } = ctx;
  factTable(ctx, verificationRows(v, t));
  if (v.ok) {
    layout.paragraph(t('pdf.kernelRun.verification.ok'));
    return;
  }
  layout.paragraph(verdictText(v, t));
  if (v.mismatches.length === 0) return;
  layout.paragraph(t('pdf.kernelRun.verification.first'), { size: SIZES.small, colour: COLOURS.muted });
  const matrix = v.mismatches.some((m) => m.row !== null);
  const c = (key: string) => ({ title: t(`pdf.kernelRun.verification.columns.${key}`), align: 'right' as const, width: 'fit' as const });
  const keys = matrix ? ['index', 'row', 'col', 'got', 'expected'] : ['index', 'got', 'expected'];
  const rows: TableRow[] = v.mismatches.map((m) => {
    const got = m.unwritten ? { text: t('pdf.kernelRun.verification.notWritten'), colour: COLOURS.warning } : m.got === null ? t('pdf.kernelRun.verification.nan') : elementText(m.got);
    const place = matrix ? [m.row === null ? '—' : String(m.row), m.col === null ? '—' : String(m.col)] : [];
    return { cells: [String(m.index), ...place, got, elementText(m.expected)] };
  });
  drawTable(layout, { columns: keys.map(c), rows, fill: false });
}

// `intro`: the paragraph saying how a kernel run is made, under the chapter's heading. The file name is the one the
// compiler's messages were given (playground-service.ts names it after the exercise when the request does not).
export function kernelRunChapter(reported: ReportedKernelRun, ctx: ReportContext, options: { intro: boolean }): void {
  const { layout, t } = ctx;
  const { run, exercise, result } = reported;
  layout.heading(1, t('pdf.kernelRun.chapter', { exercise: exercise.title }));
  layout.doc.outline.addItem(t('pdf.kernelRun.chapter', { exercise: exercise.title }));
  if (options.intro) layout.paragraph(t('pdf.kernelRun.intro'), { size: SIZES.small + 0.5, colour: COLOURS.muted });
  facts(reported, ctx);
  const failure = failureNotes(reported, t);
  if (failure.length > 0) {
    layout.heading(2, t('pdf.kernelRun.sections.error'));
    for (const note of failure) layout.paragraph(note);
  }
  layout.heading(2, t('pdf.kernelRun.sections.exercise'));
  exerciseSection(reported, ctx);
  layout.heading(2, t('pdf.kernelRun.sections.source'));
  layout.paragraph(t('pdf.kernelRun.source.caption', { file: run.request.fileName ?? `${exercise.id}.cu` }), { size: SIZES.small, colour: COLOURS.muted });
  drawSource(layout, run.source);
  if (!result) return;
  layout.heading(2, t('pdf.kernelRun.sections.compile'));
  compileSection(result, ctx);
  if (!result.compile.ok) return;
  layout.heading(2, t('pdf.kernelRun.sections.launch'));
  if (result.launch) launchSection(run, result.launch, result.size, ctx);
  else layout.paragraph(t('pdf.kernelRun.launch.none'));
  layout.heading(2, t('pdf.kernelRun.sections.verification'));
  if (result.verification) verificationSection(result.verification, ctx);
  else layout.paragraph(t('pdf.kernelRun.verification.none'));
  throughputSection(result, exercise, ctx);
}
