// The reports service: the PDF of a run, of two compared, of kernel runs, and of every lab on one device.
import { z } from 'zod';

import { LAB_IDS } from '../lab-descriptor.ts';
import { LOCALES } from '../pure/locale.ts';
import { DEVICE_ID } from '../measurement.ts';
import { HEADLINE_POINT, MACHINE_FACTS } from '../reference-run.ts';
import { RUN_RECORD } from '../run-record.ts';
import { arg, method, service } from './spec.ts';
import type { ServiceOf } from './spec.ts';
import { RUN_SUMMARY } from '../run-record.ts';
import { RUN_ID } from './runs.ts';

const LOCALE = z.enum(LOCALES);

// The shape only: the report's own checks name the field at fault and say why (too long, a control character).
export const REPORT_REQUEST = z
  .strictObject({
    // One run, or two for a comparison (run A first); none where the report holds kernel runs only.
    runIds: z.array(RUN_ID).max(2),
    // Kernel playground runs, each with its source, verification and chart, after the runs.
    kernelRunIds: z.array(RUN_ID).max(20).optional(),
    // Said on the title page and in the PDF's metadata; the app remembers what the user typed last.
    author: z.string().optional(),
    course: z.string().optional(),
    // The report's language and number format; English without.
    locale: LOCALE.optional(),
  })
  .refine((r) => r.runIds.length + (r.kernelRunIds?.length ?? 0) > 0, 'no run and no kernel run');
export type ReportRequest = z.infer<typeof REPORT_REQUEST>;

// The report of every lab on one device: the newest finished run of each, in the app's order, with a table of
// contents; a lab without a finished run there is listed as not run. The student's deliverable for the course.
export const LABS_REPORT_REQUEST = z.strictObject({
  device: DEVICE_ID,
  author: z.string().optional(),
  course: z.string().optional(),
  locale: LOCALE.optional(),
});
export type LabsReportRequest = z.infer<typeof LABS_REPORT_REQUEST>;

// What a labs report on `device` holds: the run chosen for each lab (a completed one before a cancelled or failed
// one, the newest first), in the app's order of labs, and the labs with none.
export const LABS_REPORT_CONTENTS = z.strictObject({
  device: z.string(),
  runs: z.array(RUN_SUMMARY),
  missing: z.array(z.string()),
});
export type LabsReportContents = z.infer<typeof LABS_REPORT_CONTENTS>;

export const REPORT_FILE = z.strictObject({
  filename: z.string(),
  mimeType: z.literal('application/pdf'),
  // The PDF's bytes in base64: both wires carry JSON.
  base64: z.string(),
  pages: z.int().min(1),
});
export type ReportFile = z.infer<typeof REPORT_FILE>;

// One lab across every device that has a run of it (main/common/pure/charts/device-comparison.ts): a column per device (the
// newest run there, a completed one first), a row per headline point; each cell that device's median with its
// interval and rate, and against the first device, for like points only, its time ÷ the first's and which is faster.
export const DEVICE_COLUMN = MACHINE_FACTS.extend({ runId: RUN_ID, status: RUN_RECORD.shape.status, createdAt: z.string(), appVersion: z.string() });
export type DeviceColumn = z.infer<typeof DEVICE_COLUMN>;

export const DEVICE_CELL = z.strictObject({
  status: z.enum(['ok', 'failed', 'waived', 'cancelled', 'absent']),
  point: HEADLINE_POINT.nullable(),
  // This device's time ÷ the first's, with the range the two intervals allow; null for the first, or unlike points.
  ratio: z.strictObject({ value: z.number(), low: z.number(), high: z.number() }).nullable(),
  // This device against the first: faster or slower only where the intervals separate.
  order: z.enum(['faster', 'slower', 'indistinguishable']).nullable(),
  // Both measured the point, but not the same work (another size): no ratio, no verdict.
  unlike: z.boolean(),
});
export type DeviceCell = z.infer<typeof DEVICE_CELL>;

export const DEVICE_ROW = z.strictObject({
  key: z.string(),
  series: z.string(),
  x: z.number().nullable(),
  name: HEADLINE_POINT.shape.name,
  label: z.string(),
  cells: z.array(DEVICE_CELL),
});
export type DeviceRow = z.infer<typeof DEVICE_ROW>;

export const DEVICES_COMPARISON = z.strictObject({
  lab: z.string(),
  columns: z.array(DEVICE_COLUMN),
  rows: z.array(DEVICE_ROW),
});
export type DevicesComparison = z.infer<typeof DEVICES_COMPARISON>;

// The PDF of one lab across devices, or of every lab with a run (absent: all).
export const DEVICES_REPORT_REQUEST = z.strictObject({
  labs: z.array(z.enum(LAB_IDS)).min(1).max(LAB_IDS.length).optional(),
  author: z.string().optional(),
  course: z.string().optional(),
  locale: LOCALE.optional(),
});
export type DevicesReportRequest = z.infer<typeof DEVICES_REPORT_REQUEST>;

const DEVICE_ARGUMENT = arg('device', DEVICE_ID, 'a device id: "cpu" or "cuda:N"');

export const REPORTS_CONTRACT = service({
  // The PDF report of a run that has ended, or of two compared. A refused field or run is INVALID_ARGUMENT whose
  // details name it and say why (`reason`); a run that does not exist is NOT_FOUND.
  writeReport: method(
    [arg('request', REPORT_REQUEST, 'a report request {runIds: one run id, or two to compare; kernelRunIds?: up to 20 kernel runs; author?; course?; locale?: en or es}')],
    REPORT_FILE,
  ),
  labsReportContents: method([DEVICE_ARGUMENT], LABS_REPORT_CONTENTS),
  // NOT_FOUND when no lab has a finished run on the device.
  writeLabsReport: method([arg('request', LABS_REPORT_REQUEST, 'a labs report request {device: "cpu" or "cuda:N"; author?; course?; locale?: en or es}')], REPORT_FILE),
  compareDevices: method([arg('lab', z.enum(LAB_IDS), `a lab id: ${LAB_IDS.join(', ')}`)], DEVICES_COMPARISON),
  // NOT_FOUND when none of the labs has a finished run.
  writeDevicesReport: method([arg('request', DEVICES_REPORT_REQUEST, 'a devices report request {labs?: lab ids; author?; course?; locale?: en or es}')], REPORT_FILE),
});

export type ReportsService = ServiceOf<typeof REPORTS_CONTRACT>;
