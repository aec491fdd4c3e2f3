// The imports service: runs of other machines and colleagues brought into the runs folder, from a folder's records or
// an archive (.tar.gz, .tgz, .tar, .zip) handed over in parts. The page uploads what the person picked (a folder's
// .json files, or one archive): begin() declares the files and their sizes, sendPart() hands over each part in order,
// finish() imports them all and says what became of every entry; cancel() drops an upload. Everything arriving here
// is hostile until proven not (main/runs/run-import.ts): capped, checked, extracted by name into a folder of its own,
// never overwriting a stored run. On a class's server only the teacher may import (main/classroom/access.ts).
import { z } from 'zod';

import { RUN_ID } from './runs.ts';
import { arg, method, service } from './spec.ts';
import type { ServiceOf } from './spec.ts';

// An upload's caps: its files together (archives compressed), one part (a WebSocket frame holds 1 MiB, base64 grows
// by a third), and the files of one upload (a folder's records).
export const UPLOAD_MAX_BYTES = 256 * 1024 * 1024;
export const UPLOAD_PART_BYTES = 512 * 1024;
export const UPLOAD_MAX_FILES = 10_000;

export const IMPORT_ID = z.string().regex(/^u-[0-9a-f]{16}$/, 'an import id (u- and 16 hexadecimal digits)');

// Why an entry of a source was left out, the rest imported: a name that leads out of the folder, a link (symbolic or
// hard), a device or FIFO or any other special file (none is created or followed), an entry larger than a record may
// be, a file that is not JSON, a record that does not match the schema, a run still being measured where it was
// copied from (imported once it has ended), a file the system would not read.
export const IMPORT_SKIP_REASONS = ['unsafe-name', 'link', 'hardlink', 'device', 'fifo', 'special', 'too-large', 'not-json', 'not-a-run', 'running', 'unreadable'] as const;
export type ImportSkipReason = (typeof IMPORT_SKIP_REASONS)[number];

// Why a whole source was refused, nothing of it imported: more entries or more uncompressed bytes than the caps (a
// zip bomb stops there), an archive that cannot be read as one, a file the system would not read or a disk that
// would not take the records.
export const IMPORT_REFUSALS = ['too-many-entries', 'too-large', 'damaged', 'unreadable', 'not-written'] as const;
export type ImportRefusal = (typeof IMPORT_REFUSALS)[number];

const ENTRY = z.string().max(1024);

export const IMPORTED_SOURCE = z.strictObject({
  // The path given, or the uploaded file's name.
  source: z.string().max(4096),
  refused: z.strictObject({ reason: z.enum(IMPORT_REFUSALS), detail: z.string(), count: z.number().nullable(), limit: z.number().nullable() }).nullable(),
  // Stored now; `was` is the id the record came with where a different run already held it here.
  imported: z.array(z.strictObject({ id: RUN_ID, was: RUN_ID.nullable(), entry: ENTRY, lab: z.string(), device: z.string() })),
  // The same run is already here (under `id`): nothing written.
  identical: z.array(z.strictObject({ id: RUN_ID, entry: ENTRY })),
  skipped: z.array(
    z.strictObject({
      entry: ENTRY,
      reason: z.enum(IMPORT_SKIP_REASONS),
      // The words of the check that failed (a record's field and what it expected, the system's error), in English.
      detail: z.string(),
      // The record's field at fault ('not-a-run'); the entry's size and the cap ('too-large').
      field: z.string().nullable(),
      bytes: z.number().nullable(),
      limit: z.number().nullable(),
    }),
  ),
  // Files that are not records by their name (not .json), left out: a shared folder's Slurm logs, a README.
  otherFiles: z.int().min(0),
});
export type ImportedSource = z.infer<typeof IMPORTED_SOURCE>;

export const IMPORT_REPORT = z.strictObject({ sources: z.array(IMPORTED_SOURCE) });
export type ImportReport = z.infer<typeof IMPORT_REPORT>;

export const UPLOAD_FILE = z.strictObject({
  // Its name says what it is (.json, .tar.gz, .tgz, .tar, .zip) and names it in the report; no folder in it.
  name: z.string().min(1).max(255),
  bytes: z.int().min(0).max(UPLOAD_MAX_BYTES),
});
export type UploadFile = z.infer<typeof UPLOAD_FILE>;

// One part of a file, in order: `offset` is the bytes of the file sent before it.
export const UPLOAD_PART = z.strictObject({
  file: z.int().min(0).max(UPLOAD_MAX_FILES - 1),
  offset: z.int().min(0).max(UPLOAD_MAX_BYTES),
  base64: z.base64().max(Math.ceil(UPLOAD_PART_BYTES / 3) * 4),
});
export type UploadPart = z.infer<typeof UPLOAD_PART>;

const IMPORT_ID_ARGUMENT = arg('importId', IMPORT_ID, 'an import id (u- and 16 hexadecimal digits)');

export const IMPORTS_CONTRACT = service({
  begin: method(
    [arg('files', z.array(UPLOAD_FILE).min(1).max(UPLOAD_MAX_FILES), `1 to ${UPLOAD_MAX_FILES} files {name: a .json, .tar.gz, .tgz, .tar or .zip file's name; bytes: its size}`)],
    z.strictObject({ importId: IMPORT_ID, partBytes: z.int().min(1) }),
  ),
  sendPart: method(
    [IMPORT_ID_ARGUMENT, arg('part', UPLOAD_PART, `a part {file: the index of a file of the upload; offset: the bytes of it sent so far; base64: at most ${UPLOAD_PART_BYTES} bytes}`)],
    z.strictObject({ received: z.int().min(0) }),
  ),
  finish: method([IMPORT_ID_ARGUMENT], IMPORT_REPORT),
  cancel: method([IMPORT_ID_ARGUMENT], z.void()),
});

export type ImportsService = ServiceOf<typeof IMPORTS_CONTRACT>;
