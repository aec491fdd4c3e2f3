// A size sweep (transfer, elementwise-breakeven, matmul-breakeven): one line per series against a log x axis of the
// sizes measured, the middle half of the samples shaded around each median, break-even sizes as vertical lines.
// For a speedup chart each series with a baseline is drawn as baseline median ÷ its median, with the target. A lab
// whose series name panels (elementwise: one per operation) is drawn as small multiples: one panel per operation,
// stacked on the same axes, each path in the same colour in every panel, the legend naming a path once.
import type { ChartDataset, Point, TooltipItem } from 'chart.js';

import type { LabDescriptor } from '../../lab-descriptor.ts';
import type { PointResult, RunRecord } from '../../run-record.ts';
import { breakEvenMarks } from './break-even-marks.ts';
import type { BuiltAxis, ChartInputs, LineConfig, RunChart } from './chart-common.ts';
import { axisPlace, baseOptions, fittingTicks, formatValue, isLive, legendLabels, neededHeight, PLOT_HEIGHT, plotTitle, valueScale, valueTitle, yTitle } from './chart-common.ts';
import type { HorizontalMark, RunMarksOptions } from './marks-plugin.ts';
import { runMarksPlugin } from './marks-plugin.ts';
import { seriesStyle, translucent, withAlpha } from './palette.ts';
import { panelAxes, panelLegend, panelScale, panelsOf } from './panels.ts';
import type { PlottedValue, YQuantity } from './points.ts';
import { baselinePoint, countsIntegerOps, plottedValue, pointsByKey, seriesOf } from './points.ts';
import type { SeriesGroup } from './series-groups.ts';
import { emptyMessage, isWaived, legendLabel, seriesGroups, statusNotes, waivedLegend } from './series-groups.ts';
import type { Translate } from './text.ts';
import type { SizeQuantity } from '../format.ts';
import { formatAxisNumber, formatMs, formatSize } from '../format.ts';
import { pointReason } from '../i18n/error-text.ts';

// A dataset is a series' line, one of the two edges of its band, or an entry of the legend alone (series waived).
type Role = 'series' | 'band' | 'legend';

// At most this many labelled sizes on the x axis: 29 sizes (four per decade) would overlap.
const MAX_X_TICKS = 12;

export function sizeTicks(sizes: readonly number[]): number[] {
  const step = Math.ceil(sizes.length / MAX_X_TICKS);
  return sizes.filter((_, i) => i % step === 0);
}

interface Drawn {
  group: SeriesGroup;
  points: PointResult[];
  values: (PlottedValue | null)[];
}

const gap = (x: number): Point => ({ x, y: Number.NaN });

function lineDatasets(d: Drawn, inputs: ChartInputs, label: string, yAxisID: string): { datasets: ChartDataset<'line', Point[]>[]; roles: Role[] } {
  const { colour, marker } = seriesStyle(inputs.theme, d.group.colouring);
  const xs = d.points.map((p) => p.x ?? 0);
  // The course's own code (a Python peer) drawn apart from the engine's, as the bars are: a dashed line through
  // hollow markers.
  const peer = d.group.descriptor.peer !== undefined;
  const line: ChartDataset<'line', Point[]> = {
    label,
    yAxisID,
    data: d.values.map((v, i) => (v ? { x: xs[i] ?? 0, y: v.y } : gap(xs[i] ?? 0))),
    borderColor: colour,
    backgroundColor: peer ? translucent(colour, 0.15) : colour,
    ...(peer ? { borderDash: [6, 4] } : {}),
    pointStyle: marker,
    pointRadius: 3.5,
    pointHoverRadius: 5,
    borderWidth: 2,
    spanGaps: false,
    fill: false,
  };
  if (!d.values.some((v) => v !== null)) return { datasets: [line], roles: ['series'] };
  // The band is two invisible lines, q1's and q3's, the second filled down to the first ('-1').
  const band = (pick: (v: PlottedValue) => number, fill: false | '-1'): ChartDataset<'line', Point[]> => ({
    label: '',
    yAxisID,
    data: d.values.map((v, i) => (v ? { x: xs[i] ?? 0, y: pick(v) } : gap(xs[i] ?? 0))),
    borderWidth: 0,
    pointRadius: 0,
    pointHitRadius: 0,
    pointHoverRadius: 0,
    backgroundColor: withAlpha(colour, inputs.theme.mode === 'dark' ? 0.25 : 0.18),
    spanGaps: false,
    fill,
  });
  return { datasets: [band((v) => v.low, false), band((v) => v.high, '-1'), line], roles: ['band', 'band', 'series'] };
}

