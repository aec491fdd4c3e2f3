// A category chart (matmul, vector-function, dtypes, timing-pitfalls): one bar per point at its median, with
// whiskers from the fastest to the slowest sample. A category is a point's key suffix where series share it (the
// dtypes lab's "fp32" holds a CPU and a GPU bar), else the point itself, named by its label; a waived or failed point
// keeps its category, marked, so that the reader sees what is missing, and a running run's planned points keep
// theirs before they are measured. Up to six categories stand as columns; more lie as rows, each name on its own line
// to the left of its bar, where twelve names side by side overprinted each other.
import type { ChartDataset, TooltipItem } from 'chart.js';

import type { LabDescriptor, SeriesDescriptor } from '../../lab-descriptor.ts';
import type { PlanEntry, PointResult, RunRecord } from '../../run-record.ts';
import type { BarConfig, ChartInputs, RunChart } from './chart-common.ts';
import { baseOptions, formatValue, isLive, legendLabels, neededHeight, PLOT_HEIGHT, plotTitle, shortValue, valueScale, valueTitle, yTitle } from './chart-common.ts';
import type { BarLabel, RunMarksOptions, Whisker } from './marks-plugin.ts';
import { runMarksPlugin } from './marks-plugin.ts';
import { seriesStyle, translucent } from './palette.ts';
import { pointLabel } from './point-label.ts';
import type { PlottedValue } from './points.ts';
import { baselineKey, baselinePoint, countsIntegerOps, keySuffix, plottedValue, pointsByKey, seriesOf, speedupOver } from './points.ts';
import type { SeriesGroup } from './series-groups.ts';
import { emptyMessage, isWaived, legendLabel, seriesGroups, statusNotes, waivedLegend } from './series-groups.ts';
import type { Translate } from './text.ts';
import { formatMs, formatTimes } from '../format.ts';

export interface Category {
  id: string;
  label: string[];
}

// A point's place: measured or still planned.
type Placed = Pick<PointResult, 'key' | 'series' | 'name' | 'x' | 'label'>;

function categoryId(p: Placed): string {
  const suffix = keySuffix(p).replace(/^[-@]/, '');
  return suffix === '' ? p.key : suffix;
}

// Tick labels wrap at about this many characters: six columns share an 800-pixel chart, some 120 pixels each.
const LINE_CHARS = 18;
// A row's name beside its bar has more room: a third of the chart, some 28 characters.
const ROW_CHARS = 28;
// Past this many categories the bars lie as rows.
export const MAX_COLUMNS = 6;

// A bar's tick label in lines of about `chars`, broken between words (the kernel playground's chart too).
export function wrap(text: string, chars = LINE_CHARS): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= chars) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

// "CPU BLAS, N = 7000" → ["CPU BLAS", "N = 7000"]: one line per clause, long clauses wrapped. A series named with a
// closing parenthesis ("… (wrong)", "… (right)") adds it where the point's label lacks it: the timing-pitfalls lab's
// pairs read as pairs.
// The point is named in the lab's words in the language shown (pointLabel), not as recorded.
// A row's name runs on as far as its room allows instead: "GPU, clock stopped at launch (wrong)" on two lines, not three.
function pointLines(p: Placed, series: SeriesDescriptor, lab: LabDescriptor, t: Translate, chars: number): string[] {
  const aside = /\([^()]+\)$/.exec(series.label)?.[0];
  const label = pointLabel(p, lab, t);
  const named = aside && !label.includes(aside) ? `${label} ${aside}` : label;
  if (chars > LINE_CHARS) return wrap(named, chars);
  const lines = label.split(', ').flatMap((clause) => wrap(clause, chars));
  return aside && !label.includes(aside) ? [...lines, aside] : lines;
}

function statusLine(p: PointResult, t: Translate): string[] {
  return p.status === 'ok' ? [] : [t(`results.status.${p.status}`)];
}

// Every series has at most one point: its category is its bar, named by the point, and the legend would repeat it.
function onePerSeries(groups: readonly SeriesGroup[]): boolean {
  return groups.every((g) => g.points.length + g.pending.length <= 1);
}

// The categories as Chart.js labels them (one line as a string, several as lines) and the axis they sit on: shared
// by a run's bar chart and a comparison's.
export function categoryLabels(cats: readonly Category[]): (string | string[])[] {
  return cats.map((c) => (c.label.length === 1 ? (c.label[0] ?? '') : c.label));
}

