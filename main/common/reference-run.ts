// A lab's headline numbers as one machine measured them, apart from its run: the form of the reference results GPU Lab
// ships per GPU model (reference-table.ts, made by scripts/reference-table.mjs from recorded runs), of those a teacher
// adds to a data folder's references/ (`gpu-lab runs export ID --reference`), and of the points one lab is compared by
// across devices. A headline point is the lab's point at its largest size in each series (every point of a chart of
// categories), with the median's 95 % interval and the rate at the median: what a reader compares from machine to
// machine. Said beside a run only as another machine's. Versioned as a run record is: a reference of version 1 is read
// into this one (STORED_REFERENCE), a newer one refused naming both versions.
import { z } from 'zod';

import { PARAM_VALUES } from './lab-descriptor.ts';
import { CLOCK } from './measurement.ts';
import { MESSAGE } from './run-record.ts';

export const HEADLINE_POINT = z.strictObject({
  key: z.string().max(200),
  series: z.string().max(200),
  x: z.number().nullable(),
  // The point's name as a message of its lab's catalog (read in the reader's language), and in English.
  name: MESSAGE.nullable(),
  label: z.string().max(500),
  // Where it ran: the CPU of the machine, or its GPU.
  on: z.enum(['cpu', 'gpu']),
  work: z.strictObject({ flops: z.number().min(0), bytes: z.number().min(0), elements: z.number().min(0) }),
  // The clock its time comes from, in the measurement's words (measurement.ts CLOCK), as its run's point names it.
  clock: CLOCK,
  // The median time in ms, the interval it lies in (its 95 % confidence interval; with fewer than 6 samples, the
  // samples' range: claims.ts estimateOf), and the samples' range and count.
  median: z.number().positive(),
  low: z.number().positive(),
  high: z.number().positive(),
  min: z.number().positive(),
  max: z.number().positive(),
  samples: z.int().min(1),
  rate: z.strictObject({ value: z.number().min(0), unit: z.enum(['GB/s', 'GFLOP/s', 'GOP/s']) }).nullable(),
});
export type HeadlinePoint = z.infer<typeof HEADLINE_POINT>;

// The machine a run measured on, as a reader names it: its GPU (or CPU) model, driver, node.
export const MACHINE_FACTS = z.strictObject({
  device: z.string().max(64),
  gpu: z.string().max(200).nullable(),
  cpu: z.string().max(200).nullable(),
  driver: z.string().max(64).nullable(),
  cudaRuntime: z.string().max(64).nullable(),
  // The node or host it ran on (Slurm's name for it first); null where the record does not say.
  node: z.string().max(255).nullable(),
});
export type MachineFacts = z.infer<typeof MACHINE_FACTS>;

export const REFERENCE_FORMAT = 'gpu-lab-reference';
// 2: a headline point names its clock in the measurement's words (`clock`), where version 1 had `timer` (device, host).
export const REFERENCE_VERSION = 2;

export const REFERENCE_RUN = z.strictObject({
  format: z.literal(REFERENCE_FORMAT),
  version: z.literal(REFERENCE_VERSION),
  lab: z.string().max(64),
  // The run it was made from, when, and by which GPU Lab and analysis.
  runId: z.string().regex(/^[A-Za-z0-9._-]{1,120}$/),
  measuredAt: z.string().max(64),
  appVersion: z.string().max(64),
  analysisVersion: z.int().min(1).nullable(),
  machine: MACHINE_FACTS,
  params: PARAM_VALUES,
  points: z.array(HEADLINE_POINT).max(200),
});
export type ReferenceRun = z.infer<typeof REFERENCE_RUN>;

// Version 1's points: `timer` 'device' was CUDA events, 'host' the host's clock (a clock stopped at the launch was
// written 'host' too; a reference keeps no device times to tell it by, and its rate is null either way).
const HEADLINE_POINT_V1 = HEADLINE_POINT.omit({ clock: true }).extend({ timer: z.enum(['device', 'host']) });
const REFERENCE_RUN_V1 = REFERENCE_RUN.extend({ version: z.literal(1), points: z.array(HEADLINE_POINT_V1).max(200) });

// A reference as a file holds it, read as this version's: version 1's points given their clock, a version this GPU Lab
// does not read refused with a message naming it and the versions it reads.
export const STORED_REFERENCE = z.unknown().transform((json, ctx): ReferenceRun => {
  const version = typeof json === 'object' && json !== null && 'version' in json ? json.version : undefined;
  if (version !== 1 && version !== REFERENCE_VERSION) {
    ctx.addIssue({ code: 'custom', path: ['version'], message: `a reference of version ${String(version)}; this GPU Lab reads versions 1 to ${REFERENCE_VERSION}` });
    return z.NEVER;
  }
  const parsed = version === 1 ? REFERENCE_RUN_V1.safeParse(json) : REFERENCE_RUN.safeParse(json);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  if (parsed.data.version === REFERENCE_VERSION) return parsed.data;
  return { ...parsed.data, version: REFERENCE_VERSION, points: parsed.data.points.map(({ timer, ...p }) => ({ ...p, clock: timer === 'device' ? 'events' : 'host' })) };
});
