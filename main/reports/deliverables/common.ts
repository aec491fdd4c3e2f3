// What every lab's deliverable is made of (the table its seed asks the student to hand in, in the seed's columns,
// and the seed's questions answered), and the lookups they share: a point's median, a series' label, and why a figure
// is missing, so that a table cell or an answer says "waived: no CUDA device" instead of leaving a gap.
import type { Translate } from '../../common/pure/charts/text.ts';
import { formatMs, formatTimes, formatWhole } from '../../common/pure/format.ts';
import type { LabDescriptor, SeriesDescriptor } from '../../common/lab-descriptor.ts';
import { PEER_LIBRARY_NAMES } from '../../common/peer-protocol.ts';
import type { PeerLibrary } from '../../common/peer-protocol.ts';
import type { PointResult, RunRecord } from '../../common/run-record.ts';
import type { TableCell, TableColumn, TableRow } from '../table.ts';
import { pointReason } from '../../common/pure/i18n/error-text.ts';
import { findingText, labMessage } from '../../labs/lab-text.ts';
import { rankBySpeed, speedupValue } from '../../labs/analysis.ts';
import { formatNumber } from '../../common/pure/message.ts';
import { comparePoints, type Order } from '../../common/pure/claims.ts';

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


// A peer row's first cell, set apart from GPU Lab's: what the row is, and under it that it is the course's Python, or
// GPU Lab's addition in Python where the course material has no such code (the descriptor's `addition`).
export function peerCell(text: string, series: PeerSeries, t: Translate): TableCell {
  return { text, note: t(series.addition ? 'pdf.deliverable.addition' : 'pdf.deliverable.peer', { library: PEER_LIBRARY_NAMES[series.peer] }) };
}

// The baseline a deliverable answers its seed's question against (DESIGN §10, "Baselines"): the course's own series
// where it ran, named as the course's, with GPU Lab's own beside it; where it did not, GPU Lab's own, and why the
// course's was not measured, in the run's own terms (a waiver's reason, a failure, a run without the course's Python).
export interface Baseline {
  key: string;
  label: string;
  point: PointResult | undefined;
}

export interface BaselineChoice {
  // What the question is answered against: the course's series where it ran, else GPU Lab's.
  answer: Baseline;
  own: Baseline;
  course: Baseline;
  // Why the course's series gives no figure; null where it ran (then `answer` is `course`).
  why: string | null;
}

const measured = (p: PointResult | undefined): boolean => medianOf(p) !== null;

// Why a series gives no figure at `x`, or null where it has one.
export function notMeasuredWhy({ record, lab, t }: DeliverableContext, key: string, x: number | null = null): string | null {
  const points = record.points.filter((p) => p.series === key && (x === null || p.x === x));
  if (points.some(measured)) return null;
  const waived = points.find((p) => p.status === 'waived');
  if (waived) return t('pdf.deliverable.against.why.waived', { reason: pointReason(waived, t) || t('results.chart.notes.noReason') });
  const failed = points.find((p) => p.status === 'failed');
  if (failed) return t('pdf.deliverable.against.why.failed', { reason: pointReason(failed, t) });
  const library = lab.series.find((s) => s.key === key)?.peer;
  const asked = record.peers ?? [];
  if (points.length === 0 && library && !asked.includes(library)) {
    if (asked.length === 0) return t('pdf.deliverable.against.why.noPeers');
    return t('pdf.deliverable.against.why.notAsked', { library: PEER_LIBRARY_NAMES[library], asked: asked.map((l) => PEER_LIBRARY_NAMES[l]).join(', ') });
  }
  return t('pdf.deliverable.against.why.notMeasured');
}

// The CPU side of a comparison: the fastest of the CPU series `keys` the run measured (DESIGN §10, "Baselines"), judged
// over the sizes they all measured by the geometric mean of their median times (labs/analysis.ts rankBySpeed, as the
// findings judge it), the others beside it. `ratio`: the fastest one's times over the next one's (below 1), where there
// is another. `courseWhy`: why the course's CPU series (`course`) gives no figure, null where it gives one.
export interface CpuSide {
  fastest: Baseline;
  others: Baseline[];
  ratio: number | null;
  courseWhy: string | null;
}

export function fastestCpu(context: DeliverableContext, keys: readonly string[], course: string): CpuSide | null {
  const { record, lab } = context;
  const of = (key: string): Baseline => ({ key, label: labelOf(lab, key), point: undefined });
  const { ranked, ratio } = rankBySpeed(record.points, keys);
  const [first, ...others] = ranked;
  if (first === undefined) return null;
  return { fastest: of(first), others: others.map(of), ratio, courseWhy: notMeasuredWhy(context, course) };
}

