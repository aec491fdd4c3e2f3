// matmul, seed 000: the notebook's table "method | time | speedup over NumPy on the CPU" with the copies' overhead it
// works out after it, first with the notebook's own rows (NumPy, PyTorch with and without the copies), then GPU Lab's
// beside them over the same baseline; where NumPy did not run, over GPU Lab's CPU BLAS, saying why. Its analysis as
// questions: the speedup with and without the copies, what the copies cost on the course's PyTorch path and on
// cuBLAS's, how far the hand-written kernels are from cuBLAS, and how much of the GPU's peak each version reaches. On a
// WebGPU adapter, which has no cuBLAS, its tiled WGSL kernel with and without the copies takes cuBLAS's place, and the
// kernels are read against each other.
import { comparePoints } from '../../common/pure/claims.ts';
import { formatBytes, formatMs, formatPercent, formatTimes } from '../../common/pure/format.ts';
import { shareOfPeak } from '../../common/run-record.ts';
import type { Answer, BaselineChoice, DeliverableBuilder, DeliverableContext, DeliverableTable } from './common.ts';
import type { TableCell, TableRow } from '../table.ts';
import {
  againstBaseline,
  againstOwn,
  baselineChoice,
  baselineNote,
  cannotAnswer,
  figure,
  labelOf,
  medianOf,
  peerCell,
  peerNotes,
  peersIn,
  pointAt,
  seriesName,
  speedupOf,
  timeCell,
  timesCell,
  waivedNotes,
  wholeText,
  words,
} from './common.ts';

const GPU = ['gpu-transfers', 'gpu-cublas', 'gpu-tiled', 'gpu-naive'] as const;
// A WebGPU adapter has no cuBLAS: its GPU with and without the copies is the tiled WGSL kernel's (labs/matmul.ts).
const WEBGPU_COPIES = 'gpu-tiled-transfers';
const COURSE_BASELINE = 'numpy-matmul';
const OWN_BASELINE = 'cpu-blas';
// The notebook's rows: NumPy on the CPU, PyTorch on the GPU with the copies and without them.
const NOTEBOOK = ['numpy-matmul', 'torch-copies', 'torch-resident'] as const;
// A series with the copies and the same product with the matrices already on the GPU.
const WITHOUT_COPIES: Record<string, string> = { 'torch-copies': 'torch-resident', 'gpu-transfers': 'gpu-cublas', [WEBGPU_COPIES]: 'gpu-tiled' };
// The GPU with and without the copies: the course's PyTorch, then GPU Lab's cuBLAS.
const GPU_PATHS = ['torch-copies', 'torch-resident', 'gpu-transfers', 'gpu-cublas'] as const;
const WEBGPU_PATHS = [WEBGPU_COPIES, 'gpu-tiled'] as const;

const onWebgpu = (record: DeliverableContext['record']): boolean => record.points.some((p) => p.series === WEBGPU_COPIES);

function speedups(context: DeliverableContext, choice: BaselineChoice): string {
  const paths = onWebgpu(context.record) ? WEBGPU_PATHS : GPU_PATHS;
  const course = againstBaseline(context, choice, paths);
  if (!course) return cannotAnswer(context.record, [choice.answer.key, ...paths.slice(-2)], context.t);
  const beside = choice.why === null ? againstOwn(context, choice.own, paths) : null;
  return [course.text, beside?.text ?? ''].filter(Boolean).join(' ');
}

// What the copies add on the course's PyTorch path (.to() and .cpu()) and on cuBLAS's, each against the same product
// with the matrices resident.
function overhead(context: DeliverableContext): string {
  const { record, t } = context;
  const items = Object.entries(WITHOUT_COPIES).flatMap(([copiesKey, residentKey]) => {
    const withCopies = pointAt(record, copiesKey);
    const w = medianOf(withCopies);
    const r = medianOf(pointAt(record, residentKey));
    if (w === null || r === null || !withCopies) return [];
    return [
      t(copiesKey === WEBGPU_COPIES ? 'pdf.deliverable.matmul.a.overheadItemWebgpu' : 'pdf.deliverable.matmul.a.overheadItem', {
        series: seriesName(context, copiesKey),
        overhead: formatMs(w - r),
        withCopies: formatMs(w),
        resident: formatMs(r),
        share: formatPercent(Math.max(0, w - r) / w),
        factor: formatTimes(w / r),
        bytes: formatBytes(withCopies.work.bytes),
      }),
    ];
  });
  if (items.length === 0) return cannotAnswer(record, onWebgpu(record) ? [WEBGPU_COPIES, 'gpu-tiled'] : ['gpu-transfers', 'gpu-cublas'], t);
  return t('pdf.deliverable.matmul.a.overhead', { items: items.join(t('pdf.deliverable.against.itemSeparator')) });
}

