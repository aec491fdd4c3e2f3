// matmul-breakeven, the course's "transfer against compute" benchmark: its printed columns (size, CPU time, GPU time with
// the copies, speedup, CPU GFLOP/s; not the article's GPU GFLOP/s with the copies, a time mostly the bus's) with the
// resident GPU beside them, GPU Lab's rows and the article's own code in PyTorch each read against its own CPU; and the
// article's lesson as questions, answered against the fastest CPU series the run measured (GPU Lab's BLAS or
// PyTorch's, named) with the other beside it: from which N the GPU wins with the copies (to two significant digits,
// with the range the medians' intervals allow), whether small matrices lose, how the copies' share changes with N (as
// measured), and where each side reaches its best rate. Where the app's measurement differs from the article's, the
// table's note says so.
import type { Translate } from '../../common/pure/charts/text.ts';
import { formatBreakEven, formatRate, formatSize, formatTimes, formatWhole } from '../../common/pure/format.ts';
import type { PointResult, RunRecord } from '../../common/run-record.ts';
import type { DeliverableBuilder, DeliverableContext } from './common.ts';
import { baselineName, cannotAnswer, fastestCpu, figure, hasPoint, labelOf, peerCell, peerNotes, peersIn, pointAt, seriesName, speedupOf, timeCell, timesCell, waivedNotes, type Baseline, type CpuSide } from './common.ts';
import type { TableCell, TableRow } from '../table.ts';
import { compareTimes, estimateOf, speedupRange, timeRatio, trendOf } from '../../common/pure/claims.ts';
import { breakEven, speedupCurve } from '../../labs/analysis.ts';

const GPU = ['gpu-transfers', 'gpu-resident'] as const;
// A row's series: GPU Lab's, or the notebook's own in PyTorch (Python peers), each row read against its own CPU.
const OURS = { cpu: 'cpu', copies: 'gpu-transfers', resident: 'gpu-resident' };
const TORCH = { cpu: 'torch-cpu', copies: 'torch-transfers', resident: 'torch-resident' };
// The GPU with the copies: GPU Lab's cuBLAS, then the article's PyTorch.
const WITH_COPIES = [OURS.copies, TORCH.copies] as const;
// The article's lesson: "for small matrices (< 500×500) the transfer overhead cancels the GPU's benefit".
const SMALL_N = 500;

const sizesOf = (record: RunRecord): number[] => [...new Set(record.points.filter((p) => p.series === 'cpu' && p.x !== null).map((p) => p.x ?? 0))].sort((a, b) => a - b);
const rate = (p: PointResult | undefined): string => (p && p.status === 'ok' && p.gflops !== null ? formatRate(p.gflops, 'GFLOP/s') : '—');

// The CPU side of the break-even: the fastest CPU series the run measured, the others beside it (common.ts, fastestCpu).
const cpuSide = (context: DeliverableContext): CpuSide | null => fastestCpu(context, context.lab.series.filter((s) => s.deviceKind === 'cpu').map((s) => s.key), TORCH.cpu);

// A CPU series named as the course's or as GPU Lab's own.
const cpuName = (context: DeliverableContext, b: Baseline): string => baselineName(context, b, b.key === TORCH.cpu);

// Where one GPU series with the copies overtakes one CPU series, interpolated on log-log axes between measured sizes:
// to two significant digits, and with where it can lie within the medians' intervals (the crossings of the most and
// the least favourable speedups, common/pure/claims.ts speedupRange) where those two differ at that precision.
function crossingItem(context: DeliverableContext, cpu: string, gpu: string): string | null {
  const { record, t } = context;
  const curve = speedupCurve(record.points, cpu, gpu);
  const b = breakEven(curve, 1);
  const series = seriesName(context, gpu);
  if (b.kind === 'between') {
    const below = curve.x.filter((n) => n < b.size).at(-1);
    const above = curve.x.find((n) => n > b.size);
    const named = { series, n: formatBreakEven('matrix-n', b.size), below: below === undefined ? '?' : formatWhole(below), above: above === undefined ? '?' : formatWhole(above) };
    const range = speedupRange(record.points, cpu, gpu);
    const earliest = breakEven(range.high, 1);
    const latest = breakEven(range.low, 1);
    if (earliest.kind === 'between' && latest.kind === 'between') {
      const [low, high] = [formatBreakEven('matrix-n', earliest.size), formatBreakEven('matrix-n', latest.size)];
      if (low !== high) return t('pdf.deliverable.matmulBreakeven.a.crossingRangeItem', { ...named, low, high });
    }
    return t('pdf.deliverable.matmulBreakeven.a.crossingItem', named);
  }
  if (b.kind === 'below-range') return t('pdf.deliverable.matmulBreakeven.a.crossingAtMostItem', { series, n: formatSize('matrix-n', b.size) });
  if (b.kind === 'never') return t('pdf.deliverable.matmulBreakeven.a.crossingAboveItem', { series, n: formatSize('matrix-n', curve.x.at(-1) ?? b.at) });
  return null;
}

