// Two runs of the same lab on one chart: each series in its own colour, run A drawn solid and run B dashed (bars:
// B outlined), medians only (each run's own chart shows its spread). Break-even lines of both runs, named by run; a
// lab of panels (elementwise) in its panels. A speedup lab's runs that do not both have a speedup (a CPU-only run has
// no GPU series to divide by) are compared by what both measured, as each run's page falls back to it.
import type { ChartDataset, Point } from 'chart.js';

import type { LabDescriptor } from '../../lab-descriptor.ts';
import type { RunRecord } from '../../run-record.ts';
import { breakEvenTarget } from './break-even.ts';
import { breakEvenMarks } from './break-even-marks.ts';
import { asRows, categories, categoryAxis, categoryLabels, legendOnlyBar, rowsHeight } from './category-chart.ts';
import type { BarConfig, ChartInputs, LineConfig, RunChart } from './chart-common.ts';
import { baseOptions, legendLabels, neededHeight, PLOT_HEIGHT, plotTitle, valueScale, valueTitle, yTitle } from './chart-common.ts';
import type { VerticalMark } from './marks-plugin.ts';
import { runMarksPlugin } from './marks-plugin.ts';
import { seriesStyle, withAlpha } from './palette.ts';
import { panelAxes, panelLegend, panelScale, panelsOf } from './panels.ts';
import type { YQuantity } from './points.ts';
import { baselinePoint, keySuffix, plottedValue, pointsByKey } from './points.ts';
import type { SeriesGroup } from './series-groups.ts';
import { isWaived, legendLabel, seriesGroups, statusNotes, waivedLegend } from './series-groups.ts';
import { hasSpeedups, legendOnlyLine, measuredQuantity, referenceLines, sizeAxis } from './sweep-chart.ts';
import type { SizeQuantity } from '../format.ts';

type Run = 'A' | 'B';

interface RunSide {
  run: Run;
  record: RunRecord;
  groups: SeriesGroup[];
}

function sides(a: RunRecord, b: RunRecord, lab: LabDescriptor): [RunSide, RunSide] {
  return [
    { run: 'A', record: a, groups: seriesGroups(a, lab) },
    { run: 'B', record: b, groups: seriesGroups(b, lab) },
  ];
}

// The lab's quantity; for a speedup, only where both runs have one, else the figure both runs' points have.
function comparedQuantity(runs: readonly RunSide[], lab: LabDescriptor): { quantity: YQuantity; fallback: boolean } {
  const asked = lab.chart.y.quantity;
  if (asked !== 'speedup' || runs.every((side) => hasSpeedups(side.groups))) return { quantity: asked, fallback: false };
  return { quantity: measuredQuantity(runs.flatMap((side) => side.record.points)), fallback: true };
}

function plottedGroups(side: RunSide, quantity: YQuantity): SeriesGroup[] {
  return quantity === 'speedup' ? side.groups.filter((g) => g.descriptor.baseline !== undefined) : side.groups;
}

function sweep(runs: [RunSide, RunSide], lab: LabDescriptor, inputs: ChartInputs): RunChart {
  const { t, theme } = inputs;
  const { quantity, fallback } = comparedQuantity(runs, lab);
  const log = lab.chart.y.log;
  const xQuantity = lab.chart.x.quantity as SizeQuantity;
  const panels = panelsOf(runs.flatMap((side) => plottedGroups(side, quantity)));
  const datasets: ChartDataset<'line', Point[]>[] = [];
  const values: number[] = [];
  const sizes = new Set<number>();
  const vertical: VerticalMark[] = [];
  const notes: string[] = [t('results.compare.chartNote'), ...(fallback ? [t('results.compare.fallback', { y: yTitle(quantity, t) })] : [])];
  let drawn = 0;
  for (const side of runs) {
    const byKey = pointsByKey(side.record);
    const plotted = plottedGroups(side, quantity);
    for (const g of plotted) {
      // Sizes of every point, drawn or not, so that the axis is the runs'.
      for (const p of g.points) if (p.x !== null) sizes.add(p.x);
      if (isWaived(g)) continue;
      const { colour, marker } = seriesStyle(theme, g.colouring);
      const points = g.points.filter((p) => p.x !== null).sort((x, y) => (x.x ?? 0) - (y.x ?? 0));
      const data = points.map((p) => {
        const v = plottedValue(p, quantity, baselinePoint(lab, byKey, p));
        if (v) {
          drawn++;
          values.push(v.y);
        }
        return { x: p.x ?? 0, y: v ? v.y : Number.NaN };
      });
      datasets.push({
        label: t('results.compare.legend', { series: panels.length > 0 ? panelLegend(g, t) : legendLabel(g, t), run: side.run }),
        yAxisID: panels.length > 0 && g.descriptor.panel !== undefined ? panelScale(g.descriptor.panel) : 'y',
        data,
        borderColor: colour,
        backgroundColor: side.run === 'A' ? colour : 'transparent',
        pointBorderColor: colour,
        pointStyle: marker,
        pointRadius: 3.5,
        borderWidth: 2,
        borderDash: side.run === 'B' ? [6, 4] : [],
        spanGaps: false,
      });
    }
    for (const label of waivedLegend(plotted, t)) datasets.push(legendOnlyLine(t('results.compare.legend', { series: label, run: side.run }), theme));
    const marks = quantity === 'speedup' ? breakEvenMarks(side.record, lab, plotted, xQuantity, inputs, t('results.compare.run', { run: side.run }), panels.length > 0) : null;
    vertical.push(...(marks?.vertical ?? []));
    notes.push(...statusNotes(side.groups, t).map((n) => `${t('results.compare.run', { run: side.run })}: ${n}`), ...(marks?.notes ?? []));
  }
  // Run A's target: the ratio table says where the runs differ.
  const horizontal = drawn > 0 ? referenceLines(quantity, breakEvenTarget(runs[0].record), inputs, panels) : [];
  const sorted = [...sizes].sort((x, y) => x - y);
  const scale = valueScale(quantity, [...values, ...horizontal.map((h) => h.y)], log, inputs, 'lines');
  // A path named once in a chart of panels (its entry stands for every panel).
  const firstOfLabel = (i: number): boolean => datasets.findIndex((ds) => ds.label === datasets[i]?.label) === i;
  const config: LineConfig = {
    type: 'line',
    data: { datasets },
    options: {
      ...baseOptions(theme),
      parsing: false,
      interaction: { mode: 'nearest', intersect: false },
      scales: {
        x: sizeAxis(xQuantity, lab.chart.x.log, sorted, inputs, vertical.map((m) => m.x)),
        ...(panels.length > 0 ? panelAxes(panels, scale, theme) : { y: scale }),
      },
      plugins: {
        title: plotTitle(valueTitle(quantity, log, t), theme),
        legend: { position: 'top', labels: { ...legendLabels(theme), filter: (item) => firstOfLabel(item.datasetIndex ?? -1) } },
        runMarks: { vertical, horizontal, whiskers: [], labelBackground: theme.surface, font: '11px sans-serif' },
      },
    },
    plugins: [runMarksPlugin()],
  };
  const legendWords = datasets.filter((_, i) => firstOfLabel(i)).map((ds) => ds.label ?? '');
  return {
    config,
    notes: [...new Set(notes)],
    drawnPoints: drawn,
    description: t('results.compare.description', { lab: lab.title, y: yTitle(quantity, t), points: drawn }),
    minHeight: neededHeight(legendWords, panels.length > 0 ? 150 * panels.length : PLOT_HEIGHT),
  };
}