// A column's name, wrapped again at the width its column has once the chart is laid out (about 7 pixels a character
// at 12 px): the names are wrapped for an 800-pixel chart, and a narrower one (a laptop's window, the report's page)
// would print neighbours over each other. The words stay the same; a comma breaks a line first.
export function rewrap(lines: readonly string[], chars: number): string[] {
  return lines.flatMap((line) => {
    const out: string[] = [];
    let rest = line;
    while (rest.length > chars) {
      const comma = rest.lastIndexOf(', ', chars);
      const at = comma > 0 ? comma + 1 : rest.lastIndexOf(' ', chars);
      if (at <= 0) break;
      out.push(rest.slice(0, at).trimEnd());
      rest = rest.slice(at).trimStart();
    }
    return [...out, rest];
  });
}

interface LabelledAxis {
  ticks: { label?: string | string[] | number }[];
  width: number;
  isHorizontal(): boolean;
  chart: { width: number };
}

// The rows' names take a fixed share of the chart's width, whatever the names say so far: a speedup arriving under a
// name ("16.1× vs CPU, all threads" where "… vs" stood) would otherwise move the plot's left edge. 28 characters of
// 12-pixel text need some 210 pixels.
const ROW_NAMES = { share: 0.35, min: 210, max: 280 };

export function categoryAxis(theme: ChartInputs['theme']) {
  return {
    ticks: { color: theme.text, maxRotation: 0, autoSkip: false },
    grid: { display: false },
    border: { color: theme.muted },
    afterFit: (axis: LabelledAxis) => {
      if (!axis.isHorizontal()) axis.width = Math.min(ROW_NAMES.max, Math.max(ROW_NAMES.min, axis.chart.width * ROW_NAMES.share));
    },
    afterTickToLabelConversion: (axis: LabelledAxis) => {
      if (!axis.isHorizontal() || axis.ticks.length === 0) return;
      const chars = Math.max(8, Math.floor(axis.width / axis.ticks.length / 7.2));
      for (const tick of axis.ticks) {
        const lines = Array.isArray(tick.label) ? tick.label : [String(tick.label ?? '')];
        tick.label = rewrap(lines, chars);
      }
    },
  };
}

// Whether `count` categories lie as rows.
export function asRows(count: number): boolean {
  return count > MAX_COLUMNS;
}

// The height rows of these names need: a line of 12-pixel text is about 15 pixels, and a row keeps room for its bar.
export function rowsHeight(cats: readonly Category[]): number {
  const lines = Math.max(1, ...cats.map((c) => c.label.length));
  return cats.length * Math.max(28, 15 * lines + 10);
}

// Whether a speedup is to come for a point of a running run: its series has a baseline, measured or still to be.
function speedupToCome(lab: LabDescriptor, groups: readonly SeriesGroup[], at: Placed): boolean {
  const key = baselineKey(lab, at);
  if (key === null) return false;
  return groups.some((g) => g.points.some((p) => p.key === key && p.status === 'ok') || g.pending.some((e) => e.key === key));
}

// `annotate`: under a bar's name, its status where it was not measured and its speedup over its baseline; while the
// run goes on (`live`), a speedup still to come holds its line ("… vs CPU"), so that the names keep their height as
// the points arrive. `chars`: the width its lines wrap at (a row's name has more room than a column's).
export function categories(groups: readonly SeriesGroup[], lab: LabDescriptor, byKey: ReadonlyMap<string, PointResult>, t: Translate, annotate = true, chars = LINE_CHARS, live = false): Category[] {
  const single = onePerSeries(groups);
  const out = new Map<string, Category>();
  for (const g of groups) {
    const placed: { point: PointResult | null; at: Placed }[] = [...g.points.map((p) => ({ point: p, at: p })), ...g.pending.map((e: PlanEntry) => ({ point: null, at: e }))];
    for (const { point, at } of placed) {
      const id = categoryId(at);
      if (out.has(id)) continue;
      if (!annotate) {
        // Two runs may differ in their parameters ("N = 7000" against "N = 1500"): name the bar by its series.
        out.set(id, { id, label: id !== at.key ? [id] : wrap(g.descriptor.label, chars) });
        continue;
      }
      if (!single) {
        out.set(id, { id, label: [id === at.key ? pointLabel(at, lab, t) : id] });
        continue;
      }
      const speedup = point ? speedupOver(point, baselinePoint(lab, byKey, point)) : null;
      const baseline = seriesOf(lab, g.descriptor.baseline ?? '')?.label ?? '';
      const coming = speedup === null && live && (point === null || point.status === 'ok') && speedupToCome(lab, groups, at);
      const speedupText = speedup !== null ? formatTimes(speedup) : coming ? '…' : null;
      // Wrapped like the series' name: "8,99× frente a CPU, todos los hilos" is wider than its bar.
      const vs = speedupText === null ? [] : wrap(t('results.chart.speedupTick', { speedup: speedupText, baseline }), chars);
      out.set(id, { id, label: [...pointLines(at, g.descriptor, lab, t, chars), ...(point ? statusLine(point, t) : []), ...vs] });
    }
  }
  return [...out.values()];
}

