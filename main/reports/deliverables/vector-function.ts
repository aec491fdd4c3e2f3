// vector-function, seed 001: the notebook's tables "scenario | time | speedup over the CPU | copy overhead", with the
// speedup over one CPU thread (the notebook's Numba loop) and over every thread (the app's baseline) side by side,
// and its analysis as questions: does the GPU win once the copies count, what the copies cost, what fusion gains,
// what the threads gain, and when the GPU is worth it for this function.
import { comparePoints as order } from '../../common/claims.ts';
import { formatMs, formatPercent, formatRate, formatTimes } from '../../common/format.ts';
import { shareOfPeak } from '../../common/run-record.ts';
import type { DeliverableBuilder, DeliverableContext } from './common.ts';
import type { TableCell, TableRow } from '../table.ts';
import { cannotAnswer, figure, medianOf, peerCell, peerNotes, peersIn, pointAt, speedupOf, speedupText, timeCell, timesCell, waivedNotes, wholeText, words } from './common.ts';
import { cacheClause } from '../../labs/analysis.ts';
import { labMessage } from '../../labs/lab-text.ts';

const GPU = ['gpu-transfers', 'gpu-unfused', 'gpu-fused'] as const;
// The copy overhead of a series with the copies: its time less that of the same code with the data already on the GPU
// (the notebook works it out for CuPy too).
const WITHOUT_COPIES: Record<string, string> = { 'gpu-transfers': 'gpu-fused', 'cupy-copies': 'cupy-notebook' };

function copiesVsCpu({ record, t }: DeliverableContext): string {
  const single = pointAt(record, 'cpu-single');
  const threads = pointAt(record, 'cpu-threads');
  const copies = pointAt(record, 'gpu-transfers');
  const overOne = speedupOf(single, copies);
  const overAll = speedupOf(threads, copies);
  if (overOne === null || overAll === null) return cannotAnswer(record, ['cpu-single', 'cpu-threads', 'gpu-transfers'], t);
  const named = {
    copies: formatMs(medianOf(copies) ?? 0),
    single: formatMs(medianOf(single) ?? 0),
    threads: formatMs(medianOf(threads) ?? 0),
    overOne: formatTimes(overOne),
    overAll: formatTimes(overAll),
  };
  const vsAll = order(copies, threads);
  const vsOne = order(copies, single);
  if (vsAll === 'faster') return t('pdf.deliverable.vectorFunction.a.copiesWin', named);
  if (vsOne === 'faster' && vsAll === 'slower') return t('pdf.deliverable.vectorFunction.a.copiesBeatOne', named);
  if (vsOne === 'slower' && vsAll === 'slower') return t('pdf.deliverable.vectorFunction.a.copiesLose', named);
  return t('pdf.deliverable.vectorFunction.a.copiesTie', named);
}

function copyCost({ record, t }: DeliverableContext): string {
  const w = medianOf(pointAt(record, 'gpu-transfers'));
  const r = medianOf(pointAt(record, 'gpu-fused'));
  if (w === null || r === null) return cannotAnswer(record, ['gpu-transfers', 'gpu-fused'], t);
  return t('pdf.deliverable.vectorFunction.a.copyCost', {
    overhead: formatMs(w - r),
    withCopies: formatMs(w),
    resident: formatMs(r),
    share: formatPercent(Math.max(0, w - r) / w),
    factor: formatTimes(w / r),
  });
}

function fusion({ record, t }: DeliverableContext): string {
  const unfused = pointAt(record, 'gpu-unfused');
  const fused = pointAt(record, 'gpu-fused');
  const gain = speedupOf(unfused, fused);
  if (gain === null || !fused?.gbps) return cannotAnswer(record, ['gpu-unfused', 'gpu-fused'], t);
  const share = shareOfPeak(fused);
  const named = { gain: formatTimes(gain), fused: formatMs(medianOf(fused) ?? 0), unfused: formatMs(medianOf(unfused) ?? 0), rate: formatRate(fused.gbps, 'GB/s') };
  const o = order(fused, unfused);
  if (o === 'slower') return t('pdf.deliverable.vectorFunction.a.fusionSlower', named);
  if (o !== 'faster') return t('pdf.deliverable.vectorFunction.a.fusionNone', named);
  return share === null ? t('pdf.deliverable.vectorFunction.a.fusion', named) : t('pdf.deliverable.vectorFunction.a.fusionPeak', { ...named, share: formatPercent(share) });
}

