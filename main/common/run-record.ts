// A run as it is stored, exported and reported: the lab, its parameters, the device, every sample, the statistics,
// the verification, the findings and how it ended. Schemas first, every type derived from them. Versioned: a record
// of an older version is read into this one (run-record-read.ts), a newer one refused, naming both versions.
import { z } from 'zod';

import { ERROR_CODES } from './errors.ts';
import { DEVICE_LIST } from './devices.ts';
import { PARAM_VALUES } from './lab-descriptor.ts';
import { orderFindings } from './pure/finding-order.ts';
import { MESSAGE } from './message-schema.ts';
import { CLOCK, CLOCK_RESOLUTION, PEER_LIBRARIES, POINT_MEMORY, SAMPLING, TELEMETRY_SNAPSHOT, VERIFICATION } from './measurement.ts';

// The schema of a sentence as data, kept beside the devices' (message-schema.ts), read here by its old name too.
export { MESSAGE };

export type { PointSampling } from './measurement.ts';

// 2: a point names the clock its figures come from in the measurement's words (`clock`: events, host, host-nosync),
// where version 1 had `timer` (device, host); its statistics always carry the median's interval; a finding is a
// message with a unit id.
export const RUN_SCHEMA_VERSION = 2;

export const ERROR_PAYLOAD = z.strictObject({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

// The statistics of a point's samples (statistics.ts summarize): the median with its 95 % confidence interval (null
// with fewer than 6 samples), and whether that interval reaches further than ±5 % of the median (`noisy`).
export const STATS = z.strictObject({
  count: z.number(),
  median: z.number(),
  mean: z.number(),
  std: z.number(),
  min: z.number(),
  max: z.number(),
  p95: z.number(),
  q1: z.number(),
  q3: z.number(),
  iqr: z.number(),
  ciLow: z.number().nullable(),
  ciHigh: z.number().nullable(),
  noisy: z.boolean(),
});
export type SampleStats = z.infer<typeof STATS>;

// ok: measured and verified. failed: an error or a wrong result (never shown as a time). waived: could not run on
// this system (no GPU, library missing), with the reason. cancelled: the run stopped before it.
export const POINT_STATUSES = ['ok', 'failed', 'waived', 'cancelled'] as const;
export type PointStatus = (typeof POINT_STATUSES)[number];

// The work a point counts: FLOPs, the fewest bytes the operation must move through memory (or across the bus, for
// copies), elements.
export const POINT_WORK = z.strictObject({ flops: z.number(), bytes: z.number(), elements: z.number() });
export type PointWork = z.infer<typeof POINT_WORK>;

// The theoretical peak a point's rate is a share of: the memory bandwidth for a resident elementwise kernel or a
// device→device copy, PCIe for a copy across the bus, the unit a GEMM of that type runs on (main/common/pure/gpu-peaks.ts:
// the FMA lanes, or the tensor cores for fp64 on sm_80/sm_90 and for tf32, fp16, bf16 and int8). Absent where no
// honest yardstick exists (the CPU, a GPU the peak table does not know, data that fits in L2, times that mix copies
// and kernels, a clock stopped early). `source`: the GPU peak table at the device's clock (common/pure/gpu-peaks.ts),
// NVIDIA's datasheet for the card (gpu-peaks.ts datasheetPeak, preferred where known), the CPU's estimate
// (common/cpu-peaks.ts), a guide that a measured rate may pass, or a measurement (the CPU's memory bandwidth,
// host/cpu-bandwidth.ts), which a point may pass too; absent in records from before it was recorded, all of them the
// table's.
export const POINT_PEAK = z.strictObject({
  name: z.enum(['memory', 'pcie', 'fp32', 'fp64', 'fp64-tensor', 'tf32-tensor', 'fp16-tensor', 'bf16-tensor', 'int8-tensor']),
  unit: z.enum(['GB/s', 'GFLOP/s', 'GOP/s']),
  value: z.number(),
  source: z.enum(['table', 'datasheet', 'estimate', 'measured']).optional(),
});
export type PointPeak = z.infer<typeof POINT_PEAK>;

export const POINT = z.strictObject({
  key: z.string(),
  series: z.string(),
  // The point in English, as a reader of the JSON or CSV reads it; `name` is the same as a message of the lab's
  // catalog, which the app, the CLI and the PDF read in their language (absent in records from before it was kept).
  label: z.string(),
  name: MESSAGE.optional(),
  // The size on the chart's x axis (bytes, elements or N), or null for category charts.
  x: z.number().nullable(),
  device: z.string(),
  status: z.enum(POINT_STATUSES),
  // Why it has no time, in English; `why` says it as a message ("reasons" part), read in the reader's language
  // (absent in records from before it was kept, and where the reason is the point's error).
  reason: z.string().nullable(),
  why: MESSAGE.optional(),
  error: ERROR_PAYLOAD.nullable(),
  work: POINT_WORK,
  implementation: z.string().nullable(),
  threads: z.number().nullable(),
  warmup: z.number(),
  repeats: z.number(),
  // The clock its figures come from (the measurement's: CUDA events, the host's clock after a synchronise, or the
  // host's clock stopped at the launch; the CPU's is the host's): its samples that count are deviceMs for events,
  // hostMs otherwise (statistics.ts countedSamples).
  clock: CLOCK,
  hostMs: z.array(z.number()),
  deviceMs: z.array(z.number()).nullable(),
  stats: STATS.nullable(),
  gflops: z.number().nullable(),
  gbps: z.number().nullable(),
  verification: VERIFICATION.nullable(),
  telemetry: z.strictObject({ start: TELEMETRY_SNAPSHOT, end: TELEMETRY_SNAPSHOT }).nullable(),
  // Recorded since the app's first release; records from the command line before it have none.
  peak: POINT_PEAK.nullable().optional(),
  // Runs averaged in each sample: 1, or more where single runs are too short to time one by one. Absent in
  // records from before it was recorded (1).
  executionsPerSample: z.int().min(1).optional(),
  // How many samples the engine took and why it stopped (absent in records from before sampling was adaptive).
  sampling: SAMPLING.optional(),
  // How fine a WebGPU point's clocks are (measurement.ts CLOCK_RESOLUTION); absent on other devices.
  clockResolution: CLOCK_RESOLUTION.optional(),
  // The memory it held at its peak, where its workload says (the text-to-image lab).
  memory: POINT_MEMORY.optional(),
});
export type PointResult = z.infer<typeof POINT>;

// The point's rate as a share of its peak (0.82 for 82 %), or null without a peak or a rate.
export function shareOfPeak(p: PointResult): number | null {
  if (!p.peak || p.status !== 'ok') return null;
  const rate = p.peak.unit === 'GB/s' ? p.gbps : p.gflops;
  return rate === null || p.peak.value <= 0 ? null : rate / p.peak.value;
}

// What a finding's value is, by id (the words for it are the reader's): a speedup (×), a rate, a share of a whole
// (0.82 for 82 %), a matrix size N, a count of elements, bytes or points, a time; 'none' where the value is a bare
// number.
export const FINDING_UNITS = ['times', 'GB/s', 'GFLOP/s', 'GOP/s', 'share', 'N', 'elements', 'bytes', 'ms', 'points', 'none'] as const;
export type FindingUnit = (typeof FINDING_UNITS)[number];

// A finding is a message (its sentence as an id and its numbers, message.ts) and the figure it is about: no words of
// any language are stored, so that it reads in the language of whoever opens the run.
// Where a finding's value can lie, from the confidence intervals of the medians it is made of (common/pure/claims.ts); a
// side is null where the measurements leave it open (a break-even that may lie beyond the sizes measured).
export const FINDING_INTERVAL = z.strictObject({ low: z.number().nullable(), high: z.number().nullable() });
export type FindingInterval = z.infer<typeof FINDING_INTERVAL>;

export const FINDING = z.strictObject({
  id: z.string(),
  message: MESSAGE,
  value: z.number().nullable(),
  unit: z.enum(FINDING_UNITS),
  tone: z.enum(['info', 'warning']),
  // Absent where the lab gives none for this finding, and in records from before it was kept.
  interval: FINDING_INTERVAL.optional(),
});
export type Finding = z.infer<typeof FINDING>;

// The Slurm job a run ran in, as Slurm's environment names it: the job sbatch printed (an array's own id), the array
// task (null outside an array), the job step (each node's under gpu-lab batch --nodes; null in the batch script
// itself), the node by its name in Slurm (which the machine's host name may spell longer) and the cluster (job ids
// repeat from one cluster to another).
// A node's name in Slurm: what a host name may hold, and nothing a terminal would act on.
export const NODE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

export const SLURM_IDS = z.strictObject({
  jobId: z.string().regex(/^\d{1,12}$/),
  arrayTaskId: z.int().min(0).nullable(),
  stepId: z.string().regex(/^\d{1,12}$/).nullable(),
  node: z.string().regex(NODE_NAME).nullable(),
  cluster: z.string().min(1).max(128).nullable(),
});
export type SlurmIds = z.infer<typeof SLURM_IDS>;

// A planned point as the chart needs it before it is measured: its key, series, size and name, and for a point that
// will be waived, why (`reason` null for a point to measure).
export const PLANNED_POINT = POINT.pick({ key: true, series: true, label: true, name: true, x: true, reason: true, why: true });
export type PlanEntry = z.infer<typeof PLANNED_POINT>;

// waived: the run ended with nothing measured, every point needing what this machine lacks (a GPU, a library).
export const RUN_STATUSES = ['queued', 'running', 'completed', 'waived', 'cancelled', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

// A machine as a run record names it: its host name, and its machine and boot ids as GPU Lab hashes them (null where
// the system has none).
export const RUNNER_HOST = z.strictObject({ name: z.string().max(255), machineId: z.string().max(64).nullable(), bootId: z.string().max(64).nullable() });
export type RunnerHost = z.infer<typeof RUNNER_HOST>;

export const RUN_ID_PATTERN = /^[A-Za-z0-9._-]{1,120}$/;

export const RUN_RECORD = z.strictObject({
  schemaVersion: z.literal(RUN_SCHEMA_VERSION),
  id: z.string().regex(RUN_ID_PATTERN),
  lab: z.string(),
  labTitle: z.string(),
  device: z.string(),
  params: PARAM_VALUES,
  // The Python peers' libraries the run asked to time beside the engine (absent: none, as in runs before them).
  peers: z.array(z.enum(PEER_LIBRARIES)).optional(),
  // The points the lab planned, in order, as the run's chart lays them out before they are measured (its categories,
  // legend, panels and sizes hold still as the points arrive). Absent in runs recorded before it; a finished run's
  // points are its plan anyway, every one of them measured, waived or cancelled.
  plan: z.array(PLANNED_POINT).max(100_000).optional(),
  status: z.enum(RUN_STATUSES),
  error: ERROR_PAYLOAD.nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  appVersion: z.string(),
  environment: z.strictObject({
    devices: DEVICE_LIST.nullable(),
    // Free-form versions: addon build, compiler, BLAS, CUDA driver and runtime where present.
    versions: z.record(z.string(), z.string()),
    hostPid: z.number().nullable(),
    // The process that ran the lab: a record left queued or running by a process that is gone was interrupted.
    runnerPid: z.number().nullable().optional(),
    // When that process started, in clock ticks after boot (/proc/<pid>/stat, Linux only): a pid the system has since
    // given to another process has another start time, so the record is not taken for running.
    runnerStartTicks: z.number().nullable().optional(),
    // The machine that process ran on (engine/process-identity.ts): its pid and start time are judged there alone,
    // never by a machine that shares the data folder. Absent in records from before it was kept.
    runnerHost: RUNNER_HOST.optional(),
    // The share of the CPUs' busy time a hypervisor gave to other guests while the points were measured (Linux's
    // steal time; null where it cannot be read): on a shared virtual machine, the noise no method removes.
    cpuSteal: z.number().min(0).max(1).nullable().optional(),
    // The Slurm job that ran it (gpu-lab batch), absent outside one (main/runs/run-place.ts).
    slurm: SLURM_IDS.optional(),
    // The GPU it measured on, by the UUID the CUDA runtime gives it (GPU-…): the same physical GPU whatever ordinal
    // a node's CUDA_VISIBLE_DEVICES made of it; null where the run measured on the CPU.
    gpuUuid: z.string().max(80).nullable().optional(),
  }),
  points: z.array(POINT),
  // Figures the lab derives from its points (speedups, break-even sizes), by name, for tables and reports.
  summary: z.record(z.string(), z.number().nullable()),
  findings: z.array(FINDING),
  warnings: z.array(z.string()),
  // The version of the labs' analysis its summary and findings come from (labs/index.ts); absent before it was kept.
  analysisVersion: z.int().min(1).optional(),
});
export type RunRecord = z.infer<typeof RUN_RECORD>;

// A run as the history lists it: enough to tell runs apart without opening them (the parameters it ran with, the
// finding it leads with); summarizeRun makes one from a record.
export const RUN_SUMMARY = z.strictObject({
  id: RUN_RECORD.shape.id,
  lab: z.string(),
  labTitle: z.string(),
  device: z.string(),
  status: RUN_RECORD.shape.status,
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  points: z.int().min(0),
  errorCode: z.string().nullable(),
  params: RUN_RECORD.shape.params,
  headline: FINDING.nullable(),
});
export type RunSummary = z.infer<typeof RUN_SUMMARY>;

// `headline`: the lab's headline finding ids, most telling first (lab-descriptor.ts); without them, the run's first
// finding about the lab (finding-order.ts).
export function summarizeRun(r: RunRecord, headline: readonly string[] = []): RunSummary {
  return {
    id: r.id,
    lab: r.lab,
    labTitle: r.labTitle,
    device: r.device,
    status: r.status,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
    points: r.points.length,
    errorCode: r.error?.code ?? null,
    params: r.params,
    headline: orderFindings(r.findings, headline).headline,
  };
}
