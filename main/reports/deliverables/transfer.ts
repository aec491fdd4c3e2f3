// transfer, seed 003's transfer and pinned-memory benchmarks: first the article's own three copies (100², 1000² and
// 5000² float32: 39.1 KiB, 3.81 MiB and 95.4 MiB) with its PyTorch `.to()` beside GPU Lab's copy of the same bytes,
// pageable against pinned; then host→device copies over the whole sweep (size, time, GB/s) from pageable and from
// pinned memory, the best bandwidth of each direction, and the article's observations as questions: does the
// bandwidth grow with size (read on the article's own code, pageable `.to()`, where it ran), what pinned memory gains
// (at the article's 5000² first), how close the bus comes to its theoretical rate, whether asynchronous pageable
// copies help, and how a copy inside the GPU compares.
import type { Translate } from '../../common/pure/charts/text.ts';
import { compareTimes, estimateOf } from '../../common/pure/claims.ts';
import { formatBytes, formatMs, formatPercent, formatRate, formatTimes } from '../../common/pure/format.ts';
import type { PointResult, RunRecord } from '../../common/run-record.ts';
import { shareOfPeak } from '../../common/run-record.ts';
import { SEED_COPY_BYTES } from '../../labs/transfer.ts';
import type { DeliverableBuilder, DeliverableContext, DeliverableTable } from './common.ts';
import { cannotAnswer, figure, hasPoint, labelOf, medianOf, notMeasuredWhy, peerCell, peerNotes, peersIn, pointAt, seriesName, speedupText, timeCell, waivedNotes, words } from './common.ts';
import type { TableCell, TableRow } from '../table.ts';

const HOST_SERIES = ['h2d-pageable-sync', 'h2d-pinned-sync', 'd2h-pageable-sync', 'd2h-pinned-sync'] as const;
// The copies of each direction from pageable and from pinned memory: GPU Lab's, and the notebook's own in PyTorch
// (a Python peer, `.to('cuda')` and `.cpu()` of a pageable or a pinned tensor).
type Direction = 'h2d' | 'd2h';
// On a WebGPU adapter GPU Lab's copies from pageable memory are WebGPU's own (labs/transfer.ts): writeBuffer up, a
// mapped staging buffer down; its pinned ones are waived there.
const WEBGPU_PAGEABLE: Record<Direction, string> = { h2d: 'webgpu-h2d-write-buffer', d2h: 'webgpu-d2h-mapped' };
const onWebgpu = (record: RunRecord): boolean => record.points.some((p) => p.series === WEBGPU_PAGEABLE.h2d || p.series === WEBGPU_PAGEABLE.d2h);
const OURS = (d: Direction, record: RunRecord) => ({ pageable: onWebgpu(record) ? WEBGPU_PAGEABLE[d] : `${d}-pageable-sync`, pinned: `${d}-pinned-sync` });
const TORCH = (d: Direction) => ({ pageable: `torch-${d}-pageable`, pinned: `torch-${d}-pinned` });
// The article's own copies: PyTorch's `.to('cuda')` of a pageable and of a pinned tensor.
const COURSE = TORCH('h2d');

// The size a pair of series was measured at for one of the article's sizes: that size where both have a figure there,
// else the nearest on a log scale where both do (a run from before the article's sizes were planned); where they have
// none, the size itself if the run has a point there (waived, failed), else the nearest that has one; null where none.
function measuredSize(record: RunRecord, series: readonly string[], bytes: number): number | null {
  const sizes = (keep: (x: number) => boolean): number[] => [...new Set(record.points.filter((p) => series.includes(p.series) && p.x !== null).map((p) => p.x ?? 0))].filter(keep);
  const nearest = (xs: number[]): number | null => (xs.includes(bytes) ? bytes : xs.reduce<number | null>((a, x) => (a === null || Math.abs(Math.log(x / bytes)) < Math.abs(Math.log(a / bytes)) ? x : a), null));
  return nearest(sizes((x) => series.every((s) => medianOf(pointAt(record, s, x)) !== null))) ?? nearest(sizes(() => true));
}

