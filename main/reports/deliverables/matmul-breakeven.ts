// matmul-breakeven, the course's "transfer against compute" benchmark: its printed columns (size, CPU time, GPU time with
// the copies, speedup, CPU GFLOP/s; not the article's GPU GFLOP/s with the copies, a time mostly the bus's) with the
// resident GPU beside them, and the article's lesson as
// questions: from which N the GPU wins with the copies, whether small matrices lose, how the copies' share changes
// with N (as measured), and where each side reaches its best rate.
import type { Translate } from '../../../renderer/charts/text.ts';
import { formatBreakEven, formatRate, formatSize, formatTimes, formatWhole } from '../../common/format.ts';
import type { PointResult, RunRecord } from '../../common/run-record.ts';
import type { DeliverableBuilder, DeliverableContext } from './common.ts';
import { cannotAnswer, figure, hasPoint, labelOf, peerCell, peerNotes, peersIn, pointAt, speedupOf, timeCell, timesCell, waivedNotes } from './common.ts';
import type { TableCell, TableRow } from '../table.ts';
import { compareTimes, estimateOf, timeRatio, trendOf } from '../../common/claims.ts';

const GPU = ['gpu-transfers', 'gpu-resident'] as const;
// A row's series: GPU Lab's, or the notebook's own in PyTorch (Python peers), each row read against its own CPU.
const OURS = { cpu: 'cpu', copies: 'gpu-transfers', resident: 'gpu-resident' };
const TORCH = { cpu: 'torch-cpu', copies: 'torch-transfers', resident: 'torch-resident' };
// The article's lesson: "for small matrices (< 500×500) the transfer overhead cancels the GPU's benefit".
const SMALL_N = 500;

