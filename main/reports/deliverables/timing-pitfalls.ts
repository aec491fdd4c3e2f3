// timing-pitfalls, seed 003's "common pitfalls": each mistake as a row "pitfall | timed wrongly | timed rightly |
// wrong ÷ right", and the article's three pitfalls as questions: forgetting to synchronise, comparing with one CPU
// thread, and timing a cold first call.
import { comparePoints, estimateOf, withinSpread } from '../../common/pure/claims.ts';
import { formatMs, formatTimes } from '../../common/pure/format.ts';
import type { DeliverableBuilder, DeliverableContext } from './common.ts';
import { cannotAnswer, figure, labelOf, medianOf, peerCell, peerNotes, peersIn, pointAt, speedupText, timeCell, timesCell, waivedNotes, wholeText, words } from './common.ts';
import type { TableRow } from '../table.ts';
import { pointText } from '../../labs/lab-text.ts';

const PAIRS = [
  { id: 'sync', wrong: 'gpu-no-sync', right: 'gpu-events' },
  { id: 'gpuCold', wrong: 'gpu-cold', right: 'gpu-warm' },
  { id: 'cpuCold', wrong: 'cpu-cold', right: 'cpu-warm' },
  { id: 'threads', wrong: 'cpu-one-thread', right: 'cpu-all-threads' },
] as const;
// The notebook's own pitfalls in PyTorch (Python peers), under GPU Lab's row of the same pitfall: no synchronize
// against CUDA events and against time.time() after a synchronize, a cold first call against warmed ones.
const PEER_PAIRS = [
  { id: 'sync', wrong: 'torch-no-sync', right: 'torch-events' },
  { id: 'sync', wrong: 'torch-no-sync', right: 'torch-time-time' },
  { id: 'gpuCold', wrong: 'torch-cold', right: 'torch-warm' },
] as const;

function unsynchronised({ record, t }: DeliverableContext): string {
  const w = medianOf(pointAt(record, 'gpu-no-sync'));
  const r = medianOf(pointAt(record, 'gpu-events'));
  if (w === null || r === null) return cannotAnswer(record, ['gpu-no-sync', 'gpu-events'], t);
  return t('pdf.deliverable.timingPitfalls.a.sync', { wrong: formatMs(w), right: formatMs(r), factor: formatTimes(r / w) });
}

// A cold call against the warmed samples, as the lab's own finding decides (common/pure/claims.ts): within their spread only
// where it lies between the fastest and the slowest of them, faster than all of them, or slower than every one of them
// (a one-time cost, however small).
function coldText(context: DeliverableContext, cold: string, warm: string, side: 'gpu' | 'cpu'): string | null {
  const { record, t } = context;
  const c = medianOf(pointAt(record, cold));
  const warmPoint = pointAt(record, warm);
  const e = estimateOf(warmPoint);
  if (c === null || !e) return null;
  const named = { cold: formatMs(c), warm: formatMs(e.median), extra: formatMs(c - e.median), ratio: formatTimes(c / e.median), min: formatMs(e.min), max: formatMs(e.max) };
  const kind = withinSpread(c, e) ? 'coldWithin' : c < e.min ? 'coldBelow' : 'cold';
  return t(`pdf.deliverable.timingPitfalls.a.${kind}.${side}`, named);
}

function cold(context: DeliverableContext): string {
  const parts = [coldText(context, 'gpu-cold', 'gpu-warm', 'gpu'), coldText(context, 'cpu-cold', 'cpu-warm', 'cpu')].filter((p): p is string => p !== null);
  if (parts.length === 0) return cannotAnswer(context.record, ['gpu-cold', 'cpu-cold'], context.t);
  const missing = medianOf(pointAt(context.record, 'gpu-cold')) === null ? [cannotAnswer(context.record, ['gpu-cold', 'gpu-warm'], context.t)] : [];
  return [...parts, ...missing].join(' ');
}

function oneThread({ record, lab, t }: DeliverableContext): string {
  const one = pointAt(record, 'cpu-one-thread');
  const all = pointAt(record, 'cpu-all-threads');
  const w = medianOf(one);
  const r = medianOf(all);
  // As the lab's finding decides (common/pure/claims.ts): faster or slower only where the medians' intervals separate.
  const order = comparePoints(all, one);
  if (w === null || r === null || order === null) return cannotAnswer(record, ['cpu-one-thread', 'cpu-all-threads'], t);
  const kind = order === 'faster' ? 'threads' : order === 'slower' ? 'threadsSlower' : 'threadsFlat';
  return t(`pdf.deliverable.timingPitfalls.a.${kind}`, {
    one: formatMs(w),
    all: formatMs(r),
    threads: wholeText(all?.threads),
    // With the range the two medians' intervals allow where it is wide: two noisy points give no sharper factor.
    factor: speedupText(one, all, lab) ?? formatTimes(w / r),
  });
}

export const timingPitfallsDeliverable: DeliverableBuilder = (context) => {
  const { record, lab, t } = context;
  const row = (pair: { id: string; wrong: string; right: string }, pitfall: TableRow['cells'][number]): TableRow => {
    const wrong = pointAt(record, pair.wrong);
    const right = pointAt(record, pair.right);
    const w = medianOf(wrong);
    const r = medianOf(right);
    return {
      cells: [
        pitfall,
        { text: timeCell(wrong, t), note: wrong ? pointText(wrong, lab.locale ?? 'en', lab) : labelOf(lab, pair.wrong) },
        { text: timeCell(right, t), note: right ? pointText(right, lab.locale ?? 'en', lab) : labelOf(lab, pair.right) },
        timesCell(w === null || r === null ? null : w / r),
      ],
    };
  };
  const peers = peersIn(context, PEER_PAIRS.flatMap((p) => [p.wrong, p.right]));
  const rows = PAIRS.flatMap((pair) => [
    row(pair, t(`pdf.deliverable.timingPitfalls.pitfall.${pair.id}`)),
    // A peer pair's row where the run has both of its series.
    ...PEER_PAIRS.filter((p) => p.id === pair.id).flatMap((p) => {
      const mine = peers.filter((s) => s.key === p.wrong || s.key === p.right);
      return mine[0] && mine.length === 2 ? [row(p, peerCell(t(`pdf.deliverable.timingPitfalls.pitfall.${p.id}`), mine[0], t))] : [];
    }),
  ]);
  const c = (key: string) => figure(t(`pdf.deliverable.timingPitfalls.columns.${key}`));
  return {
    source: t('pdf.deliverable.timingPitfalls.source'),
    tables: [
      {
        caption: t('pdf.deliverable.timingPitfalls.caption', { n: wholeText(record.params.n) }),
        columns: [words(t('pdf.deliverable.timingPitfalls.columns.pitfall')), c('wrong'), c('right'), c('ratio')],
        rows,
        notes: peerNotes(context, peers, [t('pdf.deliverable.timingPitfalls.note'), ...waivedNotes(record, PAIRS.flatMap((p) => [p.wrong, p.right]), t)]),
      },
    ],
    answers: [
      { question: t('pdf.deliverable.timingPitfalls.q.sync'), answer: unsynchronised(context) },
      { question: t('pdf.deliverable.timingPitfalls.q.threads'), answer: oneThread(context) },
      { question: t('pdf.deliverable.timingPitfalls.q.cold'), answer: cold(context) },
    ],
  };
};
