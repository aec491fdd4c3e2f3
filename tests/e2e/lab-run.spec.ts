// What a student does, in a real browser against a real serve-mode server on this machine's CPU: pick the CPU, run
// the elementwise break-even lab with small sizes and watch the chart grow, read the table and the findings, cancel
// a run, be stopped by a bad parameter, reload in the middle of a run, find the runs in the history after a reload,
// and compare two of them.
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

let serve: ServeProcess;
test.beforeAll(async () => {
  serve = await startServe();
});
test.afterAll(async () => {
  await serve.stop();
});

// Sizes 10³ … 10⁷ with two per decade: 27 CPU points of a few to a few hundred milliseconds, about 5 s in all on
// two cores: long enough to see the chart grow and to cancel, short enough for CI.
const SMALL = { minExponent: '3', maxExponent: '7', pointsPerDecade: '2', repeats: '10' };

async function openLab(page: Page): Promise<void> {
  await page.goto(serve.url);
  await page.getByTestId('device-picker').selectOption('cpu');
  await page.getByTestId('lab-elementwise-breakeven').click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Elementwise break-even');
}

async function setParams(page: Page, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) await page.getByTestId(`param-${name}`).fill(value);
  // main checks the values a moment after the last change; Run is enabled once they pass.
  await expect(page.getByTestId('run')).toBeEnabled();
}

const pointCount = async (page: Page): Promise<number> => Number(await page.getByTestId('run-chart').first().getAttribute('data-point-count'));

