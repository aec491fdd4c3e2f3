// "Method": how each series was measured, read off its points (warm-up runs, timed samples, the clock, how the result
// was checked), then what the figures mean: the statistics, what the lab counts as FLOPs and bytes, the rates, the
// share of peak and the speedup.
import { formatPercent, formatRelativeError } from '../common/pure/format.ts';
import { isWebgpuDevice } from '../common/measurement.ts';
import { ROW_STACK_RESTORED } from '../common/peer-protocol.ts';
import { MAX_SAMPLES, MIN_INTERVAL_SAMPLES } from '../common/pure/statistics.ts';
import type { PointResult } from '../common/run-record.ts';
import type { LabRun, ReportContext } from './report-context.ts';
import { drawTable } from './table.ts';
import { noPeakText } from './device-rows.ts';

// "2", or "3 to 20" where the points of a series differ (large sizes get fewer samples).
function span(values: readonly number[]): string {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return min === max ? String(min) : `${min}–${max}`;
}

// A WebGPU point's events are timestamp queries, never CUDA events; one its adapter could not stamp was recorded on
// the host's clock (host/webgpu/backend.ts), which its record names.
function clockOf(p: PointResult): string {
  return p.clock === 'events' && isWebgpuDevice(p.device) ? 'webgpuTimestamps' : p.clock;
}

function clockText(points: readonly PointResult[], ctx: ReportContext): string {
  const clocks = [...new Set(points.map(clockOf))];
  return clocks.map((clock) => ctx.t(`pdf.method.clock.${clock}`)).join(', ');
}

// `copies`: a copy's bytes are compared with the bytes it copied, exactly; anything else with a float64 recomputation.
function checkText(points: readonly PointResult[], ctx: ReportContext, copies: boolean): string {
  const { t } = ctx;
  const checked = points.flatMap((p) => (p.verification ? [p.verification] : []));
  if (checked.length === 0) return t(points.some((p) => p.status === 'ok') ? 'pdf.method.check.none' : 'pdf.method.check.notRun');
  if (copies) return t('pdf.method.check.copied', { checked: span(checked.map((v) => v.checked)) });
  const sampled = checked.filter((v) => v.method === 'sampled');
  const how = sampled.length === 0 ? t('pdf.method.check.full') : t('pdf.method.check.sampled', { checked: span(sampled.map((v) => v.checked)) });
  const tolerances = checked.map((v) => v.tolerance);
  const low = formatRelativeError(Math.min(...tolerances));
  const high = formatRelativeError(Math.max(...tolerances));
  return t('pdf.method.check.tolerance', { how, tolerance: low === high ? low : `${low}–${high}` });
}

// The samples a point took: the engine's count, or in a record from before it chose, the samples stored.
function samplesTaken(p: PointResult): number {
  return p.sampling?.samples ?? p.stats?.count ?? p.hostMs.length;
}

// How sampling ended for the measured points: converged, on the budget, at the cap, or too few to judge.
function samplingText(points: readonly PointResult[], ctx: ReportContext): string {
  const measured = points.filter((p) => p.status === 'ok');
  const sampled = measured.flatMap((p) => (p.sampling ? [p.sampling] : []));
  if (sampled.length === 0) return ctx.t('pdf.method.samplingFixed');
  const stops = (stop: string): number => sampled.filter((s) => s.stop === stop).length;
  // The target most points had, and each other one with the points that had it (a lab may hold a comparison closer:
  // the transfer lab's largest pinned copies, to ±1 %).
  const counts = new Map<number, number>();
  for (const s of sampled) counts.set(s.targetFraction, (counts.get(s.targetFraction) ?? 0) + 1);
  const [usual = 0.02, ...others] = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([target]) => target);
  // Each after a space (a plural message's forms lose their edges' spaces).
  const closer = others.map((target) => ` ${ctx.t('pdf.method.samplingCloser', { target: formatPercent(target), count: counts.get(target) ?? 0 }, counts.get(target) ?? 0)}`).join('');
  return ctx.t('pdf.method.sampling', {
    closer,
    target: formatPercent(usual),
    cap: MAX_SAMPLES,
    points: measured.length,
    converged: stops('converged'),
    budget: stops('budget'),
    capReached: stops('max-samples'),
    few: measured.filter((p) => samplesTaken(p) < MIN_INTERVAL_SAMPLES).length,
  });
}

