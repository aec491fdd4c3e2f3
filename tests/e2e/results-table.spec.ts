// The results table as a workspace, in Chromium over serve mode: one dense row per point with the record's own
// numbers (the formatters the chart and the PDF use), sorted from a column's header, the waived points in a group
// of their own that folds, a point's samples one click away, the run copied as the CSV export, and a run of 2,000
// points drawn a screenful at a time as it scrolls.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

import { formatMs } from '../../main/common/pure/format.ts';
import { countedSamples } from '../../main/common/pure/statistics.ts';
import { translator } from '../../main/common/pure/i18n/index.ts';
import type { RunRecord } from '../../main/common/run-record.ts';
import { labDescriptors } from '../../main/labs/index.ts';
import { withCurrentFindings } from '../../main/runs/current-findings.ts';
import { exportRun } from '../../main/runs/run-export.ts';
import { resultRows } from '../../main/common/pure/charts/result-rows.ts';
import { denseInterval } from '../../renderer/components/results/table-rows.ts';
import { recordedRun, resampledRun } from './support/resampled-run.ts';
import { startRecordedH100, startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

test.use({ viewport: { width: 1280, height: 720 } });

// The record as the app reads it (statistics and findings derived again), and its rows as the PDF words them.
function served(name: string): { record: RunRecord; rows: ReturnType<typeof resultRows> } {
  const record = withCurrentFindings(recordedRun(name));
  const lab = labDescriptors('en').find((l) => l.id === record.lab);
  if (!lab) throw new Error(`no lab ${record.lab}`);
  return { record, rows: resultRows(record, lab, translator('en')) };
}

// Every row of the table, read a screenful at a time down its scroll box: key → cells' text by metric.
async function readAllRows(page: Page): Promise<Map<string, Record<string, string>>> {
  const box = page.locator('.results-scroll');
  const seen = new Map<string, Record<string, string>>();
  await box.evaluate((el) => el.scrollTo(0, 0));
  for (let step = 0; step < 200; step++) {
    const drawn = await page.getByTestId('results-table').locator('tbody tr[data-key]').evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-key') ?? '', Object.fromEntries(Array.from(tr.querySelectorAll('[data-metric]')).map((c) => [c.getAttribute('data-metric') ?? '', (c.textContent ?? '').replace(/\s+/g, ' ').trim()]))] as const),
    );
    for (const [key, cells] of drawn) seen.set(key, cells);
    const atEnd = await box.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1);
    if (atEnd) break;
    await box.evaluate((el) => el.scrollBy(0, el.clientHeight * 0.8));
    await page.waitForTimeout(50);
  }
  return seen;
}

const keysShown = (table: Locator): Promise<string[]> => table.locator('tbody tr[data-key]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-key') ?? ''));

