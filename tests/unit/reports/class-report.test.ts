// The class's PDF (main/reports/class-document.ts) read back with poppler: its title and metadata, each lab's summary
// of the class (the students' headline numbers with their intervals, the class's range, the one student outside it
// named with the numbers that put them there, who has not run the lab), then each student's runs with the run
// report's own sections; in the teacher's language; and names that are HTML or look like PDF syntax printed as
// they were typed.
import { beforeAll, describe, expect, it } from 'vitest';

import { ClassExports, classSources } from '../../../main/classroom/class-exports.ts';
import { ClassStore } from '../../../main/classroom/class-store.ts';
import { writeClassReport } from '../../../main/reports/report-writer.ts';
import { formatFindingValue } from '../../../main/common/pure/format.ts';
import { RunStore } from '../../../main/runs/run-store.ts';
import { classFolder } from '../classroom/class-fixture.ts';
import type { ClassFolder } from '../classroom/class-fixture.ts';
import { pdfInfo, pdfText, savePdf } from './pdf-tools.ts';

// A name with HTML, PDF string syntax (parentheses, a backslash) and an accent.
const HOSTILE = '<img src=x> (Zoë) \\ )Tj';
const NAMES = ['Ana', 'Bob', 'Cleo', 'Dan', 'Eva', HOSTILE];

let folder: ClassFolder;
let exports: ClassExports;
let runs: RunStore;

beforeAll(async () => {
  folder = await classFolder(NAMES.map((name, i) => ({ name, fixture: 'h100-matmul-breakeven.json', scale: { 'gpu-transfers': name === HOSTILE ? 4 : 1 + 0.02 * i } })));
  const writable = await ClassStore.open(folder.dataDir, 'HPC 2026');
  await writable.join('Quim');
  const store = await ClassStore.read(folder.dataDir);
  runs = new RunStore(folder.dataDir, { warn: () => undefined });
  exports = new ClassExports(() => classSources(store, { listRuns: () => runs.list(), getRun: (id) => runs.get(id) }), writeClassReport);
}, 60_000);

// pdftotext keeps the page's lines (a label beside its value) with -layout; white space compared as one.
const flat = (text: string): string => text.replace(/\s+/g, ' ');

describe('the class’s PDF', () => {
  it('sums up each lab for the class, names the student outside the class’s range with the numbers that put them there, then gives each student’s runs', async () => {
    const pdf = await exports.pdf({ writerVersion: 'test', date: new Date('2026-11-30T10:00:00Z') });
    expect(pdf.filename).toBe('GPU Lab – HPC 2026 – 2026-11-30.pdf');
    const file = savePdf(pdf.bytes);
    const info = pdfInfo(file);
    expect(info.Title).toBe('Class report: HPC 2026');
    expect(Number(info.Pages)).toBe(pdf.pages);
    const text = flat(pdfText(file, undefined, { layout: true }));
    expect(text).toContain('Class report: HPC 2026');
    expect(text).toContain('Matrix product break-even: from which N does the GPU win?');
    expect(text).toContain('Students 7');
    // The outlier's sentence, with the numbers of the run's own findings.
    const overview = await exports.overview();
    const setup = overview.labs.find((l) => l.lab === 'matmul-breakeven')?.setups[0];
    const row = setup?.rows.find((r) => r.student === HOSTILE);
    const n = row?.numbers[0];
    const record = await runs.get(row?.runId ?? '');
    const f = record.findings.find((x) => x.id === 'gpu-transfers-break-even');
    expect(n?.finding.value).toBe(f?.value);
    expect(n?.against).toBe('above');
    const range = setup?.columns[0]?.range;
    const fmt = (v: number | null | undefined): string => formatFindingValue(v ?? NaN, 'N', 'en');
    expect(text).toContain(`${HOSTILE}: Break-even N with copies ${fmt(f?.value)} (${fmt(f?.interval?.low)} – ${fmt(f?.interval?.high)}), above the class’s range (${fmt(range?.low)} – ${fmt(range?.high)}).`);
    // Nobody else is named outside the range.
    for (const name of NAMES.filter((x) => x !== HOSTILE)) expect(text).not.toContain(`${name}: Break-even`);
    expect(text).not.toContain('below the class’s range');
    expect(text).toContain('Not run yet: Quim');
    expect(text).toContain('No finished run of any lab yet: Quim.');
    // Each student's part: the run report's sections for their run.
    for (const name of NAMES) expect(text).toMatch(new RegExp(`${name.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} · Matrix product break-?\\s?even`));
    expect(text.match(/Course deliverable|Deliverable/g)?.length ?? 0).toBeGreaterThanOrEqual(NAMES.length);
  }, 120_000);

  it('is written in the teacher’s language', async () => {
    const pdf = await exports.pdf({ writerVersion: 'test', locale: 'es' });
    const file = savePdf(pdf.bytes);
    expect(pdfInfo(file).Title).toBe('Informe de la clase: HPC 2026');
    const text = flat(pdfText(file));
    expect(text).toContain('Producto de matrices');
    expect(text).toContain('por encima del rango de la clase');
    expect(text).toContain('Aún sin ejecutarlo: Quim');
    expect(text).not.toContain('above the class’s range');
  }, 120_000);

  it('gives a section of its own to as many runs as its limit, and says how many more the summary shows, in both languages', async () => {
    const whole = await exports.pdf({ writerVersion: 'test' });
    const pdf = await exports.pdf({ writerVersion: 'test', maxRuns: 2 });
    expect(pdf.pages).toBeLessThan(whole.pages);
    const text = flat(pdfText(savePdf(pdf.bytes), undefined, { layout: true }));
    expect(text).toContain('4 runs the summary shows have no section of their own here: the report gives a section to 2 runs at most.');
    // The first students in the class have theirs; the others are in the summary's table only.
    expect(text).toMatch(/Ana · Matrix product break-?\s?even/);
    expect(text).toMatch(/Bob · Matrix product break-?\s?even/);
    expect(text).not.toMatch(/Cleo · Matrix product/);
    expect(text).toContain('Cleo');
    const es = flat(pdfText(savePdf((await exports.pdf({ writerVersion: 'test', maxRuns: 5, locale: 'es' })).bytes)));
    expect(es).toContain('Una ejecución del resumen no tiene aquí sección propia: el informe da sección a 5 ejecuciones como mucho.');
  }, 180_000);
});
