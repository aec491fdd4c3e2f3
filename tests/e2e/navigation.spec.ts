// Moving between pages as a student does, in a laptop's window on the recorded H100 session: every page a link opens
// starts at its top, its title in view; Back and Forward return to the place the reader left.
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { startRecordedH100 } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

let server: ServeProcess;
test.beforeAll(async () => {
  server = await startRecordedH100();
});
test.afterAll(async () => server.stop());
test.use({ viewport: { width: 1280, height: 720 } });

const scrollY = (page: Page): Promise<number> => page.evaluate(() => window.scrollY);

async function titleInView(page: Page): Promise<void> {
  const title = page.getByRole('heading', { level: 1 });
  await expect(title).toBeInViewport();
  expect(await scrollY(page)).toBe(0);
}

test('a link opens its page at the top; Back and Forward return to where the reader was', async ({ page }) => {
  await page.goto(server.url);
  await expect(page.getByTestId('lab-timing-pitfalls')).toBeVisible();
  // Far down the catalog, a lab's card opens the lab at its top.
  await page.getByTestId('lab-timing-pitfalls').scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 2000);
  await expect.poll(() => scrollY(page)).toBeGreaterThan(100);
  const catalogAt = await scrollY(page);
  await page.getByTestId('lab-timing-pitfalls').click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Timing pitfalls');
  await expect(page.getByTestId('results-table')).toBeVisible();
  await titleInView(page);

  // Down the lab's page to its table, then the history from the rail: the history at its top.
  await page.getByTestId('results-table').scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 600);
  await expect.poll(() => scrollY(page)).toBeGreaterThan(200);
  const labAt = await scrollY(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
  await expect(page.getByTestId('run-row')).toHaveCount(14);
  await titleInView(page);

  // A run from the history: at its top too.
  await page.mouse.wheel(0, 400);
  await page.getByTestId('open-run').last().click();
  await expect(page.getByTestId('results-table')).toBeVisible();
  await titleInView(page);

  // Back twice: the lab's page where it was left, then the catalog where it was left; Forward: the lab again.
  await page.goBack();
  await expect(page.getByTestId('run-row')).toHaveCount(14);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Timing pitfalls');
  await expect.poll(() => scrollY(page)).toBe(labAt);
  await page.goBack();
  await expect(page.getByTestId('lab-timing-pitfalls')).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(catalogAt);
  await page.goForward();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Timing pitfalls');
  await expect.poll(() => scrollY(page)).toBe(labAt);
});