function bars(runs: RunSide[], lab: LabDescriptor, inputs: ChartInputs): RunChart {
  const { t, theme } = inputs;
  const quantity = lab.chart.y.quantity;
  const log = lab.chart.y.log;
  // Categories of both runs: B's points that A lacks join after A's.
  const merged = new Map<string, SeriesGroup>();
  for (const side of runs) {
    for (const g of side.groups) {
      const into = merged.get(g.descriptor.key) ?? { ...g, points: [] };
      for (const p of g.points) if (!into.points.some((q) => keySuffix(q) === keySuffix(p))) into.points.push(p);
      merged.set(g.descriptor.key, into);
    }
  }
  const ordered = [...merged.values()].sort((x, y) => x.index - y.index);
  const rows = asRows(categories(ordered, lab, new Map(), t, false).length);
  const cats = categories(ordered, lab, new Map(), t, false, rows ? 28 : 18);
  const index = new Map(cats.map((c, i) => [c.id, i]));
  const datasets: ChartDataset<'bar', (number | null)[]>[] = [];
  const values: number[] = [];
  const notes: string[] = [t('results.compare.chartNoteBars')];
  let drawn = 0;
  for (const side of runs) {
    const byKey = pointsByKey(side.record);
    for (const g of side.groups) {
      if (isWaived(g)) continue;
      const { colour } = seriesStyle(theme, g.colouring);
      const data: (number | null)[] = cats.map(() => null);
      for (const p of g.points) {
        const suffix = keySuffix(p).replace(/^[-@]/, '');
        const i = index.get(suffix === '' ? p.key : suffix) ?? -1;
        const v = plottedValue(p, quantity, baselinePoint(lab, byKey, p));
        if (i < 0 || !v) continue;
        data[i] = v.y;
        values.push(v.y);
        drawn++;
      }
      const outlined = side.run === 'B';
      datasets.push({
        label: t('results.compare.legend', { series: legendLabel(g, t), run: side.run }),
        data,
        backgroundColor: outlined ? withAlpha(colour, 0.12) : colour,
        borderColor: colour,
        borderWidth: outlined ? 2 : 1,
        maxBarThickness: 48,
      });
    }
    for (const label of waivedLegend(side.groups, t)) datasets.push(legendOnlyBar(t('results.compare.legend', { series: label, run: side.run }), cats.length, theme));
    notes.push(...statusNotes(side.groups, t).map((n) => `${t('results.compare.run', { run: side.run })}: ${n}`));
  }
  const scale = valueScale(quantity, values, log, inputs, 'bars');
  const config: BarConfig = {
    type: 'bar',
    data: { labels: categoryLabels(cats), datasets },
    options: {
      ...baseOptions(theme),
      indexAxis: rows ? 'y' : 'x',
      skipNull: true,
      scales: rows ? { y: categoryAxis(theme), x: scale } : { x: categoryAxis(theme), y: scale },
      plugins: {
        title: plotTitle(valueTitle(quantity, log, t), theme),
        legend: { position: 'top', labels: { ...legendLabels(theme), usePointStyle: false } },
      },
    },
  };
  return {
    config,
    notes,
    drawnPoints: drawn,
    description: t('results.compare.description', { lab: lab.title, y: yTitle(quantity, t), points: drawn }),
    minHeight: neededHeight(datasets.map((d) => d.label ?? ''), rows ? rowsHeight(cats) : PLOT_HEIGHT),
  };
}

export function compareChart(a: RunRecord, b: RunRecord, lab: LabDescriptor, inputs: ChartInputs): RunChart {
  const runs = sides(a, b, lab);
  return lab.chart.x.quantity === 'category' ? bars(runs, lab, inputs) : sweep(runs, lab, inputs);
}
