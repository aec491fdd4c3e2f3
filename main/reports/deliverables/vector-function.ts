// vector-function, seed 001: the notebook's three tables — the CPU (Numba's @njit loop, NumPy's ufunc), CuPy with and
// without the copies, Numba's @vectorize(target='cuda') with and without them — each scenario with its time, its
// speedup over the notebook's baseline (Numba @njit on one core; where that did not run, GPU Lab's own one-core loop,
// saying why), GPU Lab's all-threads CPU beside it, and the copies' overhead; then the notebook's three timing methods;
// then GPU Lab's own series with its Python additions. The analysis as questions: does the GPU win once the copies
// count, what the copies cost, what fusion gains, what the threads gain, and when the GPU is worth it.
import { comparePoints as order } from '../../common/pure/claims.ts';
import { formatMs, formatPercent, formatRate, formatTimes } from '../../common/pure/format.ts';
import { shareOfPeak } from '../../common/run-record.ts';
import type { Baseline, BaselineChoice, DeliverableBuilder, DeliverableContext, DeliverableTable } from './common.ts';
import type { TableCell, TableRow } from '../table.ts';
import {
  againstBaseline,
  againstOwn,
  baselineChoice,
  baselineName,
  baselineNote,
  cannotAnswer,
  figure,
  labelOf,
  leadOf,
  medianOf,
  peerCell,
  peerNotes,
  peersIn,
  pointAt,
  seriesName,
  speedupOf,
  timeCell,
  timesCell,
  speedupText,
  waivedNotes,
  wholeText,
  words,
} from './common.ts';
import { cacheClause } from '../../labs/analysis.ts';
import { labMessage } from '../../labs/lab-text.ts';

const GPU = ['gpu-transfers', 'gpu-unfused', 'gpu-fused'] as const;
// The notebook's baseline (Numba's compiled loop on one core) and GPU Lab's own loop on one core and on every thread.
const COURSE_BASELINE = 'numba-njit';
const OWN_BASELINE = 'cpu-single';
const ALL_THREADS = 'cpu-threads';
// A series with the copies and the same code with the data already on the GPU: the copy overhead is their difference.
const WITHOUT_COPIES: Record<string, string> = { 'gpu-transfers': 'gpu-fused', 'cupy-copies': 'cupy-notebook', 'numba-cuda-copies': 'numba-cuda-vectorize' };
// The notebook's tables, each with its rows' series (the copies first, as the notebook writes them).
const NOTEBOOK_TABLES = [
  { id: 'cpu', series: ['numba-njit', 'numpy-notebook'] },
  { id: 'cupy', series: ['cupy-copies', 'cupy-notebook'] },
  { id: 'numba', series: ['numba-cuda-copies', 'numba-cuda-vectorize'] },
] as const;
// The notebook's three timing methods, each as a series with the copies and one without.
const CLOCKS = [
  { id: 'events', copies: 'numba-cuda-copies', resident: 'numba-cuda-vectorize' },
  { id: 'timeTime', copies: 'numba-cuda-copies-time', resident: 'numba-cuda-vectorize-time' },
  { id: 'loop', copies: 'numba-cuda-copies-loop', resident: 'numba-cuda-vectorize-loop' },
] as const;
const NOTEBOOK = new Set<string>([...NOTEBOOK_TABLES.flatMap((table) => table.series), ...CLOCKS.flatMap((c) => [c.copies, c.resident])]);
// The GPU with the copies: CuPy's and Numba's as the notebook writes them, then GPU Lab's fused kernel.
const WITH_COPIES = ['cupy-copies', 'numba-cuda-copies', 'gpu-transfers'] as const;

const allThreads = ({ record, lab }: DeliverableContext): Baseline => ({ key: ALL_THREADS, label: labelOf(lab, ALL_THREADS), point: pointAt(record, ALL_THREADS) });

function copiesVsCpu(context: DeliverableContext, choice: BaselineChoice): string {
  const course = againstBaseline(context, choice, WITH_COPIES);
  if (!course) return cannotAnswer(context.record, [choice.answer.key, 'gpu-transfers'], context.t);
  const beside = againstOwn(context, allThreads(context), WITH_COPIES);
  return [leadOf(context, course.orders), course.text, beside?.text ?? ''].filter(Boolean).join(' ');
}

