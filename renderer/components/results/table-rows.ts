// The rows of the app's results table: each point's row as the chart and the PDF word it (main/common/pure/charts/result-rows.ts, the
// same formatters), with what the dense table adds: the series and the size in columns of their own, the group it is
// shown in (GPU Lab's own points, the course's Python, the waived), the raw values it sorts by, and a short count of
// samples. Plain data: the table renders without working out anything per row.
import type { LabDescriptor } from '../../../main/common/lab-descriptor.ts';
import type { PointResult } from '../../../main/common/run-record.ts';
import { formatPercent, formatSize } from '../../../main/common/pure/format.ts';
import { MIN_INTERVAL_SAMPLES } from '../../../main/common/pure/statistics.ts';
import { sizeText } from '../../../main/common/pure/charts/break-even-marks.ts';
import { keySuffix, pointRate, seriesOf, shareOfPeak, speedupOver } from '../../../main/common/pure/charts/points.ts';
import type { ResultRow } from '../../../main/common/pure/charts/result-rows.ts';
import type { Translate } from '../../../main/common/pure/charts/text.ts';

export type RowGroup = 'measured' | 'peer' | 'waived';
export const ROW_GROUPS: readonly RowGroup[] = ['measured', 'peer', 'waived'];

export const SORT_KEYS = ['series', 'size', 'median', 'rate', 'peak', 'speedup', 'samples', 'verified'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface TableRow extends ResultRow {
  seriesLabel: string;
  size: string;
  group: RowGroup;
  // The samples' count as the dense row shows it, and whether sampling stopped short of a steady median or took too
  // few for an interval (marked; `samples` says which, on hover and to screen readers).
  samplesCount: string;
  samplesShort: boolean;
  // The figures as numbers, for sorting; null where the point has none (sorted last either way).
  order: Record<SortKey, number | string | null>;
  // The record's point, for its samples.
  point: PointResult;
}

function groupOf(p: PointResult, row: ResultRow): RowGroup {
  if (p.status === 'waived') return 'waived';
  return row.peer === '' ? 'measured' : 'peer';
}

// A sweep's size as the chart's axis writes it ("N = 100", "16 MiB", "10 M": the column says they are elements); a
// category's point its category ("fp32"); else a dash.
function sizeOf(p: PointResult, lab: LabDescriptor, t: Translate): string {
  const quantity = lab.chart.x.quantity;
  if (p.x !== null && quantity === 'elements') return formatSize(quantity, p.x);
  if (p.x !== null && quantity !== 'category') return sizeText(quantity, p.x, t);
  const category = keySuffix(p).replace(/^[-@]/, '');
  return category === '' ? '—' : category;
}

function samplesOf(p: PointResult): Pick<TableRow, 'samplesCount' | 'samplesShort'> {
  const count = p.sampling?.samples ?? p.stats?.count;
  if (p.status !== 'ok' || count === undefined) return { samplesCount: '—', samplesShort: false };
  const stop = p.sampling?.stop;
  return { samplesCount: String(count), samplesShort: count < MIN_INTERVAL_SAMPLES || stop === 'budget' || stop === 'max-samples' };
}

const VERIFIED_ORDER = { failed: 0, unchecked: 1, passed: 2 } as const;

// The dense row's interval: ±x % where it is about symmetric, as everywhere (format.ts formatInterval), else its two
// ends as shares of the median ("−9.4 % +12 %"), which fit the median's column where two times ("[957.8 µs,
// 1.057 ms]", as the PDF writes them) are cut at 800 px.
export function denseInterval(p: PointResult, row: ResultRow): string {
  const s = p.status === 'ok' ? p.stats : null;
  if (!s || !row.interval.startsWith('[') || s.ciLow === null || s.ciLow === undefined || s.ciHigh === null || s.ciHigh === undefined || !(s.median > 0)) return row.interval;
  return `−${formatPercent(Math.max(0, s.median - s.ciLow) / s.median)} +${formatPercent(Math.max(0, s.ciHigh - s.median) / s.median)}`;
}

export function tableRow(p: PointResult, row: ResultRow, lab: LabDescriptor, baseline: PointResult | undefined, seriesIndex: number, t: Translate): TableRow {
  const stats = p.status === 'ok' ? p.stats : null;
  const rate = p.status === 'ok' ? pointRate(p, lab.chart.y.quantity) : null;
  return {
    ...row,
    interval: denseInterval(p, row),
    seriesLabel: seriesOf(lab, p.series)?.label ?? p.series,
    size: sizeOf(p, lab, t),
    group: groupOf(p, row),
    ...samplesOf(p),
    order: {
      series: seriesIndex,
      size: p.x ?? keySuffix(p),
      median: stats?.median ?? null,
      rate: rate?.value ?? null,
      peak: shareOfPeak(p),
      speedup: speedupOver(p, baseline),
      samples: stats ? (p.sampling?.samples ?? stats.count) : null,
      verified: VERIFIED_ORDER[row.verified],
    },
    point: p,
  };
}

export interface SortOrder {
  key: SortKey;
  descending: boolean;
}

// Sorted by one figure, ties kept in the run's order; a row without the figure goes last either way.
export function sortRows(rows: readonly TableRow[], sort: SortOrder | null): TableRow[] {
  if (!sort) return [...rows];
  const sign = sort.descending ? -1 : 1;
  const indexed = rows.map((row, index) => ({ row, index }));
  indexed.sort((a, b) => {
    const x = a.row.order[sort.key];
    const y = b.row.order[sort.key];
    if (x === null || y === null) return x === y ? a.index - b.index : x === null ? 1 : -1;
    const compared = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
    return compared === 0 ? a.index - b.index : sign * compared;
  });
  return indexed.map((i) => i.row);
}

// One series' index in the lab's order, so that sorting by series keeps the lab's order of series.
export function seriesIndexOf(lab: LabDescriptor): (series: string) => number {
  const order = new Map(lab.series.map((s, i) => [s.key, i]));
  return (series) => order.get(series) ?? lab.series.length;
}
