// transfer, seed 003's transfer and pinned-memory benchmarks: host→device copies as the article times them (size,
// time, GB/s) from pageable and from pinned memory side by side, the best bandwidth of each direction, and the
// article's observations as questions: does the bandwidth grow with size, what pinned memory gains, how close the bus
// comes to its theoretical rate, whether asynchronous pageable copies help, and how a copy inside the GPU compares.
import type { Translate } from '../../../renderer/charts/text.ts';
import { estimateOf } from '../../common/claims.ts';
import { formatBytes, formatMs, formatPercent, formatRate, formatTimes } from '../../common/format.ts';
import type { PointResult, RunRecord } from '../../common/run-record.ts';
import { shareOfPeak } from '../../common/run-record.ts';
import type { DeliverableBuilder, DeliverableContext } from './common.ts';
import { cannotAnswer, figure, hasPoint, labelOf, medianOf, peerCell, peerNotes, peersIn, pointAt, timeCell, waivedNotes, words } from './common.ts';
import type { TableCell, TableRow } from '../table.ts';

const HOST_SERIES = ['h2d-pageable-sync', 'h2d-pinned-sync', 'd2h-pageable-sync', 'd2h-pinned-sync'] as const;
// The copies of each direction from pageable and from pinned memory: GPU Lab's, and the notebook's own in PyTorch
// (a Python peer, `.to('cuda')` and `.cpu()` of a pageable or a pinned tensor).
type Direction = 'h2d' | 'd2h';
const OURS = (d: Direction) => ({ pageable: `${d}-pageable-sync`, pinned: `${d}-pinned-sync` });
const TORCH = (d: Direction) => ({ pageable: `torch-${d}-pageable`, pinned: `torch-${d}-pinned` });

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

function growth({ record, t }: DeliverableContext): string {
  const series = 'h2d-pinned-sync';
  const measured = record.points.filter((p) => p.series === series && p.status === 'ok').sort((a, b) => (a.x ?? 0) - (b.x ?? 0));
  const smallest = measured[0];
  const top = best(record, series);
  const half = halfPeak(record, series);
  if (!smallest || !top || !half || smallest === top) return cannotAnswer(record, [series], t);
  // Growing means at least doubling from the smallest copy to the best: less is within what clocks and noise move.
  const grows = (top.gbps ?? 0) >= 2 * (smallest.gbps ?? 0);
  return t(grows ? 'pdf.deliverable.transfer.a.growth' : 'pdf.deliverable.transfer.a.growthFlat', {
    small: formatBytes(smallest.x ?? 0),
    smallRate: rateCell(smallest),
    smallTime: formatMs(medianOf(smallest) ?? 0),
    best: rateCell(top),
    bestAt: formatBytes(top.x ?? 0),
    half: formatBytes(half.x ?? 0),
  });
}

function pinnedGain({ record, t }: DeliverableContext): string {
  const items = (['h2d', 'd2h'] as const).flatMap((d) => {
    const pinned = best(record, `${d}-pinned-sync`);
    const pageable = best(record, `${d}-pageable-sync`);
    if (!pinned?.gbps || !pageable?.gbps) return [];
    return [t(`pdf.deliverable.transfer.a.pinnedItem.${d}`, { gain: formatTimes(pinned.gbps / pageable.gbps), pinned: rateCell(pinned), pageable: rateCell(pageable) })];
  });
  if (items.length === 0) return cannotAnswer(record, [...HOST_SERIES], t);
  return t('pdf.deliverable.transfer.a.pinned', { items: items.join('; ') });
}

function busShare({ record, t }: DeliverableContext): string {
  const top = best(record, 'h2d-pinned-sync');
  if (!top?.gbps) return cannotAnswer(record, ['h2d-pinned-sync'], t);
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
  const bus = best(record, 'h2d-pinned-sync');
  if (!d2d?.gbps || !bus?.gbps) return cannotAnswer(record, ['d2d', 'h2d-pinned-sync'], t);
  const share = shareOfPeak(d2d);
  const named = { d2d: rateCell(d2d), bus: rateCell(bus), ratio: formatTimes(d2d.gbps / 2 / bus.gbps) };
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

export const transferDeliverable: DeliverableBuilder = (context) => {
  const { record, lab, t } = context;
  // Each size's row of GPU Lab's host→device copies and, under it, PyTorch's at that size where the run has it.
  const h2dPeers = peersIn(context, Object.values(TORCH('h2d')));
  const sizes = [...new Set(record.points.filter((p) => p.series.startsWith('h2d-') && p.x !== null).map((p) => p.x ?? 0))].sort((a, b) => a - b);
  const copies = sizes.flatMap((x) => [
    copyRow(record, x, OURS('h2d'), formatBytes(x), t),
    ...(h2dPeers[0] && hasPoint(record, h2dPeers, x) ? [copyRow(record, x, TORCH('h2d'), peerCell(formatBytes(x), h2dPeers[0], t), t)] : []),
  ]);
  const d2hPeers = peersIn(context, Object.values(TORCH('d2h')));
  const directions = (['h2d', 'd2h'] as const).flatMap((d) => {
    const peers = d === 'h2d' ? h2dPeers : d2hPeers;
    const name = t(`pdf.deliverable.transfer.direction.${d}`);
    return [directionRow(record, OURS(d), name), ...(peers[0] ? [directionRow(record, TORCH(d), peerCell(name, peers[0], t))] : [])];
  });
  const d2d = best(record, 'd2d');
  const d2dHalf = halfPeak(record, 'd2d');
  directions.push({ cells: [labelOf(lab, 'd2d'), '—', rateCell(d2d), '—', d2dHalf ? formatBytes(d2dHalf.x ?? 0) : '—'] });
  const c = (key: string) => figure(t(`pdf.deliverable.transfer.columns.${key}`));
  return {
    source: t('pdf.deliverable.transfer.source'),
    tables: [
      {
        caption: t('pdf.deliverable.transfer.copiesCaption'),
        columns: [c('size'), c('pageableTime'), c('pageableRate'), c('pinnedTime'), c('pinnedRate'), c('gain')],
        rows: copies,
        notes: peerNotes(context, h2dPeers, waivedNotes(record, [...HOST_SERIES], t)),
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