test.describe('the recorded H100 session', () => {
  let server: ServeProcess;
  test.beforeAll(async () => {
    server = await startRecordedH100();
  });
  test.afterAll(async () => server.stop());

  test('the transfer lab: 99 points in a short page, each row the record’s numbers', async ({ page }) => {
    const { record, rows } = served('h100-transfer');
    await page.goto(server.url);
    await page.goto(`${server.origin}/#/runs/${record.id}`);
    const table = page.getByTestId('results-table');
    await expect(table).toHaveAttribute('aria-rowcount', String(record.points.length + 1));
    // A table within one screen, and a page of a few screens, not 18,000 px of cards.
    expect((await table.locator('xpath=ancestor::div[contains(@class, "results-box")]').boundingBox())?.height ?? Infinity).toBeLessThan(720);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(4000);
    const shown = await readAllRows(page);
    expect([...shown.keys()].sort()).toEqual(record.points.map((p) => p.key).sort());
    for (const row of rows) {
      const cells = shown.get(row.key);
      // The dense row writes a lopsided interval as shares of the median (table-rows.ts), the PDF as two times.
      const point = record.points.find((p) => p.key === row.key);
      const interval = point ? denseInterval(point, row) : row.interval;
      const median = interval === '—' ? row.median : `${row.median} ${interval}${row.noisy ? ' (noisy)' : ''}`;
      expect({ key: row.key, ...cells }).toMatchObject({ key: row.key, median, rate: row.rate, peak: row.shareOfPeak, speedup: row.speedup });
    }
  });

  test('sorted by a column from its header, then the other way', async ({ page }) => {
    const { record } = served('h100-transfer');
    await page.goto(server.url);
    await page.goto(`${server.origin}/#/runs/${record.id}`);
    const table = page.getByTestId('results-table');
    const medians = new Map(record.points.map((p) => [p.key, p.stats?.median ?? Infinity]));
    const byMedian = [...medians.entries()].sort((a, b) => a[1] - b[1]).map(([k]) => k);
    const header = table.locator('th', { has: page.locator('[data-sort="median"]') });
    await expect(header).toHaveAttribute('aria-sort', 'none');
    await table.locator('[data-sort="median"]').click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    const ascending = await keysShown(table);
    expect(ascending.length).toBeGreaterThan(10);
    expect(ascending).toEqual(byMedian.slice(0, ascending.length));
    await table.locator('[data-sort="median"]').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    expect((await keysShown(table))[0]).toBe(byMedian.at(-1));
  });

  test('a point’s samples one click away, in the order taken, on the clock it was timed with', async ({ page }) => {
    const { record } = served('h100-matmul-breakeven');
    const point = record.points.find((p) => p.key === 'gpu-resident@1000');
    if (!point) throw new Error('no gpu-resident@1000');
    const samples = countedSamples(point);
    await page.goto(server.url);
    await page.goto(`${server.origin}/#/runs/${record.id}`);
    await expect(page.getByTestId('point-samples')).toHaveCount(0);
    await page.locator('tr[data-key="gpu-resident@1000"] [data-testid="show-samples"]').click();
    const panel = page.getByTestId('point-samples');
    await expect(panel).toHaveAttribute('data-key', 'gpu-resident@1000');
    await expect(panel.getByTestId('sample-values').locator('li')).toHaveText(samples.map((ms) => formatMs(ms, 'en')));
    await expect(panel).toContainText(`${samples.length} samples, in the order taken (${samples === point.deviceMs ? 'Device time, CUDA events' : 'Host clock'})`);
  });

  test('the whole run copied as the CSV export writes it', async ({ page, context }) => {
    const { record } = served('h100-matmul-breakeven');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    await page.goto(server.url);
    await page.goto(`${server.origin}/#/runs/${record.id}`);
    await page.getByTestId('copy-csv').click();
    await expect(page.getByTestId('copy-status')).toHaveText(`Copied: ${record.points.length} points as CSV, the columns of the CSV export`);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(exportRun(record, 'csv').text);
  });

  test('a CPU-only run: its waived points in a group that starts folded, their reason said once', async ({ page }) => {
    const { record } = served('cpu-elementwise-breakeven');
    const waived = record.points.filter((p) => p.status === 'waived').length;
    await page.goto(server.url);
    await page.goto(`${server.origin}/#/runs/${record.id}`);
    const table = page.getByTestId('results-table');
    await expect(page.getByTestId('waived-note')).toContainText(`${waived} points are waived, all for the same reason`);
    const group = page.getByTestId('group-waived');
    await expect(group).toHaveText(`Waived: ${waived} points`);
    await expect(group).toHaveAttribute('aria-expanded', 'false');
    await expect(table.locator('tr[data-group="waived"][data-key]')).toHaveCount(0);
    await expect(table.locator('tr[data-group="measured"][data-key]')).toHaveCount(record.points.length - waived);
    await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    await page.locator('.results-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(table.locator('tr[data-group="waived"][data-key]').last()).toBeVisible();
    await expect(table.locator('tr[data-group="waived"][data-key]').last()).toContainText('waived');
  });
});

test.describe('a run of 2,000 points', () => {
  let serve: ServeProcess;
  const record = resampledRun(2000);
  test.beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-e2e-long-run-'));
    mkdirSync(join(dataDir, 'runs'));
    writeFileSync(join(dataDir, 'runs', `${record.id}.json`), JSON.stringify(record));
    serve = await startServe({ dataDir });
  });
  test.afterAll(async () => serve.stop());

  test('is drawn a screenful at a time as its table scrolls', async ({ page }) => {
    await page.goto(serve.url);
    await page.goto(`${serve.origin}/#/runs/${record.id}`);
    const table = page.getByTestId('results-table');
    await expect(table).toHaveAttribute('aria-rowcount', '2001');
    const drawnRows = (): Promise<number> => table.locator('tbody tr[data-key]').count();
    expect(await drawnRows()).toBeGreaterThan(10);
    expect(await drawnRows()).toBeLessThan(80);
    // Scrolled to its end, the last point is there, and still only a screenful is drawn.
    await page.locator('.results-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const last = record.points.at(-1)?.key ?? '';
    await expect(table.locator(`tr[data-key="${last}"]`)).toBeVisible();
    expect(await drawnRows()).toBeLessThan(80);
    // The box is as tall as 2,000 rows would be, so that its scroll bar reads true.
    const scrollHeight = await page.locator('.results-scroll').evaluate((el) => el.scrollHeight);
    expect(scrollHeight).toBeGreaterThan(2000 * 30);
  });
});
