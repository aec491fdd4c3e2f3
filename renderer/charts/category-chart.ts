// A category chart (matmul, vector-function, dtypes, timing-pitfalls): one bar per point at its median, with
// whiskers from the fastest to the slowest sample. A category is a point's key suffix where series share it (the
// dtypes lab's "fp32" holds a CPU and a GPU bar), else the point itself, named by its label; a waived or failed point
// keeps its category, marked, so that the reader sees what is missing.
import type { ChartDataset, TooltipItem } from 'chart.js';

import type { LabDescriptor, SeriesDescriptor } from '../../main/common/lab-descriptor.ts';
import type { PointResult, RunRecord } from '../../main/common/run-record.ts';
import type { BarConfig, ChartInputs, RunChart } from './chart-common.ts';
import { baseOptions, formatValue, isLive, legendLabels, shortValue, subtitle, yScale, yTitle } from './chart-common.ts';
import type { BarLabel, RunMarksOptions, Whisker } from './marks-plugin.ts';
import { runMarksPlugin } from './marks-plugin.ts';
import { seriesStyle, translucent } from './palette.ts';
import { pointLabel } from './point-label.ts';
import type { PlottedValue } from './points.ts';
import { baselinePoint, countsIntegerOps, keySuffix, plottedValue, pointsByKey, seriesOf, speedupOver } from './points.ts';
import type { SeriesGroup } from './series-groups.ts';
import { emptyMessage, isWaived, legendLabel, seriesGroups, statusNotes, waivedLegend } from './series-groups.ts';
import type { Translate } from './text.ts';
import { formatMs, formatTimes } from '../../main/common/format.ts';

export interface Category {
  id: string;
  label: string[];
}

function categoryId(p: PointResult): string {
  const suffix = keySuffix(p).replace(/^[-@]/, '');
  return suffix === '' ? p.key : suffix;
}

// Tick labels wrap at about this many characters: eight bars share a 1000-pixel chart, some 120 pixels each.
const LINE_CHARS = 18;

// A bar's tick label in lines of about LINE_CHARS, broken between words (the kernel playground's chart too).
export function wrap(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= LINE_CHARS) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

// "CPU BLAS, N = 7000" → ["CPU BLAS", "N = 7000"]: one line per clause, long clauses wrapped. A series named with a
// closing parenthesis ("… (wrong)", "… (right)") adds it where the point's label lacks it: the timing-pitfalls lab's
// pairs read as pairs.
// The point is named in the lab's words in the language shown (pointLabel), not as recorded.
function pointLines(p: PointResult, series: SeriesDescriptor, lab: LabDescriptor, t: Translate): string[] {
  const aside = /\([^()]+\)$/.exec(series.label)?.[0];
  const label = pointLabel(p, lab, t);
  const lines = label.split(', ').flatMap(wrap);
  return aside && !label.includes(aside) ? [...lines, aside] : lines;
}

function statusLine(p: PointResult, t: Translate): string[] {
  return p.status === 'ok' ? [] : [t(`results.status.${p.status}`)];
}

// Every series has at most one point: its category is its bar, named by the point, and the legend would repeat it.
function onePerSeries(groups: readonly SeriesGroup[]): boolean {
  return groups.every((g) => g.points.length <= 1);
}

// `annotate`: under a bar's name, its status where it was not measured and its speedup over its baseline.
// The categories as Chart.js labels them (one line as a string, several as lines) and the axis they sit on: shared
// by a run's bar chart and a comparison's.
export function categoryLabels(cats: readonly Category[]): (string | string[])[] {
  return cats.map((c) => (c.label.length === 1 ? (c.label[0] ?? '') : c.label));
}

export function categoryAxis(theme: ChartInputs['theme']) {
  return { ticks: { color: theme.text, maxRotation: 0, autoSkip: false }, grid: { display: false }, border: { color: theme.muted } };
}

export function categories(groups: readonly SeriesGroup[], lab: LabDescriptor, byKey: ReadonlyMap<string, PointResult>, t: Translate, annotate = true): Category[] {
  const single = onePerSeries(groups);
  const out = new Map<string, Category>();
  for (const g of groups) {
    for (const p of g.points) {
      const id = categoryId(p);
      if (out.has(id)) continue;
      if (!annotate) {
        // Two runs may differ in their parameters ("N = 7000" against "N = 1500"): name the bar by its series.
        out.set(id, { id, label: id !== p.key ? [id] : wrap(g.descriptor.label) });
        continue;
      }
      if (!single) {
        out.set(id, { id, label: [id === p.key ? pointLabel(p, lab, t) : id] });
        continue;
      }
      const speedup = speedupOver(p, baselinePoint(lab, byKey, p));
      const baseline = seriesOf(lab, g.descriptor.baseline ?? '')?.label ?? '';
      // Wrapped like the series' name: "8,99× frente a CPU, todos los hilos" is wider than its bar.
      const vs = speedup === null ? [] : wrap(t('results.chart.speedupTick', { speedup: formatTimes(speedup), baseline }));
      out.set(id, { id, label: [...pointLines(p, g.descriptor, lab, t), ...statusLine(p, t), ...vs] });
    }
  }
  return [...out.values()];
}