function best(record: RunRecord, series: string): PointResult | null {
  return record.points.filter((p) => p.series === series && p.status === 'ok' && p.gbps !== null).reduce<PointResult | null>((a, p) => ((p.gbps ?? 0) > (a?.gbps ?? -1) ? p : a), null);
}

// The range of a point's rate that its median's interval allows.
function rateInterval(p: PointResult): { low: number; high: number } | null {
  const e = estimateOf(p);
  return e && e.low > 0 && p.work.bytes > 0 ? { low: p.work.bytes / (e.high * 1e6), high: p.work.bytes / (e.low * 1e6) } : null;
}

const rateCell = (p: PointResult | null | undefined): string => (p && p.status === 'ok' && p.gbps !== null ? formatRate(p.gbps, 'GB/s') : '—');

// The smallest copy that reaches half the series' best bandwidth: below it, the fixed latency dominates.
function halfPeak(record: RunRecord, series: string): PointResult | null {
  const top = best(record, series);
  if (!top?.gbps) return null;
  const peak = top.gbps;
  return record.points.filter((p) => p.series === series && p.status === 'ok' && (p.gbps ?? 0) >= peak / 2).sort((a, b) => (a.x ?? 0) - (b.x ?? 0))[0] ?? null;
}

// How one series' bandwidth grows from its smallest copy to its best, or null where it has too few sizes measured.
function growthOf(context: DeliverableContext, series: string): { grows: boolean; text: string } | null {
  const { record, t } = context;
  const measured = record.points.filter((p) => p.series === series && p.status === 'ok').sort((a, b) => (a.x ?? 0) - (b.x ?? 0));
  const smallest = measured[0];
  const top = best(record, series);
  const half = halfPeak(record, series);
  if (!smallest || !top || !half || smallest === top) return null;
  // Growing means at least doubling from the smallest copy to the best: less is within what clocks and noise move.
  const grows = (top.gbps ?? 0) >= 2 * (smallest.gbps ?? 0);
  const named = {
    series: seriesName(context, series),
    small: formatBytes(smallest.x ?? 0),
    smallRate: rateCell(smallest),
    smallTime: formatMs(medianOf(smallest) ?? 0),
    best: rateCell(top),
    bestAt: formatBytes(top.x ?? 0),
    half: formatBytes(half.x ?? 0),
  };
  return { grows, text: t('pdf.deliverable.transfer.a.growthItem', named) };
}

// Read first on the article's own code (PyTorch's `.to()` from pageable memory), then on GPU Lab's copies beside it.
function growth(context: DeliverableContext): string {
  const { record, t } = context;
  const why = notMeasuredWhy(context, COURSE.pageable);
  const first = growthOf(context, why === null ? COURSE.pageable : OURS('h2d', record).pageable);
  if (!first) return cannotAnswer(record, [OURS('h2d', record).pinned], t);
  const beside = [...(why === null ? [OURS('h2d', record).pageable] : []), OURS('h2d', record).pinned].flatMap((s) => growthOf(context, s)?.text ?? []);
  const lead = why === null ? '' : t('pdf.deliverable.transfer.a.courseNotMeasured', { course: labelOf(context.lab, COURSE.pageable), why });
  const besideText = beside.length > 0 ? t('pdf.deliverable.transfer.a.growthBeside', { items: beside.join(t('pdf.deliverable.against.itemSeparator')) }) : '';
  return [t(first.grows ? 'pdf.deliverable.transfer.a.growth' : 'pdf.deliverable.transfer.a.growthFlat', { first: first.text }), lead, besideText].filter(Boolean).join(' ');
}

