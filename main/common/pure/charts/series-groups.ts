// A run's points grouped by series in the lab's order, with what the legend and the notes under a chart say about
// series that could not be drawn: waived (named with the reason), failed, not measured.
import type { LabDescriptor, SeriesDescriptor } from '../../lab-descriptor.ts';
import type { PlanEntry, PointResult, RunRecord } from '../../run-record.ts';
import type { SeriesColouring } from './palette.ts';
import type { Translate } from './text.ts';
import { pointReason } from '../i18n/error-text.ts';

export interface SeriesGroup {
  descriptor: SeriesDescriptor;
  // The series' place in the lab's descriptor: the order of its bars, lines and legend entry.
  index: number;
  // Its colour and marker (palette.ts): its family's hue, its shade, its marker by its place in its panel.
  colouring: SeriesColouring;
  points: PointResult[];
  // Points of a run in progress still to be measured: they keep their category, size and legend entry until they come.
  pending: PlanEntry[];
}

// Each series' colouring: families numbered in the order they first appear, markers in the order of the series within
// a panel, so that a path has the same colour and marker in every panel of a chart.
export function seriesColourings(series: readonly SeriesDescriptor[]): Map<string, SeriesColouring> {
  const families: string[] = [];
  const perPanel = new Map<string, number>();
  const out = new Map<string, SeriesColouring>();
  for (const s of series) {
    const family = s.family ?? s.key;
    if (!families.includes(family)) families.push(family);
    const index = perPanel.get(s.panel ?? '') ?? 0;
    perPanel.set(s.panel ?? '', index + 1);
    out.set(s.key, { family: families.indexOf(family), ...(s.tone ? { tone: s.tone } : {}), index });
  }
  return out;
}

// A point the plan waives, as it will be recorded when its turn comes: the chart says so from the start.
function plannedWaiver(e: PlanEntry): PointResult {
  return {
    ...e,
    device: '',
    status: 'waived',
    error: null,
    work: { flops: 0, bytes: 0, elements: 0 },
    implementation: null,
    threads: null,
    warmup: 0,
    repeats: 0,
    clock: 'host',
    hostMs: [],
    deviceMs: null,
    stats: null,
    gflops: null,
    gbps: null,
    verification: null,
    telemetry: null,
  };
}

// Series in the descriptor's order, each with its points in the record's order; a series the descriptor does not
// know (a record from an older version of the lab) comes last, under its key, in a family of its own. While the run
// goes on, its plan's points that have not come yet are there too (waived ones as waived, the others pending), so
// that the chart's categories, legend and sizes are the run's from its start.
export function seriesGroups(record: RunRecord, lab: LabDescriptor): SeriesGroup[] {
  const byKey = new Map<string, SeriesGroup>();
  const colourings = seriesColourings(lab.series);
  const families = new Set(lab.series.map((s) => s.family ?? s.key)).size;
  lab.series.forEach((descriptor, index) => byKey.set(descriptor.key, { descriptor, index, colouring: colourings.get(descriptor.key) ?? { family: index, index }, points: [], pending: [] }));
  const group = (series: string, device: string): SeriesGroup => {
    let g = byKey.get(series);
    if (!g) {
      const index = byKey.size;
      const colouring = { family: families + index - lab.series.length, index };
      g = { descriptor: { key: series, label: series, deviceKind: device === 'cpu' ? 'cpu' : 'cuda' }, index, colouring, points: [], pending: [] };
      byKey.set(series, g);
    }
    return g;
  };
  for (const p of record.points) group(p.series, p.device).points.push(p);
  if (record.status === 'queued' || record.status === 'running') {
    const arrived = new Set(record.points.map((p) => p.key));
    for (const e of record.plan ?? []) {
      if (arrived.has(e.key)) continue;
      if (e.reason !== null) group(e.series, '').points.push(plannedWaiver(e));
      else group(e.series, '').pending.push(e);
    }
  }
  return [...byKey.values()].filter((g) => g.points.length > 0 || g.pending.length > 0);
}

export type GroupState = 'measured' | 'waived' | 'failed' | 'not-measured';

// What became of a series as a whole: measured if any point is; else waived or failed if every point that ended did
// so that way.
export function groupState(points: readonly PointResult[]): GroupState {
  if (points.some((p) => p.status === 'ok')) return 'measured';
  if (points.length > 0 && points.every((p) => p.status === 'waived')) return 'waived';
  if (points.some((p) => p.status === 'failed')) return 'failed';
  return points.some((p) => p.status === 'waived') ? 'waived' : 'not-measured';
}