test('picks the CPU, runs the lab and sees the chart, the table and the findings grow', async ({ page }) => {
  await openLab(page);
  await expect(page.getByText('CPU only: the GPU series will be marked waived')).toBeVisible();
  // This machine's Python has NumPy but no PyTorch, the only peer of this lab: said once, and no PyTorch row planned.
  await expect(page.getByTestId('lab-python-missing')).toContainText('PyTorch');
  await setParams(page, SMALL);
  // Every value the chart's count of drawn points takes, recorded in the page as it changes: the chart must grow
  // point by point while the run goes on, not appear at the end.
  await page.evaluate(() => {
    const counts: number[] = [];
    (window as unknown as { drawnCounts: number[] }).drawnCounts = counts;
    new MutationObserver((changes) => {
      for (const c of changes) counts.push(Number((c.target as Element).getAttribute('data-point-count')));
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-point-count'] });
  });
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toBeVisible();
  await expect(page.getByTestId('run-status')).toContainText('Completed');
  const counts = await page.evaluate(() => (window as unknown as { drawnCounts: number[] }).drawnCounts);
  expect(new Set(counts.filter((n) => n > 0 && n < 27)).size).toBeGreaterThanOrEqual(3);
  expect(await pointCount(page)).toBe(27);
  const table = page.getByTestId('results-table');
  await expect(table).toHaveAttribute('data-rows', '81');
  await expect(page.getByTestId('group-measured')).toHaveText('Measured by GPU Lab: 27 points');
  // The waived points' group comes after GPU Lab's own, at the end of the table's box.
  await page.locator('.results-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.getByTestId('group-waived')).toHaveText('Waived: 54 points');
  await page.locator('.results-scroll').evaluate((el) => el.scrollTo(0, 0));
  await expect(table.locator('tbody tr[data-status="ok"]').first()).toContainText('✓');
  await expect(page.getByTestId('findings')).toContainText('WAIVED');
  await expect(page.getByTestId('findings').locator('li')).not.toHaveCount(0);
  await expect(page.getByText('Nothing to draw', { exact: false })).toHaveCount(0);
});

test('cancels a run in the middle: it stops, says so, and keeps the points measured', async ({ page }) => {
  await openLab(page);
  await setParams(page, { ...SMALL, maxExponent: '8', repeats: '20' });
  await page.getByTestId('run').click();
  // The progress shows once the new run is the one on screen: before that the chart is the last stored run's.
  await expect(page.getByTestId('run-progress')).toBeVisible();
  await expect.poll(() => pointCount(page)).toBeGreaterThanOrEqual(2);
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('run-status')).toContainText('Cancelled');
  const measured = await pointCount(page);
  expect(measured).toBeGreaterThanOrEqual(2);
  expect(measured).toBeLessThan(33);
  // The points not measured close GPU Lab's own group, at the end of the table.
  await page.locator('.results-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.getByTestId('results-table').locator('tbody tr[data-status="cancelled"]').last()).toBeVisible();
  await expect(page.getByTestId('run')).toBeEnabled();
});

test('a bad parameter shows the schema\'s own message beside it and nothing runs', async ({ page }) => {
  await openLab(page);
  const before = await page.request.get(`${serve.origin}/`).then(() => page.evaluate(() => document.querySelectorAll('[data-testid="run-status"]').length));
  await page.getByTestId('param-maxExponent').fill('12');
  const problem = page.getByTestId('param-problem');
  await expect(problem).toHaveText('«Largest size» = 12 is not allowed: expected an integer from 1 to 9 log10 elements, and at least «Smallest size».');
  await expect(page.getByTestId('param-maxExponent')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('fix-params')).toBeVisible();
  // Run asks main again and runs nothing: the field at fault takes the focus.
  await page.getByTestId('run').click();
  await expect(page.getByTestId('param-maxExponent')).toBeFocused();
  // A rule between two parameters is the schema's too.
  await page.getByTestId('param-maxExponent').fill('4');
  await page.getByTestId('param-minExponent').fill('6');
  await expect(problem).toHaveText('«Largest size» = 4 is not allowed with «Smallest size» = 6: it must be at least «Smallest size».');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('param-maxExponent')).toBeFocused();
  await page.getByTestId('reset-params').click();
  await expect(problem).toHaveCount(0);
  await expect(page.getByTestId('fix-params')).toHaveCount(0);
  expect(await page.evaluate(() => document.querySelectorAll('[data-testid="run-status"]').length)).toBe(before);
});

test('a reload in the middle of a run shows it again and it goes on to the end', async ({ page }) => {
  await openLab(page);
  await setParams(page, { ...SMALL, maxExponent: '8', repeats: '20' });
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-progress')).toBeVisible();
  await expect.poll(() => pointCount(page)).toBeGreaterThanOrEqual(1);
  await page.reload();
  await expect(page.getByTestId('live-run-badge')).toBeVisible();
  await expect(page.getByTestId('run-progress')).toBeVisible();
  const afterReload = await pointCount(page);
  await expect.poll(() => pointCount(page), { timeout: 60_000 }).toBeGreaterThan(afterReload);
  await expect(page.getByTestId('run-status')).toContainText('Completed', { timeout: 90_000 });
  expect(await pointCount(page)).toBe(33);
});

test('with the keyboard alone: skip to the content, open a lab, run it and cancel it', async ({ page }) => {
  await page.goto(serve.url);
  await page.keyboard.press('Tab');
  await expect(page.getByText('Skip to the content')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  await expect(page.getByTestId('lab-elementwise-breakeven')).toBeVisible();
  // Tab through the catalog to the lab, then through the lab's form to its Run button.
  const tabTo = async (testId: string): Promise<void> => {
    for (let i = 0; i < 80; i++) {
      if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testId)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${testId}`);
  };
  await tabTo('lab-elementwise-breakeven');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Elementwise break-even');
  await expect(page.getByTestId('run')).toBeEnabled();
  await tabTo('run');
  await page.keyboard.press('Enter');
  // Focus moves to Cancel once the run has started, so Enter again stops it.
  await expect(page.getByTestId('cancel')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-status')).toContainText('Cancelled');
});

test('the runs are in the history after a reload, and two of them compare side by side', async ({ page }) => {
  await page.goto(serve.url);
  await expect(page.getByTestId('lab-elementwise-breakeven')).toBeVisible();
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(/#\/runs$/);
  await page.reload();
  const rows = page.getByTestId('run-row');
  // The run cancelled from the keyboard the moment it started may have ended before it began to measure: such a run
  // never started, and is not stored.
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
  const total = await rows.count();
  await expect(page.getByTestId('run-count')).toContainText(`${total} of ${total}`);
  await expect(rows.filter({ hasText: 'Cancelled' })).toHaveCount(total - 2);
  await expect(rows.filter({ hasText: 'Completed' })).toHaveCount(2);
  const completed = rows.filter({ hasText: 'Completed' });
  await completed.nth(0).getByTestId('pick-run').check();
  await completed.nth(1).getByTestId('pick-run').check();
  await page.getByTestId('compare-button').click();
  await expect(page).toHaveURL(/#\/compare\//);
  await expect(page.getByTestId('compare-chart')).toBeVisible();
  const ratios = page.getByTestId('compare-ratios');
  // Both runs measured 10³ … 10⁷; the second went on to 10⁸: the common CPU points have a ratio each.
  await expect(ratios.locator('tbody tr')).not.toHaveCount(0);
  await expect(ratios).toContainText('add CPU');
  await expect(page.getByTestId('compare-params')).toContainText('Largest size');
});
