// The report in Spanish, from a run recorded on an H100 in English, read back with poppler: the headings, the lab's
// title and texts, the findings (the run predates findings as messages: the report re-analyses its points to give
// them theirs) and the deliverable in Spanish, every figure with a decimal comma, and the PDF's language; two reports
// written at once in two languages keeping their own numbers; and a language GPU Lab does not speak refused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { catalogTranslate } from '../../../main/common/pure/i18n/translate.ts';
import { resultRows } from '../../../main/common/pure/charts/result-rows.ts';
import { results as resultsEs } from '../../../main/common/pure/i18n/es/results.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { findLab } from '../../../main/labs/index.ts';
import { findingText, localizeDescriptor } from '../../../main/labs/lab-text.ts';
import { labDeliverable } from '../../../main/reports/deliverables/index.ts';
import { reportTranslate } from '../../../main/reports/report-context.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import { createReportsService } from '../../../main/reports/reports-service.ts';
import { writeComparisonReport, writeLabsReport, writeRunReport } from '../../../main/reports/report-writer.ts';
import { pdf as reportWords } from '../../../main/common/pure/i18n/en/pdf.ts';
import { pdf as reportWordsEs } from '../../../main/common/pure/i18n/es/pdf.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';
import { fixture, fixturesDir, packed, pdfInfo, pdfText, renderPages, savePdf, spaced } from './pdf-tools.ts';

const AUTHOR = 'Laura Llamas López';
const COURSE = 'Programación de GPUs';
const OPTIONS = { author: AUTHOR, course: COURSE, date: new Date('2026-11-24T10:00:00Z'), writerVersion: '0.1.0' };

function descriptorOf(record: RunRecord) {
  const lab = findLab(record.lab)?.descriptor;
  if (!lab) throw new Error(`no lab ${record.lab}`);
  return lab;
}

// The text without the foot and the header of each page, so that a paragraph continued on the next page reads whole.
function body(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/Página \d+ de \d+/.test(line) && !line.includes(`${AUTHOR} · ${COURSE}`))
    .join('\n');
}

// The PDF's language as pdfkit writes it in the document catalog.
const pdfLang = (bytes: Uint8Array): string | undefined => /\/Lang \((\w+)\)/.exec(Buffer.from(bytes).toString('latin1'))?.[1];

// Headings are printed alone on their line.
const lines = (text: string): Set<string> => new Set(text.split('\n').map((l) => l.trim()));

describe('the report of an H100 matmul-breakeven run in Spanish', () => {
  const record = fixture('h100-matmul-breakeven');
  const spanishLab = localizeDescriptor(descriptorOf(record), 'es');
  const written = writeRunReport(record, { ...OPTIONS, locale: 'es' });

  it('has the Spanish headings and title, and none of the English headings', async () => {
    const pdf = await written;
    const text = pdfText(savePdf(pdf.bytes));
    expect(spanishLab.title).not.toBe(record.labTitle);
    expect(pdf.title).toBe(`Informe de GPU Lab: ${spanishLab.title}`);
    const printed = lines(text);
    const headings = ['about', 'lookFor', 'environment', 'parameters', 'method', 'results', 'chart', 'table', 'findings', 'deliverable', 'questions', 'kernels'] as const;
    expect(headings.filter((h) => !printed.has(reportWordsEs.sections[h]))).toEqual([]);
    expect(headings.filter((h) => printed.has(reportWords.sections[h]))).toEqual([]);
    expect(printed.has(reportWords.environment.telemetry.title)).toBe(false);
    expect(text).toContain(`Página ${pdf.pages} de ${pdf.pages}`);
    expect(text).not.toMatch(/Page \d+ of \d+/);
    // The lab's own words: its explanation and what to look for.
    for (const paragraph of [...spanishLab.explanation, ...spanishLab.lookFor]) expect(packed(body(text))).toContain(packed(paragraph));
  });

  it('writes every figure of the results table with a decimal comma', async () => {
    const pdf = await written;
    const text = spaced(pdfText(savePdf(pdf.bytes)));
    const t = catalogTranslate({ results: resultsEs });
    const figures = inReportLocale('es', () => resultRows(withCurrentFindings(record), spanishLab, t).flatMap((row) => [row.median, row.iqr, row.range, row.rate, row.speedup]));
    const rates = figures.filter((f) => /FLOP\/s$/.test(f));
    expect(rates.length).toBeGreaterThan(5);
    expect(rates.every((f) => /^\d+,\d+ [GT]FLOP\/s$/.test(f))).toBe(true);
    expect(figures.filter((f) => f !== '—' && !text.includes(f))).toEqual([]);
    // No rate of the run is written the English way.
    expect(text).not.toMatch(/\d\.\d+ [GT]FLOP\/s/);
  });

  it('gives the findings in Spanish, re-analysed from the recorded points', async () => {
    const pdf = await written;
    const text = packed(body(pdfText(savePdf(pdf.bytes))));
    // Recorded as English words, read as such (common.recorded) until the analysis derives them again.
    expect(record.findings.every((f) => f.message.key === 'common.recorded')).toBe(true);
    const upgraded = withCurrentFindings(record).findings;
    expect(upgraded.length).toBeGreaterThanOrEqual(3);
    for (const finding of upgraded) {
      const spanish = findingText(finding, 'es');
      expect(spanish).not.toBe(findingText(finding, 'en'));
      expect(text).toContain(packed(spanish));
      expect(text).not.toContain(packed(findingText(finding, 'en')));
    }
    expect(text).toContain(packed('Como máximo, la BLAS de la CPU de GPU Lab (OpenBLAS 0.3.26) alcanza'));
  });

  it('fills in the course deliverable in Spanish: every cell and every answer', async () => {
    const pdf = await written;
    const text = packed(body(pdfText(savePdf(pdf.bytes))));
    const deliverable = inReportLocale('es', () => labDeliverable({ record: withCurrentFindings(record), lab: spanishLab, t: reportTranslate('es') }));
    if (!deliverable) throw new Error('no deliverable');
    expect(deliverable.answers.map((a) => a.question)).toContain('¿A partir de qué N la GPU, contando las copias, supera a la CPU?');
    for (const table of deliverable.tables) for (const row of table.rows) for (const cell of row.cells) expect(text).toContain(packed(typeof cell === 'string' ? cell : cell.text));
    for (const answer of deliverable.answers) {
      expect(text).toContain(packed(answer.question));
      expect(text).toContain(packed(answer.answer));
    }
    // A list of speedups: decimal commas inside, semicolons between.
    expect(spaced(pdfText(savePdf(pdf.bytes)))).toMatch(/\(\d+,\d+× con N = \d+(; \d+,\d+× con N = \d+)*\)/);
  });

  it('gives a count its plural form in the parameters: one warm-up run is “1 ejecución”, twenty samples “20 muestras”', async () => {
    const pdf = await written;
    const text = spaced(pdfText(savePdf(pdf.bytes)));
    expect(text).toMatch(/\b1 ejecución\b/);
    expect(text).not.toMatch(/\b1 ejecuciones\b/);
    expect(text).toMatch(/\b20 muestras\b/);
  });

  it('declares Spanish as the document’s language, with Spanish metadata, and every page draws', async () => {
    const pdf = await written;
    expect(pdfLang(pdf.bytes)).toBe('es');
    const file = savePdf(pdf.bytes);
    const info = pdfInfo(file);
    expect(info.Title).toBe(pdf.title);
    expect(info.Subject).toContain(`${spanishLab.title}, ejecución ${record.id} en NVIDIA H100`);
    expect(info.Keywords).toContain('medición de rendimiento');
    const drawn = renderPages(file);
    expect(drawn.stderr).toBe('');
    expect(drawn.images).toHaveLength(pdf.pages);
  });
});

