// A stored record as this version reads it, from the run store, a report's input or an import: parsed and, where an
// older schema version wrote it, mapped into this one (common/run-record-read.ts) with its work, peaks and rates
// counted as this version counts them (current-work.ts) and its reasons given their messages, once, as it is read. A record of this version is read as
// stored: its numbers are the runner's.
import { z } from 'zod';

import { RUN_SCHEMA_VERSION } from '../common/run-record.ts';
import type { PointResult, RunRecord } from '../common/run-record.ts';
import { recordedReasonWhy } from '../common/pure/host-reasons.ts';
import { readRunRecord } from '../common/run-record-read.ts';
import type { RecordRead } from '../common/run-record-read.ts';
import { findLab } from '../labs/index.ts';
import { runDevices } from './current-findings.ts';
import { withCurrentWork } from './current-work.ts';

// A point recorded before reasons were messages, its reason given its message where the runner's English is one it
// now says as a message (common/pure/host-reasons.ts), for readers of other languages.
function withWhy(p: PointResult): PointResult {
  if (p.status === 'ok' || p.why || !p.reason) return p;
  const why = recordedReasonWhy(p.reason);
  return why ? { ...p, why } : p;
}

// An older record's numbers as this version counts them, its reasons as messages; this version's as they are.
function upgraded(stored: RunRecord, storedVersion: number): RunRecord {
  if (storedVersion >= RUN_SCHEMA_VERSION) return stored;
  const record = { ...stored, points: stored.points.map(withWhy) };
  const lab = findLab(record.lab);
  if (!lab) return record;
  const { gpu, cpu } = runDevices(record);
  return withCurrentWork(record, lab, cpu, gpu);
}

export function readStoredRecord(json: unknown): RecordRead {
  const read = readRunRecord(json);
  return read.ok ? { ...read, record: upgraded(read.record, read.storedVersion) } : read;
}

// The same as a schema, for a reader that parses (an import's members, a test's stored fixtures): a record of a
// version this GPU Lab reads, as this version's, or an issue whose message names the versions or the field at fault.
export const STORED_RECORD = z.unknown().transform((json, ctx): RunRecord => {
  const read = readStoredRecord(json);
  if (read.ok) return read.record;
  ctx.addIssue({ code: 'custom', message: read.message, path: read.reason === 'schema-version' ? ['schemaVersion'] : [] });
  return z.NEVER;
});
