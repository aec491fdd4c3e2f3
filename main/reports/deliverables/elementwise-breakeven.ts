// elementwise-breakeven, seed 003's "Entrega": the table "operation | smallest size with speedup > 2× | speedup at 1 M
// elements" for the GPU with and without the copies, the speedup at every size measured, and the exercise's questions:
// from which size the GPU wins for each operation (against the fastest CPU series the run measured for it, GPU Lab's
// or the course's PyTorch, named, the other beside it), which gains most, what changes without the copies, in what
// share of the cases the copies dominate, and whether the GPU is worth it under 1000 elements.
import type { Translate } from '../../common/pure/charts/text.ts';
import { formatAxisNumber, formatBreakEven, formatCount, formatPercent, formatTimes, formatWhole } from '../../common/pure/format.ts';
import type { BreakEvenSummary, Crossing } from '../../labs/analysis.ts';
import { breakEvenSummary, crossingOf, interpolateLogLog } from '../../labs/analysis.ts';
import type { LabDescriptor, SeriesDescriptor } from '../../common/lab-descriptor.ts';
import type { TableRow } from '../table.ts';
import type { RunRecord } from '../../common/run-record.ts';
import { speedupRange } from '../../common/pure/claims.ts';
import type { Answer, Baseline, CpuSide, DeliverableBuilder, DeliverableContext, DeliverableTable } from './common.ts';
import { baselineName, cannotAnswer, fastestCpu, figure, labelOf, medianOf, peerCell, peerNotes, peersIn, pointAt, speedupOf, timesCell, waivedNotes, words } from './common.ts';

const PATHS = ['gpu-transfers', 'gpu-resident'] as const;
// The Python peers' GPU paths (PyTorch's), each op's "add-torch-transfers" beside GPU Lab's "add-gpu-transfers".
const PEER_PATHS = ['torch-transfers', 'torch-resident'] as const;
type GpuPath = (typeof PATHS)[number];
const ONE_MILLION = 1_000_000;
// The exercise's "typical data under 1000 elements".
const SMALL = 1000;