// The article's pinned-memory example at its 95.4 MiB (or the nearest size the run measured): each pair of copies, the
// article's PyTorch first, pinned against pageable as far as their intervals tell them apart.
function pinnedAtSeedSize(context: DeliverableContext): string | null {
  const { record, t } = context;
  const bytes = SEED_COPY_BYTES.at(-1) ?? 0;
  const items = [COURSE, OURS('h2d', record)].flatMap((pair) => {
    const at = measuredSize(record, [pair.pageable, pair.pinned], bytes);
    if (at === null) return [];
    const pageable = pointAt(record, pair.pageable, at);
    const pinned = pointAt(record, pair.pinned, at);
    const a = estimateOf(pinned);
    const b = estimateOf(pageable);
    if (!a || !b) return [];
    // The gain with the range the two medians' intervals allow where it is wide.
    const ratio = speedupText(pageable, pinned, context.lab) ?? formatTimes(b.median / a.median);
    const named = { series: seriesName(context, pair.pinned), pinned: formatMs(a.median), pageable: formatMs(b.median), ratio, at: formatBytes(at) };
    const order = compareTimes(a, b);
    return [t(`pdf.deliverable.transfer.a.seedPinned.${order}${at === bytes ? '' : 'Nearest'}`, named)];
  });
  const why = notMeasuredWhy(context, COURSE.pinned);
  const course = why !== null ? [t('pdf.deliverable.transfer.a.courseNotMeasured', { course: labelOf(context.lab, COURSE.pinned), why })] : [];
  const lead = t('pdf.deliverable.transfer.a.seedPinned.lead', { n: String(Math.round(Math.sqrt(bytes / 4))), bytes: formatBytes(bytes), items: items.join(t('pdf.deliverable.against.itemSeparator')) });
  return items.length === 0 ? null : [lead, ...course].join(' ');
}

function pinnedGain(context: DeliverableContext): string {
  const { record, t } = context;
  const items = (['h2d', 'd2h'] as const).flatMap((d) => {
    const pinned = best(record, `${d}-pinned-sync`);
    const pageable = best(record, `${d}-pageable-sync`);
    if (!pinned?.gbps || !pageable?.gbps) return [];
    return [t(`pdf.deliverable.transfer.a.pinnedItem.${d}`, { gain: formatTimes(pinned.gbps / pageable.gbps), pinned: rateCell(pinned), pageable: rateCell(pageable) })];
  });
  if (items.length === 0) return cannotAnswer(record, onWebgpu(record) ? ['h2d-pinned-sync'] : [...HOST_SERIES], t);
  return [pinnedAtSeedSize(context) ?? '', t('pdf.deliverable.transfer.a.pinned', { items: items.join('; ') })].filter(Boolean).join(' ');
}

// The fastest host→device copy: from pinned memory, or on WebGPU (which has none) writeBuffer's.
const fastestUp = (record: RunRecord): string => (onWebgpu(record) ? WEBGPU_PAGEABLE.h2d : 'h2d-pinned-sync');

function busShare({ record, t }: DeliverableContext): string {
  const top = best(record, fastestUp(record));
  if (!top?.gbps) return cannotAnswer(record, [fastestUp(record)], t);
  if (onWebgpu(record)) return t('pdf.deliverable.transfer.a.busWebgpu', { best: rateCell(top) });
  const gpu = record.environment.devices?.devices.find((d) => d.id === record.device);
  const peak = gpu?.details.peakPcieGBps;
  const link = gpu?.details.pcieCurrent;
  if (typeof peak !== 'number' || peak <= 0) return t('pdf.deliverable.transfer.a.busUnknown', { best: rateCell(top) });
  return t('pdf.deliverable.transfer.a.bus', { best: rateCell(top), share: formatPercent(top.gbps / peak), peak: formatRate(peak, 'GB/s'), link: typeof link === 'string' ? link : '?' });
}

function asyncPageable({ record, t }: DeliverableContext): string {
  const sync = best(record, 'h2d-pageable-sync');
  const async = best(record, 'h2d-pageable-async');
  const pinned = best(record, 'h2d-pinned-async');
  if (!sync?.gbps || !async?.gbps) return cannotAnswer(record, ['h2d-pageable-sync', 'h2d-pageable-async'], t);
  // The best rates' intervals (bytes over the time's interval) decide whether they differ at all; a gain of a fifth or
  // more helps, a smaller one that the intervals still separate is "hardly".
  const ratio = async.gbps / sync.gbps;
  const a = rateInterval(async);
  const s = rateInterval(sync);
  const kind = !a || !s || (a.low <= s.high && s.low <= a.high) ? 'asyncNone' : a.high < s.low ? 'asyncSlower' : ratio >= 1.2 ? 'asyncHelps' : 'async';
  return t(`pdf.deliverable.transfer.a.${kind}`, { async: rateCell(async), sync: rateCell(sync), ratio: formatTimes(ratio), pinned: rateCell(pinned) });
}

