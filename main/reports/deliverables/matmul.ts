// matmul, seed 000: the notebook's table "method | time | speedup over the CPU", with the copies' overhead it works out
// after it, and its analysis as questions: the speedup with and without the copies, what the copies cost, how far
// the hand-written kernels are from cuBLAS, and how much of the GPU's peak each version reaches.
import { comparePoints } from '../../common/claims.ts';
import { formatBytes, formatMs, formatPercent, formatTimes } from '../../common/format.ts';
import { shareOfPeak } from '../../common/run-record.ts';
import type { Answer, DeliverableBuilder, DeliverableContext } from './common.ts';
import type { TableRow } from '../table.ts';
import { cannotAnswer, figure, labelOf, medianOf, peerCell, peerNotes, peersIn, pointAt, speedupOf, timeCell, timesCell, waivedNotes, wholeText, words } from './common.ts';

const GPU = ['gpu-transfers', 'gpu-cublas', 'gpu-tiled', 'gpu-naive'] as const;

function speedups({ record, t }: DeliverableContext): string {
  const cpu = pointAt(record, 'cpu-blas');
  const withCopies = pointAt(record, 'gpu-transfers');
  const resident = pointAt(record, 'gpu-cublas');
  const w = speedupOf(cpu, withCopies);
  const r = speedupOf(cpu, resident);
  if (w === null || r === null) return cannotAnswer(record, ['cpu-blas', 'gpu-transfers', 'gpu-cublas'], t);
  return t('pdf.deliverable.matmul.a.speedups', {
    cpu: formatMs(medianOf(cpu) ?? 0),
    withCopies: formatMs(medianOf(withCopies) ?? 0),
    withSpeedup: formatTimes(w),
    resident: formatMs(medianOf(resident) ?? 0),
    residentSpeedup: formatTimes(r),
  });
}

function overhead({ record, t }: DeliverableContext): string {
  const withCopies = pointAt(record, 'gpu-transfers');
  const w = medianOf(withCopies);
  const r = medianOf(pointAt(record, 'gpu-cublas'));
  if (w === null || r === null || !withCopies) return cannotAnswer(record, ['gpu-transfers', 'gpu-cublas'], t);
  return t('pdf.deliverable.matmul.a.overhead', {
    overhead: formatMs(w - r),
    withCopies: formatMs(w),
    resident: formatMs(r),
    share: formatPercent(Math.max(0, w - r) / w),
    factor: formatTimes(w / r),
    bytes: formatBytes(withCopies.work.bytes),
  });
}

function kernels({ record, t }: DeliverableContext): string {
  const cublas = pointAt(record, 'gpu-cublas');
  const tiled = pointAt(record, 'gpu-tiled');
  const naive = pointAt(record, 'gpu-naive');
  const tiledVsCublas = speedupOf(tiled, cublas);
  const tiledOverNaive = speedupOf(naive, tiled);
  if (tiledVsCublas === null || tiledOverNaive === null) return cannotAnswer(record, ['gpu-cublas', 'gpu-tiled', 'gpu-naive'], t);
  // Which of the two is faster only where the medians' intervals separate (common/claims.ts), as the lab's finding says.
  const order = comparePoints(cublas, tiled) ?? 'indistinguishable';
  return t(`pdf.deliverable.matmul.a.${order === 'faster' ? 'kernels' : order === 'slower' ? 'kernelsTiledWins' : 'kernelsTie'}`, {
    cublas: formatMs(medianOf(cublas) ?? 0),
    tiled: formatMs(medianOf(tiled) ?? 0),
    naive: formatMs(medianOf(naive) ?? 0),
    tiledOverNaive: formatTimes(tiledOverNaive),
    cublasOverTiled: formatTimes(tiledVsCublas),
  });
}

function peaks({ record, lab, t }: DeliverableContext): string {
  const shares = GPU.flatMap((series) => {
    const p = pointAt(record, series);
    const share = p ? shareOfPeak(p) : null;
    return share === null ? [] : [t('pdf.deliverable.matmul.a.peakItem', { series: labelOf(lab, series), share: formatPercent(share) })];
  });
  if (shares.length === 0) return cannotAnswer(record, [...GPU], t);
  return t('pdf.deliverable.matmul.a.peaks', { shares: shares.join('; ') });
}

export const matmulDeliverable: DeliverableBuilder = (context) => {
  const { record, lab, t } = context;
  const cpu = pointAt(record, 'cpu-blas');
  const rows = lab.series.filter((s) => !s.peer).map((s): TableRow => {
    const p = pointAt(record, s.key);
    const speedup = s.key === 'cpu-blas' ? { text: timesCell(medianOf(p) === null ? null : 1), note: t('pdf.deliverable.baseline') } : timesCell(speedupOf(cpu, p));
    return { cells: [s.label, timeCell(p, t), speedup] };
  });
  // The notebook's own rows (NumPy, PyTorch resident and with its copies), each over the same CPU baseline.
  const peers = peersIn(context);
  for (const s of peers) rows.push({ cells: [peerCell(s.label, s, t), timeCell(pointAt(record, s.key), t), timesCell(speedupOf(cpu, pointAt(record, s.key)))] });
  const answers: Answer[] = [
    { question: t('pdf.deliverable.matmul.q.speedups'), answer: speedups(context) },
    { question: t('pdf.deliverable.matmul.q.overhead'), answer: overhead(context) },
    { question: t('pdf.deliverable.matmul.q.kernels'), answer: kernels(context) },
    { question: t('pdf.deliverable.matmul.q.peaks'), answer: peaks(context) },
  ];
  return {
    source: t('pdf.deliverable.matmul.source'),
    tables: [
      {
        caption: t('pdf.deliverable.matmul.caption', { n: wholeText(record.params.n) }),
        columns: [words(t('pdf.deliverable.matmul.columns.method')), figure(t('pdf.deliverable.matmul.columns.time')), figure(t('pdf.deliverable.matmul.columns.speedup'))],
        rows,
        notes: peerNotes(context, peers, [
          t('pdf.deliverable.matmul.note', { cpu: cpu?.implementation ?? labelOf(lab, 'cpu-blas'), threads: wholeText(cpu?.threads) }),
          ...waivedNotes(record, [...GPU], t),
        ]),
      },
    ],
    answers,
  };
};
