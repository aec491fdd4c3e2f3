// The classroom service (serve mode's classroom: a teacher and named students on one server): who the caller is, the
// run queue as the caller may see it, the class's anonymous numbers beside a run, and the teacher's own methods. In
// the desktop app and in serve mode without a class the caller is alone ("solo"): the queue is empty and the class's
// methods answer that there is no class. Which role may call which method of the whole contract is the server's
// table (main/classroom/access.ts), not this file's.
import { z } from 'zod';

import { PARAM_VALUES } from '../lab-descriptor.ts';
import { LOCALES } from '../pure/locale.ts';
import { REPORT_FILE } from './reports.ts';
import { FINDING } from '../run-record.ts';
import { EXPORTED_RUN, RUN_ID } from './runs.ts';
import { arg, event, method, service } from './spec.ts';
import type { ServiceOf } from './spec.ts';

export const CLASS_ROLES = ['solo', 'teacher', 'student', 'guest'] as const;
export type ClassRole = (typeof CLASS_ROLES)[number];

export const STUDENT_ID = z.string().regex(/^s-[0-9a-f]{12}$/, 'a student id (s- and 12 hexadecimal digits)');
export const QUEUE_ENTRY_ID = z.string().regex(/^q-[0-9a-f]{12}$/, 'a queue entry id (q- and 12 hexadecimal digits)');

// What a student's run may ask of the machine, set by the teacher: the points a lab run plans, the memory its largest
// point (or a kernel run) holds on the host or the GPU, and the time it may take before it is stopped.
export const CLASS_CAPS = z.strictObject({
  maxPoints: z.int().min(1).max(100_000),
  maxBytes: z.int().min(1024).max(2 ** 50),
  maxSeconds: z.int().min(10).max(86_400),
});
export type ClassCaps = z.infer<typeof CLASS_CAPS>;

export const CLASS_SESSION = z.strictObject({
  role: z.enum(CLASS_ROLES),
  className: z.string().nullable(),
  // The student's own name; null for anyone else.
  name: z.string().nullable(),
  // The caps the caller's runs are held to; null where none apply (the teacher, solo).
  caps: CLASS_CAPS.nullable(),
});
export type ClassSession = z.infer<typeof CLASS_SESSION>;

export const QUEUE_ENTRY = z.strictObject({
  id: QUEUE_ENTRY_ID,
  kind: z.enum(['lab', 'kernel']),
  // The queue it waits in: the run's device.
  device: z.string(),
  // The lab's id, or the exercise's.
  what: z.string(),
  state: z.enum(['waiting', 'running']),
  // A lab run has its id from the moment it is queued; a kernel run gets one when it is stored.
  runId: RUN_ID.nullable(),
  // Runs that will run before this one starts, in every device's queue: the server runs one at a time.
  ahead: z.int().min(0),
  // The longest this one may wait before it starts: the time limits of the runs ahead (what is left of the one
  // running). null when a device they need is held by another program, whose end cannot be known.
  atMostSeconds: z.number().min(0).nullable(),
  // How long this run may take once started; it is stopped past it.
  limitSeconds: z.number().positive(),
  // Who queued it: shown to the teacher only; a student's view holds their own entries, each with their name.
  student: z.string().nullable(),
  mine: z.boolean(),
});
export type QueueEntry = z.infer<typeof QUEUE_ENTRY>;

export const QUEUE_VIEW = z.strictObject({
  entries: z.array(QUEUE_ENTRY),
  // How many runs wait or run in each device's queue, whoever's they are.
  devices: z.array(z.strictObject({ device: z.string(), runs: z.int().min(0) })),
  // Devices that another program of this machine (a `gpu-lab run`, another user's app) holds, which the class's next
  // run waits for.
  busyWithOtherProgram: z.array(z.strictObject({ device: z.string(), since: z.string() })),
});
export type QueueView = z.infer<typeof QUEUE_VIEW>;

// One number of a run's summary across the class's completed runs of the same lab, device and parameters: no name,
// no run id, only how many runs and students and the spread of their values.
export const CLASS_METRIC = z.strictObject({
  // The summary's key ("add.gpu-transfers.breakEvenSize").
  key: z.string(),
  // Runs with a value, and the students they are of.
  runs: z.int().min(0),
  students: z.int().min(0),
  min: z.number().nullable(),
  median: z.number().nullable(),
  max: z.number().nullable(),
  // Runs whose value lies beyond the sizes they measured (no break-even found within them, or one at the smallest
  // size already), which no single number stands for.
  outsideSizes: z.int().min(0),
});
export type ClassMetric = z.infer<typeof CLASS_METRIC>;

export const CLASS_DISTRIBUTION = z.strictObject({
  lab: z.string(),
  device: z.string(),
  params: PARAM_VALUES,
  metrics: z.array(CLASS_METRIC),
});
export type ClassDistribution = z.infer<typeof CLASS_DISTRIBUTION>;