// What the copies add to each version that the run measured both with and without them.
function copyCost(context: DeliverableContext): string {
  const { record, t } = context;
  const items = WITH_COPIES.flatMap((key) => {
    const w = medianOf(pointAt(record, key));
    const r = medianOf(pointAt(record, WITHOUT_COPIES[key] ?? ''));
    if (w === null || r === null) return [];
    const named = { series: seriesName(context, key), overhead: formatMs(w - r), withCopies: formatMs(w), resident: formatMs(r), share: formatPercent(Math.max(0, w - r) / w), factor: formatTimes(w / r) };
    return [t('pdf.deliverable.vectorFunction.a.copyCostItem', named)];
  });
  if (items.length === 0) return cannotAnswer(record, ['gpu-transfers', 'gpu-fused'], t);
  return t('pdf.deliverable.vectorFunction.a.copyCost', { items: items.join(t('pdf.deliverable.against.itemSeparator')) });
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
  const single = pointAt(record, OWN_BASELINE);
  const threads = pointAt(record, ALL_THREADS);
  const gain = speedupOf(single, threads);
  if (gain === null) return cannotAnswer(record, [OWN_BASELINE, ALL_THREADS], t);
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

// Whether GPU Lab's fused kernel pays, resident and with the copies, against one CPU baseline, named.
function worthAgainst(context: DeliverableContext, baseline: Baseline, course: boolean): string | null {
  const { record, lab, t } = context;
  // Each speedup with the range the two medians' intervals allow where it is wide.
  const resident = speedupText(baseline.point, pointAt(record, 'gpu-fused'), lab);
  const copies = speedupText(baseline.point, pointAt(record, 'gpu-transfers'), lab);
  if (resident === null || copies === null) return null;
  const named = { baseline: baselineName(context, baseline, course), resident, copies };
  const withCopies = order(pointAt(record, 'gpu-transfers'), baseline.point);
  const residentOrder = order(pointAt(record, 'gpu-fused'), baseline.point);
  if (withCopies === 'faster') return t('pdf.deliverable.vectorFunction.a.worthAlways', named);
  if (withCopies === 'slower' && residentOrder === 'faster') return t('pdf.deliverable.vectorFunction.a.worthResident', named);
  if (withCopies === 'slower' && residentOrder === 'slower') return t('pdf.deliverable.vectorFunction.a.worthNever', named);
  return t('pdf.deliverable.vectorFunction.a.worthTie', named);
}

function worthIt(context: DeliverableContext, choice: BaselineChoice): string {
  const first = worthAgainst(context, choice.answer, choice.why === null);
  if (first === null) return cannotAnswer(context.record, [choice.answer.key, 'gpu-fused', 'gpu-transfers'], context.t);
  const why = choice.why === null ? '' : context.t('pdf.deliverable.vectorFunction.a.worthNotMeasured', { course: choice.course.label, why: choice.why });
  return [why, first, worthAgainst(context, allThreads(context), false) ?? ''].filter(Boolean).join(' ');
}

function columns(context: DeliverableContext, choice: BaselineChoice) {
  const { t } = context;
  const threads = allThreads(context).point?.threads;
  return [
    words(t('pdf.deliverable.vectorFunction.columns.scenario')),
    figure(t('pdf.deliverable.vectorFunction.columns.time')),
    figure(t('pdf.deliverable.vectorFunction.columns.overBaseline', { baseline: choice.answer.label })),
    figure(t('pdf.deliverable.vectorFunction.columns.overAll', { threads: wholeText(threads) })),
    figure(t('pdf.deliverable.vectorFunction.columns.overhead')),
  ];
}

// A scenario's row: its time, its speedups over the baseline and over every CPU thread, and what its copies cost.
function row(context: DeliverableContext, choice: BaselineChoice, label: string | TableCell, key: string): TableRow {
  const { record, t } = context;
  const p = pointAt(record, key);
  const withMs = medianOf(p);
  const withoutMs = medianOf(pointAt(record, WITHOUT_COPIES[key] ?? ''));
  const overhead =
    withMs !== null && withoutMs !== null
      ? { text: formatMs(withMs - withoutMs), note: t('pdf.deliverable.vectorFunction.slower', { factor: formatTimes(withMs / withoutMs) }) }
      : '—';
  const overBaseline = key === choice.answer.key && withMs !== null ? { text: timesCell(1), note: t('pdf.deliverable.baseline') } : timesCell(speedupOf(choice.answer.point, p));
  return { cells: [label, timeCell(p, t), overBaseline, timesCell(speedupOf(allThreads(context).point, p)), overhead] };
}

// The notebook's own tables, where the run has any of their series: each row the course's code, measured or not.
function notebookTables(context: DeliverableContext, choice: BaselineChoice): DeliverableTable[] {
  const { t } = context;
  const peers = peersIn(context, [...NOTEBOOK]);
  if (peers.length === 0) return [];
  const tables = NOTEBOOK_TABLES.map((table): DeliverableTable => {
    const inTable = peers.filter((s) => (table.series as readonly string[]).includes(s.key));
    const rows = table.series.map((key) => {
      const s = inTable.find((x) => x.key === key);
      return s ? row(context, choice, peerCell(s.label, s, t), key) : row(context, choice, labelOf(context.lab, key), key);
    });
    const notes = [...(table.id === 'cpu' ? [baselineNote(context, choice)] : []), ...(table.id === 'numba' || table.id === 'cupy' ? [t(`pdf.deliverable.vectorFunction.overhead.${table.id}`)] : [])];
    return { caption: t(`pdf.deliverable.vectorFunction.tables.${table.id}`), columns: columns(context, choice), rows, notes: peerNotes(context, inTable, notes) };
  });
  return [...tables, ...clocksTable(context)];
}

// The notebook's three timing methods on Numba's ufunc, each clock's own median, with the copies and without; none
// where the run has none of them (a record from before they were planned).
function clocksTable(context: DeliverableContext): DeliverableTable[] {
  const { record, lab, t } = context;
  if (!CLOCKS.some((c) => pointAt(record, c.copies) || pointAt(record, c.resident))) return [];
  const calls = (key: string): number | undefined => {
    const p = pointAt(record, key);
    return p?.status === 'ok' ? p.executionsPerSample : undefined;
  };
  const copies = calls(CLOCKS[2].copies);
  const resident = calls(CLOCKS[2].resident);
  const counted = copies !== undefined && resident !== undefined ? [t('pdf.deliverable.vectorFunction.clocksCalls', { copies: wholeText(copies), resident: wholeText(resident) })] : [];
  return [
    {
      caption: t('pdf.deliverable.vectorFunction.tables.clocks'),
      columns: [words(t('pdf.deliverable.vectorFunction.columns.method')), figure(labelOf(lab, 'numba-cuda-copies')), figure(labelOf(lab, 'numba-cuda-vectorize'))],
      rows: CLOCKS.map((c) => ({ cells: [t(`pdf.deliverable.vectorFunction.clocks.${c.id}`), timeCell(pointAt(record, c.copies), t), timeCell(pointAt(record, c.resident), t)] })),
      // A waived clock's reason is Numba's, said under the notebook's Table 3 already.
      notes: [t('pdf.deliverable.vectorFunction.clocksNote'), ...counted],
    },
  ];
}

export const vectorFunctionDeliverable: DeliverableBuilder = (context) => {
  const { record, lab, t } = context;
  const choice = baselineChoice(context, COURSE_BASELINE, OWN_BASELINE);
  const notebook = notebookTables(context, choice);
  // GPU Lab's own series, then its additions in Python (not in the notebook: Numba's parallel loop, cupy.fuse).
  const additions = peersIn(context).filter((s) => !NOTEBOOK.has(s.key));
  const rows = [...lab.series.filter((s) => !s.peer).map((s) => row(context, choice, s.label, s.key)), ...additions.map((s) => row(context, choice, peerCell(s.label, s, t), s.key))];
  // Without the notebook's tables, what the speedups are over (and why not the course's) is said under this one.
  const ownNotes = [...(notebook.length === 0 ? [baselineNote(context, choice)] : []), t('pdf.deliverable.vectorFunction.note'), ...waivedNotes(record, [...GPU], t)];
  return {
    source: t('pdf.deliverable.vectorFunction.source'),
    tables: [
      ...notebook,
      {
        caption: t('pdf.deliverable.vectorFunction.tables.own', { elements: wholeText(record.params.elements) }),
        columns: columns(context, choice),
        rows,
        notes: peerNotes(context, additions, ownNotes),
      },
    ],
    answers: [
      { question: t('pdf.deliverable.vectorFunction.q.copiesVsCpu'), answer: copiesVsCpu(context, choice) },
      { question: t('pdf.deliverable.vectorFunction.q.copyCost'), answer: copyCost(context) },
      { question: t('pdf.deliverable.vectorFunction.q.fusion'), answer: fusion(context) },
      { question: t('pdf.deliverable.vectorFunction.q.threads'), answer: threadsGain(context) },
      { question: t('pdf.deliverable.vectorFunction.q.worthIt'), answer: worthIt(context, choice) },
    ],
  };
};
