// The chart of a kernel run (the kernel playground): the student's kernel as the first bar, then each kernel it was
// timed beside (the exercise's references, the engine's built-in kernels, cuBLAS), at the rate of its median in the
// exercise's metric, with whiskers from the slowest to the fastest sample, and the device's peak as a dashed line
// where it is known. A comparison that could not be timed keeps its place, marked, and says why under the chart.
// A plain function of the run's result: the app draws it live, and the PDF report draws it headless.
import type { ChartDataset, TooltipItem } from 'chart.js';

import { formatRate as formatPeak } from '../format.ts';
import type { ExerciseDescriptor, KernelRunResult, Throughput } from '../../playground.ts';
import { categoryAxis, categoryLabels, wrap } from './category-chart.ts';
import type { Category } from './category-chart.ts';
import type { BarConfig, ChartInputs, RunChart } from './chart-common.ts';
import { baseOptions, formatValue, legendLabels, neededHeight, PLOT_HEIGHT, plotTitle, shortValue, valueScale, valueTitle, yTitle } from './chart-common.ts';
import type { BarLabel, HorizontalMark, RunMarksOptions, Whisker } from './marks-plugin.ts';
import { runMarksPlugin } from './marks-plugin.ts';
import { seriesStyle } from './palette.ts';
import type { YQuantity } from './points.ts';
import type { Translate } from './text.ts';
import { formatMs, formatPercent } from '../format.ts';
import { comparisonReason } from '../i18n/error-text.ts';

export type KernelMetric = ExerciseDescriptor['metric'];
export type KernelBarKind = 'yours' | 'reference' | 'builtin' | 'cublas' | 'python';
// A kind keeps its colour in every kernel chart: the student's kernel the first of the palette, the same kernel
// launched from Python (Unit 10) the last.
const KIND_ORDER: readonly KernelBarKind[] = ['yours', 'reference', 'builtin', 'cublas', 'python'];

export interface KernelBar {
  id: string;
  kind: KernelBarKind;
  title: string;
  throughput: Throughput | null;
  verified: boolean;
  // Why there is no bar.
  reason: string | null;
}

function yoursReason(result: KernelRunResult, t: Translate): string {
  if (!result.compile.ok) return t('kernelChart.notes.compileFailed');
  if (result.verification && !result.verification.ok) return t('kernelChart.notes.verificationFailed');
  return t('kernelChart.notes.noTiming');
}

// The student's kernel first, then the comparisons in the order main timed them.
export function kernelBars(result: KernelRunResult, t: Translate): KernelBar[] {
  const yours: KernelBar = {
    id: 'yours',
    kind: 'yours',
    title: t('kernelChart.yours'),
    throughput: result.throughput,
    verified: result.verification?.ok ?? false,
    reason: result.throughput ? null : yoursReason(result, t),
  };
  const others = result.comparisons.map<KernelBar>((c) => ({
    id: c.id,
    kind: c.kind,
    title: c.title,
    throughput: c.throughput,
    verified: c.verified,
    reason: c.throughput ? null : (comparisonReason(c, t) ?? t('kernelChart.notes.noTiming')),
  }));
  return [yours, ...others];
}

// A peak in the exercise's metric: main may give it in the tera unit.
export function peakInMetric(peak: KernelRunResult['peak'], metric: KernelMetric): number | null {
  if (!peak || !Number.isFinite(peak.value) || peak.value <= 0) return null;
  const factor: Record<string, number> = metric === 'GB/s' ? { 'GB/s': 1, 'TB/s': 1000 } : { 'GFLOP/s': 1, 'TFLOP/s': 1000 };
  const f = factor[peak.unit];
  return f === undefined ? null : peak.value * f;
}

// GFLOP/s read as TFLOP/s once a bar or the peak passes 1000 (an SGEMM on a data-centre GPU is tens of TFLOP/s);
// bandwidth stays in GB/s, as the labs draw it.
export function chartQuantity(metric: KernelMetric, largest: number): { quantity: YQuantity; scale: number } {
  if (metric === 'GFLOP/s' && largest >= 1000) return { quantity: 'TFLOP/s', scale: 1000 };
  return { quantity: metric, scale: 1 };
}

// The rate at the slowest and at the fastest sample: the work is the same each time, so the rate goes as 1 / time.
export function sampleRateRange(throughput: Throughput): { low: number; high: number } {
  const samples = throughput.samplesMs.filter((ms) => Number.isFinite(ms) && ms > 0);
  if (samples.length === 0) return { low: throughput.rate, high: throughput.rate };
  const work = throughput.rate * throughput.medianMs;
  return { low: work / Math.max(...samples), high: work / Math.min(...samples) };
}

function barCategory(bar: KernelBar, t: Translate): Category {
  const fraction = bar.throughput?.peakFraction;
  const aside = !bar.throughput ? [t('kernelChart.notTimed')] : fraction !== null && fraction !== undefined ? [t('kernelChart.ofPeak', { percent: formatPercent(fraction) })] : [];
  return { id: bar.id, label: [...wrap(bar.title), ...aside] };
}