// The series whose implementation says the Python worker restored numpy.row_stack before importing Numba
// (python/gpu_lab_peers/library_import.py), named once in the method.
function restoredText({ record, lab }: LabRun, ctx: ReportContext): string[] {
  const series = lab.series.filter((s) => record.points.some((p) => p.series === s.key && p.implementation?.includes(ROW_STACK_RESTORED)));
  return series.length > 0 ? [ctx.t('pdf.method.rowStack', { series: series.map((s) => s.label).join(', ') })] : [];
}

const COUNTS: Record<string, string> = {
  transfer: 'copies',
  dtypes: 'gemm',
  matmul: 'gemm',
  'matmul-breakeven': 'gemm',
  'timing-pitfalls': 'gemm',
  'vector-function': 'vectorFunction',
  'elementwise-breakeven': 'elementwise',
};

// "% of peak", saying of the CPU's yardsticks only what the run used: the measured memory bandwidth and the estimated
// FLOP peak where a point was read against them, and why there was no estimate where a CPU GEMM was measured without.
function peakText(record: LabRun['record'], ctx: ReportContext): string {
  const { t } = ctx;
  const measured = record.points.filter((p) => p.status === 'ok');
  const parts = [t('pdf.method.peak')];
  if (measured.some((p) => p.peak?.source === 'measured')) parts.push(t('pdf.method.peakMeasured'));
  if (measured.some((p) => p.peak?.source === 'estimate')) parts.push(t('pdf.method.peakEstimate'));
  else {
    const cpu = record.environment.devices?.devices.find((d) => d.kind === 'cpu');
    const reason = cpu?.details.peakReason;
    const cpuGemm = measured.some((p) => p.device === 'cpu' && p.work.flops > p.work.bytes);
    if (cpuGemm && typeof reason === 'string') parts.push(t('pdf.method.peakNoEstimate', { reason: noPeakText(reason, t) }));
  }
  return parts.join(' ');
}

export function methodSection(run: LabRun, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const { record, lab } = run;
  const series = lab.series
    .map((s) => ({ descriptor: s, points: record.points.filter((p) => p.series === s.key) }))
    .filter((s) => s.points.length > 0);
  const rows = series.map(({ descriptor, points }) => {
    const measured = points.filter((p) => p.status === 'ok');
    const timed = measured.length > 0 ? measured : points;
    return {
      cells: [
        descriptor.label,
        measured.length > 0 ? span(timed.map((p) => p.warmup)) : '—',
        measured.length > 0 ? span(timed.map(samplesTaken)) : '—',
        measured.length > 0 ? clockText(timed, ctx) : t(`results.status.${points[0]?.status ?? 'cancelled'}`),
        checkText(measured, ctx, record.lab === 'transfer'),
      ],
    };
  });
  layout.paragraph(t('pdf.method.intro'));
  drawTable(layout, {
    columns: [
      { title: t('pdf.method.columns.series'), width: 'wrap' },
      { title: t('pdf.method.columns.warmup'), width: 'fit', align: 'right' },
      { title: t('pdf.method.columns.samples'), width: 'fit', align: 'right' },
      { title: t('pdf.method.columns.clock'), width: 'wrap' },
      { title: t('pdf.method.columns.check'), width: 'wrap' },
    ],
    rows,
  });
  const counts = COUNTS[record.lab];
  layout.bullets(
    [
      t('pdf.method.statistics'),
      samplingText(record.points, ctx),
      ...(counts ? [t(`pdf.method.counts.${counts}`)] : []),
      t('pdf.method.rates'),
      peakText(record, ctx),
      t('pdf.method.speedup'),
      t('pdf.method.clocks'),
      ...restoredText(run, ctx),
    ].map((text) => ({ text })),
    8.6,
  );
}