describe('reports in two languages', () => {
  it('keep their own numbers when written at once', async () => {
    const record = fixture('h100-matmul-breakeven');
    const [es, en] = await Promise.all([writeRunReport(record, { ...OPTIONS, locale: 'es' }), writeRunReport(record, OPTIONS)]);
    const spanish = spaced(pdfText(savePdf(es.bytes)));
    const english = spaced(pdfText(savePdf(en.bytes)));
    expect(spanish).toMatch(/\d,\d+ TFLOP\/s/);
    expect(spanish).not.toMatch(/\d\.\d+ TFLOP\/s/);
    expect(english).toMatch(/\d\.\d+ TFLOP\/s/);
    // A comma in English only groups thousands ("1,071 TFLOP/s"), never before a decimal.
    expect(english).not.toMatch(/\d,(\d{1,2}|\d{4,}) TFLOP\/s/);
    expect(english).toContain('Findings');
    expect(pdfLang(en.bytes)).toBe('en');
  });

  it('compare two runs in Spanish, and list every lab in Spanish with those not run', async () => {
    const a = fixture('cpu-matmul-breakeven');
    const b = fixture('h100-matmul-breakeven');
    const comparison = pdfText(savePdf((await writeComparisonReport(a, b, { locale: 'es' })).bytes));
    const title = localizeDescriptor(descriptorOf(b), 'es').title;
    expect(spaced(comparison)).toContain(spaced(`Comparación de GPU Lab: ${title}`));
    expect(lines(comparison).has('Las dos ejecuciones, comparadas')).toBe(true);
    expect(lines(comparison).has('Punto a punto')).toBe(true);
    const labs = pdfText(savePdf((await writeLabsReport([b], 'cuda:0', { locale: 'es' })).bytes));
    expect(lines(labs).has('Índice')).toBe(true);
    expect(labs).toContain('no se ha ejecutado en este dispositivo');
  });

  it('refuse a language GPU Lab does not speak, before reading a run', async () => {
    const record = fixture('h100-matmul-breakeven');
    await expect(writeRunReport(record, { locale: 'fr' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { reason: 'locale-unknown' } });
    let read = false;
    const service = createReportsService({
      getRun: () => {
        read = true;
        return Promise.resolve(record);
      },
      runsDir: fixturesDir,
      writerVersion: '0.1.0',
    });
    await expect(service.writeReport({ runIds: [record.id], locale: 'fr' as never })).rejects.toMatchObject({ details: { reason: 'locale-unknown' } });
    expect(read).toBe(false);
  });

  it('are asked for through the reports service with the request’s locale', async () => {
    const record = JSON.parse(readFileSync(join(fixturesDir, 'h100-matmul-breakeven.json'), 'utf8')) as RunRecord;
    const service = createReportsService({ getRun: () => Promise.resolve(record), runsDir: fixturesDir, writerVersion: '0.1.0' });
    const file = await service.writeReport({ runIds: [record.id], locale: 'es' });
    const text = pdfText(savePdf(Buffer.from(file.base64, 'base64')));
    expect(text).toContain('Entrega del curso');
    expect(spaced(text)).toMatch(/\d,\d+ GFLOP\/s/);
  });
});