function insideGpu({ record, t }: DeliverableContext): string {
  const d2d = best(record, 'd2d');
  const bus = best(record, fastestUp(record));
  if (!d2d?.gbps || !bus?.gbps) return cannotAnswer(record, ['d2d', fastestUp(record)], t);
  const share = shareOfPeak(d2d);
  const named = { d2d: rateCell(d2d), bus: rateCell(bus), ratio: formatTimes(d2d.gbps / 2 / bus.gbps) };
  if (onWebgpu(record)) return t('pdf.deliverable.transfer.a.insideWebgpu', named);
  return share === null ? t('pdf.deliverable.transfer.a.inside', named) : t('pdf.deliverable.transfer.a.insidePeak', { ...named, share: formatPercent(share) });
}

function copyRow(record: RunRecord, x: number, series: { pageable: string; pinned: string }, size: string | TableCell, t: Translate): TableRow {
  const pageable = pointAt(record, series.pageable, x);
  const pinned = pointAt(record, series.pinned, x);
  const gain = pageable?.gbps && pinned?.gbps && pageable.status === 'ok' && pinned.status === 'ok' ? formatTimes(pinned.gbps / pageable.gbps) : '—';
  return { cells: [size, timeCell(pageable, t), rateCell(pageable), timeCell(pinned, t), rateCell(pinned), gain] };
}

function directionRow(record: RunRecord, series: { pageable: string; pinned: string }, direction: string | TableCell): TableRow {
  const pageable = best(record, series.pageable);
  const pinned = best(record, series.pinned);
  const half = halfPeak(record, series.pinned);
  const gain = pageable?.gbps && pinned?.gbps ? formatTimes(pinned.gbps / pageable.gbps) : '—';
  return { cells: [direction, rateCell(pageable), rateCell(pinned), gain, half ? formatBytes(half.x ?? 0) : '—'] };
}

// The article's three copies, its PyTorch row and GPU Lab's for each: at the article's size where the run measured
// it, else at the nearest size it did, which the second column says.
function seedTable(context: DeliverableContext): DeliverableTable {
  const { record, lab, t } = context;
  const torch = peersIn(context, [COURSE.pageable, COURSE.pinned]);
  const c = (key: string) => figure(t(`pdf.deliverable.transfer.columns.${key}`));
  const rows = SEED_COPY_BYTES.flatMap((bytes) => {
    const n = Math.round(Math.sqrt(bytes / 4));
    // A matrix's shape as the article writes it ("5000×5000", never grouped), its bytes as every size of the report.
    const name = t('pdf.deliverable.transfer.seedSize', { n: String(n), bytes: formatBytes(bytes) });
    const pairs: { series: { pageable: string; pinned: string }; label: string | TableCell }[] = [
      ...(torch[0] ? [{ series: COURSE, label: peerCell(name, torch[0], t) }] : []),
      { series: OURS('h2d', record), label: torch[0] ? { text: name, note: t('pdf.deliverable.transfer.gpuLab') } : name },
    ];
    return pairs.map(({ series, label }): TableRow => {
      const at = measuredSize(record, [series.pageable, series.pinned], bytes);
      if (at === null) return { cells: [label, '—', timeCell(undefined, t), '—', timeCell(undefined, t), '—', '—'] };
      const row = copyRow(record, at, series, label, t);
      return { cells: [row.cells[0] ?? label, at === bytes ? formatBytes(at) : { text: formatBytes(at), note: t('pdf.deliverable.transfer.nearest') }, ...row.cells.slice(1)] };
    });
  });
  const nearest = SEED_COPY_BYTES.some((bytes) => measuredSize(record, [OURS('h2d', record).pageable, OURS('h2d', record).pinned], bytes) !== bytes);
  const why = notMeasuredWhy(context, COURSE.pageable);
  return {
    caption: t('pdf.deliverable.transfer.seedCaption'),
    columns: [words(t('pdf.deliverable.transfer.columns.seedSize')), c('measuredAt'), c('pageableTime'), c('pageableRate'), c('pinnedTime'), c('pinnedRate'), c('gain')],
    rows,
    notes: [
      ...(why !== null ? [t('pdf.deliverable.transfer.a.courseNotMeasured', { course: labelOf(lab, COURSE.pageable), why })] : []),
      ...(nearest ? [t('pdf.deliverable.transfer.nearestNote')] : []),
    ],
  };
}

