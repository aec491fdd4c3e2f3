// What a report is written from, checked before a byte of it is: the author and course fields (the user's text, which
// ends up in the PDF and its metadata) and the run records (a finished run of this schema, of a lab this version
// knows). Every refusal is a GpuLabError whose details say which field or run, and why, in `reason`.
import { GpuLabError } from '../common/errors.ts';
import type { ErrorCode } from '../common/errors.ts';
import { LOCALES, isLocale, type Locale } from '../common/pure/locale.ts';
import { KERNEL_RUN } from '../common/playground.ts';
import type { KernelRun } from '../common/playground.ts';
import { RUN_SCHEMA_VERSION } from '../common/run-record.ts';
import { OLDEST_RUN_SCHEMA_VERSION } from '../common/run-record-read.ts';
import { findLab } from '../labs/index.ts';
import { localizeDescriptor } from '../labs/lab-text.ts';
import { withCurrentFindings } from '../runs/current-findings.ts';
import { readStoredRecord } from '../runs/stored-record.ts';
import type { LabRun, ReportAuthorship } from './report-context.ts';
import { inReportLocale } from './report-locale.ts';

export type ReportRefusal =
  | 'text-not-a-string'
  | 'text-too-long'
  | 'text-control-characters'
  | 'text-combining-marks'
  | 'text-invisible'
  | 'run-in-progress'
  | 'schema-version'
  | 'not-a-run-record'
  | 'not-a-kernel-run'
  | 'too-many-kernel-runs'
  | 'nothing-to-report'
  | 'lab-unknown'
  | 'locale-unknown'
  | 'device-unknown'
  | 'cannot-write';

export function refuse(code: ErrorCode, reason: ReportRefusal, message: string, details: Record<string, unknown> = {}): GpuLabError {
  return new GpuLabError(code, message, { ...details, reason });
}

// A name or a course title fits on a line of the title page.
export const TEXT_FIELD_MAX = 200;

// C0 and C1 controls and the line and paragraph separators (a new line or an escape sequence would break the title
// block and the PDF's metadata), and the bidirectional overrides and isolates that make a text display in another
// order than it is stored.
// eslint-disable-next-line no-control-regex -- finding control characters is what it is for
const HOSTILE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

// A letter takes a few accents at most (Vietnamese stacks two, IPA three); a longer run of combining marks is the
// "Zalgo" text that draws over the lines above and below it.
export const COMBINING_MARKS_MAX = 4;
const COMBINING_RUN = new RegExp(`\\p{M}{${COMBINING_MARKS_MAX + 1},}`, 'u');

// Characters that draw nothing: format characters (zero-width spaces and joiners, the word joiner, soft hyphens),
// combining marks with no letter, and the Hangul fillers and blank that fonts leave empty.
const INVISIBLE = /^[\p{Cf}\p{M}\p{Zs}\u115F\u1160\u3164\uFFA0\u2800]+$/u;