export function xTitle(quantity: SizeQuantity, t: Translate): string {
  return t(`results.chart.axis.${quantity === 'matrix-n' ? 'matrixN' : quantity}`);
}

// The x axis of a sweep: ticked at the sizes measured, in their unit, from the smallest to the largest size or mark
// drawn (`marks`: break-evens) padded by a quarter either side (on a log axis; on a linear one, a twentieth of the
// span) so that the first and last markers are not cut in half.
export function sizeAxis(quantity: SizeQuantity, log: boolean, sizes: readonly number[], inputs: ChartInputs, marks: readonly number[] = []) {
  const { t, theme } = inputs;
  const ticks = sizeTicks(sizes);
  const all = [...sizes, ...marks].filter((v) => Number.isFinite(v) && (!log || v > 0));
  const lo = all.length > 0 ? Math.min(...all) : undefined;
  const hi = all.length > 0 ? Math.max(...all) : undefined;
  const pad = lo === undefined || hi === undefined ? 0 : (hi - lo) / 20 || Math.abs(hi) / 20 || 1;
  return {
    type: log ? ('logarithmic' as const) : ('linear' as const),
    min: lo === undefined ? undefined : log ? lo / 1.25 : lo - pad,
    max: hi === undefined ? undefined : log ? hi * 1.25 : hi + pad,
    title: { display: true, text: xTitle(quantity, t), color: theme.text },
    afterBuildTicks: (axis: BuiltAxis) => {
      const place = lo === undefined || hi === undefined ? () => 0 : axisPlace(log ? lo / 1.25 : lo - pad, log ? hi * 1.25 : hi + pad, log);
      axis.ticks = fittingTicks(ticks, axis, (value) => formatSize(quantity, value), place).map((value) => ({ value }));
    },
    ticks: { color: theme.muted, maxRotation: 0, autoSkip: false, callback: (value: number | string) => formatSize(quantity, Number(value)) },
    grid: { color: theme.grid },
    border: { color: theme.muted },
  };
}

// A legend entry with nothing to draw: series waived, named together with their reason, marked with a grey cross.
export function legendOnlyLine(label: string, theme: ChartInputs['theme']): ChartDataset<'line', Point[]> {
  return { label, data: [], borderColor: theme.muted, backgroundColor: theme.muted, pointStyle: 'crossRot', pointRadius: 0, borderWidth: 2 };
}

// The target and parity lines of a speedup chart; in a chart of panels, in every panel, named in the first.
export function referenceLines(quantity: YQuantity, target: number, inputs: ChartInputs, panels: readonly string[] = []): HorizontalMark[] {
  if (quantity !== 'speedup') return [];
  const { t, theme } = inputs;
  const times = `${formatAxisNumber(target)}×`;
  const marks: HorizontalMark[] = [{ y: target, label: t('results.chart.target', { target: times }), short: times, colour: theme.text }];
  if (target !== 1) marks.push({ y: 1, label: t('results.chart.parity'), short: '1×', colour: theme.reference });
  if (panels.length === 0) return marks;
  return panels.flatMap((panel, i) => marks.map((m) => ({ ...m, label: i === 0 ? m.label : '', scale: panelScale(panel) })));
}

// Whether any series with a baseline has a measured point: a speedup to draw.
export function hasSpeedups(groups: readonly SeriesGroup[]): boolean {
  return groups.some((g) => g.descriptor.baseline !== undefined && g.points.some((p) => p.status === 'ok'));
}

// The figure every one of these measured points has: bandwidth, else throughput, else the time they all have.
export function measuredQuantity(points: readonly PointResult[]): YQuantity {
  const measured = points.filter((p) => p.status === 'ok');
  return measured.every((p) => p.gbps !== null) ? 'GB/s' : measured.every((p) => p.gflops !== null) ? 'GFLOP/s' : 'ms';
}

