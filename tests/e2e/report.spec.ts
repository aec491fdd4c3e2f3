// Saving the PDF report from the app, as a student does it in serve mode: on a stored run's page, type an author and
// a course, press "Save PDF report", and get a download; then read the downloaded file with poppler as the unit tests
// read the writer's: every figure of the run's results table as the app shows it, the findings, the device, the
// accents. The author and course are remembered after a reload; a comparison saves the report of both runs.
import { join } from 'node:path';

import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { bodyText, deviceNameOf, fixture, packed, pdfInfo, pdfText, renderPages, resultFigures, spaced, tempDir } from '../unit/report/pdf-tools.ts';
import { seededDataDir, startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

let serve: ServeProcess;
test.beforeAll(async () => {
  serve = await startServe({ dataDir: seededDataDir() });
});
test.afterAll(async () => {
  await serve.stop();
});

const AUTHOR = 'Laura Llamas López';
const COURSE = 'Programación de GPUs — ≈ µ ² ³';

async function saveReport(page: Page): Promise<{ path: string; name: string }> {
  const download = page.waitForEvent('download');
  await page.getByTestId('save-pdf').first().click();
  const file = await download;
  const path = join(tempDir('gpu-lab-e2e-report-'), file.suggestedFilename());
  await file.saveAs(path);
  await expect(page.getByTestId('report-saved')).toContainText(file.suggestedFilename());
  return { path, name: file.suggestedFilename() };
}

test('saves the PDF report of a run from its page, with the figures the page shows', async ({ page }) => {
  const record = fixture('cpu-elementwise-breakeven');
  await page.goto(serve.url);
  await page.goto(`${serve.origin}/#/runs/${record.id}`);
  await expect(page.getByTestId('results-table')).toBeVisible();
  await page.getByTestId('report-author').fill(AUTHOR);
  await page.getByTestId('report-course').fill(COURSE);
  const { path, name } = await saveReport(page);
  expect(name).toBe(`${record.id}.pdf`);

  const text = bodyText(pdfText(path), [`GPU Lab 0.1.0 · GPU Lab report: ${record.labTitle}`, `${AUTHOR} · ${COURSE}`]);
  const figures = resultFigures(record);
  expect(figures.length).toBeGreaterThan(10);
  expect(figures.filter((f) => !spaced(text).includes(f))).toEqual([]);
  // The page's own table shows the same first figure the PDF holds.
  await expect(page.getByTestId('results-table')).toContainText(figures[0] ?? 'none');
  for (const finding of record.findings) expect(packed(text)).toContain(packed(finding.text));
  for (const expected of [AUTHOR, COURSE, deviceNameOf(record), 'Course deliverable', 'This run cannot answer it']) expect(spaced(text)).toContain(expected);
  const info = pdfInfo(path);
  expect(info.Author).toBe(AUTHOR);
  const drawn = renderPages(path);
  expect([drawn.status, drawn.stderr, drawn.images.length]).toEqual([0, '', Number(info.Pages)]);

  // Remembered on this computer: the next report names the same author and course.
  await page.reload();
  await expect(page.getByTestId('report-author')).toHaveValue(AUTHOR);
  await expect(page.getByTestId('report-course')).toHaveValue(COURSE);
});

test('saves the report of two runs compared, beside each run’s JSON and CSV', async ({ page }) => {
  const a = fixture('cpu-matmul');
  const b = fixture('cpu-matmul-breakeven');
  await page.goto(serve.url);
  await page.goto(`${serve.origin}/#/compare/${a.id}/${b.id}`);
  await expect(page.getByTestId('compare-facts')).toBeVisible();
  await expect(page.getByTestId('export-json-A')).toBeVisible();
  await expect(page.getByTestId('export-csv-B')).toBeVisible();
  const { path, name } = await saveReport(page);
  expect(name).toBe(`${a.id}-vs-${b.id}.pdf`);
  const text = spaced(pdfText(path));
  for (const run of [a, b]) {
    expect(text).toContain(run.id);
    expect(resultFigures(run).filter((f) => !text.includes(f))).toEqual([]);
  }
  expect(text).toContain('The two runs are of different labs');

  const csv = page.waitForEvent('download');
  await page.getByTestId('export-csv-B').click();
  expect((await csv).suggestedFilename()).toBe(`${b.id}.csv`);
});
