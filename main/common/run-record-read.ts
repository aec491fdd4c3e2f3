// A stored run record read as this version's (run-record.ts), whatever version wrote it: a record of version 1 is
// mapped into version 2, one of a version newer than this GPU Lab reads is refused, naming both versions. Every
// reader of a stored record (the run store, the report, an import) goes through here; what it returns is parsed, so
// that no reader casts.
import { z } from 'zod';

import { FINDING, FINDING_INTERVAL, FINDING_UNITS, MESSAGE, POINT, RUN_RECORD, RUN_SCHEMA_VERSION, STATS } from './run-record.ts';
import type { Finding, FindingUnit, PointResult, RunRecord } from './run-record.ts';
import { countedSamples, summarize } from './pure/statistics.ts';

// The oldest version this GPU Lab reads.
export const OLDEST_RUN_SCHEMA_VERSION = 1;

// Version 1's findings: written before findings were messages only, or before units were ids. English text without a
// message becomes the message that says it as recorded (common.recorded), and a free-text unit its id (a percent
// stored as share × 100 becomes the share).
const LEGACY_UNITS: Readonly<Record<string, FindingUnit>> = { '×': 'times', '%': 'share', 'bytes (fp32)': 'bytes', '': 'none' };
const FINDING_V1 = z
  .strictObject({
    id: z.string(),
    message: MESSAGE.optional(),
    text: z.string().optional(),
    value: z.number().nullable(),
    unit: z.string(),
    tone: z.enum(['info', 'warning']),
    interval: FINDING_INTERVAL.optional(),
  })
  .refine((f) => f.message !== undefined || f.text !== undefined, 'a finding needs its message')
  .refine((f) => (FINDING_UNITS as readonly string[]).includes(f.unit) || f.unit in LEGACY_UNITS, { message: `a unit: ${FINDING_UNITS.join(', ')}`, path: ['unit'] })
  .transform((f): Finding => {
    const known = FINDING.shape.unit.safeParse(f.unit);
    const unit = LEGACY_UNITS[f.unit] ?? (known.success ? known.data : 'none');
    const value = f.unit === '%' && f.value !== null ? f.value / 100 : f.value;
    const finding: Finding = { id: f.id, message: f.message ?? { key: 'common.recorded', values: { text: f.text ?? '' } }, value, unit, tone: f.tone };
    return f.interval ? { ...finding, interval: f.interval } : finding;
  });

// Version 1's points: `timer` (device: CUDA events; host: the host's clock), statistics that may lack the median's
// interval (recorded before it was kept).
const POINT_V1 = POINT.omit({ clock: true }).extend({
  timer: z.enum(['device', 'host']),
  stats: STATS.extend({ ciLow: z.number().nullable().optional(), ciHigh: z.number().nullable().optional() }).nullable(),
});
type PointV1 = z.infer<typeof POINT_V1>;

const RUN_RECORD_V1 = RUN_RECORD.extend({
  schemaVersion: z.literal(1),
  points: z.array(POINT_V1),
  findings: z.array(FINDING_V1),
});

// A version 1 point in version 2's words. Its timer 'device' was CUDA events; 'host' with device times beside it was
// the clock stopped at the launch (the native harness reads events beside host-nosync alone), else the host's clock
// after a synchronise (a Python peer's clock stopped at the launch kept no device times: the run's plan, where this
// version still makes it, names its clock: runs/current-work.ts). Its statistics are computed again from its samples
// (the median's interval and what "noisy" means were added since), where the samples are the ones counted.
function pointFromV1({ timer, stats, ...p }: PointV1): PointResult {
  const clock = timer === 'device' ? 'events' : p.deviceMs !== null ? 'host-nosync' : 'host';
  const counted = countedSamples({ clock, hostMs: p.hostMs, deviceMs: p.deviceMs });
  const restated = p.status === 'ok' && stats !== null && counted.length === stats.count && counted.length > 0;
  return { ...p, clock, stats: stats === null ? null : restated ? summarize(counted) : { ...stats, ciLow: stats.ciLow ?? null, ciHigh: stats.ciHigh ?? null } };
}

// Why a record of `version` cannot be read here, or null where it can: it names the record's version and those this
// GPU Lab reads.
export function unreadableVersion(version: unknown): string | null {
  if (typeof version === 'number' && Number.isInteger(version) && version >= OLDEST_RUN_SCHEMA_VERSION && version <= RUN_SCHEMA_VERSION) return null;
  if (typeof version === 'number' && version > RUN_SCHEMA_VERSION) {
    return `a record of schema version ${version}, written by a newer GPU Lab; this GPU Lab reads versions ${OLDEST_RUN_SCHEMA_VERSION} to ${RUN_SCHEMA_VERSION}: open it with a GPU Lab that reads version ${version}`;
  }
  return `a record of schema version ${String(version)}; this GPU Lab reads versions ${OLDEST_RUN_SCHEMA_VERSION} to ${RUN_SCHEMA_VERSION}`;
}

// `field`: the field at fault, dotted (schemaVersion for a version this GPU Lab does not read), or null for the record
// as a whole.
export type RecordRead =
  | { ok: true; record: RunRecord; storedVersion: number }
  | { ok: false; reason: 'schema-version'; storedVersion: unknown; message: string; field: 'schemaVersion' }
  | { ok: false; reason: 'not-a-run-record'; storedVersion: number; message: string; field: string | null };

// The record `json` holds, as this version's; or why not, in a sentence that names the field at fault.
export function readRunRecord(json: unknown): RecordRead {
  const storedVersion = typeof json === 'object' && json !== null && 'schemaVersion' in json ? json.schemaVersion : undefined;
  const version = unreadableVersion(storedVersion);
  if (version !== null) return { ok: false, reason: 'schema-version', storedVersion, message: version, field: 'schemaVersion' };
  const parsed = storedVersion === 1 ? RUN_RECORD_V1.safeParse(json) : RUN_RECORD.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    return { ok: false, reason: 'not-a-run-record', storedVersion: Number(storedVersion), message: `not a run record of schema version ${String(storedVersion)} (${issue ? `${field || 'the record'}: ${issue.message}` : 'invalid'})`, field: field || null };
  }
  const record: RunRecord = parsed.data.schemaVersion === 1 ? { ...parsed.data, schemaVersion: RUN_SCHEMA_VERSION, points: parsed.data.points.map(pointFromV1) } : parsed.data;
  return { ok: true, record, storedVersion: Number(storedVersion) };
}
