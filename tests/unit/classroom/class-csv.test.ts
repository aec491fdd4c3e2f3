// The class as a CSV (main/classroom/class-csv.ts), read back by a strict RFC 4180 reader: one row per finished run of
// a student (a failed one and a removed student's included, the teacher's and nobody's left out), the headline
// numbers exactly as the run's own page reads them (the record read through the run store, findings derived again),
// the outlier marked where the table marks it; and names that are formulas, quotes and commas kept as text.
import { beforeAll, describe, expect, it } from 'vitest';

import { ClassExports, classSources } from '../../../main/classroom/class-exports.ts';
import { ClassStore } from '../../../main/classroom/class-store.ts';
import { writeClassReport } from '../../../main/reports/report-writer.ts';
import { RunStore } from '../../../main/runs/run-store.ts';
import { classFolder } from './class-fixture.ts';
import { readCsv } from './csv-reader.ts';
import type { ClassFolder } from './class-fixture.ts';

// Names a spreadsheet would run or split: formulas, a quote, a comma, a line of HTML.
const NAMES = ['Ana', 'Bob', 'Cleo', 'Dan', 'Eva', '=HYPERLINK("http://x","y")', '+1, "quoted"', '@SUM(A1)', '-2+3', '<b>Zoë</b>'];

let folder: ClassFolder;
let store: ClassStore;
let runs: RunStore;
let exports: ClassExports;

beforeAll(async () => {
  // Everyone's break-even with copies near the others', but for the student whose GPU path is four times slower.
  folder = await classFolder([
    ...NAMES.map((name, i) => ({ name, fixture: 'h100-matmul-breakeven.json', scale: { 'gpu-transfers': name === '@SUM(A1)' ? 4 : 1 + 0.02 * i } })),
    { name: 'Ana', fixture: 'cpu-vector-function.json', status: 'failed' as const },
    { name: 'Gone', fixture: 'cpu-vector-function.json' },
  ]);
  const writable = await ClassStore.open(folder.dataDir, 'HPC 2026');
  await writable.remove(folder.students.find((s) => s.name === 'Gone')?.id ?? '');
  // The teacher's own run: not the class's.
  await writable.own('runs', 'teachers-run', 'teacher');
  store = await ClassStore.read(folder.dataDir);
  runs = new RunStore(folder.dataDir, { warn: () => undefined });
  exports = new ClassExports(() => classSources(store, { listRuns: () => runs.list(), getRun: (id) => runs.get(id) }), writeClassReport);
});

describe('the class as CSV', () => {
  it('has one row per finished run of a student, with the numbers the run’s own page reads', async () => {
    const csv = await exports.csv(new Date('2026-11-30T10:00:00Z'));
    expect(csv.filename).toBe('GPU Lab – HPC 2026 – 2026-11-30.csv');
    const [header = [], ...rows] = readCsv(csv.text);
    expect(rows).toHaveLength(folder.runIds.length);
    for (const row of rows) expect(row).toHaveLength(header.length);
    const col = (row: string[], name: string): string => row[header.indexOf(name)] ?? '';
    expect(rows.map((r) => col(r, 'run_id')).sort()).toEqual([...folder.runIds].sort());
    for (const row of rows) {
      const record = await runs.get(col(row, 'run_id'));
      expect(col(row, 'status')).toBe(record.status);
      expect(col(row, 'lab')).toBe(record.lab);
      expect(col(row, 'device')).toBe(record.device);
      expect(col(row, 'created_at')).toBe(record.createdAt);
      if (record.status !== 'completed') {
        expect(col(row, 'headline_1')).toBe('');
        continue;
      }
      const ids = [1, 2, 3, 4].map((k) => col(row, `headline_${k}`)).filter(Boolean);
      expect(ids.length).toBeGreaterThan(0);
      for (const [i, id] of ids.entries()) {
        const k = i + 1;
        const f = record.findings.find((x) => x.id === id);
        expect(f, `${id} of ${record.id}`).toBeDefined();
        expect(Number(col(row, `value_${k}`))).toBe(f?.value);
        expect(Number(col(row, `low_${k}`))).toBe(f?.interval?.low);
        expect(Number(col(row, `high_${k}`))).toBe(f?.interval?.high);
        expect(col(row, `unit_${k}`)).toBe(f?.unit);
      }
    }
    // The removed student's run stays, marked so.
    const gone = rows.find((r) => col(r, 'student') === 'Gone');
    expect(col(gone ?? [], 'removed')).toBe('true');
    // Only the student whose GPU path is four times slower lies above the class's range.
    const marked = rows.filter((r) => [1, 2, 3].some((k) => col(r, `against_class_${k}`) === 'above' || col(r, `against_class_${k}`) === 'below'));
    expect(marked.map((r) => [col(r, 'student'), col(r, 'headline_1'), col(r, 'against_class_1')])).toEqual([["'@SUM(A1)", 'gpu-transfers-break-even', 'above']]);
  });

  it('keeps every name as text: a cell that would start a formula begins with a quote mark, quotes and commas stay inside their cell', async () => {
    const csv = await exports.csv();
    const [header = [], ...rows] = readCsv(csv.text);
    const names = new Set(rows.map((r) => r[header.indexOf('student')]));
    expect(names).toEqual(new Set(["Ana", 'Bob', 'Cleo', 'Dan', 'Eva', `'=HYPERLINK("http://x","y")`, `'+1, "quoted"`, "'@SUM(A1)", "'-2+3", '<b>Zoë</b>', 'Gone']));
    // No line of the file starts a formula, whatever a reader that does not unquote makes of it.
    for (const line of csv.text.split('\n')) expect(line).not.toMatch(/^[=+\-@]/);
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+@]/);
  });
});
