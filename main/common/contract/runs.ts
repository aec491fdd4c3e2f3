// The runs service: a lab run started, watched through its events, read back, exported and deleted.
import { PEER_LIBRARIES } from '../peer-protocol.ts';
import { z } from 'zod';

import { PARAM_VALUES } from '../lab-descriptor.ts';
import { DEVICE_ID } from '../measurement.ts';
import { MESSAGE, RUN_ID_PATTERN, RUN_RECORD, RUN_SUMMARY } from '../run-record.ts';
import { arg, event, method, service } from './spec.ts';
import type { ServiceOf } from './spec.ts';

export const RUN_ID = z.string().regex(RUN_ID_PATTERN, 'a run id (1 to 120 letters, digits, . _ -)');
const RUN_ID_ARGUMENT = arg('runId', RUN_ID, 'a run id');

// The shape only: the lab's own schema then checks the values, and names the parameter at fault.
export const START_RUN_REQUEST = z.strictObject({
  lab: z.string().min(1).max(64),
  // "cpu" or "cuda:N": the GPU the lab compares against the CPU. Absent: the first CUDA device, else the CPU.
  device: DEVICE_ID.optional(),
  params: PARAM_VALUES.optional(),
  // The Python peers' libraries whose series (the course's own code) are timed beside the engine's where this
  // machine has them; absent: all of them; []: none. Which interpreter runs them is the machine's setting, never the
  // request's.
  peers: z.array(z.enum(PEER_LIBRARIES)).max(PEER_LIBRARIES.length).optional(),
  // false: a device another run is measuring on refuses this run at once (DEVICE_BUSY) instead of waiting for it.
  wait: z.boolean().optional(),
});
export type StartRunRequest = z.infer<typeof START_RUN_REQUEST>;

export const RUN_PROGRESS = z.strictObject({
  pointsDone: z.int().min(0),
  pointsTotal: z.int().min(0),
  // Share of the planned work done, weighted by the expected cost of each point (0 … 1).
  fraction: z.number().min(0).max(1),
  // Seconds left, from the time the finished points took against their expected cost; null before the first point.
  etaSeconds: z.number().nullable(),
  // What is being measured, as a message of the lab's catalog: a point's name, or the analysis at the end.
  current: MESSAGE,
});
export type RunProgress = z.infer<typeof RUN_PROGRESS>;

const ERROR = RUN_RECORD.shape.error.unwrap();

export const RUN_EVENT = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('started'),
    runId: RUN_ID,
    lab: z.string(),
    device: z.string(),
    params: PARAM_VALUES,
    pointsTotal: z.int().min(0),
    // The planned points that will not run on this machine, by reason (all the GPU series on a machine without a
    // GPU), so that a table can say so once instead of on every row.
    waived: z.array(z.strictObject({ reason: z.string(), points: z.int().min(0), why: MESSAGE.optional() })).optional(),
    // Every point planned, in order: the chart lays out its categories, legend and sizes from the start.
    plan: RUN_RECORD.shape.plan,
  }),
  z.strictObject({ kind: z.literal('progress'), runId: RUN_ID, progress: RUN_PROGRESS }),
  z.strictObject({ kind: z.literal('point'), runId: RUN_ID, point: RUN_RECORD.shape.points.element }),
  z.strictObject({ kind: z.literal('finding'), runId: RUN_ID, finding: RUN_RECORD.shape.findings.element }),
  z.strictObject({ kind: z.literal('completed'), runId: RUN_ID, summary: RUN_SUMMARY }),
  z.strictObject({ kind: z.literal('cancelled'), runId: RUN_ID, summary: RUN_SUMMARY }),
  z.strictObject({ kind: z.literal('failed'), runId: RUN_ID, summary: RUN_SUMMARY, error: ERROR }),
]);
export type RunEvent = z.infer<typeof RUN_EVENT>;

// 'csv': one row per point with its statistics; 'csv-samples': one row per raw sample.
export const EXPORT_FORMAT = z.enum(['json', 'csv', 'csv-samples']);
export type ExportFormat = z.infer<typeof EXPORT_FORMAT>;

export const EXPORTED_RUN = z.strictObject({
  filename: z.string(),
  mimeType: z.string(),
  text: z.string(),
});
export type ExportedRun = z.infer<typeof EXPORTED_RUN>;

export const RUNS_CONTRACT = service({
  startRun: method(
    [arg('request', START_RUN_REQUEST, 'a run request {lab: a lab id; device?: "cpu" or "cuda:N"; params?: parameter name → a number, a text or a list of either}')],
    z.strictObject({ runId: RUN_ID }),
  ),
  cancelRun: method([RUN_ID_ARGUMENT], z.void()),
  listRuns: method([], z.array(RUN_SUMMARY)),
  getRun: method([RUN_ID_ARGUMENT], RUN_RECORD),
  // The latest progress of a run in progress, or null for a run that is not running: what a page reloaded in the
  // middle of a run shows until the next progress event.
  getRunProgress: method([RUN_ID_ARGUMENT], RUN_PROGRESS.nullable()),
  deleteRun: method([RUN_ID_ARGUMENT], z.void()),
  exportRun: method([RUN_ID_ARGUMENT, arg('format', EXPORT_FORMAT, 'json, csv or csv-samples')], EXPORTED_RUN),
  onDidChangeRun: event(RUN_EVENT),
});

export type RunsService = ServiceOf<typeof RUNS_CONTRACT>;
