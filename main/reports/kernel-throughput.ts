// How fast a kernel run's kernel went once it was right: the chart the app draws (main/common/pure/charts/playground-chart.ts,
// drawn headless), then a table of the student's kernel and every kernel timed beside it, each with its median, its
// rate in the exercise's metric, its share of the device's peak (or, where the data fits in L2, why there is none),
// how the student's compares, and whether its output was right, or why it has no figure.
import { LIGHT_CHART_THEME } from '../common/pure/charts/palette.ts';
import { kernelBars, kernelRunChart, peakInMetric } from '../common/pure/charts/playground-chart.ts';
import type { KernelBar } from '../common/pure/charts/playground-chart.ts';
import { formatBytes, formatMs, formatPercent, formatRate, formatTimes } from '../common/pure/format.ts';
import type { ExerciseDescriptor, KernelRunResult } from '../common/playground.ts';
import { chartHeight, chartPng } from './chart-image.ts';
import { COLOURS, SIZES } from './layout.ts';
import type { ReportContext } from './report-context.ts';
import type { TableCell, TableRow } from './table.ts';
import { drawTable } from './table.ts';
import { renderMessage } from '../common/pure/message.ts';
import { pythonLaunchFinding } from '../common/pure/python-launch.ts';

function checkCell(bar: KernelBar, ctx: ReportContext): TableCell {
  const { t } = ctx;
  if (!bar.throughput) return { text: t('pdf.kernelRun.throughput.noFigure', { reason: bar.reason ?? t('kernelChart.notes.noTiming') }), colour: COLOURS.muted };
  return bar.verified ? { text: t('pdf.kernelRun.throughput.verified') } : { text: t('pdf.kernelRun.throughput.unverified'), colour: COLOURS.warning };
}

function barRow(bar: KernelBar, yours: KernelBar | undefined, metric: ExerciseDescriptor['metric'], ctx: ReportContext): TableRow {
  const { t } = ctx;
  const tp = bar.throughput;
  const against = bar.kind !== 'yours' && tp && yours?.throughput && tp.rate > 0 ? formatTimes(yours.throughput.rate / tp.rate) : '—';
  return {
    cells: [
      { text: bar.title, font: bar.kind === 'yours' ? 'bold' : undefined },
      t(`pdf.kernelRun.throughput.kind.${bar.kind}`),
      tp ? formatMs(tp.medianMs) : '—',
      tp ? formatRate(tp.rate, metric) : '—',
      tp?.peakFraction === null || tp?.peakFraction === undefined ? '—' : formatPercent(tp.peakFraction),
      against,
      checkCell(bar, ctx),
    ],
    shaded: bar.kind === 'yours',
  };
}

export function throughputSection(result: KernelRunResult, exercise: ExerciseDescriptor, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const bars = kernelBars(result, t);
  const height = chartHeight(layout);
  // The section opens with the chart: the heading goes to the page the chart fits on.
  layout.heading(2, t('pdf.kernelRun.sections.throughput'), height + 70);
  if (!bars.some((b) => b.throughput)) {
    layout.paragraph(t('pdf.kernelRun.throughput.none'));
    for (const bar of bars) if (bar.reason) layout.paragraph(`${bar.title}: ${bar.reason}`, { size: SIZES.small, colour: COLOURS.muted });
    return;
  }
  layout.paragraph(t('pdf.kernelRun.throughput.method', { repeats: result.repeats, warmup: result.warmup }), { size: SIZES.small, colour: COLOURS.muted });
  const peak = peakInMetric(result.peak, exercise.metric);
  if (peak !== null) layout.paragraph(t('pdf.kernelRun.throughput.peak', { value: formatRate(peak, exercise.metric) }), { size: SIZES.small, colour: COLOURS.muted });
  if (result.l2) layout.paragraph(t('pdf.kernelRun.throughput.fromL2', { data: formatBytes(result.l2.workingSetBytes), l2: formatBytes(result.l2.l2Bytes) }));
  const chart = kernelRunChart(result, exercise.metric, { theme: LIGHT_CHART_THEME, t });
  layout.image(chartPng(chart.config), layout.width, height);
  if (chart.notes.length > 0) layout.bullets(chart.notes.map((text) => ({ text, colour: COLOURS.muted })), SIZES.small);

  layout.heading(3, t('pdf.kernelRun.throughput.table'));
  const c = (key: string, align: 'left' | 'right', width: 'fit' | 'wrap') => ({ title: t(`pdf.kernelRun.throughput.columns.${key}`), align, width });
  const yours = bars.find((b) => b.kind === 'yours');
  drawTable(layout, {
    columns: [c('kernel', 'left', 'wrap'), c('kind', 'left', 'fit'), c('median', 'right', 'fit'), c('rate', 'right', 'fit'), c('peak', 'right', 'fit'), c('against', 'right', 'fit'), c('check', 'left', 'wrap')],
    rows: bars.map((bar) => barRow(bar, yours, exercise.metric, ctx)),
  });
  layout.paragraph(t('pdf.kernelRun.throughput.againstNote'), { size: SIZES.small, colour: COLOURS.muted });
  const python = pythonLaunchFinding(result);
  if (python) layout.paragraph(renderMessage(python, t, ctx.settings.locale));
}
