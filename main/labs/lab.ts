// What a lab is to the engine: a descriptor (for the UI and the CLI), a plan (the measurements to take on this
// system) and an analysis (figures and findings computed from the measured points).
import type { PeerLibrary, PeersReport } from '../common/peer-protocol.ts';
import type { DeviceSummary } from '../common/devices.ts';
import type { LabDescriptor, ParamValues } from '../common/lab-descriptor.ts';
import type { Clock, MeasurementInput } from '../common/measurement.ts';
import type { Message } from '../common/pure/message.ts';
import type { Finding, PointPeak, PointResult, PointWork } from '../common/run-record.ts';

export interface PlanContext {
  cpu: DeviceSummary;
  cpuThreads: number;
  // The CUDA device the GPU series run on, or null with the reason they are waived.
  gpu: DeviceSummary | null;
  gpuWaivedReason: string;
  gpuWaivedWhy: Message | null;
  // The Python peers the run asked for and what the interpreter offers (null: none asked, or not probed: a plan made
  // to check sizes or to redraw a run); a lab's peer series are planned only for the libraries asked.
  peers?: { asked: readonly PeerLibrary[]; report: PeersReport | null };
}

export interface PlannedPoint {
  key: string;
  series: string;
  // The English of `name`, as the record keeps it for readers of its JSON and CSV.
  label: string;
  name: Message;
  x: number | null;
  device: string;
  work: PointWork;
  // The clock its figures will come from (the measurement's; the CPU's is the host's).
  clock: Clock;
  // The measurement, or null when the point is waived on this system (`waived` says why).
  measurement: MeasurementInput | null;
  waived: string | null;
  waivedWhy?: Message | null;
  // Expected seconds for the whole point (warm-up, repeats, verification): weights the progress and the ETA.
  expectedSeconds: number;
  // The theoretical peak its rate is compared with, where there is an honest one.
  peak?: PointPeak | null;
  // Why the point has no rate and no share of a peak, where its time is not the time of its counted work alone:
  // 'copies', copies across the bus and kernels in one time; 'clock-at-launch', a clock stopped before the work ended
  // (the pitfall it shows). Absent: its rate is its work ÷ its median.
  unrated?: 'copies' | 'clock-at-launch';
}

export interface LabAnalysis {
  summary: Record<string, number | null>;
  findings: Finding[];
}

export interface Lab {
  descriptor: LabDescriptor;
  plan(params: ParamValues, ctx: PlanContext): PlannedPoint[];
  // `cpu` is the CPU of the run, where the caller has it: a lab that reads its caches says nothing about them without.
  analyze(points: readonly PointResult[], params: ParamValues, gpu: DeviceSummary | null, cpu?: DeviceSummary | null): LabAnalysis;
}

export function num(params: ParamValues, name: string): number {
  const v = params[name];
  if (typeof v !== 'number') throw new Error(`lab parameter ${name} is not a number`);
  return v;
}

export function nums(params: ParamValues, name: string): number[] {
  const v = params[name];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'number')) throw new Error(`lab parameter ${name} is not a list of numbers`);
  return v as number[];
}

export function strs(params: ParamValues, name: string): string[] {
  const v = params[name];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new Error(`lab parameter ${name} is not a list of choices`);
  return v as string[];
}

