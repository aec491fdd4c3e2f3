// A run's points grouped by series in the lab's order, with what the legend and the notes under a chart say about
// series that could not be drawn: waived (named with the reason), failed, not measured.
import type { LabDescriptor, SeriesDescriptor } from '../../main/common/lab-descriptor.ts';
import type { PointResult, RunRecord } from '../../main/common/run-record.ts';
import type { Translate } from './text.ts';
import { pointReason } from '../../main/common/i18n/error-text.ts';

export interface SeriesGroup {
  descriptor: SeriesDescriptor;
  // The series' place in the lab's descriptor: its colour and marker.
  index: number;
  points: PointResult[];
}

// Series in the descriptor's order, each with its points in the record's order; a series the descriptor does not
// know (a record from an older version of the lab) comes last, under its key.
export function seriesGroups(record: RunRecord, lab: LabDescriptor): SeriesGroup[] {
  const byKey = new Map<string, SeriesGroup>();
  lab.series.forEach((descriptor, index) => byKey.set(descriptor.key, { descriptor, index, points: [] }));
  for (const p of record.points) {
    let group = byKey.get(p.series);
    if (!group) {
      group = { descriptor: { key: p.series, label: p.series, deviceKind: p.device === 'cpu' ? 'cpu' : 'cuda' }, index: byKey.size, points: [] };
      byKey.set(p.series, group);
    }
    group.points.push(p);
  }
  return [...byKey.values()].filter((g) => g.points.length > 0);
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
// for the same reason (waivedLegend) instead of one entry each.
export function isWaived(group: SeriesGroup): boolean {
  return groupState(group.points) === 'waived';
}

// One legend entry per reason the series were waived for: "6 series waived: no CUDA device: …", or, for a series
// waived alone for its reason, "GPU resident — waived: …". In the order the series come.
export function waivedLegend(groups: readonly SeriesGroup[], t: Translate): string[] {
  const byReason = new Map<string, string[]>();
  for (const g of groups) {
    if (!isWaived(g)) continue;
    const first = g.points.find((p) => p.status === 'waived');
    const reason = (first ? pointReason(first, t) : '') || t('results.chart.notes.noReason');
    byReason.set(reason, [...(byReason.get(reason) ?? []), g.descriptor.label]);
  }
  return [...byReason].map(([reason, series]) =>
    series.length === 1 ? t('results.chart.legend.waivedOne', { series: series[0] ?? '', reason }) : t('results.chart.legend.waivedMany', { count: series.length, reason }),
  );
}

// The name of a series that has a line or bars (a waived one is in waivedLegend's entries): as it is, or marked failed
// or not measured where nothing of it was drawn.
export function legendLabel(group: SeriesGroup, t: Translate): string {
  const series = group.descriptor.label;
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