// A speedup chart with no GPU point to divide by (a machine without a GPU) would be empty while the CPU's
// measurements sit in the table: it shows their rate (or time) instead, and says so. A running run whose plan has GPU
// points still to come keeps its speedups' axis while the CPU's points come first; one whose plan has none shows the
// CPU's figures from its start. A run without a plan (recorded before it) goes by what it has measured so far.
function plottedQuantity(lab: LabDescriptor, groups: readonly SeriesGroup[]): { quantity: YQuantity; fallback: boolean } {
  const asked = lab.chart.y.quantity;
  if (asked !== 'speedup') return { quantity: asked, fallback: false };
  const measured = groups.flatMap((g) => g.points.filter((p) => p.status === 'ok'));
  const coming = groups.some((g) => g.descriptor.baseline !== undefined && g.pending.length > 0);
  const planned = groups.some((g) => g.pending.length > 0);
  if (hasSpeedups(groups) || coming || (measured.length === 0 && !planned)) return { quantity: asked, fallback: false };
  return { quantity: measuredQuantity(measured), fallback: true };
}

// Why a speedup chart shows the CPU's figures instead: while a run without a plan goes on, no GPU series has a point
// "yet"; once it has ended, or where its plan says none will come, none was measured, and why (the reasons its points
// were not measured, as the run recorded or planned them).
function fallbackNote(record: RunRecord, plotted: readonly SeriesGroup[], y: string, t: Translate): string {
  // Without a plan a running run cannot tell whether a GPU point is still to come.
  if (isLive(record) && !record.plan) return t('results.chart.notes.speedupFallback', { y });
  const gpu = plotted.filter((g) => g.descriptor.baseline !== undefined).flatMap((g) => g.points);
  const reasons = [...new Set(gpu.map((p) => pointReason(p, t)).filter((r) => r !== ''))];
  return reasons.length > 0 ? t('results.chart.notes.speedupFallbackFinal', { y, reason: reasons.join('; ') }) : t('results.chart.notes.speedupFallbackNone', { y });
}

