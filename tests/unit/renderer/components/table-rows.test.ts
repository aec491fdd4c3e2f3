// The results table's order: sorted by one figure, either way, every row kept, a row without the figure last either
// way, ties in the run's order; and each row's series, size and group as the table shows them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { sortRows, SORT_KEYS, tableRow } from '../../../../renderer/components/results/table-rows.ts';
import type { SortKey, TableRow } from '../../../../renderer/components/results/table-rows.ts';
import { resultRow } from '../../../../main/common/pure/charts/result-rows.ts';
import { fixtureRun, t } from '../charts/synthetic-runs.ts';

// Rows that differ only in the figures sorted: the tests read their index back from the key.
function rowsWith(values: (number | null)[], key: SortKey): TableRow[] {
  const { record, lab } = fixtureRun('h100-matmul');
  const p = record.points[0];
  if (!p) throw new Error('no point');
  const base = tableRow(p, resultRow(p, lab, undefined, t), lab, undefined, 0, t);
  return values.map((v, i) => ({ ...base, key: String(i), order: { ...base.order, [key]: v } }));
}

describe('sortRows', () => {
  it('orders by the figure, keeps every row, puts rows without it last and ties in the run’s order', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }), { maxLength: 40 }), fc.constantFrom(...SORT_KEYS), fc.boolean(), (values, key, descending) => {
        const sorted = sortRows(rowsWith(values, key), { key, descending });
        expect(sorted.map((r) => r.key).sort()).toEqual(values.map((_, i) => String(i)).sort());
        const figures = sorted.map((r) => r.order[key]);
        const firstNull = figures.indexOf(null);
        if (firstNull >= 0) expect(figures.slice(firstNull).every((f) => f === null)).toBe(true);
        for (let i = 1; i < sorted.length; i++) {
          const [a, b] = [sorted[i - 1], sorted[i]];
          const [x, y] = [a?.order[key], b?.order[key]];
          if (typeof x !== 'number' || typeof y !== 'number') continue;
          expect(descending ? x >= y : x <= y).toBe(true);
          if (x === y) expect(Number(a?.key)).toBeLessThan(Number(b?.key));
        }
      }),
    );
  });

  it('keeps the run’s order unsorted', () => {
    const rows = rowsWith([3, 1, 2], 'median');
    expect(sortRows(rows, null).map((r) => r.key)).toEqual(['0', '1', '2']);
  });
});

describe('tableRow', () => {
  it('names the series and the size apart, and puts each point in its group', () => {
    const { record, lab } = fixtureRun('cpu-elementwise-breakeven');
    const rows = record.points.map((p) => tableRow(p, resultRow(p, lab, undefined, t), lab, undefined, 0, t));
    const cpu = rows.find((r) => r.key === 'add-cpu@1000');
    expect([cpu?.seriesLabel, cpu?.size, cpu?.group]).toEqual(['add CPU', '1 k', 'measured']);
    expect(rows.filter((r) => r.group === 'waived')).toHaveLength(record.points.filter((p) => p.status === 'waived').length);
    const dtypes = fixtureRun('h100-dtypes');
    const fp16 = dtypes.record.points.find((p) => p.key === 'gpu-fp16');
    if (!fp16) throw new Error('no gpu-fp16');
    expect(tableRow(fp16, resultRow(fp16, dtypes.lab, undefined, t), dtypes.lab, undefined, 0, t).size).toBe('fp16');
  });
});
