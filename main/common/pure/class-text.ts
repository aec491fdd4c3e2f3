// How the class's table reads, in the app's teacher view and in the class's PDF alike: a headline finding by a short
// name, its figure in its unit with the interval it lies in, the class's range for it, and where a student's figure
// lies against that range, in words that say no more than common/pure/claims.ts decided (placeAgainst). Pure: the renderer
// and main both read it, each with its own translate function over the same catalog ("classroom.…").
import type { ClassLab, ClassNumber, ClassOverview, ClassRangeView, ClassRow } from '../contract/classroom.ts';
import { formatFindingValue } from './format.ts';
import type { Locale } from './locale.ts';
import type { FindingInterval } from '../run-record.ts';

// The setups of one lab a student's rows show at most: their latest (main/classroom/class-overview.ts). A student who
// runs a lab on ever other parameters would otherwise grow the teacher's table, read again every second, and the
// class's PDF without bound; the CSV keeps every run.
export const MAX_SETUPS_A_STUDENT = 3;

// `plural`: the count that picks a message's form ("1 student | {count} students").
export type ClassTranslate = (key: string, named?: Record<string, string | number>, plural?: number) => string;

// A headline finding's short name, for a column's title: the lab's own where the catalog has one, else its id.
export function headlineName(lab: string, id: string, t: ClassTranslate): string {
  const key = `classroom.headline.${lab}.${id}`;
  const name = t(key);
  return name === key ? id : name;
}

// The interval a figure lies in: "1.2 M – 1.9 M"; a side the measurements leave open said as such.
export function intervalText(interval: FindingInterval, unit: string, t: ClassTranslate, locale: Locale): string {
  const low = interval.low === null ? null : formatFindingValue(interval.low, unit, locale);
  const high = interval.high === null ? null : formatFindingValue(interval.high, unit, locale);
  if (low !== null && high !== null) return t('classroom.interval.both', { low, high });
  if (high !== null) return t('classroom.interval.atMost', { high });
  if (low !== null) return t('classroom.interval.atLeast', { low });
  return t('classroom.interval.open');
}

// A number of the table as a cell shows it: its figure, and under it the interval it lies in (where the run gives one).
export function numberText(n: ClassNumber, t: ClassTranslate, locale: Locale): { value: string; interval: string | null } {
  const { value, unit, interval } = n.finding;
  return {
    value: value === null ? '—' : formatFindingValue(value, unit, locale),
    interval: value !== null && interval ? intervalText(interval, unit, t, locale) : null,
  };
}

// The class's range for a column: "1.1 M – 4.2 M, median 2 M (12 students)".
export function rangeText(range: ClassRangeView, unit: string, t: ClassTranslate, locale: Locale): string {
  const f = (v: number): string => formatFindingValue(v, unit, locale);
  return t('classroom.range.text', { low: f(range.low), high: f(range.high), median: f(range.median), count: range.students }, range.students);
}

// Where a student's figure lies against the class's range, as placeAgainst decided it; '' where it is not told apart
// from the class or not judged at all.
export function againstText(n: ClassNumber, range: ClassRangeView | null, t: ClassTranslate, locale: Locale): string {
  if (!range || (n.against !== 'above' && n.against !== 'below')) return '';
  const f = (v: number): string => formatFindingValue(v, n.finding.unit, locale);
  return t(`classroom.against.${n.against}`, { low: f(range.low), high: f(range.high) });
}

// The line under a lab's tables where some students' older setups are left out of them; '' where none is.
export function earlierText(lab: ClassLab, t: ClassTranslate): string {
  return lab.earlier > 0 ? t('classroom.teacher.labs.earlier', { count: lab.earlier, max: MAX_SETUPS_A_STUDENT }, lab.earlier) : '';
}

// The runs the class's PDF gives a section of their own, at most: a section is a few pages with its chart, and a full
// class of five hundred students would run to thousands of pages. The summary of each lab still shows every row.
export const MAX_REPORT_RUNS = 150;

// The rows of the class's tables in the order the class's PDF gives each its section: student by student (those in the
// class, then those removed, whose runs stay), and for each, lab by lab.
export function reportOrder(overview: ClassOverview): ClassRow[] {
  const rows = overview.labs.flatMap((l) => l.setups.flatMap((s) => s.rows));
  const students = [...new Set([...overview.students.map((s) => s.id), ...rows.map((r) => r.studentId)])];
  return students.flatMap((id) => rows.filter((r) => r.studentId === id));
}
