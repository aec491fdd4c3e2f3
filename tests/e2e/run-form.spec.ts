// The run form as a student uses it, on this machine's CPU in serve mode: typed values are run at the first click,
// Ctrl+Enter in a field runs too, and a value the lab refuses is named at once, its field focused, nothing run.
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

let serve: ServeProcess;
test.beforeAll(async () => {
  serve = await startServe();
});
test.afterAll(async () => serve.stop());

async function openBreakEven(page: Page): Promise<void> {
  await page.goto(serve.url);
  await page.getByTestId('device-picker').selectOption('cpu');
  await page.goto(`${serve.origin}/#/labs/matmul-breakeven`);
  await expect(page.getByTestId('run')).toBeEnabled();
}

// The sizes the run on screen measured, from its table's CPU rows (the table follows the record within a moment).
async function expectCpuSizesRun(page: Page, sizes: string[]): Promise<void> {
  await expect(page.getByTestId('run-status')).toContainText('Completed', { timeout: 60_000 });
  await expect.poll(() => cpuSizes(page)).toEqual(sizes);
}

async function cpuSizes(page: Page): Promise<string[]> {
  return page.getByTestId('results-table').locator('tbody tr[data-series="cpu"]').evaluateAll((rows) => rows.map((r) => (r.getAttribute('data-key') ?? '').replace(/^cpu@/, '')));
}

test('sizes typed into the list field run at the first click on Run', async ({ page }) => {
  await openBreakEven(page);
  const sizes = page.getByTestId('param-sizes');
  await sizes.click();
  await sizes.press('ControlOrMeta+a');
  await sizes.pressSequentially('50,100,200,400');
  // One click, straight from the field: no blur, no pause first.
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toBeVisible({ timeout: 5_000 });
  await expectCpuSizesRun(page, ['50', '100', '200', '400']);
});

test('Ctrl+Enter in a field runs what the form shows', async ({ page }) => {
  await openBreakEven(page);
  const sizes = page.getByTestId('param-sizes');
  await sizes.fill('');
  await sizes.pressSequentially('64, 128');
  await sizes.press('Control+Enter');
  await expect(page.getByTestId('run-progress')).toBeVisible({ timeout: 5_000 });
  await expectCpuSizesRun(page, ['64', '128']);
});

test('a value the lab refuses is named at the click, its field focused, and nothing runs', async ({ page }) => {
  await openBreakEven(page);
  const shownRun = (): Promise<string | null> => page.locator('[data-run-id]').first().getAttribute('data-run-id', { timeout: 2_000 }).catch(() => null);
  const before = await shownRun();
  const repeats = page.getByLabel('Repeats');
  await repeats.fill('');
  await repeats.pressSequentially('0');
  await page.getByTestId('param-sizes').click();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('param-problem')).toContainText('«Repeats» = 0 is not allowed');
  await expect(repeats).toBeFocused();
  await expect(page.getByTestId('fix-params')).toBeVisible();
  await expect(page.getByTestId('run-progress')).toHaveCount(0);
  expect(await shownRun()).toBe(before);
});

test('the history tells the runs apart by their sizes, and the CPU threads’ 0 reads “all cores”', async ({ page }) => {
  await page.goto(serve.url);
  await page.goto(`${serve.origin}/#/runs`);
  const rows = page.getByTestId('run-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByTestId('run-params')).toHaveText('Matrix sizes N: 64, 128');
  await expect(rows.nth(1).getByTestId('run-params')).toHaveText('Matrix sizes N: 50, 100, 200, 400');
  await expect(rows.nth(0).getByTestId('headline')).toContainText('GFLOP/s');
  await rows.nth(0).getByTestId('pick-run').check();
  await rows.nth(1).getByTestId('pick-run').check();
  await page.getByTestId('compare-button').click();
  const params = page.getByTestId('compare-params');
  await expect(params.locator('tr', { hasText: 'CPU threads' })).toContainText('all cores');
  await expect(params).not.toContainText('0 threads');
  await page.goBack();
  await rows.nth(0).getByTestId('open-run').click();
  const environment = page.getByTestId('run-environment');
  await expect(environment.locator('tr', { hasText: 'CPU threads' })).toContainText('all cores');
  await expect(environment).not.toContainText('0 threads');
});
