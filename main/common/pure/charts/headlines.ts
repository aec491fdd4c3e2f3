// A run's headline numbers, the ones a reader compares from machine to machine (main/common/reference-run.ts): in each
// series the measured point at its largest size, and every measured point of a chart of categories, each with its
// median's interval and its rate; the machine it ran on; and the run in the form of a reference result. Plain
// functions of a record, shared by the app, the PDF, `gpu-lab runs export --reference` and scripts/reference-table.mjs.
import { estimateOf } from '../claims.ts';
import { flatTranslate } from '../i18n/translate.ts';
import type { LabDescriptor } from '../../lab-descriptor.ts';
import { renderMessage } from '../message.ts';
import type { HeadlinePoint, MachineFacts, ReferenceRun } from '../../reference-run.ts';
import type { PointResult, RunRecord } from '../../run-record.ts';
import { pointRate } from './points.ts';

// The node a run ran on: Slurm's name for it, else the host's.
function nodeOf(record: RunRecord): string | null {
  return record.environment.slurm?.node ?? record.environment.runnerHost?.name ?? null;
}

export function machineOf(record: RunRecord): MachineFacts {
  const devices = record.environment.devices?.devices ?? [];
  const gpu = devices.find((d) => d.id === record.device && d.kind === 'cuda');
  const cpu = devices.find((d) => d.kind === 'cpu');
  const detail = (name: string): string | null => {
    const value = gpu?.details[name];
    return typeof value === 'string' ? value : null;
  };
  return {
    device: record.device,
    gpu: gpu?.name ?? null,
    cpu: cpu?.name ?? null,
    driver: gpu ? (record.environment.versions.nvidiaDriver ?? detail('driverVersion')) : null,
    cudaRuntime: gpu ? (record.environment.versions.cudaRuntime ?? detail('runtimeVersion')) : null,
    node: nodeOf(record),
  };
}

// Which physical device a run measured: its GPU by UUID where the record has one, else by node, ordinal and model;
// a CPU run by node and model. Two runs of one key ran on the same device.
export function deviceKeyOf(record: RunRecord): string {
  const m = machineOf(record);
  if (m.gpu === null) return `cpu|${m.node ?? '?'}|${m.cpu ?? '?'}`;
  const uuid = record.environment.gpuUuid ?? record.environment.devices?.devices.find((d) => d.id === record.device)?.details.uuid;
  return typeof uuid === 'string' ? `gpu|${uuid}` : `gpu|${m.node ?? '?'}|${m.device}|${m.gpu}`;
}

// The keys of a run's headline points, in the record's order.
export function headlineKeys(record: RunRecord): string[] {
  const largest = new Map<string, PointResult>();
  const keys: string[] = [];
  for (const p of record.points) {
    if (p.status !== 'ok' || !p.stats) continue;
    if (p.x === null) keys.push(p.key);
    else if ((largest.get(p.series)?.x ?? -Infinity) < p.x) largest.set(p.series, p);
  }
  const sized = new Set([...largest.values()].map((p) => p.key));
  return record.points.filter((p) => keys.includes(p.key) || sized.has(p.key)).map((p) => p.key);
}

// A measured point as a headline number; null for one with no time (failed, waived, cancelled).
export function headlineOf(p: PointResult, lab: LabDescriptor): HeadlinePoint | null {
  const e = estimateOf(p);
  if (!e || e.median <= 0 || e.low <= 0 || e.min <= 0) return null;
  const rate = pointRate(p, lab.chart.y.quantity);
  return {
    key: p.key,
    series: p.series,
    x: p.x,
    name: p.name ?? null,
    label: p.label,
    on: p.device === 'cpu' ? 'cpu' : 'gpu',
    work: { ...p.work },
    clock: p.clock,
    median: e.median,
    low: e.low,
    high: e.high,
    min: e.min,
    max: e.max,
    samples: e.samples,
    rate: rate ? { value: rate.value, unit: rate.unit } : null,
  };
}

export function headlinePoints(record: RunRecord, lab: LabDescriptor): HeadlinePoint[] {
  const byKey = new Map(record.points.map((p) => [p.key, p]));
  return headlineKeys(record).flatMap((key) => {
    const p = byKey.get(key);
    const h = p ? headlineOf(p, lab) : null;
    return h ? [h] : [];
  });
}

// A run as a reference result: its headline points, the machine named by its models and driver (not its node: a
// reference speaks for a GPU model, not for one machine).
export function referenceOf(record: RunRecord, lab: LabDescriptor): ReferenceRun {
  return {
    format: 'gpu-lab-reference',
    version: 2,
    lab: record.lab,
    runId: record.id,
    measuredAt: record.createdAt,
    appVersion: record.appVersion,
    analysisVersion: record.analysisVersion ?? null,
    machine: { ...machineOf(record), node: null },
    params: record.params,
    points: headlinePoints(record, lab),
  };
}

// Two points measured the same thing: the same size and the same work (FLOPs and bytes).
export function sameWork(a: Pick<HeadlinePoint, 'x' | 'work'>, b: Pick<HeadlinePoint, 'x' | 'work'>): boolean {
  return a.x === b.x && a.work.flops === b.work.flops && a.work.bytes === b.work.bytes;
}

// A headline point named in the lab's words, in the language of the lab's descriptor (as pointLabel names a point
// that has a name); as recorded where it has none.
export function headlineLabel(h: HeadlinePoint, lab: LabDescriptor | undefined): string {
  if (!lab || !h.name) return h.label;
  const locale = lab.locale ?? 'en';
  return renderMessage(h.name, flatTranslate(lab.messages ?? {}, locale), locale);
}
