// The one API of GPU Lab, the same in the Electron app (over IPC) and in serve mode (over a WebSocket): one
// interface per service, methods return Promises, events are subscriptions named onDidX. Errors arrive as
// GpuLabError payloads {code, message, details}.
import { z } from 'zod';

import type { DeviceReport, Telemetry } from './device-report.ts';
import type { DeviceList } from './devices.ts';
import type { LabDescriptor, ParamValues } from './lab-descriptor.ts';
import { DEVICE_ID } from './measurement.ts';
import type { ErrorPayload } from './errors.ts';
import type { Finding, PointResult, RunRecord, RunSummary } from './run-record.ts';
import type { Locale } from './locale.ts';
import type { PlaygroundService } from './playground.ts';

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (event: T) => void) => Disposable;

export interface DevicesService {
  listDevices(): Promise<DeviceList>;
  // Everything `gpu-lab devices` shows: the list, the CUDA inventory (versions, libraries, attributes, peaks with
  // their formulas) and a telemetry reading per CUDA device.
  inspectDevices(): Promise<DeviceReport>;
  // One NVML reading of a CUDA device ("cuda:0"), for the inspector's live panel; `available` is false without NVML.
  readTelemetry(device: string): Promise<Telemetry>;
}

export interface KernelSourceText {
  // The path a lab names in its kernels (shaders/cuda/elementwise.cu, native/cpu/elementwise.cc).
  file: string;
  language: 'cuda' | 'cpp';
  text: string;
}

export interface LabsService {
  // In `locale` (English without): the words, and the templates the renderer renders findings with.
  listLabs(locale?: Locale): Promise<LabDescriptor[]>;
  // The source of a file some lab names as a kernel it runs; any other path is NOT_FOUND.
  kernelSource(file: string): Promise<KernelSourceText>;
  // The parameters as a run would take them (defaults filled in), or INVALID_PARAMS whose message is the lab
  // schema's own and whose details name the parameter at fault: the form checks as the user types.
  validateParams(lab: string, params: Record<string, unknown>): Promise<ParamValues>;
}

export interface StartRunRequest {
  lab: string;
  // "cpu" or "cuda:N": the GPU the lab compares against the CPU. Absent: the first CUDA device, else the CPU.
  device?: string;
  params?: Record<string, unknown>;
}

export const START_RUN_REQUEST = z.strictObject({
  lab: z.string().min(1).max(64),
  device: DEVICE_ID.optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

export interface RunProgress {
  pointsDone: number;
  pointsTotal: number;
  // Share of the planned work done, weighted by the expected cost of each point (0 … 1).
  fraction: number;
  // Seconds left, from the time the finished points took against their expected cost; null before the first point.
  etaSeconds: number | null;
  current: string;
}

export type RunEvent =
  // `waived`: the planned points that will not run on this machine, by reason (all the GPU series on a machine
  // without a GPU), so that a table can say so once instead of on every row.
  | { kind: 'started'; runId: string; lab: string; device: string; params: ParamValues; pointsTotal: number; waived?: { reason: string; points: number }[] }
  | { kind: 'progress'; runId: string; progress: RunProgress }
  | { kind: 'point'; runId: string; point: PointResult }
  | { kind: 'finding'; runId: string; finding: Finding }
  | { kind: 'completed'; runId: string; summary: RunSummary }
  | { kind: 'cancelled'; runId: string; summary: RunSummary }
  | { kind: 'failed'; runId: string; summary: RunSummary; error: ErrorPayload };

export type ExportFormat = 'json' | 'csv' | 'csv-samples';

export interface ExportedRun {
  filename: string;
  mimeType: string;
  text: string;
}

export interface RunsService {
  startRun(request: StartRunRequest): Promise<{ runId: string }>;
  cancelRun(runId: string): Promise<void>;
  listRuns(): Promise<RunSummary[]>;
  getRun(runId: string): Promise<RunRecord>;
  // The latest progress of a run in progress, or null for a run that is not running: what a page reloaded in the
  // middle of a run shows until the next progress event.
  getRunProgress(runId: string): Promise<RunProgress | null>;
  deleteRun(runId: string): Promise<void>;
  // 'csv': one row per point with its statistics; 'csv-samples': one row per raw sample.
  exportRun(runId: string, format: ExportFormat): Promise<ExportedRun>;
  onDidChangeRun: Event<RunEvent>;
}

export interface ReportRequest {
  // One run, or two for a comparison (run A first); none where the report holds kernel runs only.
  runIds: string[];
  // Kernel playground runs, each with its source, verification and chart, after the runs.
  kernelRunIds?: string[];
  // Said on the title page and in the PDF's metadata; the app remembers what the user typed last.
  author?: string;
  course?: string;
  // The report's language and number format; English without.
  locale?: Locale;
}

// The report of every lab on one device: the newest finished run of each, in the app's order, with a table of
// contents; a lab without a finished run there is listed as not run. The student's deliverable for the course.
export interface LabsReportRequest {
  device: string;
  author?: string;
  course?: string;
  locale?: Locale;
}

// What a labs report on `device` holds: the run chosen for each lab (a completed one before a cancelled or failed
// one, the newest first), in the app's order of labs, and the labs with none.
export interface LabsReportContents {
  device: string;
  runs: RunSummary[];
  missing: string[];
}

export interface ReportFile {
  filename: string;
  mimeType: 'application/pdf';
  // The PDF's bytes in base64: both wires carry JSON.
  base64: string;
  pages: number;
}

export interface ReportsService {
  // The PDF report of a run that has ended, or of two compared. A refused field or run is INVALID_ARGUMENT whose
  // details name it and say why (`reason`); a run that does not exist is NOT_FOUND.
  writeReport(request: ReportRequest): Promise<ReportFile>;
  labsReportContents(device: string): Promise<LabsReportContents>;
  // NOT_FOUND when no lab has a finished run on the device.
  writeLabsReport(request: LabsReportRequest): Promise<ReportFile>;
}

export interface GpuLabApi {
  devices: DevicesService;
  labs: LabsService;
  runs: RunsService;
  reports: ReportsService;
  playground: PlaygroundService;
}