// A legend entry with no bar: series waived, named together with their reason, marked with a grey cross.
export function legendOnlyBar(label: string, categoryCount: number, theme: ChartInputs['theme']): ChartDataset<'bar', (number | null)[]> {
  return { label, data: Array.from({ length: categoryCount }, () => null), backgroundColor: 'transparent', borderColor: theme.muted, borderWidth: 1, pointStyle: 'crossRot' };
}

// A series' bars: its colour (a pale fill edged in its hue for a paler member of a family); the course's own code (a
// Python peer) drawn apart from the engine's, outlined and lightly filled.
export function barStyle(g: SeriesGroup, theme: ChartInputs['theme']) {
  const { colour, fill } = seriesStyle(theme, g.colouring);
  if (g.descriptor.peer !== undefined) return { backgroundColor: translucent(colour, fill === colour ? 0.3 : 0.08), borderColor: colour, borderWidth: 2 };
  return { backgroundColor: fill, borderColor: colour, borderWidth: fill === colour ? 1 : 1.5 };
}

export function categoryChart(record: RunRecord, lab: LabDescriptor, inputs: ChartInputs): RunChart {
  const { t, theme } = inputs;
  const quantity = lab.chart.y.quantity;
  const log = lab.chart.y.log;
  const byKey = pointsByKey(record);
  const groups = seriesGroups(record, lab);
  const rows = asRows(categories(groups, lab, byKey, t).length);
  const cats = categories(groups, lab, byKey, t, true, rows ? ROW_CHARS : LINE_CHARS, isLive(record));
  const index = new Map(cats.map((c, i) => [c.id, i]));

  const datasets: ChartDataset<'bar', (number | null)[]>[] = [];
  const whiskers: Whisker[] = [];
  const barLabels: BarLabel[] = [];
  const pointAt: (PointResult | null)[][] = [];
  const values: number[] = [];
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
      values.push(v.y, v.min, v.max);
      drawnCount++;
    }
    datasets.push({ label: legendLabel(g, t), data, ...barStyle(g, theme), maxBarThickness: 72 });
    pointAt.push(points);
  }
  for (const label of waivedLegend(groups, t)) {
    datasets.push(legendOnlyBar(label, cats.length, theme));
    pointAt.push([]);
  }

  const integerNote = record.points.some((p) => p.status === 'ok' && countsIntegerOps(p)) ? [t('results.chart.integerOps')] : [];
  const legend = !onePerSeries(groups);
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
      ...baseOptions(theme),
      indexAxis: rows ? 'y' : 'x',
      // A category where only one series has a bar centres that bar instead of leaving a gap for the others.
      skipNull: true,
      scales: rows
        ? { y: categoryAxis(theme), x: valueScale(quantity, values, log, inputs, 'bars') }
        : { x: categoryAxis(theme), y: valueScale(quantity, values, log, inputs, 'bars') },
      plugins: {
        title: plotTitle(valueTitle(quantity, log, t), theme),
        legend: { display: legend, position: 'top', labels: legendLabels(theme) },
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<'bar'>) => {
              const p = pointAt[item.datasetIndex]?.[item.dataIndex];
              if (!p || !p.stats) return item.dataset.label ?? '';
              const value = formatValue(quantity, (rows ? item.parsed.x : item.parsed.y) ?? 0, countsIntegerOps(p));
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
  // How to read the bars, from the start of a run that will draw some: the words under the chart keep their height.
  const reading = drawnCount > 0 || groups.some((g) => !isWaived(g) && g.pending.length > 0) ? [t('results.chart.spread.whiskers')] : [];
  const legendWords = legend ? datasets.map((d) => d.label ?? '') : [];
  return {
    config,
    notes: [...reading, ...statusNotes(groups, t), ...integerNote],
    drawnPoints: drawnCount,
    description,
    minHeight: neededHeight(legendWords, rows ? rowsHeight(cats) : PLOT_HEIGHT),
  };
}