// Half of a UTF-16 pair without the other half: no character at all, and no font can draw it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function checkTextField(field: 'author' | 'course', value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw refuse('INVALID_ARGUMENT', 'text-not-a-string', `The ${field} must be text, not ${typeof value}`, { field });
  const text = value.normalize('NFC').trim();
  const length = [...text].length;
  if (length > TEXT_FIELD_MAX) {
    throw refuse('INVALID_ARGUMENT', 'text-too-long', `The ${field} is ${length} characters long; a report takes at most ${TEXT_FIELD_MAX}`, { field, length, max: TEXT_FIELD_MAX });
  }
  const hostile = HOSTILE.exec(text);
  if (hostile) {
    const code = `U+${(hostile[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw refuse('INVALID_ARGUMENT', 'text-control-characters', `The ${field} holds a control character (${code} at position ${hostile.index + 1}); type it as plain text on one line`, {
      field,
      character: code,
      position: hostile.index + 1,
    });
  }
  if (LONE_SURROGATE.test(text)) throw refuse('INVALID_ARGUMENT', 'text-control-characters', `The ${field} holds a broken character (a lone UTF-16 surrogate)`, { field });
  const marks = COMBINING_RUN.exec(text);
  if (marks) {
    throw refuse('INVALID_ARGUMENT', 'text-combining-marks', `The ${field} stacks ${[...marks[0]].length} combining marks on one character at position ${[...text.slice(0, marks.index)].length}; a report takes at most ${COMBINING_MARKS_MAX}`, {
      field,
      marks: [...marks[0]].length,
      max: COMBINING_MARKS_MAX,
    });
  }
  if (INVISIBLE.test(text)) throw refuse('INVALID_ARGUMENT', 'text-invisible', `The ${field} would print as nothing: it holds only invisible characters (zero-width, format or combining ones)`, { field });
  return text;
}

export function checkAuthorship(input: { author?: unknown; course?: unknown }): ReportAuthorship {
  return { author: checkTextField('author', input.author), course: checkTextField('course', input.course) };
}

// The language asked for, English where none is; a language GPU Lab does not speak is refused, not guessed at.
export function checkLocale(value: unknown): Locale {
  if (value === undefined || value === null) return 'en';
  if (isLocale(value)) return value;
  throw refuse('INVALID_ARGUMENT', 'locale-unknown', `A report is written in ${LOCALES.join(' or ')}, not in ${JSON.stringify(value)}`, { locale: String(value), supported: [...LOCALES] });
}

// A run as a report in `locale` reads it: the lab's words in that language and the record's lab title with them (its
// findings are already re-derived, as messages, by checkRecord). In English too: the descriptor brings the templates
// its points' names and findings are rendered with.
export function localizeRun(run: LabRun, locale: Locale): LabRun {
  const lab = localizeDescriptor(run.lab, locale);
  return { record: { ...run.record, labTitle: lab.title }, lab };
}

// A stored record as the report reads it: of a schema version this GPU Lab reads (an older one read into this
// version's, stored-record.ts), finished, and of a lab this version knows.
export function checkRecord(input: unknown): LabRun {
  const id = typeof input === 'object' && input !== null && 'id' in input ? String(input.id) : '?';
  const read = readStoredRecord(input);
  if (!read.ok && read.reason === 'schema-version') {
    throw refuse('INVALID_ARGUMENT', 'schema-version', `Run ${id} is ${read.message}, and cannot be reported here`, {
      runId: id,
      schemaVersion: read.storedVersion ?? null,
      supported: RUN_SCHEMA_VERSION,
      oldest: OLDEST_RUN_SCHEMA_VERSION,
    });
  }
  if (!read.ok) throw refuse('INVALID_ARGUMENT', 'not-a-run-record', `Run ${id} is ${read.message}`, { runId: id });
  const { record } = read;
  if (record.status === 'running' || record.status === 'queued') {
    throw refuse('INVALID_ARGUMENT', 'run-in-progress', `Run ${record.id} is still ${record.status}: a report needs a run that has ended; wait for it, or cancel it`, { runId: record.id, status: record.status });
  }
  const lab = findLab(record.lab);
  if (!lab) throw refuse('INVALID_ARGUMENT', 'lab-unknown', `Run ${record.id} is of the lab "${record.lab}", which this version of GPU Lab does not know`, { runId: record.id, lab: record.lab });
  // Reported as stored, its findings derived again from the points (in every language), so that an old record never
  // repeats a sentence the analysis has since corrected.
  return { record: inReportLocale('en', () => withCurrentFindings(record)), lab: lab.descriptor };
}

// A report holds at most this many kernel runs: each is a few pages (its source whole, its chart and tables).
export const MAX_KERNEL_RUNS = 20;

// What a report may be made of: one run or two compared, then kernel runs; at least one of either.
export function checkReportContents(runIds: readonly unknown[], kernelRunIds: readonly unknown[]): void {
  if (runIds.length > 2) throw new GpuLabError('INVALID_ARGUMENT', `A report is of one run, or of two compared, not of ${runIds.length}`, { field: 'runIds', runIds: runIds.length });
  if (kernelRunIds.length > MAX_KERNEL_RUNS) {
    throw refuse('INVALID_ARGUMENT', 'too-many-kernel-runs', `A report holds at most ${MAX_KERNEL_RUNS} kernel runs, not ${kernelRunIds.length}`, {
      field: 'kernelRunIds',
      count: kernelRunIds.length,
      max: MAX_KERNEL_RUNS,
    });
  }
  if (runIds.length === 0 && kernelRunIds.length === 0) {
    throw refuse('INVALID_ARGUMENT', 'nothing-to-report', 'A report needs a run in `runIds` (one, or two to compare), or kernel runs in `kernelRunIds`; both are empty', { field: 'runIds' });
  }
}

// A stored kernel run as the report reads it: of the shape the kernel store writes, whatever its outcome (a run
// that failed is reported with its source and its error).
export function checkKernelRun(input: unknown): KernelRun {
  const parsed = KERNEL_RUN.safeParse(input);
  if (parsed.success) return parsed.data;
  const id = typeof input === 'object' && input !== null ? String((input as { id?: unknown }).id ?? '?') : '?';
  const issue = parsed.error.issues[0];
  throw refuse('INVALID_ARGUMENT', 'not-a-kernel-run', `Kernel run ${id} is not a valid kernel run (${issue ? `\`${issue.path.join('.')}\`: ${issue.message}` : 'invalid'})`, { kernelRunId: id });
}