function kernels({ record, t }: DeliverableContext): string {
  const cublas = pointAt(record, 'gpu-cublas');
  const tiled = pointAt(record, 'gpu-tiled');
  const naive = pointAt(record, 'gpu-naive');
  const tiledVsCublas = speedupOf(tiled, cublas);
  const tiledOverNaive = speedupOf(naive, tiled);
  if (onWebgpu(record) && tiledOverNaive !== null) {
    const order = comparePoints(tiled, naive) ?? 'indistinguishable';
    return t(`pdf.deliverable.matmul.a.${order === 'faster' ? 'kernelsWebgpu' : order === 'slower' ? 'kernelsWebgpuSlower' : 'kernelsWebgpuTie'}`, {
      tiled: formatMs(medianOf(tiled) ?? 0),
      naive: formatMs(medianOf(naive) ?? 0),
      tiledOverNaive: formatTimes(tiledOverNaive),
    });
  }
  if (tiledVsCublas === null || tiledOverNaive === null) return cannotAnswer(record, ['gpu-cublas', 'gpu-tiled', 'gpu-naive'], t);
  // Which of the two is faster only where the medians' intervals separate (common/pure/claims.ts), as the lab's finding says.
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
  const measured = GPU.map((series) => pointAt(record, series)).find((p) => p?.status === 'ok');
  if (shares.length === 0 && measured) return t('pdf.deliverable.matmul.a.noPeak', { device: measured.device });
  if (shares.length === 0) return cannotAnswer(record, [...GPU], t);
  return t('pdf.deliverable.matmul.a.peaks', { shares: shares.join('; ') });
}

// A method's row: its time, its speedup over the baseline (and over GPU Lab's CPU BLAS beside the course's), and what
// its copies cost.
function row(context: DeliverableContext, choice: BaselineChoice, label: string | TableCell, key: string): TableRow {
  const { record, t } = context;
  const p = pointAt(record, key);
  const withMs = medianOf(p);
  const withoutMs = medianOf(pointAt(record, WITHOUT_COPIES[key] ?? ''));
  const overhead = withMs !== null && withoutMs !== null ? { text: formatMs(withMs - withoutMs), note: t('pdf.deliverable.slowerThanResident', { factor: formatTimes(withMs / withoutMs) }) } : '—';
  const over = (b: typeof choice.answer): string | TableCell => (key === b.key && withMs !== null ? { text: timesCell(1), note: t('pdf.deliverable.baseline') } : timesCell(speedupOf(b.point, p)));
  return { cells: [label, timeCell(p, t), over(choice.answer), ...(choice.why === null ? [over(choice.own)] : []), overhead] };
}

function columns({ t }: DeliverableContext, choice: BaselineChoice) {
  return [
    words(t('pdf.deliverable.matmul.columns.method')),
    figure(t('pdf.deliverable.matmul.columns.time')),
    figure(t('pdf.deliverable.matmul.columns.speedup', { baseline: choice.answer.label })),
    ...(choice.why === null ? [figure(t('pdf.deliverable.matmul.columns.speedupOwn', { baseline: choice.own.label }))] : []),
    figure(t('pdf.deliverable.matmul.columns.overhead')),
  ];
}

export const matmulDeliverable: DeliverableBuilder = (context) => {
  const { record, lab, t } = context;
  const choice = baselineChoice(context, COURSE_BASELINE, OWN_BASELINE);
  const cpu = pointAt(record, OWN_BASELINE);
  const n = wholeText(record.params.n);
  // The notebook's own rows where the run has any of them, then GPU Lab's methods over the same baseline.
  const notebook = peersIn(context, NOTEBOOK);
  const notebookTable: DeliverableTable[] =
    notebook.length === 0
      ? []
      : [
          {
            caption: t('pdf.deliverable.matmul.notebookCaption', { n }),
            columns: columns(context, choice),
            rows: NOTEBOOK.map((key) => {
              const s = notebook.find((x) => x.key === key);
              return row(context, choice, s ? peerCell(s.label, s, t) : labelOf(lab, key), key);
            }),
            notes: peerNotes(context, notebook, [baselineNote(context, choice)]),
          },
        ];
  const others = peersIn(context).filter((s) => !(NOTEBOOK as readonly string[]).includes(s.key));
  // A WebGPU adapter's own series only where the run has it.
  const ours = lab.series.filter((s) => !s.peer && !(s.webgpuOnly && !record.points.some((p) => p.series === s.key)));
  const rows = [...ours.map((s) => row(context, choice, s.label, s.key)), ...others.map((s) => row(context, choice, peerCell(s.label, s, t), s.key))];
  const answers: Answer[] = [
    { question: t('pdf.deliverable.matmul.q.speedups'), answer: speedups(context, choice) },
    { question: t('pdf.deliverable.matmul.q.overhead'), answer: overhead(context) },
    { question: t('pdf.deliverable.matmul.q.kernels'), answer: kernels(context) },
    { question: t('pdf.deliverable.matmul.q.peaks'), answer: peaks(context) },
  ];
  return {
    source: t('pdf.deliverable.matmul.source'),
    tables: [
      ...notebookTable,
      {
        caption: t('pdf.deliverable.matmul.caption', { n }),
        columns: columns(context, choice),
        rows,
        notes: peerNotes(context, others, [
          ...(notebook.length === 0 ? [baselineNote(context, choice)] : []),
          t('pdf.deliverable.matmul.note', { cpu: cpu?.implementation ?? labelOf(lab, OWN_BASELINE), threads: wholeText(cpu?.threads) }),
          ...waivedNotes(record, [...GPU], t),
        ]),
      },
    ],
    answers,
  };
};