const sizesOf = (record: RunRecord): number[] => [...new Set(record.points.filter((p) => p.series === 'cpu' && p.x !== null).map((p) => p.x ?? 0))].sort((a, b) => a - b);
const rate = (p: PointResult | undefined): string => (p && p.status === 'ok' && p.gflops !== null ? formatRate(p.gflops, 'GFLOP/s') : '—');
const value = (record: RunRecord, key: string): number | null => {
  const v = record.summary[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

function crossing({ record, t }: DeliverableContext): string {
  const size = value(record, 'gpu-transfers.breakEvenN');
  const atMost = value(record, 'gpu-transfers.breakEvenNAtMost');
  const above = value(record, 'gpu-transfers.breakEvenNAbove');
  if (size !== null) {
    const sizes = sizesOf(record);
    const below = sizes.filter((n) => n < size).at(-1);
    const over = sizes.find((n) => n > size);
    // Interpolated: two significant digits, and the range the medians' intervals allow where the lab found one.
    const low = value(record, 'gpu-transfers.breakEvenNLow');
    const high = value(record, 'gpu-transfers.breakEvenNHigh');
    const named = { n: formatBreakEven('matrix-n', size), below: below === undefined ? '?' : formatWhole(below), above: over === undefined ? '?' : formatWhole(over) };
    if (low !== null && high !== null && formatBreakEven('matrix-n', low) !== formatBreakEven('matrix-n', high)) {
      return t('pdf.deliverable.matmulBreakeven.a.crossingRange', { ...named, low: formatBreakEven('matrix-n', low), high: formatBreakEven('matrix-n', high) });
    }
    return t('pdf.deliverable.matmulBreakeven.a.crossing', named);
  }
  if (atMost !== null) return t('pdf.deliverable.matmulBreakeven.a.crossingAtMost', { n: formatSize('matrix-n', atMost) });
  if (above !== null) return t('pdf.deliverable.matmulBreakeven.a.crossingAbove', { n: formatSize('matrix-n', above) });
  return cannotAnswer(record, ['cpu', 'gpu-transfers'], t);
}

// Whether the copies cancel the GPU's gain under the article's limit, judged at each size from the two medians with
// their intervals; where the crossing lies under the limit, the answer says so rather than "yes".
function smallMatrices({ record, t }: DeliverableContext): string {
  const small = sizesOf(record).filter((n) => n < SMALL_N);
  if (small.length === 0) return t('pdf.deliverable.matmulBreakeven.a.smallNone', { limit: formatWhole(SMALL_N) });
  const measured = small.flatMap((n) => {
    const cpu = pointAt(record, 'cpu', n);
    const gpu = pointAt(record, 'gpu-transfers', n);
    const v = speedupOf(cpu, gpu);
    const a = estimateOf(gpu);
    const b = estimateOf(cpu);
    return v === null || !a || !b ? [] : [{ n, v, order: compareTimes(a, b) }];
  });
  if (measured.length === 0) return cannotAnswer(record, ['cpu', 'gpu-transfers'], t);
  const list = measured.map((s) => t('pdf.deliverable.matmulBreakeven.a.atN', { n: formatWhole(s.n), speedup: formatTimes(s.v) })).join(t('pdf.deliverable.listSeparator'));
  const crossing = value(record, 'gpu-transfers.breakEvenN');
  const slower = measured.every((s) => s.order === 'slower');
  const limit = formatWhole(SMALL_N);
  if (slower && crossing !== null && crossing < SMALL_N) return t('pdf.deliverable.matmulBreakeven.a.smallUntil', { limit, n: formatBreakEven('matrix-n', crossing), list });
  if (slower) return t('pdf.deliverable.matmulBreakeven.a.smallYes', { limit, list });
  if (measured.every((s) => s.order === 'faster')) return t('pdf.deliverable.matmulBreakeven.a.smallNo', { limit, list });
  if (measured.some((s) => s.order === 'faster') && measured.some((s) => s.order === 'slower')) return t('pdf.deliverable.matmulBreakeven.a.smallPartly', { limit, list });
  return t('pdf.deliverable.matmulBreakeven.a.smallUnclear', { limit, list });
}

// How the copies' weight changes with N, judged on the measured ratios (time with copies ÷ resident time) with their
// intervals, not on the theory of N² copies against N³ work.
function gap({ record, t }: DeliverableContext): string {
  const ratios = sizesOf(record).flatMap((n) => {
    const w = estimateOf(pointAt(record, 'gpu-transfers', n));
    const r = estimateOf(pointAt(record, 'gpu-resident', n));
    return w === null || r === null ? [] : [{ n, ratio: timeRatio(r, w) }];
  });
  const first = ratios[0];
  const last = ratios.at(-1);
  if (!first || !last || first === last) return cannotAnswer(record, [...GPU], t);
  const trend = trendOf(ratios.map((r) => r.ratio));
  const key = { grows: 'gapGrows', shrinks: 'gapShrinks', flat: 'gapFlat', mixed: 'gapMixed' }[trend];
  return t(`pdf.deliverable.matmulBreakeven.a.${key}`, { small: formatWhole(first.n), smallRatio: formatTimes(first.ratio.value), large: formatWhole(last.n), largeRatio: formatTimes(last.ratio.value) });
}

function bestRates({ record, lab, t }: DeliverableContext): string {
  const best = (series: string): PointResult | null =>
    record.points.filter((p) => p.series === series && p.status === 'ok' && p.gflops !== null).reduce<PointResult | null>((a, p) => ((p.gflops ?? 0) > (a?.gflops ?? -1) ? p : a), null);
  const items = ['cpu', ...GPU].flatMap((series) => {
    const p = best(series);
    return p ? [t('pdf.deliverable.matmulBreakeven.a.bestItem', { series: labelOf(lab, series), rate: formatRate(p.gflops ?? 0, 'GFLOP/s'), n: p.x === null ? '?' : formatWhole(p.x) })] : [];
  });
  if (items.length < 2) return cannotAnswer(record, [...GPU], t);
  return t('pdf.deliverable.matmulBreakeven.a.best', { items: items.join('; ') });
}

function columns(t: Translate) {
  const c = (key: string) => figure(t(`pdf.deliverable.matmulBreakeven.columns.${key}`));
  // No rate with the copies: that time is mostly the bus's, not the product's (plan-helpers.ts, unratedWhy).
  return [c('n'), c('cpu'), c('withCopies'), c('withSpeedup'), c('resident'), c('residentSpeedup'), c('cpuRate'), c('residentRate')];
}

export const matmulBreakevenDeliverable: DeliverableBuilder = (context) => {
  const { record, t } = context;
  const row = (n: number, series: typeof OURS, size: string | TableCell): TableRow => {
    const cpu = pointAt(record, series.cpu, n);
    const copies = pointAt(record, series.copies, n);
    const resident = pointAt(record, series.resident, n);
    return {
      cells: [size, timeCell(cpu, t), timeCell(copies, t), timesCell(speedupOf(cpu, copies)), timeCell(resident, t), timesCell(speedupOf(cpu, resident)), rate(cpu), rate(resident)],
    };
  };
  // Each N's row and, under it, PyTorch's at that N where the run has it.
  const peers = peersIn(context, Object.values(TORCH));
  const rows = sizesOf(record).flatMap((n) => [row(n, OURS, formatWhole(n)), ...(peers[0] && hasPoint(record, peers, n) ? [row(n, TORCH, peerCell(formatWhole(n), peers[0], t))] : [])]);
  return {
    source: t('pdf.deliverable.matmulBreakeven.source'),
    tables: [{ caption: t('pdf.deliverable.matmulBreakeven.caption'), columns: columns(t), rows, notes: peerNotes(context, peers, waivedNotes(record, [...GPU], t)) }],
    answers: [
      { question: t('pdf.deliverable.matmulBreakeven.q.crossing'), answer: crossing(context) },
      { question: t('pdf.deliverable.matmulBreakeven.q.small', { limit: formatWhole(SMALL_N) }), answer: smallMatrices(context) },
      { question: t('pdf.deliverable.matmulBreakeven.q.gap'), answer: gap(context) },
      { question: t('pdf.deliverable.matmulBreakeven.q.best'), answer: bestRates(context) },
    ],
  };
};
