// What a catalog card says of a lab it has no chart for: what the lab measures (its chart's quantity, against what),
// the most its run with the defaults takes on the chosen device (main's bound from the plan's time budgets, rounded
// up, as an upper bound is), and which lab to start with: the first of the course not run yet.
import type { LabDescriptor } from '../../../main/common/lab-descriptor.ts';
import type { RunSummary } from '../../../main/common/run-record.ts';
import type { Translate } from '../../../main/common/pure/charts/text.ts';

const QUANTITY: Record<LabDescriptor['chart']['y']['quantity'], string> = { 'GB/s': 'gbps', 'GFLOP/s': 'gflops', 'TFLOP/s': 'tflops', ms: 'ms', speedup: 'speedup' };
const BY: Record<LabDescriptor['chart']['x']['quantity'], string> = { bytes: 'bytes', elements: 'elements', 'matrix-n': 'matrixN', category: 'category' };

export function measuresText(lab: LabDescriptor, t: Translate): string {
  // The engine's own series: the course's Python beside them runs only where the machine has it, and a WebGPU
  // adapter's own series only there.
  const count = lab.series.filter((s) => s.peer === undefined && s.webgpuOnly === undefined).length;
  return t('labs.catalog.measures', {
    quantity: t(`labs.catalog.quantity.${QUANTITY[lab.chart.y.quantity]}`),
    by: t(`labs.catalog.by.${BY[lab.chart.x.quantity]}`, { count }),
  });
}

// Rounded up, to the second under a minute, the minute under an hour.
export function atMostTime(seconds: number, t: Translate): string {
  if (seconds < 60) return t('labs.catalog.time.seconds', { s: Math.max(1, Math.ceil(seconds)) });
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return t('labs.catalog.time.minutes', { m: minutes });
  return t('labs.catalog.time.hours', { h: Math.floor(minutes / 60), m: minutes % 60 });
}

// `device`: the device's words ("cuda:0", "the CPU"). Nothing measured there at all: said so, not "at most 0 s".
export function atMostText(seconds: number, device: string, t: Translate): string {
  return seconds > 0 ? t('labs.catalog.atMost', { time: atMostTime(seconds, t), device }) : t('labs.catalog.nothingToMeasure', { device });
}

// The first lab, in the course's order, with no finished run: where to start. None once every lab has one.
export function startHere(labs: readonly LabDescriptor[], lastRuns: ReadonlyMap<string, RunSummary>): string | null {
  return labs.find((l) => !lastRuns.has(l.id))?.id ?? null;
}