function barNotes(bars: readonly KernelBar[], t: Translate): string[] {
  return bars.flatMap((b) => {
    if (b.kind === 'yours') return b.reason ? [t('kernelChart.notes.yoursNotTimed', { reason: b.reason })] : [];
    if (b.reason) return [t('kernelChart.notes.comparisonError', { title: b.title, reason: b.reason })];
    return b.verified ? [] : [t('kernelChart.notes.unverified', { title: b.title })];
  });
}

export function kernelRunChart(result: KernelRunResult, metric: KernelMetric, inputs: ChartInputs): RunChart {
  const { t, theme } = inputs;
  const bars = kernelBars(result, t);
  const peak = peakInMetric(result.peak, metric);
  const rates = bars.flatMap((b) => (b.throughput ? [sampleRateRange(b.throughput).high] : []));
  const { quantity, scale } = chartQuantity(metric, Math.max(0, peak ?? 0, ...rates));
  const cats = bars.map((b) => barCategory(b, t));

  const datasets: ChartDataset<'bar', (number | null)[]>[] = [];
  const whiskers: Whisker[] = [];
  const barLabels: BarLabel[] = [];
  const yValues: number[] = peak === null ? [] : [peak / scale];
  const barAt: (KernelBar | null)[][] = [];
  for (const kind of KIND_ORDER) {
    if (!bars.some((b) => b.kind === kind)) continue;
    const data = bars.map((b) => (b.kind === kind && b.throughput ? b.throughput.rate / scale : null));
    bars.forEach((b, index) => {
      if (b.kind !== kind || !b.throughput) return;
      const y = b.throughput.rate / scale;
      const range = sampleRateRange(b.throughput);
      whiskers.push({ dataset: datasets.length, index, low: range.low / scale, high: range.high / scale });
      barLabels.push({ dataset: datasets.length, index, at: Math.max(y, range.high / scale), text: shortValue(quantity, y) });
      yValues.push(y, range.low / scale, range.high / scale);
    });
    const { colour } = seriesStyle(theme, { family: KIND_ORDER.indexOf(kind), index: KIND_ORDER.indexOf(kind) });
    datasets.push({ label: t(`kernelChart.kind.${kind}`), data, backgroundColor: colour, borderColor: colour, borderWidth: 1, maxBarThickness: 72 });
    barAt.push(bars.map((b) => (b.kind === kind ? b : null)));
  }

  const drawn = bars.filter((b) => b.throughput !== null);
  // A datasheet's peak in three figures ("3.35 TB/s"), not the four of a measured rate.
  const unit = metric === 'GB/s' ? 'GB/s' : 'GFLOP/s';
  const horizontal: HorizontalMark[] = peak === null ? [] : [{ y: peak / scale, label: t('kernelChart.peak', { value: formatPeak(peak, unit) }), colour: theme.reference }];
  const runMarks: Partial<RunMarksOptions> = {
    vertical: [],
    horizontal,
    whiskers,
    barLabels,
    whiskerColour: theme.text,
    labelBackground: theme.surface,
    font: '11px sans-serif',
    empty: drawn.length === 0 ? t('kernelChart.empty') : '',
    emptyColour: theme.muted,
  };
  const config: BarConfig = {
    type: 'bar',
    data: { labels: categoryLabels(cats), datasets },
    options: {
      ...baseOptions(theme),
      // One bar per category: the kinds share the x axis without leaving gaps for each other.
      skipNull: true,
      // Linear, whatever the rates: a kernel's bar beside cuBLAS's reads as its share of it.
      scales: { x: categoryAxis(theme), y: valueScale(quantity, yValues, false, inputs, 'bars') },
      plugins: {
        title: plotTitle(valueTitle(quantity, false, t), theme),
        legend: { display: datasets.length > 1, position: 'top', labels: legendLabels(theme) },
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<'bar'>) => {
              const bar = barAt[item.datasetIndex]?.[item.dataIndex];
              if (!bar?.throughput) return item.dataset.label ?? '';
              const samples = bar.throughput.samplesMs;
              const spread = samples.length ? ` (${t('results.chart.tooltip.range', { min: formatMs(Math.min(...samples)), max: formatMs(Math.max(...samples)) })})` : '';
              return `${bar.title}: ${formatValue(quantity, bar.throughput.rate / scale)}${spread}`;
            },
          },
        },
        runMarks,
      },
    },
    plugins: [runMarksPlugin()],
  };

  const fastest = drawn.reduce<KernelBar | null>((best, b) => ((b.throughput?.rate ?? 0) > (best?.throughput?.rate ?? -1) ? b : best), null);
  const description = t(
    'kernelChart.description',
    { metric: yTitle(quantity, t), count: drawn.length, fastest: fastest?.throughput ? `${fastest.title}, ${formatValue(quantity, fastest.throughput.rate / scale)}` : '' },
    drawn.length,
  );
  // Where the data fits in L2 the peak is not unknown but beside the point: the report around the chart says why.
  const reading = drawn.length > 0 ? [t('results.chart.spread.whiskers')] : [];
  const notes = [...reading, ...barNotes(bars, t), ...(peak === null && !result.l2 ? [t('kernelChart.notes.peakUnknown')] : [])];
  return { config, notes, drawnPoints: drawn.length, description, minHeight: neededHeight(datasets.length > 1 ? datasets.map((d) => d.label ?? '') : [], PLOT_HEIGHT) };
}
