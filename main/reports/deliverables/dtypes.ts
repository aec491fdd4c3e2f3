// dtypes, seed 003's "dtypes: precision against memory against speed": the article's table of types with what the run
// measured in place of its canned columns (bits, the memory of one N×N matrix, GEMM throughput, speedup over fp32,
// relative error against float64), and its lessons as questions: what each type saves in memory, which is fastest,
// what the speed costs in accuracy, and what fp64 costs against fp32.
import type { Translate } from '../../common/pure/charts/text.ts';
import { formatBytes, formatRate, formatRelativeError, formatTimes } from '../../common/pure/format.ts';
import type { PointResult, RunRecord } from '../../common/run-record.ts';
import type { DeliverableBuilder, DeliverableContext } from './common.ts';
import { cannotAnswer, figure, peerCell, peerNotes, peersIn, speedupOf, waivedNotes, wholeText, words } from './common.ts';
import type { TableCell, TableRow } from '../table.ts';

const dtypesOf = (record: RunRecord): string[] => {
  const d = record.params.dtypes;
  return Array.isArray(d) ? d.map(String) : [];
};
const sizeOf = (record: RunRecord): number => (typeof record.params.n === 'number' ? record.params.n : 0);
const footprint = (record: RunRecord, dtype: string): number | null => {
  const v = record.summary[`${dtype}.footprintBytes`];
  return typeof v === 'number' ? v : null;
};
// `side`: the series, cpu or gpu, or a Python peer's (torch), whose points are keyed by type alike ("torch-fp16").
const pointOf = (record: RunRecord, side: string, dtype: string): PointResult | undefined => record.points.find((p) => p.key === `${side}-${dtype}`);
const measured = (p: PointResult | undefined): boolean => p !== undefined && p.status === 'ok' && p.gflops !== null;

function rateText(p: PointResult | undefined, dtype: string, t: Translate): string {
  if (!p) return '—';
  if (!measured(p)) return t(`results.status.${p.status}`);
  return formatRate(p.gflops ?? 0, dtype === 'int8' ? 'GOP/s' : 'GFLOP/s');
}

const errorText = (p: PointResult | undefined): string => (p?.status === 'ok' && p.verification ? formatRelativeError(p.verification.relativeError) : '—');

function memory({ record, t }: DeliverableContext): string {
  const base = footprint(record, 'fp32');
  if (base === null || base <= 0) return t('pdf.deliverable.dtypes.a.memoryNoFp32');
  const items = dtypesOf(record)
    .filter((d) => d !== 'fp32')
    .map((d) => t('pdf.deliverable.dtypes.a.memoryItem', { dtype: d, bytes: formatBytes(footprint(record, d) ?? 0), ratio: formatTimes((footprint(record, d) ?? 0) / base) }));
  return t('pdf.deliverable.dtypes.a.memory', { n: wholeText(sizeOf(record)), fp32: formatBytes(base), items: items.join(t('pdf.deliverable.listSeparator')) });
}

function fastest({ record, t }: DeliverableContext): string {
  const gpu = dtypesOf(record).map((d) => ({ d, p: pointOf(record, 'gpu', d) })).filter((x) => measured(x.p));
  const fp32 = pointOf(record, 'gpu', 'fp32');
  if (gpu.length === 0 || !measured(fp32)) return cannotAnswer(record, ['gpu'], t);
  const top = gpu.reduce((a, b) => ((b.p?.gflops ?? 0) > (a.p?.gflops ?? 0) ? b : a));
  return t('pdf.deliverable.dtypes.a.fastest', {
    dtype: top.d,
    rate: rateText(top.p, top.d, t),
    ratio: formatTimes(speedupOf(fp32, top.p) ?? 1),
    fp32: rateText(fp32, 'fp32', t),
  });
}

function accuracy({ record, t }: DeliverableContext): string {
  const items = dtypesOf(record).flatMap((d) => {
    const p = pointOf(record, 'gpu', d);
    return p?.status === 'ok' && p.verification ? [t('pdf.deliverable.dtypes.a.accuracyItem', { dtype: d, error: formatRelativeError(p.verification.relativeError) })] : [];
  });
  if (items.length === 0) return cannotAnswer(record, ['gpu'], t);
  return t('pdf.deliverable.dtypes.a.accuracy', { items: items.join(t('pdf.deliverable.listSeparator')) });
}

function doublePrecision({ record, t }: DeliverableContext): string {
  const sides = (['cpu', 'gpu'] as const).flatMap((side) => {
    const ratio = speedupOf(pointOf(record, side, 'fp64'), pointOf(record, side, 'fp32'));
    return ratio === null ? [] : [t(`pdf.deliverable.dtypes.a.fp64Item.${side}`, { ratio: formatTimes(ratio) })];
  });
  if (sides.length === 0) return cannotAnswer(record, ['cpu', 'gpu'], t);
  return t('pdf.deliverable.dtypes.a.fp64', { items: sides.join('; ') });
}

export const dtypesDeliverable: DeliverableBuilder = (context) => {
  const { record, t } = context;
  const n = sizeOf(record);
  // Each type's row and, under it, the notebook's own in PyTorch (a Python peer) where the run has it: its rate over
  // its own fp32, and no CPU columns.
  const peers = peersIn(context);
  const row = (d: string, side: string, type: string | TableCell, cpu: PointResult | undefined): TableRow => {
    const bytes = footprint(record, d);
    const gpu = pointOf(record, side, d);
    return {
      cells: [
        type,
        bytes === null || n === 0 ? '—' : String((bytes / (n * n)) * 8),
        bytes === null ? '—' : formatBytes(bytes),
        rateText(gpu, d, t),
        d === 'fp32' || !measured(gpu) ? '—' : formatTimes(speedupOf(pointOf(record, side, 'fp32'), gpu) ?? 0),
        errorText(gpu),
        cpu ? rateText(cpu, d, t) : '—',
        errorText(cpu),
      ],
    };
  };
  const rows = dtypesOf(record).flatMap((d) => [
    row(d, 'gpu', d, pointOf(record, 'cpu', d)),
    ...peers.flatMap((s) => (pointOf(record, s.key, d) ? [row(d, s.key, peerCell(d, s, t), undefined)] : [])),
  ]);
  const c = (key: string) => figure(t(`pdf.deliverable.dtypes.columns.${key}`));
  return {
    source: t('pdf.deliverable.dtypes.source'),
    tables: [
      {
        caption: t('pdf.deliverable.dtypes.caption', { n: wholeText(n) }),
        columns: [words(t('pdf.deliverable.dtypes.columns.dtype')), c('bits'), c('matrix'), c('gpuRate'), c('overFp32'), c('gpuError'), c('cpuRate'), c('cpuError')],
        rows,
        notes: peerNotes(context, peers, [t('pdf.deliverable.dtypes.note'), ...waivedNotes(record, ['gpu'], t)]),
      },
    ],
    answers: [
      { question: t('pdf.deliverable.dtypes.q.memory'), answer: memory(context) },
      { question: t('pdf.deliverable.dtypes.q.fastest'), answer: fastest(context) },
      { question: t('pdf.deliverable.dtypes.q.accuracy'), answer: accuracy(context) },
      { question: t('pdf.deliverable.dtypes.q.fp64'), answer: doublePrecision(context) },
    ],
  };
};
