// The class's numbers beside a run: for each number of the run's summary, the spread of the same number over the
// class's completed runs of the same lab, on the same device, with the same parameters (a break-even found on
// another set of sizes is not the same number). Anonymous: how many runs and students, the smallest, the median and
// the largest value; no name, no run id. The students' runs only: the teacher's are not the class's.
import type { ClassDistribution, ClassMetric } from '../common/contract/classroom.ts';
import type { ParamValues } from '../common/lab-descriptor.ts';
import type { RunRecord, RunSummary } from '../common/run-record.ts';
import { TEACHER } from './class-store.ts';
import type { Owner } from './class-store.ts';

// Keys that qualify another (a break-even's interval bounds and the flags that say it lies beyond the sizes
// measured), shown through the number they qualify.
const QUALIFIER = /(AtMost|Above|Low|High)$/;

// The flags of a break-even key: "x.breakEvenSize" has "x.breakEvenAtMost" and "x.breakEvenAbove"; "x.breakEvenN" has
// "x.breakEvenNAtMost" and "x.breakEvenNAbove".
function flagKeys(key: string): [string, string] | null {
  if (key.endsWith('breakEvenSize')) return [`${key.slice(0, -'Size'.length)}AtMost`, `${key.slice(0, -'Size'.length)}Above`];
  if (key.endsWith('breakEvenN')) return [`${key}AtMost`, `${key}Above`];
  return null;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export function sameParams(a: ParamValues, b: ParamValues): boolean {
  return canonical(a) === canonical(b);
}

function median(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? null) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function metricOf(key: string, runs: readonly { owner: Owner; summary: RunRecord['summary'] }[]): ClassMetric {
  const flags = flagKeys(key);
  const values: number[] = [];
  const students = new Set<Owner>();
  let outsideSizes = 0;
  for (const { owner, summary } of runs) {
    if (flags && flags.some((f) => typeof summary[f] === 'number')) {
      outsideSizes++;
      continue;
    }
    const v = summary[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    values.push(v);
    students.add(owner);
  }
  values.sort((a, b) => a - b);
  return { key, runs: values.length, students: students.size, min: values[0] ?? null, median: median(values), max: values.at(-1) ?? null, outsideSizes };
}

export interface DistributionSources {
  listRuns(): Promise<RunSummary[]>;
  getRun(id: string): Promise<RunRecord>;
  ownerOf(id: string): Owner | null;
}

export async function classDistribution(run: RunRecord, sources: DistributionSources): Promise<ClassDistribution> {
  const candidates = (await sources.listRuns()).filter((s) => s.lab === run.lab && s.device === run.device && s.status === 'completed');
  const classRuns: { owner: Owner; summary: RunRecord['summary'] }[] = [];
  for (const s of candidates) {
    const owner = sources.ownerOf(s.id);
    if (owner === null || owner === TEACHER) continue;
    const record = await sources.getRun(s.id).catch(() => null);
    if (record && sameParams(record.params, run.params)) classRuns.push({ owner, summary: record.summary });
  }
  const keys = Object.keys(run.summary).filter((k) => !QUALIFIER.test(k));
  return { lab: run.lab, device: run.device, params: run.params, metrics: keys.map((k) => metricOf(k, classRuns)) };
}