function bestCpuRate(record: RunRecord, key: string): string {
  const best = record.points.filter((p) => p.series === key && p.status === 'ok' && p.gflops !== null).reduce((a, p) => Math.max(a, p.gflops ?? 0), 0);
  return formatRate(best, 'GFLOP/s');
}

// The answer's opening against each CPU series: the fastest first (saying why the course's gave no figure where it did
// not), then the others beside it.
function perCpu(context: DeliverableContext, side: CpuSide, body: (cpu: Baseline) => string | null): string | null {
  const { record, t } = context;
  const first = body(side.fastest);
  if (first === null) return null;
  const named = { cpu: cpuName(context, side.fastest), rate: bestCpuRate(record, side.fastest.key), items: first };
  const lead = side.courseWhy === null ? t('pdf.deliverable.matmulBreakeven.a.againstFastest', named) : t('pdf.deliverable.matmulBreakeven.a.againstFastestOwn', { ...named, course: labelOf(context.lab, TORCH.cpu), why: side.courseWhy });
  const beside = side.others.flatMap((cpu) => {
    const text = body(cpu);
    return text === null ? [] : [t('pdf.deliverable.matmulBreakeven.a.againstOther', { cpu: cpuName(context, cpu), rate: bestCpuRate(record, cpu.key), items: text })];
  });
  return [lead, ...beside].join(' ');
}

function crossing(context: DeliverableContext): string {
  const { record, t } = context;
  const side = cpuSide(context);
  const text = side && perCpu(context, side, (cpu) => {
    const items = WITH_COPIES.flatMap((gpu) => crossingItem(context, cpu.key, gpu) ?? []);
    return items.length > 0 ? items.join(t('pdf.deliverable.against.itemSeparator')) : null;
  });
  return text ?? cannotAnswer(record, ['cpu', 'gpu-transfers'], t);
}

// Whether the copies cancel one GPU series' gain over one CPU series under the article's limit, judged at each size
// from the two medians with their intervals; where the crossing lies under the limit, the answer says so, not "yes".
function smallItem(context: DeliverableContext, cpu: string, gpu: string): string | null {
  const { record, t } = context;
  const small = sizesOf(record).filter((n) => n < SMALL_N);
  const measured = small.flatMap((n) => {
    const c = pointAt(record, cpu, n);
    const g = pointAt(record, gpu, n);
    const v = speedupOf(c, g);
    const a = estimateOf(g);
    const b = estimateOf(c);
    return v === null || !a || !b ? [] : [{ n, v, order: compareTimes(a, b) }];
  });
  if (measured.length === 0) return null;
  const list = measured.map((s) => t('pdf.deliverable.matmulBreakeven.a.atN', { n: formatWhole(s.n), speedup: formatTimes(s.v) })).join(t('pdf.deliverable.listSeparator'));
  const b = breakEven(speedupCurve(record.points, cpu, gpu), 1);
  const named = { gpu: seriesName(context, gpu), limit: formatWhole(SMALL_N), list };
  const slower = measured.every((s) => s.order === 'slower');
  if (slower && b.kind === 'between' && b.size < SMALL_N) return t('pdf.deliverable.matmulBreakeven.a.smallUntil', { ...named, n: formatBreakEven('matrix-n', b.size) });
  if (slower) return t('pdf.deliverable.matmulBreakeven.a.smallYes', named);
  if (measured.every((s) => s.order === 'faster')) return t('pdf.deliverable.matmulBreakeven.a.smallNo', named);
  if (measured.some((s) => s.order === 'faster') && measured.some((s) => s.order === 'slower')) return t('pdf.deliverable.matmulBreakeven.a.smallPartly', named);
  return t('pdf.deliverable.matmulBreakeven.a.smallUnclear', named);
}

