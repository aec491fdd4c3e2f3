// Saving the PDF report from the app, as a student does it in serve mode: on a stored run's page, open "Save PDF…",
// type an author and a course, press "Save PDF report", and get a download named for people ("GPU Lab – <lab> –
// <day>.pdf"); then read the downloaded file with poppler as the unit tests read the writer's: every figure of the
// run's results table as the app shows it, the findings, the device, the accents. The author and course are
// remembered after a reload; a comparison saves the report of both runs.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';

import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { fileDay } from '../../main/common/pure/file-name.ts';
import { withCurrentFindings } from '../../main/runs/current-findings.ts';
import { bodyText, deviceNameOf, fixture, fixturesDir, packed, pdfInfo, pdfText, renderPages, resultFigures, spaced, tempDir } from '../unit/reports/pdf-tools.ts';
import { seededDataDir, startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';
import { findingText } from '../../main/labs/lab-text.ts';

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
  // The author and course are asked in the dialog that saves the report, not on the page.
  await expect(page.getByTestId('report-author')).toHaveCount(0);
  await page.getByTestId('open-pdf').click();
  await expect(page.getByRole('dialog', { name: 'PDF report of this run' })).toBeVisible();
  await page.getByTestId('report-author').fill(AUTHOR);
  await page.getByTestId('report-course').fill(COURSE);
  const { path, name } = await saveReport(page);
  expect(name).toBe(`GPU Lab – Elementwise break-even – ${fileDay(record.createdAt)}.pdf`);

  const text = bodyText(pdfText(path), [`GPU Lab 0.1.0 · GPU Lab report: ${record.labTitle}`, `${AUTHOR} · ${COURSE}`]);
  const figures = resultFigures(record);
  expect(figures.length).toBeGreaterThan(10);
  expect(figures.filter((f) => !spaced(text).includes(f))).toEqual([]);
  // The page's own table shows the same first figure the PDF holds.
  await expect(page.getByTestId('results-table')).toContainText(figures[0] ?? 'none');
  // The findings as every reader gets them: derived again from the points by the current analysis.
  for (const finding of withCurrentFindings(record).findings) expect(packed(text)).toContain(packed(findingText(finding, 'en')));
  for (const expected of [AUTHOR, COURSE, deviceNameOf(record), 'Course deliverable', 'This run cannot answer it']) expect(spaced(text)).toContain(expected);
  const info = pdfInfo(path);
  expect(info.Author).toBe(AUTHOR);
  const drawn = renderPages(path);
  expect([drawn.status, drawn.stderr, drawn.images.length]).toEqual([0, '', Number(info.Pages)]);

  // Remembered on this computer: the next report names the same author and course.
  await page.reload();
  await page.getByTestId('open-pdf').click();
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
  // Runs of two labs: both named, each with its day.
  expect(name).toBe(`GPU Lab – Matrix product ${fileDay(a.createdAt)} vs Matrix product break-even ${fileDay(b.createdAt)}.pdf`);
  const text = spaced(pdfText(path));
  for (const run of [a, b]) {
    expect(text).toContain(run.id);
    expect(resultFigures(run).filter((f) => !text.includes(f))).toEqual([]);
  }
  expect(text).toContain('The two runs are of different labs');

  const csv = page.waitForEvent('download');
  await page.getByTestId('export-csv-B').click();
  expect((await csv).suggestedFilename()).toBe(`GPU Lab – Matrix product break-even – ${fileDay(b.createdAt)}.csv`);
});

test.describe('the report of every lab, from the history', () => {
  let both: ServeProcess;
  test.beforeAll(async () => {
    // Every lab run on the CPU; two of them on the H100 too.
    const dataDir = seededDataDir();
    for (const name of ['h100-transfer', 'h100-matmul']) copyFileSync(join(fixturesDir, `${name}.json`), join(dataDir, 'runs', `${fixture(name).id}.json`));
    both = await startServe({ dataDir });
  });
  test.afterAll(async () => {
    await both.stop();
  });

  test('lists the run it takes for each lab on the chosen device, names the labs not run there, and saves them in one PDF', async ({ page }) => {
    await page.goto(both.url);
    await page.goto(`${both.origin}/#/runs`);
    const panel = page.getByTestId('labs-report');
    const rows = panel.getByTestId('labs-report-contents').locator('tbody tr');
    // The newest run is an H100 one: its device comes first.
    await expect(panel.getByTestId('labs-report-device')).toHaveValue('cuda:0');
    await expect(rows).toHaveCount(8);
    await expect(rows.filter({ hasText: 'Not run on this device' })).toHaveCount(6);
    await expect(panel.locator('legend')).toHaveText('PDF of every lab (2 of 8 labs run)');
    await expect(panel.locator('tr[data-lab="matmul"] a')).toHaveAttribute('href', `#/runs/${fixture('h100-matmul').id}`);

    await panel.getByTestId('labs-report-device').selectOption('cpu');
    // Every lab has a recorded CPU run but text-to-image.
    await expect(rows.filter({ hasText: 'Not run on this device' })).toHaveCount(1);
    await expect(panel.locator('legend')).toHaveText('PDF of every lab (7 of 8 labs run)');
    await expect(panel.locator('tr[data-lab="matmul"] a')).toHaveAttribute('href', `#/runs/${fixture('cpu-matmul').id}`);

    await panel.getByTestId('report-author').fill(AUTHOR);
    const download = page.waitForEvent('download');
    await panel.getByTestId('save-pdf').click();
    const file = await download;
    const path = join(tempDir('gpu-lab-e2e-labs-report-'), file.suggestedFilename());
    await file.saveAs(path);
    expect(file.suggestedFilename()).toBe(`GPU Lab – every lab – cpu – ${fileDay(new Date().toISOString())}.pdf`);
    await expect(panel.getByTestId('report-saved')).toContainText(file.suggestedFilename());
    // Every CPU run is in it with its figures; no H100 run is.
    const text = spaced(pdfText(path));
    for (const name of ['cpu-transfer', 'cpu-dtypes', 'cpu-matmul', 'cpu-vector-function', 'cpu-elementwise-breakeven', 'cpu-matmul-breakeven', 'cpu-timing-pitfalls']) {
      const run = fixture(name);
      expect(text).toContain(run.id);
      expect(resultFigures(run).filter((f) => !text.includes(f))).toEqual([]);
    }
    expect(text).not.toContain(fixture('h100-matmul').id);
    expect(pdfInfo(path).Author).toBe(AUTHOR);
    const drawn = renderPages(path);
    expect([drawn.status, drawn.stderr]).toEqual([0, '']);
  });
});