export function sweepChart(record: RunRecord, lab: LabDescriptor, inputs: ChartInputs): RunChart {
  const { t, theme } = inputs;
  const xQuantity = lab.chart.x.quantity as SizeQuantity;
  const log = lab.chart.y.log;
  const byKey = pointsByKey(record);
  const groups = seriesGroups(record, lab);
  const { quantity, fallback } = plottedQuantity(lab, groups);
  const plotted = quantity === 'speedup' ? groups.filter((g) => g.descriptor.baseline !== undefined) : groups;
  const panels = panelsOf(plotted);
  const axisOf = (g: SeriesGroup): string => (panels.length > 0 && g.descriptor.panel !== undefined ? panelScale(g.descriptor.panel) : 'y');
  const drawn: Drawn[] = plotted.filter((g) => !isWaived(g)).map((group) => {
    const points = group.points.filter((p) => p.x !== null).sort((a, b) => (a.x ?? 0) - (b.x ?? 0));
    return { group, points, values: points.map((p) => plottedValue(p, quantity, baselinePoint(lab, byKey, p))) };
  });

  const datasets: ChartDataset<'line', Point[]>[] = [];
  const roles: Role[] = [];
  // The legend entry each dataset answers to (a band's edges to their line's): in a chart of panels, one entry stands
  // for a path in every panel.
  const entries: string[] = [];
  const drawnPoints: (PointResult | null)[][] = [];
  for (const d of drawn) {
    const label = panels.length > 0 ? panelLegend(d.group, t) : legendLabel(d.group, t);
    const built = lineDatasets(d, inputs, label, axisOf(d.group));
    built.datasets.forEach((ds, i) => {
      datasets.push(ds);
      roles.push(built.roles[i] ?? 'band');
      entries.push(label);
      drawnPoints.push(d.points.map((p, j) => (d.values[j] ? p : null)));
    });
  }
  for (const label of waivedLegend(plotted, t)) {
    datasets.push(legendOnlyLine(label, theme));
    roles.push('legend');
    entries.push(label);
    drawnPoints.push([]);
  }
  const firstOfEntry = (i: number): boolean => roles[i] !== 'band' && entries.findIndex((e, j) => e === entries[i] && roles[j] !== 'band') === i;
  const drawnCount = drawn.reduce((n, d) => n + d.values.filter((v) => v !== null).length, 0);

  const marks = breakEvenMarks(record, lab, plotted, xQuantity, inputs, '', panels.length > 0);
  // The sizes of every point, drawn, planned or not, so that the axis is the run's; and the break-evens, which lie
  // between them.
  const sizes = [...new Set(plotted.flatMap((g) => [...g.points, ...g.pending].flatMap((p) => (p.x === null ? [] : [p.x]))))].sort((a, b) => a - b);
  const horizontal = drawnCount > 0 ? referenceLines(quantity, marks.target, inputs, panels) : [];
  // Every value drawn: medians, the bands' edges, the reference lines.
  const values = drawn.flatMap((d) => d.values.flatMap((v) => (v ? [v.y, v.low, v.high] : []))).concat(horizontal.map((h) => h.y));

  // How to read the lines, from the start of a run that will draw some: the words under the chart keep their height.
  const reading = [drawnCount > 0 || drawn.some((d) => d.group.pending.length > 0) ? t('results.chart.spread.band') : ''];
  const baselines = [...new Set(plotted.flatMap((g) => {
    const baseline = g.descriptor.baseline ? seriesOf(lab, g.descriptor.baseline) : undefined;
    return g.descriptor.baseline ? [(panels.length > 0 ? baseline?.inPanel : undefined) ?? baseline?.label ?? g.descriptor.baseline] : [];
  }))];
  if (quantity === 'speedup' && baselines.length > 0) reading.push(t('results.chart.speedupDefinition', { baselines: baselines.join(', ') }));
  const runMarks: Partial<RunMarksOptions> = {
    vertical: marks.vertical,
    horizontal,
    whiskers: [],
    labelBackground: theme.surface,
    font: '11px sans-serif',
    empty: drawnCount === 0 ? emptyMessage(plotted, t, isLive(record)) : '',
    emptyColour: theme.muted,
  };

  const scale = valueScale(quantity, values, log, inputs, 'lines');
  const legendWords = entries.filter((_, i) => firstOfEntry(i));
  const config: LineConfig = {
    type: 'line',
    data: { datasets },
    options: {
      ...baseOptions(theme),
      parsing: false,
      normalized: true,
      interaction: { mode: 'nearest', intersect: false },
      scales: {
        x: sizeAxis(xQuantity, lab.chart.x.log, sizes, inputs, marks.vertical.map((m) => m.x)),
        ...(panels.length > 0 ? panelAxes(panels, scale, theme) : { y: scale }),
      },
      plugins: {
        title: plotTitle(valueTitle(quantity, log, t), theme),
        legend: {
          position: 'top',
          labels: {
            ...legendLabels(theme),
            // A band's edges are not series; in a chart of panels a path is named once, for every panel.
            filter: (item) => firstOfEntry(item.datasetIndex ?? -1),
          },
          // An entry hides or shows everything it stands for: the line, its band, in every panel.
          onClick: (_event, item, legend) => {
            const chart = legend.chart;
            const show = !chart.isDatasetVisible(item.datasetIndex ?? -1);
            entries.forEach((e, i) => {
              if (e === entries[item.datasetIndex ?? -1]) chart.setDatasetVisibility(i, show);
            });
            chart.update();
          },
        },
        tooltip: {
          filter: (item) => roles[item.datasetIndex] === 'series' && Number.isFinite(item.parsed.y),
          callbacks: {
            title: (items: TooltipItem<'line'>[]) => formatSize(xQuantity, items[0]?.parsed.x ?? 0),
            label: (item: TooltipItem<'line'>) => {
              const p = drawnPoints[item.datasetIndex]?.[item.dataIndex];
              const value = formatValue(quantity, item.parsed.y ?? 0, p ? countsIntegerOps(p) : false);
              const median = p?.stats ? ` (${t('results.chart.tooltip.median', { median: formatMs(p.stats.median) })})` : '';
              const series = p ? (seriesOf(lab, p.series)?.label ?? item.dataset.label ?? '') : (item.dataset.label ?? '');
              return `${series}: ${value}${median}`;
            },
          },
        },
        runMarks,
      },
    },
    plugins: [runMarksPlugin()],
  };

  const description = t('results.chart.description.sweep', {
    lab: lab.title,
    y: yTitle(quantity, t),
    x: xTitle(xQuantity, t),
    points: drawnCount,
    series: drawn.filter((d) => d.values.some((v) => v !== null)).length,
  }, drawnCount);
  const notes = [...reading.filter((r) => r !== ''), ...(fallback ? [fallbackNote(record, plotted, yTitle(quantity, t), t)] : []), ...statusNotes(groups, t), ...marks.notes];
  return {
    config,
    notes,
    drawnPoints: drawnCount,
    description: [description, ...marks.sentences].join(' '),
    minHeight: neededHeight(legendWords, panels.length > 0 ? 150 * panels.length : PLOT_HEIGHT),
  };
}