// A series every point of which was waived: it has no line or bar, and the legend names it with the others waived
// for the same reason (waivedLegend) instead of one entry each. One with a point still to come is not (its plan waives
// some sizes up front, as text-to-image's CPU series past a batch): it is named as the others are until it ends.
export function isWaived(group: SeriesGroup): boolean {
  return group.pending.length === 0 && groupState(group.points) === 'waived';
}

// One legend entry per reason the series were waived for: "6 series waived", or, for a series waived alone for its
// reason, "GPU resident — waived"; the reasons are said in the notes under the chart (statusNotes), where a long one
// wraps instead of running off the canvas. In the order the series come.
export function waivedLegend(groups: readonly SeriesGroup[], t: Translate): string[] {
  const byReason = new Map<string, string[]>();
  for (const g of groups) {
    if (!isWaived(g)) continue;
    const first = g.points.find((p) => p.status === 'waived');
    const reason = first ? pointReason(first, t) : '';
    byReason.set(reason, [...(byReason.get(reason) ?? []), g.descriptor.label]);
  }
  return [...byReason.values()].map((series) =>
    series.length === 1 ? t('results.chart.legend.waived', { series: series[0] ?? '' }) : t('results.chart.legend.waivedMany', { count: series.length }),
  );
}

// The name of a series that has a line or bars (a waived one is in waivedLegend's entries): as it is (or as its panel
// names it, `series`), or marked failed or not measured where nothing of it was drawn.
export function legendLabel(group: SeriesGroup, t: Translate, series = group.descriptor.label): string {
  // A series still to come is named as it is; what became of it is said once it has ended.
  if (group.pending.length > 0) return series;
  switch (groupState(group.points)) {
    case 'waived':
      return t('results.chart.legend.waived', { series });
    case 'failed':
      return t('results.chart.legend.failed', { series });
    case 'not-measured':
      return t('results.chart.legend.notMeasured', { series });
    case 'measured':
      return series;
  }
}

// One note per waiver reason naming the series it kept off the chart ("GPU resident (7 of 7 points)"), one per series
// with failed points, one for points a cancelled or failed run never reached.
export function statusNotes(groups: readonly SeriesGroup[], t: Translate): string[] {
  const waived = new Map<string, string[]>();
  const notes: string[] = [];
  let cancelled = 0;
  let cancelReason = '';
  for (const g of groups) {
    const label = g.descriptor.label;
    const byReason = new Map<string, number>();
    for (const p of g.points) {
      if (p.status === 'waived') byReason.set(pointReason(p, t), (byReason.get(pointReason(p, t)) ?? 0) + 1);
      if (p.status === 'cancelled') {
        cancelled++;
        cancelReason ||= pointReason(p, t);
      }
    }
    for (const [reason, count] of byReason) {
      const name = count === g.points.length ? label : t('results.chart.notes.partly', { series: label, count, total: g.points.length });
      waived.set(reason, [...(waived.get(reason) ?? []), name]);
    }
    const failed = g.points.filter((p) => p.status === 'failed');
    const first = failed[0];
    if (first) notes.push(t('results.chart.notes.failed', { series: label, count: failed.length, reason: pointReason(first, t) || (first.error?.code ?? '') }, failed.length));
  }
  const waivedNotes = [...waived].map(([reason, series]) =>
    t('results.chart.notes.waived', { series: series.join('; '), reason: reason || t('results.chart.notes.noReason') }),
  );
  if (cancelled > 0) notes.push(t('results.chart.notes.cancelled', { count: cancelled, reason: cancelReason }, cancelled));
  return [...waivedNotes, ...notes];
}

// Written across an empty plot, so that a chart with nothing to draw says why instead of looking broken. "No points
// measured yet" while the run goes on (`live`), "No points were measured" once it has ended.
export function emptyMessage(groups: readonly SeriesGroup[], t: Translate, live: boolean): string {
  const points = groups.flatMap((g) => g.points);
  if (points.length === 0) return t(live ? 'results.chart.empty.none' : 'results.chart.empty.noneFinal');
  return points.some((p) => p.status === 'waived') ? t('results.chart.empty.waived') : t('results.chart.empty.nothing');
}
