// Two runs of the same lab side by side: for each point key, both medians and B ÷ A, and which run was faster, only
// where the two points measured the same work (a matrix of another N under the same key is named, not compared); and
// their parameters, those that differ marked.
import type { LabDescriptor, ParamValue, ParameterDescriptor } from '../../lab-descriptor.ts';
import type { PointResult, RunRecord } from '../../run-record.ts';
import { comparePoints } from '../claims.ts';
import { pointLabel } from './point-label.ts';
import type { Translate } from './text.ts';
import { formatBytes, formatMs, formatTimes, unitFor } from '../format.ts';
import { paramValueText } from '../i18n/param-text.ts';
import { numberLocale } from '../locale.ts';

// 'tie': the two medians' 95 % intervals overlap, so neither run can be called faster at this precision (the same
// claim every finding makes, common/pure/claims.ts).
export type Faster = 'A' | 'B' | 'tie';

export interface CompareRow {
  key: string;
  label: string;
  // Where the key was measured: in both runs, or in one only (a parameter changed the sizes, a series was waived).
  presence: 'both' | 'A' | 'B';
  // Both runs have the point but it measured different work (another size): no ratio and no verdict.
  comparable: boolean;
  medianA: string;
  medianB: string;
  // B's median ÷ A's: below 1 run B took less time.
  ratio: number | null;
  ratioText: string;
  faster: Faster | null;
  fasterText: string;
}

const DASH = '—';

function medianText(p: PointResult | undefined, t: Translate): string {
  if (!p) return t('results.compare.absent');
  return p.status === 'ok' && p.stats ? formatMs(p.stats.median) : t(`results.status.${p.status}`);
}

function faster(a: PointResult, b: PointResult): Faster | null {
  const order = comparePoints(a, b);
  return order === null ? null : order === 'faster' ? 'A' : order === 'slower' ? 'B' : 'tie';
}

// Whether two points under one key measured the same thing: the same size and the same work (FLOPs and bytes).
function sameWork(a: PointResult, b: PointResult): boolean {
  return a.x === b.x && a.work.flops === b.work.flops && a.work.bytes === b.work.bytes;
}

// What sets two points of one key apart, from their names: "N = 1500 vs N = 7000".
function difference(a: PointResult, b: PointResult, t: Translate, lab: LabDescriptor | undefined): string {
  const partsA = labelOf(a, a.key, t, lab).split(', ');
  const partsB = labelOf(b, b.key, t, lab).split(', ');
  const onlyA = partsA.filter((x) => !partsB.includes(x));
  const onlyB = partsB.filter((x) => !partsA.includes(x));
  return onlyA.length && onlyB.length ? t('results.compare.differs', { a: onlyA.join(', '), b: onlyB.join(', ') }) : t('results.compare.differentWork');
}

function row(key: string, a: PointResult | undefined, b: PointResult | undefined, t: Translate, lab: LabDescriptor | undefined): CompareRow {
  const comparable = !a || !b || sameWork(a, b);
  const both = a && b && comparable;
  const ratio = both && a.status === 'ok' && b.status === 'ok' && a.stats && b.stats && a.stats.median > 0 ? b.stats.median / a.stats.median : null;
  const winner = both ? faster(a, b) : null;
  let fasterText = '';
  if (!a) fasterText = t('results.compare.onlyIn', { run: 'B' });
  else if (!b) fasterText = t('results.compare.onlyIn', { run: 'A' });
  else if (!comparable) fasterText = t('results.compare.notComparable', { what: difference(a, b, t, lab) });
  else if (winner === 'tie') fasterText = t('results.compare.tie');
  else if (winner) fasterText = t('results.compare.faster', { run: winner });
  return {
    key,
    label: labelOf(a ?? b, key, t, lab),
    presence: a && b ? 'both' : a ? 'A' : 'B',
    comparable,
    medianA: medianText(a, t),
    medianB: medianText(b, t),
    ratio,
    ratioText: ratio === null ? DASH : formatTimes(ratio),
    faster: winner,
    fasterText,
  };
}

// Named in the lab's words where the lab is known (pointLabel), else as recorded.
function labelOf(p: PointResult | undefined, key: string, t: Translate, lab: LabDescriptor | undefined): string {
  if (!p) return key;
  return lab ? pointLabel(p, lab, t) : p.label;
}

// Run A's points in its order, then those only run B has, in B's. With their lab's descriptor, in the language shown.
export function compareRows(a: RunRecord, b: RunRecord, t: Translate, lab?: LabDescriptor): CompareRow[] {
  const inB = new Map(b.points.map((p) => [p.key, p]));
  const inA = new Map(a.points.map((p) => [p.key, p]));
  const rows = a.points.map((p) => row(p.key, p, inB.get(p.key), t, lab));
  for (const p of b.points) if (!inA.has(p.key)) rows.push(row(p.key, undefined, p, t, lab));
  return rows;
}

export interface ParamRow {
  name: string;
  label: string;
  a: string;
  b: string;
  differs: boolean;
}

function paramText(value: ParamValue | undefined, p: { unit: string; unitId?: string; unitOne?: string }, t: Translate | undefined): string {
  if (value === undefined) return DASH;
  if (t) return paramValueText(p, value, t, numberLocale());
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'number' && p.unit === 'bytes') return formatBytes(value);
  const unit = unitFor(p, value);
  return unit && typeof value === 'number' ? `${value} ${unit}` : String(value);
}

// The parameters described, in their order, then any a record has that they do not name (a record of an older
// version of the lab, or of another lab). With the reader's words (t), a value reads as the history and a run's page
// read it (the CPU threads' 0 as "all cores").
export function paramRows(a: RunRecord, b: RunRecord, known: readonly ParameterDescriptor[], t?: Translate): ParamRow[] {
  const names = [...known.map((p) => p.name)];
  for (const name of [...Object.keys(a.params), ...Object.keys(b.params)]) if (!names.includes(name)) names.push(name);
  return names.map((name) => {
    const descriptor = known.find((p) => p.name === name);
    const unit = descriptor ?? { unit: '' };
    return {
      name,
      label: descriptor?.label ?? name,
      a: paramText(a.params[name], unit, t),
      b: paramText(b.params[name], unit, t),
      differs: JSON.stringify(a.params[name]) !== JSON.stringify(b.params[name]),
    };
  });
}
