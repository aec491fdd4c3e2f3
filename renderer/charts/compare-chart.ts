// Two runs of the same lab on one chart: each series in its own colour, run A drawn solid and run B dashed (bars:
// B outlined), medians only (each run's own chart shows its spread). Break-even lines of both runs, named by run.
import type { ChartDataset, Point } from 'chart.js';

import type { LabDescriptor } from '../../main/common/lab-descriptor.ts';
import type { RunRecord } from '../../main/common/run-record.ts';
import { breakEvenTarget } from './break-even.ts';
import { breakEvenMarks } from './break-even-marks.ts';
import { categories, categoryAxis, categoryLabels, legendOnlyBar } from './category-chart.ts';
import type { BarConfig, ChartInputs, LineConfig, RunChart } from './chart-common.ts';
import { baseOptions, legendLabels, subtitle, yScale, yTitle } from './chart-common.ts';
import type { VerticalMark } from './marks-plugin.ts';
import { runMarksPlugin } from './marks-plugin.ts';
import { seriesStyle, withAlpha } from './palette.ts';
import { baselinePoint, keySuffix, plottedValue, pointsByKey } from './points.ts';
import type { SeriesGroup } from './series-groups.ts';
import { isWaived, legendLabel, seriesGroups, statusNotes, waivedLegend } from './series-groups.ts';
import { legendOnlyLine, referenceLines, sizeAxis } from './sweep-chart.ts';
import type { SizeQuantity } from '../../main/common/format.ts';

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

function plottedGroups(side: RunSide, lab: LabDescriptor): SeriesGroup[] {
  return lab.chart.y.quantity === 'speedup' ? side.groups.filter((g) => g.descriptor.baseline !== undefined) : side.groups;
}

function sweep(runs: [RunSide, RunSide], lab: LabDescriptor, inputs: ChartInputs): RunChart {
  const { t, theme } = inputs;
  const quantity = lab.chart.y.quantity;
  const xQuantity = lab.chart.x.quantity as SizeQuantity;
  const datasets: ChartDataset<'line', Point[]>[] = [];
  const yValues: number[] = [];
  const sizes = new Set<number>();
  const vertical: VerticalMark[] = [];
  const notes: string[] = [];
  let drawn = 0;
  for (const side of runs) {
    const byKey = pointsByKey(side.record);
    const plotted = plottedGroups(side, lab);
    for (const g of plotted) {
      // Sizes of every point, drawn or not, so that the axis is the runs'.
      for (const p of g.points) if (p.x !== null) sizes.add(p.x);
      if (isWaived(g)) continue;
      const { colour, marker } = seriesStyle(theme, g.index);
      const points = g.points.filter((p) => p.x !== null).sort((x, y) => (x.x ?? 0) - (y.x ?? 0));
      const data = points.map((p) => {
        const v = plottedValue(p, quantity, baselinePoint(lab, byKey, p));
        if (v) {
          drawn++;
          yValues.push(v.y);
        }
        return { x: p.x ?? 0, y: v ? v.y : Number.NaN };
      });
      datasets.push({
        label: t('results.compare.legend', { series: legendLabel(g, t), run: side.run }),
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
    const marks = breakEvenMarks(side.record, lab, plotted, xQuantity, inputs, t('results.compare.run', { run: side.run }));
    vertical.push(...marks.vertical);
    notes.push(...statusNotes(side.groups, t).map((n) => `${t('results.compare.run', { run: side.run })}: ${n}`), ...marks.notes);
  }
  // Run A's target: the ratio table says where the runs differ.
  const horizontal = drawn > 0 ? referenceLines(quantity, breakEvenTarget(runs[0].record), inputs) : [];
  const sorted = [...sizes].sort((x, y) => x - y);
  const base = baseOptions(theme);
  const config: LineConfig = {
    type: 'line',
    data: { datasets },
    options: {
      ...base,
      parsing: false,
      interaction: { mode: 'nearest', intersect: false },
      scales: {
        x: sizeAxis(xQuantity, lab.chart.x.log, sorted, inputs, vertical.map((m) => m.x)),
        y: yScale(quantity, [...yValues, ...horizontal.map((h) => h.y)], inputs, 'lines'),
      },
      plugins: {
        subtitle: subtitle([t('results.compare.chartNote')], theme),
        legend: { position: 'top', labels: legendLabels(theme) },
        runMarks: { vertical, horizontal, whiskers: [], labelBackground: theme.surface, font: '11px sans-serif' },
      },
    },
    plugins: [runMarksPlugin()],
  };
  return { config, notes: [...new Set(notes)], drawnPoints: drawn, description: t('results.compare.description', { lab: lab.title, y: yTitle(quantity, t), points: drawn }) };
}

function bars(runs: RunSide[], lab: LabDescriptor, inputs: ChartInputs): RunChart {
  const { t, theme } = inputs;
  const quantity = lab.chart.y.quantity;
  // Categories of both runs: B's points that A lacks join after A's.
  const merged = new Map<string, SeriesGroup>();
  for (const side of runs) {
    for (const g of side.groups) {
      const into = merged.get(g.descriptor.key) ?? { ...g, points: [] };
      for (const p of g.points) if (!into.points.some((q) => keySuffix(q) === keySuffix(p))) into.points.push(p);
      merged.set(g.descriptor.key, into);
    }
  }
  const cats = categories([...merged.values()].sort((x, y) => x.index - y.index), lab, new Map(), t, false);
  const index = new Map(cats.map((c, i) => [c.id, i]));
  const datasets: ChartDataset<'bar', (number | null)[]>[] = [];
  const yValues: number[] = [];
  const notes: string[] = [];
  let drawn = 0;
  for (const side of runs) {
    const byKey = pointsByKey(side.record);
    for (const g of side.groups) {
      if (isWaived(g)) continue;
      const { colour } = seriesStyle(theme, g.index);
      const data: (number | null)[] = cats.map(() => null);
      for (const p of g.points) {
        const suffix = keySuffix(p).replace(/^[-@]/, '');
        const i = index.get(suffix === '' ? p.key : suffix) ?? -1;
        const v = plottedValue(p, quantity, baselinePoint(lab, byKey, p));
        if (i < 0 || !v) continue;
        data[i] = v.y;
        yValues.push(v.y);
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
  const base = baseOptions(theme);
  const config: BarConfig = {
    type: 'bar',
    data: { labels: categoryLabels(cats), datasets },
    options: {
      ...base,
      skipNull: true,
      scales: {
        x: categoryAxis(theme),
        y: yScale(quantity, yValues, inputs, 'bars'),
      },
      plugins: {
        subtitle: subtitle([t('results.compare.chartNoteBars')], theme),
        legend: { position: 'top', labels: { ...legendLabels(theme), usePointStyle: false } },
      },
    },
  };
  return { config, notes, drawnPoints: drawn, description: t('results.compare.description', { lab: lab.title, y: yTitle(quantity, t), points: drawn }) };
}

export function compareChart(a: RunRecord, b: RunRecord, lab: LabDescriptor, inputs: ChartInputs): RunChart {
  const runs = sides(a, b, lab);
  return lab.chart.x.quantity === 'category' ? bars(runs, lab, inputs) : sweep(runs, lab, inputs);
}