// A legend entry with no bar: series waived, named together with their reason, marked with a grey cross.
export function legendOnlyBar(label: string, categoryCount: number, theme: ChartInputs['theme']): ChartDataset<'bar', (number | null)[]> {
  return { label, data: Array.from({ length: categoryCount }, () => null), backgroundColor: 'transparent', borderColor: theme.muted, borderWidth: 1, pointStyle: 'crossRot' };
}

export function categoryChart(record: RunRecord, lab: LabDescriptor, inputs: ChartInputs): RunChart {
  const { t, theme } = inputs;
  const quantity = lab.chart.y.quantity;
  const byKey = pointsByKey(record);
  const groups = seriesGroups(record, lab);
  const cats = categories(groups, lab, byKey, t);
  const index = new Map(cats.map((c, i) => [c.id, i]));

  const datasets: ChartDataset<'bar', (number | null)[]>[] = [];
  const whiskers: Whisker[] = [];
  const barLabels: BarLabel[] = [];
  const pointAt: (PointResult | null)[][] = [];
  const yValues: number[] = [];
  let drawnCount = 0;
  for (const g of groups) {
    // A waived series has no bars: the legend names it with the others waived for the same reason (below).
    if (isWaived(g)) continue;
    const data: (number | null)[] = cats.map(() => null);
    const points: (PointResult | null)[] = cats.map(() => null);
    for (const p of g.points) {
      const i = index.get(categoryId(p)) ?? -1;
      const v: PlottedValue | null = plottedValue(p, quantity, baselinePoint(lab, byKey, p));
      if (i < 0 || !v) continue;
      data[i] = v.y;
      points[i] = p;
      whiskers.push({ dataset: datasets.length, index: i, low: v.min, high: v.max });
      barLabels.push({ dataset: datasets.length, index: i, at: Math.max(v.y, v.max), text: shortValue(quantity, v.y) });
      yValues.push(v.y, v.min, v.max);
      drawnCount++;
    }
    const { colour } = seriesStyle(theme, g.index);
    // The course's own code (a Python peer) drawn apart from the engine's: an outlined bar, lightly filled.
    const peer = g.descriptor.peer !== undefined;
    datasets.push({ label: legendLabel(g, t), data, backgroundColor: peer ? translucent(colour, 0.25) : colour, borderColor: colour, borderWidth: peer ? 2 : 1, maxBarThickness: 72 });
    pointAt.push(points);
  }
  for (const label of waivedLegend(groups, t)) {
    datasets.push(legendOnlyBar(label, cats.length, theme));
    pointAt.push([]);
  }

  const integerNote = record.points.some((p) => p.status === 'ok' && countsIntegerOps(p)) ? [t('results.chart.integerOps')] : [];
  const base = baseOptions(theme);
  const subtitleLines = subtitle(drawnCount > 0 ? [t('results.chart.spread.whiskers')] : [], theme);
  const runMarks: Partial<RunMarksOptions> = {
    vertical: [],
    horizontal: [],
    whiskers,
    barLabels,
    whiskerColour: theme.text,
    font: '11px sans-serif',
    empty: drawnCount === 0 ? emptyMessage(groups, t, isLive(record)) : '',
    emptyColour: theme.muted,
  };
  const config: BarConfig = {
    type: 'bar',
    data: { labels: categoryLabels(cats), datasets },
    options: {
      ...base,
      // A category where only one series has a bar centres that bar instead of leaving a gap for the others.
      skipNull: true,
      scales: {
        x: categoryAxis(theme),
        y: yScale(quantity, yValues, inputs, 'bars'),
      },
      plugins: {
        subtitle: subtitleLines,
        legend: { display: !onePerSeries(groups), position: 'top', labels: legendLabels(theme) },
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<'bar'>) => {
              const p = pointAt[item.datasetIndex]?.[item.dataIndex];
              if (!p || !p.stats) return item.dataset.label ?? '';
              const value = formatValue(quantity, item.parsed.y ?? 0, countsIntegerOps(p));
              const spread = t('results.chart.tooltip.range', { min: formatMs(p.stats.min), max: formatMs(p.stats.max) });
              return `${item.dataset.label ?? ''}: ${value} (${spread})`;
            },
          },
        },
        runMarks,
      },
    },
    plugins: [runMarksPlugin()],
  };
  const description = t('results.chart.description.bars', {
    lab: lab.title,
    y: yTitle(quantity, t),
    points: drawnCount,
    categories: cats.length,
  }, drawnCount);
  return { config, notes: [...statusNotes(groups, t), ...integerNote], drawnPoints: drawnCount, description };
}
