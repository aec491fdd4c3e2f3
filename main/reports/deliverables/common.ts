// What every lab's deliverable is made of (the table its seed asks the student to hand in, in the seed's columns,
// and the seed's questions answered), and the lookups they share: a point's median, a series' label, and why a figure
// is missing, so that a table cell or an answer says "waived: no CUDA device" instead of leaving a gap.
import type { Translate } from '../../../renderer/charts/text.ts';
import { formatMs, formatTimes, formatWhole } from '../../common/format.ts';
import type { LabDescriptor, SeriesDescriptor } from '../../common/lab-descriptor.ts';
import type { PeerLibrary } from '../../common/peer-protocol.ts';
import type { PointResult, RunRecord } from '../../common/run-record.ts';
import type { TableCell, TableColumn, TableRow } from '../table.ts';
import { pointReason } from '../../common/i18n/error-text.ts';
import { findingText, labMessage } from '../../labs/lab-text.ts';
import { speedupValue } from '../../labs/analysis.ts';
import { formatNumber } from '../../common/message.ts';

export interface DeliverableTable {
  caption: string;
  columns: TableColumn[];
  rows: TableRow[];
  notes: string[];
}

export interface Answer {
  question: string;
  answer: string;
}

export interface Deliverable {
  // Where in the course material the table and the questions come from.
  source: string;
  tables: DeliverableTable[];
  answers: Answer[];
}

export interface DeliverableContext {
  record: RunRecord;
  lab: LabDescriptor;
  t: Translate;
}

export type DeliverableBuilder = (context: DeliverableContext) => Deliverable;

export function pointAt(record: RunRecord, series: string, x: number | null = null): PointResult | undefined {
  return record.points.find((p) => p.series === series && (x === null || p.x === x));
}

export function medianOf(p: PointResult | undefined): number | null {
  return p && p.status === 'ok' && p.stats && p.stats.median > 0 ? p.stats.median : null;
}

// How many times faster `fast` is than `slow`: the ratio of their medians, as the results table's speedup column.
export function speedupOf(slow: PointResult | undefined, fast: PointResult | undefined): number | null {
  const s = medianOf(slow);
  const f = medianOf(fast);
  return s === null || f === null ? null : s / f;
}

export function labelOf(lab: LabDescriptor, series: string): string {
  return lab.series.find((s) => s.key === series)?.label ?? series;
}

// Why these series give no figure: the first of them without a measured point, waived with its reason, failed with
// its error, or not measured; null where each has one.
export function missingReason(record: RunRecord, series: readonly string[], t: Translate): string | null {
  for (const key of series) {
    const points = record.points.filter((p) => p.series === key);
    if (points.some((p) => p.status === 'ok')) continue;
    const waived = points.find((p) => p.status === 'waived');
    if (waived) return t('pdf.deliverable.missing.waived', { reason: waived.reason ?? t('results.chart.notes.noReason') });
    const failed = points.find((p) => p.status === 'failed');
    if (failed) return t('pdf.deliverable.missing.failed', { reason: failed.error ? `${failed.error.code}: ${failed.error.message}` : (failed.reason ?? '') });
    return t('pdf.deliverable.missing.notMeasured');
  }
  return null;
}

// The answer where the run cannot give one: what is missing and why.
export function cannotAnswer(record: RunRecord, series: readonly string[], t: Translate): string {
  return t('pdf.deliverable.cannot', { why: missingReason(record, series, t) ?? t('pdf.deliverable.missing.notMeasured') });
}

// A time in a table cell, or what became of the point: the status word the results table uses.
export function timeCell(p: PointResult | undefined, t: Translate): string {
  const median = medianOf(p);
  if (median !== null) return formatMs(median);
  return p ? t(`results.status.${p.status}`) : t('pdf.deliverable.absent');
}

