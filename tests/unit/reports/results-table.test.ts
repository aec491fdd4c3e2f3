// The PDF's results table says why a point has no time once per reason: generated runs (the recorded CPU run of the
// elementwise break-even, each point kept as measured, waived for one of several reasons, or failed with a Python
// peer's error) in English and in Spanish. Each distinct reason the rows have is in the table's text exactly once,
// every waived or failed row carries the mark its reason is listed under, with how many rows that reason covers, and
// no reason is lost; where one reason waived every such point, it is said once above the table, as the app says it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { ErrorPayload } from '../../../main/common/errors.ts';
import { pointReason } from '../../../main/common/pure/i18n/error-text.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import type { PointResult, RunRecord } from '../../../main/common/run-record.ts';
import { findLab } from '../../../main/labs/index.ts';
import { reportTranslate } from '../../../main/reports/report-context.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import { resultsTable } from '../../../main/reports/results-table.ts';
import type { TableCell } from '../../../main/reports/table.ts';
import { fixture } from './pdf-tools.ts';

const RUN = fixture('cpu-elementwise-breakeven');
const LAB = findLab(RUN.lab)?.descriptor;
const STATUS: Record<Locale, { waived: string; failed: string }> = { en: { waived: 'waived', failed: 'failed' }, es: { waived: 'omitido', failed: 'fallido' } };

// Reasons as the host words them, each opened by its own number so that none is part of another (nor of the recorded
// run's own, which its points that stay as recorded keep).
const reason = fc.tuple(fc.nat(), fc.constantFrom('no CUDA device: the NVIDIA driver is too old (470.82; CUDA 12 needs 525 or later)', "torch is not installed for /root/.pyenv/versions/3.11.7/bin/python3 (No module named 'torch')", 'cuBLAS could not be opened (libcublas.so.12: cannot open shared object file)', 'needs 96 GiB of device memory; the device has 80 GiB'));

type Fate = { kind: 'ok' } | { kind: 'waived' | 'failed'; reason: number };
const fate: fc.Arbitrary<Fate> = fc.oneof(fc.constant({ kind: 'ok' as const }), fc.record({ kind: fc.constantFrom('waived' as const, 'failed' as const), reason: fc.nat({ max: 5 }) }));

function generated(fates: readonly Fate[], reasons: readonly [number, string][]): RunRecord {
  const text = (i: number): string => {
    const [n, words] = reasons[i % reasons.length] ?? [0, ''];
    return `(${i % reasons.length}.${n}) ${words}`;
  };
  const points = RUN.points.map((p, i): PointResult => {
    const f = fates[i % fates.length] ?? { kind: 'ok' };
    if (f.kind === 'ok') return p;
    const none = { stats: null, hostMs: [], deviceMs: null, gflops: null, gbps: null, verification: null };
    if (f.kind === 'waived') return { ...p, ...none, status: 'waived', reason: text(f.reason), error: null };
    const error: ErrorPayload = { code: 'PEER_FAILED', message: text(f.reason), details: { file: `peer-${f.reason % 2}.py` } };
    return { ...p, ...none, status: 'failed', reason: error.message, error };
  });
  return { ...RUN, points };
}

const cellText = (c: string | TableCell | undefined): string => (typeof c === 'string' ? c : c ? [c.text, c.note ?? ''].filter(Boolean).join('\n') : '');
const occurrences = (text: string, part: string): number => text.split(part).length - 1;

describe('the reasons of the results table in the PDF', () => {
  it.each(['en', 'es'] as const)('are each said once, every row marked with its own (%s)', (locale) => {
    if (!LAB) throw new Error(`no lab ${RUN.lab}`);
    const t = reportTranslate(locale);
    fc.assert(
      fc.property(fc.array(fate, { minLength: 1, maxLength: 20 }), fc.array(reason, { minLength: 1, maxLength: 6 }), (fates, reasons) => {
        const record = generated(fates, reasons);
        const { table, rowReasons } = inReportLocale(locale, () => ({ table: resultsTable(record, LAB, t), rowReasons: record.points.map((p) => pointReason(p, t)) }));
        const distinct = [...new Set(rowReasons.filter(Boolean))];
        const text = [table.above ?? '', ...table.spec.rows.flatMap((r) => r.cells.map(cellText)), ...table.below].join('\n');
        // Every reason a row has is there, once.
        for (const r of distinct) expect(occurrences(text, r), r).toBe(1);
        const statuses = table.spec.rows.map((r) => cellText(r.cells[2]));
        if (table.above !== null) {
          // One reason, every point it covers waived: the sentence above the table, and the rows say only "waived".
          expect(distinct).toHaveLength(1);
          expect(record.points.filter((p) => p.status !== 'ok').every((p) => p.status === 'waived')).toBe(true);
          expect(table.below).toEqual([]);
          record.points.forEach((p, i) => expect(statuses[i]).toBe(p.status === 'ok' ? t('results.status.ok') : STATUS[locale].waived));
          return;
        }
        expect(table.below).toHaveLength(distinct.length);
        record.points.forEach((p, i) => {
          if (p.status === 'ok') return expect(statuses[i]).not.toMatch(/\[/);
          // The row's mark leads the one line under the table that holds its reason, with the rows that reason covers.
          const mark = /^(\S+) \[([a-z]+)\]$/.exec(statuses[i] ?? '');
          expect(mark?.[1], statuses[i]).toBe(STATUS[locale][p.status === 'failed' ? 'failed' : 'waived']);
          const line = table.below.find((l) => l.startsWith(`[${mark?.[2] ?? ''}] `));
          const own = rowReasons[i] ?? '';
          expect(line, statuses[i]).toContain(own);
          const count = rowReasons.filter((r) => r === own).length;
          expect(line).toContain(locale === 'en' ? `${count} point${count === 1 ? '' : 's'}: ` : `${count} punto${count === 1 ? '' : 's'}: `);
        });
      }),
      { numRuns: 150 },
    );
  });
});
