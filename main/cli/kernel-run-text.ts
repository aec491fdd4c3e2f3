// A finished kernel run as `gpu-lab kernel run` prints it: the compiler's messages in gcc's form (FILE:LINE:COL:, so
// an editor jumps to them), the launch and its occupancy, the verification with the first wrong elements, and the
// student's kernel timed beside the others; plus the lines that say why it is not a success. A pure function of
// the stored run, so that a run read back prints as it did when it ran.
import { basename } from 'node:path';

import type { Comparison, KernelRun, KernelRunResult, Mismatch, Throughput, VerificationResult } from '../common/playground.ts';
import { formatBytes, formatMs, formatPercent, formatRate, sig } from '../common/pure/format.ts';
import { localizeDecimal, type Locale } from '../common/pure/locale.ts';
import { comparisonTitle } from '../playground/descriptors.ts';
import { exerciseDefinition } from '../common/exercises.ts';
import { CATALOGS } from '../common/pure/i18n/index.ts';
import { isGemmCheck, maxErrorOf, verdictSentences } from '../common/pure/verification-verdict.ts';
import type { CliContext } from './command.ts';
import type { CliText } from './cli-text.ts';
import { comparisonReason, errorText } from '../common/pure/i18n/error-text.ts';
import { renderMessage } from '../common/pure/message.ts';
import { pythonLaunchFinding } from '../common/pure/python-launch.ts';
import { translator } from '../common/pure/i18n/index.ts';

export interface KernelRunText {
  // For the standard output: everything above, in the CLI's language.
  out: string;
  // Why the run is not a success, one line each, for the error stream; none for a verified run.
  failures: string[];
}

export function exerciseTitle(run: Pick<KernelRun, 'exercise'>, locale: Locale): string {
  return CATALOGS[locale].exercises[run.exercise].title;
}

// gcc's form, which editors and terminals turn into links; the column is left out where the compiler gave none.
export function diagnosticLine(file: string, d: { line: number; column: number | null; severity: string; message: string }): string {
  return `${file}:${d.line}:${d.column === null ? '' : `${d.column}:`} ${d.severity}: ${d.message}`;
}

function exponent(x: number, locale: Locale): string {
  return x === 0 ? '0' : localizeDecimal(x.toExponential(1), locale);
}

// Got and expected with as many significant digits as it takes to tell them apart (at least 4): two floats that
// differ in the sixth digit would otherwise print the same.
function distinct(got: number, expected: number, locale: Locale): [string, string] {
  for (let digits = 4; digits < 17; digits++) {
    const pair: [string, string] = [sig(got, digits, locale), sig(expected, digits, locale)];
    if (pair[0] !== pair[1]) return pair;
  }
  return [sig(got, 17, locale), sig(expected, 17, locale)];
}

function mismatchLine(m: Mismatch, t: CliText, locale: Locale): string {
  const position = m.row === null || m.col === null ? String(m.index) : t('kernel.at', { index: m.index, row: m.row, col: m.col });
  if (m.unwritten) return t('kernel.unwritten', { position, expected: sig(m.expected, 7, locale) });
  if (m.got === null) return t('kernel.nan', { position, expected: sig(m.expected, 7, locale) });
  const [got, expected] = distinct(m.got, m.expected, locale);
  return t('kernel.mismatch', { position, got, expected });
}

// A tolerance with up to three significant digits, in powers of ten as it is chosen: 1e-5, 3.05e-5, 1e-12.
function toleranceNumber(x: number, locale: Locale): string {
  return localizeDecimal(Number(x.toPrecision(3)).toExponential(), locale);
}

// How the output was checked and to what tolerance, in the CLI's language, from the verification's data (its
// `method` and `tolerance` are English sentences).
function checkText(v: VerificationResult, t: CliText, locale: Locale): string {
  const number = toleranceNumber(v.relativeTolerance, locale);
  const form = isGemmCheck(v.check) ? 'rms' : v.check === 'total' ? 'total' : 'relative';
  const tolerance = v.relativeTolerance === 0 ? t('kernel.tolerance.exact') : t(`kernel.tolerance.${form}`, { tolerance: number });
  switch (v.check) {
    case 'every-element':
      return t('kernel.check.everyElement', { tolerance });
    case 'total':
      return t('kernel.check.total', { tolerance });
    case 'sampled-gemm':
      // `checked` counts the elements compared with a dot product: the last row, the last column and the samples.
      return t('kernel.check.sampledGemm', { checked: v.checked, samples: v.samples ?? '?', tolerance });
    case 'gemm-crossings':
      return t('kernel.check.gemmCrossings', { checked: v.checked, samples: v.samples ?? '?', tolerance });
    case 'gemm-every-element':
      return t('kernel.check.gemmEveryElement', { tolerance });
  }
}