// How many times faster `fast` is than `slow`, as a sentence states it: with the range the two medians' intervals allow
// where it is wide (labs/analysis.ts, speedupValue), in the lab's language; null where either has no time.
export function speedupText(slow: PointResult | undefined, fast: PointResult | undefined, lab: LabDescriptor): string | null {
  const v = speedupValue(slow, fast);
  if (v === null) return null;
  return 'key' in v ? labMessage(v, lab.locale ?? 'en') : formatNumber(v, lab.locale ?? 'en');
}

// A count or a size from the record (a parameter, a thread count) as the report's numbers read: "5,000,000" in
// English, "5.000.000" in Spanish; "?" where the record has none.
export function wholeText(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? formatWhole(value) : '?';
}

export function timesCell(ratio: number | null): string {
  return ratio === null ? '—' : formatTimes(ratio);
}

// One note per reason a table's series were waived, so that a cell reading "waived" is explained once.
export function waivedNotes(record: RunRecord, series: readonly string[], t: Translate): string[] {
  const reasons = new Set(record.points.filter((p) => series.includes(p.series) && p.status === 'waived').map((p) => pointReason(p, t)));
  return [...reasons].map((reason) => t('pdf.deliverable.waivedNote', { reason: reason || t('results.chart.notes.noReason') }));
}

export const figure = (title: string): TableColumn => ({ title, align: 'right', width: 'fit' });
export const words = (title: string): TableColumn => ({ title, align: 'left', width: 'wrap' });

// The Python peers: the lab's series that run the course's own code (a descriptor's `peer`), among `keys` where given,
// that the run has a point for, measured, failed or waived. A run made without them has none, and its tables stay as
// they were; each builder puts a peer's row where its table has GPU Lab's row that measures the same thing.
export type PeerSeries = SeriesDescriptor & { peer: PeerLibrary };

export function peersIn({ record, lab }: DeliverableContext, keys?: readonly string[]): PeerSeries[] {
  return lab.series.filter((s): s is PeerSeries => s.peer !== undefined && (keys === undefined || keys.includes(s.key)) && record.points.some((p) => p.series === s.key));
}

// Whether the run has a point of one of these series at `x` (a size, or null for a lab without one).
export function hasPoint(record: RunRecord, series: readonly SeriesDescriptor[], x: number | null = null): boolean {
  return series.some((s) => pointAt(record, s.key, x) !== undefined);
}

// The libraries' own names, the same in every language (as gpu-lab peers and the devices page write them).
const LIBRARIES: Record<PeerLibrary, string> = { numpy: 'NumPy', torch: 'PyTorch', cupy: 'CuPy', numba: 'Numba' };

// A peer row's first cell, set apart from GPU Lab's: what the row is, and under it that it is the course's Python.
export function peerCell(text: string, series: PeerSeries, t: Translate): TableCell {
  return { text, note: t('pdf.deliverable.peer', { library: LIBRARIES[series.peer] }) };
}

// What a table with peer rows says under it, after its own notes: why a peer was waived (once per reason, not again
// where GPU Lab's series were waived for the same), then how far each peer agrees with GPU Lab's series that measures
// the same thing, as the run's agreement findings say it in the report's language ("torch-resident-agreement", or a
// point's, "torch-fp16-agreement" of the series "torch"). Where the run has no such finding, nothing is said.
export function peerNotes({ record, lab, t }: DeliverableContext, peers: readonly SeriesDescriptor[], notes: readonly string[]): string[] {
  const keys = peers.map((s) => s.key);
  const waived = waivedNotes(record, keys, t).filter((n) => !notes.includes(n));
  const ofPeer = (id: string): boolean => {
    const stem = id.endsWith('-agreement') ? id.slice(0, -'-agreement'.length) : null;
    return stem !== null && keys.some((k) => stem === k || stem.startsWith(`${k}-`));
  };
  // The descriptor is in the report's language (report-input.ts, localizeRun).
  const agreement = record.findings.filter((f) => ofPeer(f.id)).map((f) => findingText(f, lab.locale ?? 'en'));
  return [...notes, ...waived, ...agreement];
}