const opsOf = (record: RunRecord): string[] => {
  const ops = record.params.ops;
  return Array.isArray(ops) ? ops.map(String) : ['add', 'mul', 'exp'];
};
const targetOf = (record: RunRecord): number => (typeof record.params.target === 'number' ? record.params.target : 2);
// "2×", as the chart's target line names it.
const targetText = (record: RunRecord): string => `${formatAxisNumber(targetOf(record))}×`;
const summaryValue = (record: RunRecord, key: string): number | null => {
  const v = record.summary[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};
const gpuSeries = (record: RunRecord): string[] => opsOf(record).flatMap((op) => PATHS.map((p) => `${op}-${p}`));

// Where a GPU series' speedup over its CPU crosses the target, and its speedup at 1 M elements: as the run's summary
// holds them for GPU Lab's series, worked out the same way from the points for a Python peer's.
interface Reach extends BreakEvenSummary {
  at1M: number | null;
  // Where the crossing can lie within the medians' intervals, where both ends were found.
  low: number | null;
  high: number | null;
}

function summaryReach(record: RunRecord, op: string, path: GpuPath): Reach {
  const key = `${op}.${path}`;
  return {
    size: summaryValue(record, `${key}.breakEvenSize`),
    atMost: summaryValue(record, `${key}.breakEvenAtMost`),
    above: summaryValue(record, `${key}.breakEvenAbove`),
    at1M: summaryValue(record, `${key}.speedupAt1M`),
    low: summaryValue(record, `${key}.breakEvenSizeLow`),
    high: summaryValue(record, `${key}.breakEvenSizeHigh`),
  };
}

function pointsReach(record: RunRecord, cpu: string, gpu: string): Reach {
  const { curve, b, low, high } = crossingOf(record.points, cpu, gpu, targetOf(record));
  return { ...breakEvenSummary(b, curve), at1M: interpolateLogLog(curve, ONE_MILLION), low, high };
}

// The deliverable's "smallest size with speedup > target×": a size interpolated between two measured sizes, to two
// significant digits and with the range the medians' intervals allow, or the bound the measurements give.
function breakEvenCell(record: RunRecord, { size, atMost, above, low, high }: Reach, series: string, t: Translate): string {
  if (size !== null) {
    const about = formatBreakEven('elements', size);
    if (low === null || high === null || formatBreakEven('elements', low) === formatBreakEven('elements', high)) return t('pdf.deliverable.elementwise.size.about', { size: about });
    return t('pdf.deliverable.elementwise.size.aboutRange', { size: about, low: formatBreakEven('elements', low), high: formatBreakEven('elements', high) });
  }
  if (atMost !== null) return t('pdf.deliverable.elementwise.size.atMost', { size: formatCount(atMost) });
  if (above !== null) return t('pdf.deliverable.elementwise.size.above', { size: formatCount(above) });
  const p = pointAt(record, series);
  return p && p.status !== 'ok' ? t(`results.status.${p.status}`) : t('pdf.deliverable.absent');
}

// The same bound, as a sentence goes on: "from about 136 k elements", "at no size up to 100 M elements".
function reachText(record: RunRecord, op: string, path: GpuPath, t: Translate): string | null {
  const key = `${op}.${path}`;
  const size = summaryValue(record, `${key}.breakEvenSize`);
  const atMost = summaryValue(record, `${key}.breakEvenAtMost`);
  const above = summaryValue(record, `${key}.breakEvenAbove`);
  if (size !== null) return t('pdf.deliverable.elementwise.reach.between', { size: formatBreakEven('elements', size) });
  if (atMost !== null) return t('pdf.deliverable.elementwise.reach.atMost', { size: formatCount(atMost) });
  if (above !== null) return t('pdf.deliverable.elementwise.reach.above', { size: formatCount(above) });
  return null;
}

function atOneMillionCell(record: RunRecord, { at1M }: Reach, series: string, t: Translate): string {
  if (at1M !== null) return formatTimes(at1M);
  const p = pointAt(record, series);
  if (p && p.status !== 'ok' && record.points.filter((q) => q.series === series).every((q) => q.status === p.status)) return t(`results.status.${p.status}`);
  return t('pdf.deliverable.elementwise.outside', { size: formatCount(ONE_MILLION) });
}

// Where the GPU overtakes one CPU series (speedup 1×), with the range the medians' intervals allow where its ends differ
// at the two significant digits it is given to.
function crossingText({ b, low, high }: Crossing, t: Translate): string {
  switch (b.kind) {
    case 'between': {
      const size = formatBreakEven('elements', b.size);
      const ends = low !== null && high !== null ? [formatBreakEven('elements', low), formatBreakEven('elements', high)] : null;
      if (ends && ends[0] !== ends[1]) return t('pdf.deliverable.elementwise.crossing.betweenRange', { size, low: ends[0] ?? '', high: ends[1] ?? '' });
      return t('pdf.deliverable.elementwise.crossing.between', { size });
    }
    case 'below-range':
      return t('pdf.deliverable.elementwise.crossing.belowRange', { size: formatCount(b.size) });
    case 'never':
      return t('pdf.deliverable.elementwise.crossing.never', { best: formatTimes(b.best), at: formatCount(b.at) });
    case 'no-data':
      return t('pdf.deliverable.elementwise.crossing.noData');
  }
}

// One operation's CPU series (the descriptor's: GPU Lab's and the course's PyTorch on the CPU), and the course's.
const cpuSeries = (lab: LabDescriptor, op: string): string[] => lab.series.filter((s) => s.deviceKind === 'cpu' && s.key.startsWith(`${op}-`)).map((s) => s.key);
const courseCpu = (op: string): string => `${op}-torch-cpu`;
const cpuSideOf = (context: DeliverableContext, op: string): CpuSide | null => fastestCpu(context, cpuSeries(context.lab, op), courseCpu(op));
const cpuName = (context: DeliverableContext, op: string, b: Baseline): string => baselineName(context, b, b.key === courseCpu(op));

// Where both GPU paths of `op` overtake one CPU series; null where neither was measured against it.
function pathsAgainst({ record, t }: DeliverableContext, op: string, cpu: string): string | null {
  const crossings = PATHS.map((path) => ({ path, c: crossingOf(record.points, cpu, `${op}-${path}`, 1) }));
  if (crossings.every((x) => x.c.b.kind === 'no-data')) return null;
  return crossings.map((x) => t('pdf.deliverable.elementwise.a.pathCrossing', { path: t(`pdf.deliverable.elementwise.path.${x.path}`), crossing: crossingText(x.c, t) })).join(t('pdf.deliverable.against.itemSeparator'));
}

// Each operation's GPU against the fastest CPU series the run measured for it, named, the other beside it (DESIGN §10,
// "Baselines"); where the course's CPU code gave no figure, the answer says so first, once per reason.
function whereGpuWins(context: DeliverableContext): string {
  const { record, lab, t } = context;
  const unmeasured = new Map<string, string[]>();
  const parts = opsOf(record).flatMap((op) => {
    const side = cpuSideOf(context, op);
    const paths = side && pathsAgainst(context, op, side.fastest.key);
    if (!side || !paths) return [];
    if (side.courseWhy !== null) unmeasured.set(side.courseWhy, [...(unmeasured.get(side.courseWhy) ?? []), labelOf(lab, courseCpu(op))]);
    const beside = side.others.flatMap((o) => {
      const theirs = pathsAgainst(context, op, o.key);
      return theirs === null ? [] : [t('pdf.deliverable.elementwise.a.opOther', { cpu: cpuName(context, op, o), paths: theirs })];
    });
    return [t(`pdf.deliverable.elementwise.a.${side.others.length > 0 ? 'opFastest' : 'opOnly'}`, { op, cpu: cpuName(context, op, side.fastest), paths }), ...beside];
  });
  if (parts.length === 0) return cannotAnswer(record, gpuSeries(record), t);
  const notMeasured = [...unmeasured].map(([why, courses]) => t('pdf.deliverable.elementwise.a.courseNotMeasured', { course: courses.join(t('pdf.deliverable.listSeparator')), why }));
  return [...notMeasured, ...parts].join(' ');
}

// Under the table: which CPU series the first answer reads each operation's GPU against, and by how much it was faster.
function fastestNote(context: DeliverableContext): string[] {
  const { record, t } = context;
  const items = opsOf(record).flatMap((op) => {
    const side = cpuSideOf(context, op);
    const other = side?.others[0];
    if (!side || !other || side.ratio === null) return [];
    return [t('pdf.deliverable.elementwise.fastestItem', { op, cpu: cpuName(context, op, side.fastest), other: cpuName(context, op, other), ratio: formatTimes(side.ratio) })];
  });
  return items.length === 0 ? [] : [t('pdf.deliverable.elementwise.fastestNote', { items: items.join(t('pdf.deliverable.against.itemSeparator')) })];
}

// Which operation gains most from the GPU (its speedup over the CPU with the data resident), judged at every size
// measured and not at one: at each size where two or more operations were measured, an operation is ahead only where
// its speedup's range (from the two medians' intervals) lies above every other's there. The answer names who is
// ahead where, and the sizes where none is.
function mostGain({ record, t }: DeliverableContext): string {
  const ops = opsOf(record);
  const ranges = new Map(ops.map((op) => [op, speedupRange(record.points, `${op}-cpu`, `${op}-gpu-resident`)]));
  const at = (op: string, x: number): { low: number; high: number; value: number } | null => {
    const r = ranges.get(op);
    const i = r?.low.x.indexOf(x) ?? -1;
    const value = speedupOf(pointAt(record, `${op}-cpu`, x), pointAt(record, `${op}-gpu-resident`, x));
    return r && i >= 0 && value !== null ? { low: r.low.y[i] ?? 0, high: r.high.y[i] ?? 0, value } : null;
  };
  const sizes = [...new Set([...ranges.values()].flatMap((r) => r.low.x))].sort((a, b) => a - b).filter((x) => ops.filter((op) => at(op, x) !== null).length >= 2);
  if (sizes.length === 0) return cannotAnswer(record, ops.map((op) => `${op}-gpu-resident`), t);
  const ahead = new Map<string, number[]>();
  const level: number[] = [];
  for (const x of sizes) {
    const here = ops.flatMap((op) => {
      const v = at(op, x);
      return v ? [{ op, ...v }] : [];
    });
    const winner = here.find((a) => here.every((b) => b === a || a.low > b.high));
    if (winner) ahead.set(winner.op, [...(ahead.get(winner.op) ?? []), x]);
    else level.push(x);
  }
  const sizesText = (xs: readonly number[]): string => xs.map((x) => formatCount(x)).join(t('pdf.deliverable.listSeparator'));
  const largest = sizes.at(-1) ?? 0;
  const atLargest = ops.flatMap((op) => {
    const v = at(op, largest);
    return v ? [t('pdf.deliverable.elementwise.a.opValue', { op, value: formatTimes(v.value) })] : [];
  });
  const values = { largest: formatCount(largest), values: atLargest.join(t('pdf.deliverable.listSeparator')) };
  const rest = level.length > 0 ? t('pdf.deliverable.elementwise.a.mostGainLevel', { sizes: sizesText(level) }) : '';
  const [only, ...more] = [...ahead.entries()];
  if (!only) return t('pdf.deliverable.elementwise.a.mostGainNone', values);
  if (more.length === 0) return t('pdf.deliverable.elementwise.a.mostGain', { op: only[0], sizes: sizesText(only[1]), rest, ...values });
  const who = [...ahead.entries()].map(([op, xs]) => t('pdf.deliverable.elementwise.a.aheadAt', { op, sizes: sizesText(xs) })).join(' ');
  return t('pdf.deliverable.elementwise.a.mostGainDepends', { who, rest, ...values });
}

function withoutCopies({ record, t }: DeliverableContext): string {
  const target = targetText(record);
  const parts = opsOf(record).flatMap((op) => {
    const resident = summaryValue(record, `${op}.gpu-resident.speedupAt1M`);
    const copies = summaryValue(record, `${op}.gpu-transfers.speedupAt1M`);
    const residentReach = reachText(record, op, 'gpu-resident', t);
    const copiesReach = reachText(record, op, 'gpu-transfers', t);
    if (resident === null || copies === null || residentReach === null || copiesReach === null) return [];
    return [t('pdf.deliverable.elementwise.a.withoutCopies', { op, target, residentReach, copiesReach, resident: formatTimes(resident), copies: formatTimes(copies) })];
  });
  return parts.length === 0 ? cannotAnswer(record, gpuSeries(record), t) : parts.join(' ');
}

// A case is one operation at one size with both GPU paths measured; the copies dominate it when they take more than
// half of the GPU's time with transfers: (with transfers − resident) > with transfers ÷ 2.
function copiesDominate({ record, t }: DeliverableContext): string {
  let cases = 0;
  let dominated = 0;
  let slowerThanCpu = 0;
  for (const op of opsOf(record)) {
    for (const copies of record.points.filter((p) => p.series === `${op}-gpu-transfers`)) {
      const w = medianOf(copies);
      const r = medianOf(pointAt(record, `${op}-gpu-resident`, copies.x));
      if (w === null || r === null) continue;
      cases++;
      if (w - r > w / 2) dominated++;
      if ((speedupOf(pointAt(record, `${op}-cpu`, copies.x), copies) ?? 1) < 1) slowerThanCpu++;
    }
  }
  if (cases === 0) return cannotAnswer(record, gpuSeries(record), t);
  return t('pdf.deliverable.elementwise.a.dominate', {
    dominated,
    cases,
    share: formatPercent(dominated / cases),
    slower: slowerThanCpu,
    slowerShare: formatPercent(slowerThanCpu / cases),
  });
}

function smallData({ record, t }: DeliverableContext): string {
  const sizes = [...new Set(record.points.filter((p) => p.x !== null && p.x < SMALL).map((p) => p.x ?? 0))];
  if (sizes.length === 0) {
    const smallest = Math.min(...record.points.map((p) => p.x ?? Infinity));
    return t('pdf.deliverable.elementwise.a.smallNone', { size: formatWhole(SMALL), smallest: Number.isFinite(smallest) ? formatCount(smallest) : '—' });
  }
  const best = (path: GpuPath): { v: number; op: string; x: number } | null => {
    let found: { v: number; op: string; x: number } | null = null;
    for (const op of opsOf(record)) {
      for (const x of sizes) {
        const v = speedupOf(pointAt(record, `${op}-cpu`, x), pointAt(record, `${op}-${path}`, x));
        if (v !== null && (found === null || v > found.v)) found = { v, op, x };
      }
    }
    return found;
  };
  const resident = best('gpu-resident');
  const copies = best('gpu-transfers');
  if (!resident || !copies) return cannotAnswer(record, gpuSeries(record), t);
  const named = { size: formatWhole(SMALL), resident: formatTimes(resident.v), residentOp: resident.op, residentAt: formatCount(resident.x), copies: formatTimes(copies.v), copiesOp: copies.op, copiesAt: formatCount(copies.x) };
  const verdict = resident.v >= targetOf(record) ? 'smallYes' : resident.v >= 1 ? 'smallBarely' : 'smallNo';
  return t(`pdf.deliverable.elementwise.a.${verdict}`, named);
}

function sizesTable(context: DeliverableContext): DeliverableTable | null {
  const { record, lab, t } = context;
  const series = gpuSeries(record).filter((s) => record.points.some((p) => p.series === s && p.status === 'ok'));
  if (series.length === 0) return null;
  const sizes = [...new Set(record.points.filter((p) => series.includes(p.series)).map((p) => p.x ?? 0))].sort((a, b) => a - b);
  return {
    caption: t('pdf.deliverable.elementwise.sizesCaption'),
    columns: [figure(t('pdf.deliverable.elementwise.columns.elements')), ...series.map((s) => figure(labelOf(lab, s)))],
    rows: sizes.map((x) => ({
      cells: [formatCount(x), ...series.map((s) => timesCell(speedupOf(pointAt(record, `${s.slice(0, s.indexOf('-'))}-cpu`, x), pointAt(record, s, x))))],
    })),
    notes: [t('results.chart.speedupDefinition', { baselines: opsOf(record).map((op) => labelOf(lab, `${op}-cpu`)).join(', ') })],
  };
}

export const elementwiseBreakevenDeliverable: DeliverableBuilder = (context) => {
  const { record, lab, t } = context;
  const target = targetText(record);
  // Each operation's GPU paths and, under them, the notebook's own in PyTorch (Python peers) where the run has them,
  // each over its own baseline (the descriptor's; the operation's CPU series where it names none).
  const peers = peersIn(context, opsOf(record).flatMap((op) => PEER_PATHS.map((path) => `${op}-${path}`)));
  const peerBaseline = (s: SeriesDescriptor): string => s.baseline ?? `${s.key.slice(0, s.key.indexOf('-'))}-cpu`;
  const rows = opsOf(record).flatMap((op) => {
    const gpuPath = (label: string): string => label.replace(`${op} `, '');
    const ours = PATHS.map((path): TableRow => {
      const series = `${op}-${path}`;
      const reach = summaryReach(record, op, path);
      return { cells: [op.toUpperCase(), gpuPath(labelOf(lab, series)), breakEvenCell(record, reach, series, t), atOneMillionCell(record, reach, series, t)] };
    });
    const theirs = peers.filter((s) => s.key.startsWith(`${op}-`)).map((s): TableRow => {
      const reach = pointsReach(record, peerBaseline(s), s.key);
      return { cells: [op.toUpperCase(), peerCell(gpuPath(s.label), s, t), breakEvenCell(record, reach, s.key, t), atOneMillionCell(record, reach, s.key, t)] };
    });
    return [...ours, ...theirs];
  });
  const baselines = [...new Set(peers.map((s) => labelOf(lab, peerBaseline(s))))];
  const peerSpeedup = baselines.length > 0 ? [t('pdf.deliverable.peerSpeedup', { baselines: baselines.join(', ') })] : [];
  const sizes = sizesTable(context);
  const answers: Answer[] = [
    { question: t('pdf.deliverable.elementwise.q.whereGpuWins'), answer: whereGpuWins(context) },
    { question: t('pdf.deliverable.elementwise.q.mostGain'), answer: mostGain(context) },
    { question: t('pdf.deliverable.elementwise.q.withoutCopies'), answer: withoutCopies(context) },
    { question: t('pdf.deliverable.elementwise.q.dominate'), answer: copiesDominate(context) },
    { question: t('pdf.deliverable.elementwise.q.small', { size: formatWhole(SMALL) }), answer: smallData(context) },
  ];
  return {
    source: t('pdf.deliverable.elementwise.source'),
    tables: [
      {
        caption: t('pdf.deliverable.elementwise.caption'),
        columns: [
          words(t('pdf.deliverable.elementwise.columns.operation')),
          words(t('pdf.deliverable.elementwise.columns.gpu')),
          figure(t('pdf.deliverable.elementwise.columns.smallest', { target })),
          figure(t('pdf.deliverable.elementwise.columns.atOneMillion', { size: formatCount(ONE_MILLION) })),
        ],
        rows,
        // PyTorch's CPU has no row here (its times are the GPU paths' baseline), but how far it agrees with GPU Lab's
        // CPU is said with the others.
        notes: peerNotes(context, [...peers, ...peersIn(context, opsOf(record).map(courseCpu))], [t('pdf.deliverable.elementwise.note', { target }), ...peerSpeedup, ...fastestNote(context), ...waivedNotes(record, gpuSeries(record), t)]),
      },
      ...(sizes ? [sizes] : []),
    ],
    answers,
  };
};