function smallMatrices(context: DeliverableContext): string {
  const { record, t } = context;
  if (!sizesOf(record).some((n) => n < SMALL_N)) return t('pdf.deliverable.matmulBreakeven.a.smallNone', { limit: formatWhole(SMALL_N) });
  const side = cpuSide(context);
  const text = side && perCpu(context, side, (cpu) => {
    const items = WITH_COPIES.flatMap((gpu) => smallItem(context, cpu.key, gpu) ?? []);
    return items.length > 0 ? items.join(t('pdf.deliverable.against.itemSeparator')) : null;
  });
  return text ?? cannotAnswer(record, ['cpu', 'gpu-transfers'], t);
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

function bestRates(context: DeliverableContext): string {
  const { record, lab, t } = context;
  const best = (series: string): PointResult | null =>
    record.points.filter((p) => p.series === series && p.status === 'ok' && p.gflops !== null).reduce<PointResult | null>((a, p) => ((p.gflops ?? 0) > (a?.gflops ?? -1) ? p : a), null);
  // Every series the run measured, the article's PyTorch beside GPU Lab's: the CPU side's best is where they differ most.
  const items = lab.series.map((s) => s.key).flatMap((series) => {
    const p = best(series);
    return p ? [t('pdf.deliverable.matmulBreakeven.a.bestItem', { series: seriesName(context, series), rate: formatRate(p.gflops ?? 0, 'GFLOP/s'), n: p.x === null ? '?' : formatWhole(p.x) })] : [];
  });
  if (items.length < 2) return cannotAnswer(record, [...GPU], t);
  return t('pdf.deliverable.matmulBreakeven.a.best', { items: items.join('; ') });
}

function columns(t: Translate) {
  const c = (key: string) => figure(t(`pdf.deliverable.matmulBreakeven.columns.${key}`));
  // No rate with the copies: that time is mostly the bus's, not the product's (plan-helpers.ts, unratedWhy).
  return [c('n'), c('cpu'), c('withCopies'), c('withSpeedup'), c('resident'), c('residentSpeedup'), c('cpuRate'), c('residentRate')];
}

// Under the table: what each row's speedups are over, which CPU the answers read the GPU against and why, and where the
// app measures otherwise than the article.
function tableNotes(context: DeliverableContext): string[] {
  const { lab, t } = context;
  const side = cpuSide(context);
  const other = side?.others[0];
  const fastest = !side
    ? []
    : side.ratio !== null && other
      ? [t('pdf.deliverable.matmulBreakeven.fastestNote', { cpu: cpuName(context, side.fastest), other: cpuName(context, other), ratio: formatTimes(side.ratio) })]
      : [t('pdf.deliverable.matmulBreakeven.onlyCpuNote', { cpu: cpuName(context, side.fastest) })];
  const course = side?.courseWhy ? [t('pdf.deliverable.matmulBreakeven.courseCpuNote', { course: labelOf(lab, TORCH.cpu), why: side.courseWhy })] : [];
  return [t('pdf.deliverable.matmulBreakeven.rowsNote'), ...fastest, ...course, t('pdf.deliverable.matmulBreakeven.articleNote')];
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
    tables: [{ caption: t('pdf.deliverable.matmulBreakeven.caption'), columns: columns(t), rows, notes: peerNotes(context, peers, [...tableNotes(context), ...waivedNotes(record, [...GPU], t)]) }],
    answers: [
      { question: t('pdf.deliverable.matmulBreakeven.q.crossing'), answer: crossing(context) },
      { question: t('pdf.deliverable.matmulBreakeven.q.small', { limit: formatWhole(SMALL_N) }), answer: smallMatrices(context) },
      { question: t('pdf.deliverable.matmulBreakeven.q.gap'), answer: gap(context) },
      { question: t('pdf.deliverable.matmulBreakeven.q.best'), answer: bestRates(context) },
    ],
  };
};