function threadsGain({ record, lab, t }: DeliverableContext): string {
  const single = pointAt(record, 'cpu-single');
  const threads = pointAt(record, 'cpu-threads');
  const gain = speedupOf(single, threads);
  if (gain === null) return cannotAnswer(record, ['cpu-single', 'cpu-threads'], t);
  const o = order(threads, single);
  // A rate above the memory bandwidth measured on this CPU says where the arrays sat (labs/analysis.ts, cacheClause).
  const cpu = record.environment.devices?.devices.find((d) => d.kind === 'cpu') ?? null;
  const cache = cacheClause(threads, cpu);
  return t(`pdf.deliverable.vectorFunction.a.${o === 'faster' ? 'threads' : o === 'slower' ? 'threadsSlower' : 'threadsFlat'}`, {
    gain: speedupText(single, threads, lab) ?? formatTimes(gain),
    cache: cache === '' ? '' : labMessage(cache, lab.locale ?? 'en'),
    threads: wholeText(threads?.threads),
    single: formatMs(medianOf(single) ?? 0),
    all: formatMs(medianOf(threads) ?? 0),
    singleRate: formatRate(single?.gbps ?? 0, 'GB/s'),
    allRate: formatRate(threads?.gbps ?? 0, 'GB/s'),
  });
}

function worthIt({ record, t }: DeliverableContext): string {
  const threads = pointAt(record, 'cpu-threads');
  const resident = speedupOf(threads, pointAt(record, 'gpu-fused'));
  const copies = speedupOf(threads, pointAt(record, 'gpu-transfers'));
  if (resident === null || copies === null) return cannotAnswer(record, ['cpu-threads', 'gpu-fused', 'gpu-transfers'], t);
  const named = { resident: formatTimes(resident), copies: formatTimes(copies) };
  const withCopies = order(pointAt(record, 'gpu-transfers'), threads);
  const residentOrder = order(pointAt(record, 'gpu-fused'), threads);
  if (withCopies === 'faster') return t('pdf.deliverable.vectorFunction.a.worthAlways', named);
  if (withCopies === 'slower' && residentOrder === 'faster') return t('pdf.deliverable.vectorFunction.a.worthResident', named);
  if (withCopies === 'slower' && residentOrder === 'slower') return t('pdf.deliverable.vectorFunction.a.worthNever', named);
  return t('pdf.deliverable.vectorFunction.a.worthTie', named);
}

export const vectorFunctionDeliverable: DeliverableBuilder = (context) => {
  const { record, lab, t } = context;
  const single = pointAt(record, 'cpu-single');
  const threads = pointAt(record, 'cpu-threads');
  const row = (label: string | TableCell, key: string): TableRow => {
    const p = pointAt(record, key);
    const withMs = medianOf(p);
    const withoutMs = medianOf(pointAt(record, WITHOUT_COPIES[key] ?? ''));
    const overhead =
      withMs !== null && withoutMs !== null
        ? { text: formatMs(withMs - withoutMs), note: t('pdf.deliverable.vectorFunction.slower', { factor: formatTimes(withMs / withoutMs) }) }
        : '—';
    return { cells: [label, timeCell(p, t), timesCell(speedupOf(single, p)), timesCell(speedupOf(threads, p)), overhead] };
  };
  // GPU Lab's scenarios, then the notebook's own (NumPy, Numba, CuPy) where the run has them.
  const peers = peersIn(context);
  const rows = [...lab.series.filter((s) => !s.peer).map((s) => row(s.label, s.key)), ...peers.map((s) => row(peerCell(s.label, s, t), s.key))];
  const cupyOverhead = medianOf(pointAt(record, 'cupy-copies')) !== null && medianOf(pointAt(record, 'cupy-notebook')) !== null;
  return {
    source: t('pdf.deliverable.vectorFunction.source'),
    tables: [
      {
        caption: t('pdf.deliverable.vectorFunction.caption', { elements: wholeText(record.params.elements) }),
        columns: [
          words(t('pdf.deliverable.vectorFunction.columns.scenario')),
          figure(t('pdf.deliverable.vectorFunction.columns.time')),
          figure(t('pdf.deliverable.vectorFunction.columns.overOne')),
          figure(t('pdf.deliverable.vectorFunction.columns.overAll', { threads: wholeText(threads?.threads) })),
          figure(t('pdf.deliverable.vectorFunction.columns.overhead')),
        ],
        rows,
        notes: peerNotes(context, peers, [t('pdf.deliverable.vectorFunction.note'), ...(cupyOverhead ? [t('pdf.deliverable.vectorFunction.peerOverhead')] : []), ...waivedNotes(record, [...GPU], t)]),
      },
    ],
    answers: [
      { question: t('pdf.deliverable.vectorFunction.q.copiesVsCpu'), answer: copiesVsCpu(context) },
      { question: t('pdf.deliverable.vectorFunction.q.copyCost'), answer: copyCost(context) },
      { question: t('pdf.deliverable.vectorFunction.q.fusion'), answer: fusion(context) },
      { question: t('pdf.deliverable.vectorFunction.q.threads'), answer: threadsGain(context) },
      { question: t('pdf.deliverable.vectorFunction.q.worthIt'), answer: worthIt(context) },
    ],
  };
};