export const transferDeliverable: DeliverableBuilder = (context) => {
  const { record, lab, t } = context;
  // Each size's row of GPU Lab's host→device copies and, under it, PyTorch's at that size where the run has it.
  const h2dPeers = peersIn(context, Object.values(TORCH('h2d')));
  const up = OURS('h2d', record);
  const sizes = [...new Set(record.points.filter((p) => (p.series === up.pageable || p.series === up.pinned) && p.x !== null).map((p) => p.x ?? 0))].sort((a, b) => a - b);
  const copies = sizes.flatMap((x) => [
    copyRow(record, x, OURS('h2d', record), formatBytes(x), t),
    ...(h2dPeers[0] && hasPoint(record, h2dPeers, x) ? [copyRow(record, x, TORCH('h2d'), peerCell(formatBytes(x), h2dPeers[0], t), t)] : []),
  ]);
  const d2hPeers = peersIn(context, Object.values(TORCH('d2h')));
  const directions = (['h2d', 'd2h'] as const).flatMap((d) => {
    const peers = d === 'h2d' ? h2dPeers : d2hPeers;
    const name = t(`pdf.deliverable.transfer.direction.${d}`);
    return [directionRow(record, OURS(d, record), name), ...(peers[0] ? [directionRow(record, TORCH(d), peerCell(name, peers[0], t))] : [])];
  });
  const d2d = best(record, 'd2d');
  const d2dHalf = halfPeak(record, 'd2d');
  directions.push({ cells: [labelOf(lab, 'd2d'), '—', rateCell(d2d), '—', d2dHalf ? formatBytes(d2dHalf.x ?? 0) : '—'] });
  const c = (key: string) => figure(t(`pdf.deliverable.transfer.columns.${key}`));
  return {
    source: t('pdf.deliverable.transfer.source'),
    tables: [
      seedTable(context),
      {
        caption: t('pdf.deliverable.transfer.copiesCaption'),
        columns: [c('size'), c('pageableTime'), c('pageableRate'), c('pinnedTime'), c('pinnedRate'), c('gain')],
        rows: copies,
        notes: peerNotes(context, h2dPeers, waivedNotes(record, onWebgpu(record) ? [up.pinned, OURS('d2h', record).pinned] : [...HOST_SERIES], t)),
      },
      {
        caption: t('pdf.deliverable.transfer.bestCaption'),
        columns: [words(t('pdf.deliverable.transfer.columns.direction')), c('bestPageable'), c('bestPinned'), c('gain'), c('half')],
        rows: directions,
        // The host→device peers' notes are under the table above; these are the device→host ones'.
        notes: peerNotes(context, d2hPeers, [t('pdf.deliverable.transfer.d2dNote')]),
      },
    ],
    answers: [
      { question: t('pdf.deliverable.transfer.q.growth'), answer: growth(context) },
      { question: t('pdf.deliverable.transfer.q.pinned'), answer: pinnedGain(context) },
      { question: t('pdf.deliverable.transfer.q.bus'), answer: busShare(context) },
      { question: t('pdf.deliverable.transfer.q.async'), answer: asyncPageable(context) },
      { question: t('pdf.deliverable.transfer.q.inside'), answer: insideGpu(context) },
    ],
  };
};
