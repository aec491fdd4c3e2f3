// The PDF's results table: one row per point, as the app's table shows it. Why a point has no time is said once per
// reason: where one reason waived every point that has one, in a sentence above the table (as the app says it);
// otherwise each such row's Status cell carries a short mark ("waived [a]") and the reasons are listed under the
// table, each behind its mark with how many points it covers. A run on a machine without CUDA or PyTorch has a hundred
// waived rows and two reasons, each a sentence with a path in it: repeated in every row, they took a Status column of
// nine-line cells and twice the pages.
import type { ResultRow } from '../common/pure/charts/result-rows.ts';
import { resultRows } from '../common/pure/charts/result-rows.ts';
import type { Translate } from '../common/pure/charts/text.ts';
import { formatRelativeError } from '../common/pure/format.ts';
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import type { PointResult, RunRecord } from '../common/run-record.ts';
import { COLOURS } from './layout.ts';
import type { TableCell, TableSpec } from './table.ts';

export interface ReasonNote {
  mark: string;
  reason: string;
  // The rows it is the reason of.
  count: number;
}

export interface ResultsTable {
  // The sentence above the table where one reason waived every point that has a reason; null otherwise.
  above: string | null;
  spec: TableSpec;
  // The reasons under the table, in the order their first row comes, each as the line that says it.
  reasons: ReasonNote[];
  below: string[];
}

// a, b, … z, then aa, ab, …: short, and never read as a count beside the table's figures.
export function reasonMark(index: number): string {
  const letter = (i: number): string => String.fromCharCode(97 + i);
  return index < 26 ? letter(index) : reasonMark(Math.floor(index / 26) - 1) + letter(index % 26);
}

// Each distinct reason of the rows that have one (waived, failed or not measured), marked in the order it first comes.
export function reasonNotes(rows: readonly ResultRow[]): ReasonNote[] {
  const notes = new Map<string, ReasonNote>();
  for (const row of rows) {
    if (row.status === 'ok' || !row.reason) continue;
    const note = notes.get(row.reason);
    if (note) note.count += 1;
    else notes.set(row.reason, { mark: reasonMark(notes.size), reason: row.reason, count: 1 });
  }
  return [...notes.values()];
}

function resultCells(row: ResultRow, point: PointResult | undefined, status: string, t: Translate): TableCell[] {
  const muted = row.status === 'ok' ? undefined : COLOURS.muted;
  const error = point?.verification ? formatRelativeError(point.verification.relativeError) : undefined;
  return [
    { text: row.label, colour: muted },
    { text: row.device, colour: muted },
    { text: status, colour: muted },
    // An interval's two ends one under the other, so that the column stays as narrow as its times.
    { text: row.median, note: [row.interval === '—' ? '' : row.interval.replace(/^(\[[^,;]+[,;]) /, '$1\n'), row.noisy ? t('results.table.noisy') : ''].filter(Boolean).join(' ') || undefined },
    { text: row.samples },
    { text: row.iqr },
    { text: row.range },
    { text: row.rate },
    { text: row.shareOfPeak },
    { text: row.speedup, note: row.speedupOver && row.speedup !== '—' ? t('results.table.speedupOver', { baseline: row.speedupOver }) : undefined },
    { text: row.verifiedMark, note: row.verified === 'unchecked' ? undefined : error, colour: row.verified === 'failed' ? COLOURS.warning : undefined },
  ];
}

export function resultsTable(record: RunRecord, lab: LabDescriptor, t: Translate): ResultsTable {
  const rows = resultRows(record, lab, t);
  const reasons = reasonNotes(rows);
  const only = reasons.length === 1 ? reasons[0] : undefined;
  const once = only && rows.every((r) => r.reason !== only.reason || r.status === 'waived') ? only : undefined;
  const marks = new Map(reasons.map((r) => [r.reason, r.mark]));
  const statusOf = (row: ResultRow): string => {
    const mark = once || row.status === 'ok' ? undefined : marks.get(row.reason);
    return mark ? t('pdf.results.reasonMark', { status: row.statusText, mark }) : row.statusText;
  };
  const c = (key: string, align: 'left' | 'right' | 'center', width: 'fit' | 'wrap') => ({ title: t(`results.table.columns.${key}`), align, width });
  return {
    above: once ? t('results.table.waivedOnce', { count: once.count, reason: once.reason }, once.count) : null,
    spec: {
      columns: [
        c('point', 'left', 'wrap'),
        c('device', 'left', 'fit'),
        c('status', 'left', 'wrap'),
        c('median', 'right', 'fit'),
        c('samples', 'right', 'wrap'),
        c('iqr', 'right', 'fit'),
        c('range', 'right', 'fit'),
        c('rate', 'right', 'fit'),
        c('peak', 'right', 'fit'),
        c('speedup', 'right', 'fit'),
        c('verified', 'center', 'fit'),
      ],
      rows: rows.map((row, i) => ({ cells: resultCells(row, record.points[i], statusOf(row), t), shaded: row.status !== 'ok' })),
    },
    reasons: once ? [] : reasons,
    below: once ? [] : reasons.map((r) => t('pdf.results.reasonNote', { mark: r.mark, count: r.count, reason: r.reason }, r.count)),
  };
}
