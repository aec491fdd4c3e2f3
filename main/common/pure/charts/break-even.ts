// The break-even sizes a run's summary holds, per series. The labs store them under the series' name:
// elementwise-breakeven as `${op}.${path}.breakEvenSize` (series `${op}-${path}`), matmul-breakeven as
// `${series}.breakEvenN`; each with its bounds `…AtMost` (reached at the smallest size) and `…Above` (never reached
// up to that size), of which at most one of the three is set.
import type { LabDescriptor } from '../../lab-descriptor.ts';
import type { RunRecord } from '../../run-record.ts';

export interface BreakEvenEntry {
  series: string;
  size: number | null;
  atMost: number | null;
  above: number | null;
}

const NAMES = [
  { size: 'breakEvenSize', atMost: 'breakEvenAtMost', above: 'breakEvenAbove' },
  { size: 'breakEvenN', atMost: 'breakEvenNAtMost', above: 'breakEvenNAbove' },
] as const;

function value(summary: RunRecord['summary'], key: string): number | null {
  const v = summary[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

// The prefixes a series' figures may be stored under: its key, or its key with the operation split off by a dot.
function prefixes(series: string): string[] {
  const dash = series.indexOf('-');
  return dash > 0 ? [series, `${series.slice(0, dash)}.${series.slice(dash + 1)}`] : [series];
}

export function breakEvens(record: RunRecord, lab: LabDescriptor): BreakEvenEntry[] {
  const entries: BreakEvenEntry[] = [];
  for (const s of lab.series) {
    if (s.baseline === undefined) continue;
    for (const prefix of prefixes(s.key)) {
      const found = NAMES.find((n) => `${prefix}.${n.size}` in record.summary);
      if (!found) continue;
      entries.push({
        series: s.key,
        size: value(record.summary, `${prefix}.${found.size}`),
        atMost: value(record.summary, `${prefix}.${found.atMost}`),
        above: value(record.summary, `${prefix}.${found.above}`),
      });
      break;
    }
  }
  return entries;
}

// The speedup a break-even is defined by: the elementwise lab's `target` parameter; the matrix lab's crossing is 1×.
export function breakEvenTarget(record: RunRecord): number {
  const target = record.params.target;
  return typeof target === 'number' && target > 0 ? target : 1;
}