// How many wrong elements a verification lists at most (main/host/verify-kernel.ts).
const LISTED = 10;

// What the check found, its sentences joined ("3 of the 4096 elements checked differ…; 1 of … was never written").
function verdictText(v: VerificationResult, t: CliText): string {
  return verdictSentences(v)
    .map((s) => t(`kernel.verdict.${s.key}`, s.named))
    .join('; ');
}

function maxErrorText(v: VerificationResult, t: CliText, locale: Locale): string {
  const m = maxErrorOf(v);
  return m.key === 'maxError' ? t('kernel.maxError', { error: exponent(m.error, locale) }) : t(`kernel.${m.key}`);
}

function verificationLines(v: VerificationResult, t: CliText, locale: Locale): string[] {
  const named = { check: checkText(v, t, locale), error: maxErrorText(v, t, locale) };
  const line = v.ok ? t('kernel.passedLine', named) : t('kernel.failedLine', { ...named, verdict: verdictText(v, t) });
  if (v.ok) return [line];
  // The first wrong or never written are listed. How many more there are is known where every one of them was
  // checked; SGEMM's elements never written outside those checked are not counted apart from the ones inside.
  const exact = v.mismatchCount !== null && (!isGemmCheck(v.check) || v.neverWritten === 0);
  const more = exact ? (v.mismatchCount ?? 0) - v.mismatches.length : v.mismatches.length >= LISTED ? 1 : 0;
  const moreLine = more <= 0 ? [] : [`  ${exact ? t('kernel.more', { count: more }) : t('kernel.moreUncounted')}`];
  return [line, ...v.mismatches.map((m) => mismatchLine(m, t, locale)), ...moreLine];
}

function launchLines(result: KernelRunResult, t: CliText, locale: Locale): string[] {
  const l = result.launch;
  if (!l) return [];
  const lines = [
    t('kernel.launch', { grid: l.grid.join(', '), block: l.block.join(', '), registers: l.registersPerThread, shared: formatBytes(l.staticSharedBytes, locale) }),
    t('kernel.occupancy', { occupancy: formatPercent(l.occupancy, locale), blocks: l.blocksPerSm, warps: l.activeWarpsPerSm, maxWarps: l.maxWarpsPerSm }),
  ];
  if (l.threadsLaunched < 1) lines.push(t('kernel.fewThreads', { threads: sig(l.threadsLaunched, 3, locale) }));
  return lines;
}

interface Row {
  name: string;
  throughput: Throughput | null;
  note: string;
}

const NUMBER_WIDTHS = [10, 13, 9] as const;

function tableLines(rows: readonly Row[], metric: 'GB/s' | 'GFLOP/s', t: CliText, locale: Locale): string[] {
  const headings = [t('kernel.implementation'), t('table.median'), t('table.rate'), t('kernel.ofPeak')];
  const widths = [Math.max(headings[0]?.length ?? 0, ...rows.map((r) => r.name.length)), ...NUMBER_WIDTHS.map((w, i) => Math.max(w, headings[i + 1]?.length ?? 0))];
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 10)).join('  ').trimEnd();
  return [
    line(headings),
    line(widths.map((w) => '─'.repeat(w))),
    ...rows.map((r) => {
      const tp = r.throughput;
      const cells = tp
        ? [formatMs(tp.medianMs, locale), formatRate(tp.rate, metric, locale), tp.peakFraction === null ? '—' : formatPercent(tp.peakFraction, locale)]
        : ['—', '—', '—'];
      return `${line([r.name, ...cells])}${r.note ? `  ${r.note}` : ''}`;
    }),
  ];
}

function comparisonRow(c: Comparison, run: KernelRun, t: CliText, locale: Locale): Row {
  const note = comparisonReason(c, translator(locale), locale) ?? (c.verified ? '' : t('kernel.notVerified'));
  return { name: comparisonTitle(run.exercise, c.id, locale), throughput: c.throughput, note };
}

