// Two runs compared in one report, and every lab on one device in one report with its table of contents and page
// numbers, read back with poppler.
import { describe, expect, it } from 'vitest';

import { compareRows } from '../../../main/common/pure/charts/compare-rows.ts';
import { writeComparisonReport, writeLabsReport } from '../../../main/reports/report-writer.ts';
import { LAB_IDS } from '../../../main/common/lab-descriptor.ts';
import { appT, bodyText, deviceNameOf, fixture, packed, pdfInfo, pdfText, renderPages, resultFigures, savePdf, spaced } from './pdf-tools.ts';
import { findingText } from '../../../main/labs/lab-text.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';

describe('a comparison report', () => {
  const a = fixture('cpu-elementwise-breakeven');
  const b = fixture('h100-elementwise-breakeven');

  it('holds both runs, every ratio of the comparison table, and each run’s own results', async () => {
    const pdf = await writeComparisonReport(a, b, { author: 'Profesora Núñez', course: 'GPU 2026' });
    const file = savePdf(pdf.bytes);
    const text = spaced(pdfText(file));
    expect(text).toContain(`GPU Lab comparison: ${a.labTitle}`);
    for (const run of [a, b]) {
      expect(text).toContain(run.id);
      expect(text).toContain(deviceNameOf(run));
      expect(resultFigures(run).filter((f) => !text.includes(f))).toEqual([]);
    }
    const rows = compareRows(a, b, appT);
    expect(rows.some((r) => r.ratioText !== '—')).toBe(true);
    for (const row of rows) {
      expect(text).toContain(row.medianA);
      expect(text).toContain(row.medianB);
      if (row.ratioText !== '—') expect(text).toContain(row.ratioText);
    }
    const info = pdfInfo(file);
    expect(Number(info.Pages)).toBe(pdf.pages);
    expect(info.Title).toBe(pdf.title);
    expect(info.Subject).toContain(`run ${a.id} against run ${b.id}`);
    const drawn = renderPages(file);
    expect([drawn.status, drawn.stderr, drawn.images.length]).toEqual([0, '', pdf.pages]);
  });

  // Runs recorded in English, a report in Spanish: the comparison table names each point in Spanish, as the app does.
  it('names the points of its comparison table in the report\'s language', async () => {
    const pdf = await writeComparisonReport(fixture('cpu-matmul'), fixture('h100-matmul'), { locale: 'es' });
    const ratios = spaced(pdfText(savePdf(pdf.bytes))).split('Punto a punto')[1] ?? '';
    expect(ratios).toContain('BLAS en la CPU');
    expect(ratios).not.toContain('CPU BLAS, N = 1500');
  });

  it('of two different labs says so and reports both runs in full instead of ratios', async () => {
    const other = fixture('h100-dtypes');
    const pdf = await writeComparisonReport(a, other);
    const text = packed(pdfText(savePdf(pdf.bytes)));
    expect(text).toContain(packed(`The two runs are of different labs (${a.labTitle} and ${other.labTitle})`));
    expect(text).not.toContain(packed('Point by point'));
    const first = withCurrentFindings(other).findings[0];
    expect(text).toContain(packed(first ? findingText(first, 'en') : 'missing'));
  });
});

describe('the report of every lab on one device', () => {
  // Every lab's recorded H100 run but text-to-image's, which no GPU of these machines has recorded yet
  // (tests/gpu/unit10.test.ts writes one where GPU_LAB_UNIT10_RECORDS names a folder).
  const runs = LAB_IDS.filter((lab) => lab !== 'text-to-image').map((lab) => fixture(`h100-${lab}`));

  it('lists each lab in its table of contents with the page its chapter starts on, and numbers every page', async () => {
    const pdf = await writeLabsReport(runs, 'cuda:0', { author: 'Laura Llamas López', course: 'Programación de GPUs' });
    const file = savePdf(pdf.bytes);
    const info = pdfInfo(file);
    expect(Number(info.Pages)).toBe(pdf.pages);
    expect(info.Title).toBe('GPU Lab report: the labs on NVIDIA H100 80GB HBM3');
    const contents = pdfText(file, 1, { layout: true });
    for (const run of runs) {
      const line = new RegExp(`\\d+\\s+${run.labTitle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+(\\d+)$`, 'm').exec(contents);
      expect(line, `${run.labTitle} in the contents`).not.toBeNull();
      const page = Number(line?.[1]);
      expect(page).toBeGreaterThan(1);
      const chapter = spaced(pdfText(file, page));
      expect(chapter).toContain(run.labTitle);
      expect(chapter).toContain(`Page ${page} of ${pdf.pages}`);
    }
    const deliverables = [...contents.matchAll(/Course deliverable, page (\d+)/g)].map((m) => Number(m[1]));
    expect(deliverables).toHaveLength(runs.length);
    for (const page of deliverables) expect(pdfText(file, page)).toContain('Course deliverable');
    for (let page = 1; page <= pdf.pages; page++) expect(pdfText(file, page)).toContain(`Page ${page} of ${pdf.pages}`);
    const whole = bodyText(pdfText(file), ['GPU Lab 0.1.0 · GPU Lab report: the labs on NVIDIA H100 80GB HBM3', 'Laura Llamas López · Programación de GPUs']);
    for (const run of runs) expect(resultFigures(run).filter((f) => !spaced(whole).includes(f))).toEqual([]);
    const drawn = renderPages(file);
    expect([drawn.status, drawn.stderr, drawn.images.length]).toEqual([0, '', pdf.pages]);
  });

  it('names a lab without a run on that device as not run', async () => {
    const pdf = await writeLabsReport(runs.filter((r) => r.lab !== 'dtypes'), 'cuda:0');
    const contents = spaced(pdfText(savePdf(pdf.bytes), 1));
    expect(contents).toContain('Data types: memory, speed and precision: not run on this device');
  });
});