export function baselineChoice(context: DeliverableContext, course: string, own: string, x: number | null = null): BaselineChoice {
  const { record, lab } = context;
  const of = (key: string): Baseline => ({ key, label: labelOf(lab, key), point: pointAt(record, key, x) });
  const c = of(course);
  const o = of(own);
  const why = notMeasuredWhy(context, course, x);
  return { answer: why === null ? c : o, own: o, course: c, why };
}

// What a table's speedups are over, said under it: the course's baseline with GPU Lab's beside it, or GPU Lab's and why
// the course's was not measured.
export function baselineNote({ t }: DeliverableContext, choice: BaselineChoice): string {
  return choice.why === null
    ? t('pdf.deliverable.against.note', { course: choice.course.label, own: choice.own.label })
    : t('pdf.deliverable.against.noteNotMeasured', { course: choice.course.label, own: choice.own.label, why: choice.why });
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

// A series as an answer names it: a Python series by its label, GPU Lab's own as GPU Lab's ("GPU Lab's CPU BLAS"), so
// that a sentence comparing both says whose each is.
export function seriesName({ lab, t }: DeliverableContext, key: string): string {
  return lab.series.find((s) => s.key === key)?.peer ? labelOf(lab, key) : t('pdf.deliverable.against.ownName', { name: labelOf(lab, key) });
}

// A baseline as a sentence names it: the course's ("Numba njit loop, one core, the course's baseline") or GPU Lab's own.
export function baselineName({ t }: DeliverableContext, b: Baseline, course: boolean): string {
  return t(course ? 'pdf.deliverable.against.courseName' : 'pdf.deliverable.against.ownName', { name: b.label });
}

export interface Against {
  text: string;
  // How each measured series compares with the baseline, as its interval allows (common/pure/claims.ts).
  orders: Order[];
}

// Each series against one baseline: faster, slower or not told apart from it as far as the medians' intervals show,
// with its speed as a multiple of the baseline's, and the range the two intervals allow where it is wide (speedupText);
// a series with a point that gave no figure (waived, failed), with why.
// Series the run has no point of are left out (what the run left out is said once, in the table's note).
function items(context: DeliverableContext, baseline: PointResult | undefined, series: readonly string[]): { items: string[]; orders: Order[] } {
  const { record, lab, t } = context;
  const orders: Order[] = [];
  const out = series.flatMap((key) => {
    const p = pointAt(record, key);
    if (!p) return [];
    const label = seriesName(context, key);
    const order = comparePoints(p, baseline);
    const ratio = speedupText(baseline, p, lab);
    if (order === null || ratio === null) {
      const why = notMeasuredWhy(context, key);
      return why === null ? [] : [t('pdf.deliverable.against.item.missing', { series: label, why })];
    }
    orders.push(order);
    return [t(`pdf.deliverable.against.item.${order}`, { series: label, time: formatMs(medianOf(p) ?? 0), ratio })];
  });
  return { items: out, orders };
}

// The series answered against the deliverable's baseline: the course's where it ran, else GPU Lab's, saying why the
// course's gives no figure. Null where the baseline itself has no figure or no series does.
export function againstBaseline(context: DeliverableContext, choice: BaselineChoice, series: readonly string[]): Against | null {
  const { t } = context;
  const time = medianOf(choice.answer.point);
  const found = items(context, choice.answer.point, series);
  if (time === null || found.items.length === 0) return null;
  const named = { baseline: baselineName(context, choice.answer, choice.why === null), time: formatMs(time), items: found.items.join(t('pdf.deliverable.against.itemSeparator')) };
  const text = choice.why === null ? t('pdf.deliverable.against.course', named) : t('pdf.deliverable.against.notMeasured', { ...named, course: choice.course.label, why: choice.why });
  return { text, orders: found.orders };
}

// The same series against one of GPU Lab's own baselines, said beside the course's.
export function againstOwn(context: DeliverableContext, baseline: Baseline, series: readonly string[]): Against | null {
  const { t } = context;
  const time = medianOf(baseline.point);
  const found = items(context, baseline.point, series);
  if (time === null || found.items.length === 0) return null;
  return { text: t('pdf.deliverable.against.beside', { baseline: baselineName(context, baseline, false), time: formatMs(time), items: found.items.join(t('pdf.deliverable.against.itemSeparator')) }), orders: found.orders };
}

// A yes-or-no question's first word from how every series compared: yes where each is faster, no where each is slower.
export function leadOf({ t }: DeliverableContext, orders: readonly Order[]): string {
  const kind = orders.every((o) => o === 'faster') ? 'yes' : orders.every((o) => o === 'slower') ? 'no' : orders.includes('faster') && orders.includes('slower') ? 'mixed' : 'unclear';
  return t(`pdf.deliverable.against.lead.${kind}`);
}