function peakText(peak: { value: number; unit: string }, locale: Locale): string {
  return peak.unit === 'GB/s' || peak.unit === 'GFLOP/s' ? formatRate(peak.value, peak.unit, locale) : `${sig(peak.value, 3, locale)} ${peak.unit}`;
}

function resultLines(run: KernelRun, result: KernelRunResult, file: string, cx: CliContext): string[] {
  const { t, locale } = cx;
  const c = result.compile;
  const errors = c.diagnostics.filter((d) => d.severity === 'error').length;
  const version = { arch: c.arch, version: c.nvrtcVersion };
  // A failure with no message read off the log: the log is shown as the compiler wrote it rather than lost.
  const rawLog = !c.ok && errors === 0;
  const lines = [
    c.ok ? t('kernel.compiled', { ...version, ms: formatMs(c.ms, locale) }) : rawLog ? t('kernel.notCompiledLog', version) : t('kernel.notCompiled', { ...version, count: errors }),
    ...c.diagnostics.map((d) => diagnosticLine(file, d)),
    ...(rawLog ? c.log.trimEnd().split('\n').map((l) => `  ${l}`) : []),
  ];
  lines.push(...launchLines(result, t, locale));
  if (result.verification) lines.push(...verificationLines(result.verification, t, locale));
  const metric = exerciseDefinition(run.exercise).metric;
  const yours: Row = { name: t('kernel.yours', { file: basename(file) }), throughput: result.throughput, note: result.throughput ? '' : t('kernel.notTimed', { why: t(`kernelStatus.${run.status}`) }) };
  if (c.ok && (result.throughput || result.comparisons.length)) {
    lines.push('', ...tableLines([yours, ...result.comparisons.map((x) => comparisonRow(x, run, t, locale))], metric, t, locale));
    if (result.peak) lines.push(t('kernel.peak', { device: result.device, peak: peakText(result.peak, locale) }));
    if (result.l2) lines.push(t('kernel.fromL2', { device: result.device, data: formatBytes(result.l2.workingSetBytes, locale), l2: formatBytes(result.l2.l2Bytes, locale) }));
    if (result.throughput) lines.push(t('kernel.timing', { repeats: result.repeats, warmup: result.warmup, total: formatMs(result.totalMs, locale) }));
    const python = pythonLaunchFinding(result);
    if (python) lines.push(renderMessage(python, translator(locale), locale));
    const p = result.phasesMs;
    if (p) lines.push(t('kernel.phases', { compile: formatMs(p.compile, locale), inputs: formatMs(p.inputs, locale), verify: formatMs(p.verify, locale), time: formatMs(p.time, locale), compare: formatMs(p.compare, locale) }));
  }
  return lines;
}

function failureLines(run: KernelRun, t: CliText, locale: Locale): string[] {
  const result = run.result;
  if (run.status === 'failed' || !result) {
    const error = run.error ?? { code: 'NATIVE_ERROR', message: `the run ended ${run.status} without a result` };
    return [t('error.coded', { code: error.code, detail: errorText(error, translator(locale), locale) })];
  }
  if (run.status === 'compile-error') {
    const count = result.compile.diagnostics.filter((d) => d.severity === 'error').length;
    return [count ? t('kernel.compileFailed', { count }) : t('kernel.compileFailedLog')];
  }
  const v = result.verification;
  if (run.status === 'verification-failed' && v) {
    const detail = t('kernel.firstAt', { verdict: verdictText(v, t), index: v.mismatches[0]?.index ?? '?' });
    return [t('error.coded', { code: 'VERIFICATION_FAILED', detail })];
  }
  return [];
}

// `file`: the path the student typed, so that the compiler's messages name the file their editor has open.
export function kernelRunText(run: KernelRun, cx: CliContext, file: string = run.request.fileName ?? `${run.exercise}.cu`): KernelRunText {
  const { t, locale } = cx;
  const size = { sizeName: exerciseDefinition(run.exercise).size.name, size: run.result?.size ?? run.request.size ?? '?' };
  const result = run.result;
  const heading = result
    ? t('kernel.heading', { file, device: result.device, name: result.deviceName, ...size })
    : t('kernel.headingFailed', { file, device: run.request.device ?? '?', ...size });
  const lines = [exerciseTitle(run, locale), heading, ...(result ? resultLines(run, result, file, cx) : [])];
  return { out: `${lines.join('\n')}\n`, failures: failureLines(run, t, locale) };
}