export const CLASS_STUDENT = z.strictObject({
  id: STUDENT_ID,
  name: z.string(),
  joinedAt: z.string(),
  runs: z.int().min(0),
  kernelRuns: z.int().min(0),
});
export type ClassStudent = z.infer<typeof CLASS_STUDENT>;

// The class as its teacher reads it (main/classroom/class-overview.ts): for each lab, each student's latest run of
// each setup (device and parameters) with the lab's headline findings, each placed against the class's range for it
// where the intervals allow (common/pure/claims.ts), and who has not run the lab yet.
export const CLASS_RANGE = z.strictObject({ low: z.number(), high: z.number(), median: z.number(), students: z.int().min(0) });
export type ClassRangeView = z.infer<typeof CLASS_RANGE>;

export const CLASS_NUMBER = z.strictObject({
  // One of the run's headline findings, as the run's page reads it (its value, unit, interval and sentence).
  finding: FINDING,
  // Where it lies against its column's range: 'above' or 'below' only where its whole interval lies beyond it; null
  // where it is not judged (no value, no interval, or too few students for a range).
  against: z.enum(['above', 'below', 'within']).nullable(),
});
export type ClassNumber = z.infer<typeof CLASS_NUMBER>;

export const CLASS_ROW = z.strictObject({
  studentId: STUDENT_ID,
  student: z.string(),
  // A student the teacher removed: their runs stay in the class's table.
  removed: z.boolean(),
  runId: RUN_ID,
  createdAt: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'waived', 'cancelled', 'failed']),
  // One a column of its setup, in the columns' order; null where the run has no such finding.
  numbers: z.array(CLASS_NUMBER.nullable()),
});
export type ClassRow = z.infer<typeof CLASS_ROW>;

export const CLASS_SETUP = z.strictObject({
  device: z.string(),
  params: PARAM_VALUES,
  // The headline findings the class's runs of this setup have, by id (common/pure/finding-order.ts, headlineIds), each with
  // the class's range of its values; null where fewer students than a range needs have one.
  columns: z.array(z.strictObject({ id: z.string(), range: CLASS_RANGE.nullable() })),
  rows: z.array(CLASS_ROW),
});
export type ClassSetup = z.infer<typeof CLASS_SETUP>;

export const CLASS_LAB = z.strictObject({
  lab: z.string(),
  setups: z.array(CLASS_SETUP),
  // The students in the class with no finished run of this lab.
  notRun: z.array(z.strictObject({ id: STUDENT_ID, name: z.string() })),
  // The completed runs left out of the tables: those of a student's setups older than their latest few
  // (main/classroom/class-overview.ts, MAX_SETUPS_A_STUDENT). The CSV has every run.
  earlier: z.int().min(0),
});
export type ClassLab = z.infer<typeof CLASS_LAB>;

export const CLASS_OVERVIEW = z.strictObject({
  className: z.string(),
  caps: CLASS_CAPS,
  students: z.array(CLASS_STUDENT),
  labs: z.array(CLASS_LAB),
});
export type ClassOverview = z.infer<typeof CLASS_OVERVIEW>;

export const CLASS_REPORT_REQUEST = z.strictObject({
  // The language of the report's words and numbers; English without.
  locale: z.enum(LOCALES).optional(),
});
export type ClassReportRequest = z.infer<typeof CLASS_REPORT_REQUEST>;

export const CLASSROOM_CONTRACT = service({
  session: method([], CLASS_SESSION),
  queue: method([], QUEUE_VIEW),
  // Takes a run out of the queue before it starts (a lab run is then cancelled; a kernel run's request is answered
  // CANCELLED); one that runs already is cancelled like any other run.
  leaveQueue: method([arg('entryId', QUEUE_ENTRY_ID, 'a queue entry id')], z.void()),
  // The class's numbers beside one of the caller's runs: the completed runs of the whole class (the caller's
  // included) of the same lab, on the same device, with the same parameters.
  classDistribution: method([arg('runId', RUN_ID, 'a run id')], CLASS_DISTRIBUTION),
  // The teacher's.
  listStudents: method([], z.array(CLASS_STUDENT)),
  // The student's token stops working at once (their open pages are disconnected); their runs stay, the teacher's.
  removeStudent: method([arg('studentId', STUDENT_ID, 'a student id')], z.void()),
  setCaps: method([arg('caps', CLASS_CAPS, 'caps {maxPoints: 1 to 100000; maxBytes: 1024 to 2^50; maxSeconds: 10 to 86400}')], CLASS_CAPS),
  classOverview: method([], CLASS_OVERVIEW),
  // Every run of the class's students, one row each (main/classroom/class-csv.ts).
  classCsv: method([], EXPORTED_RUN),
  // The class in one PDF: each lab's summary, then each student's runs (main/reports/class-document.ts).
  writeClassReport: method([arg('request', CLASS_REPORT_REQUEST, 'a class report request {locale?: en or es}')], REPORT_FILE),
  onDidChangeQueue: event(QUEUE_VIEW),
});

export type ClassroomService = ServiceOf<typeof CLASSROOM_CONTRACT>;
