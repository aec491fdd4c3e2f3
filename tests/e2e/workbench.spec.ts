// The lab page as a workbench, in a laptop's window and a desktop's: Run in the first screenful of every lab page,
// the chart and the run's progress in view together while a run goes, Run still in reach with the page scrolled to
// the table, and "About this lab" an introduction in the page's flow, never over the work at any width, open on a
// lab's first visit only and one line once closed. Every lab page passes axe with the introduction open.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

import { startRecordedH100, startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

const LABS = ['transfer', 'dtypes', 'matmul', 'vector-function', 'elementwise-breakeven', 'matmul-breakeven', 'timing-pitfalls'];
const WINDOWS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 800, height: 900 },
];

// Whether the element is inside the window and on top where it is drawn (not under the "About" panel or another
// layer): what a student can see and click without scrolling.
async function inView(page: Page, target: Locator, minShare = 1): Promise<boolean> {
  const box = await target.boundingBox();
  const size = page.viewportSize();
  if (!box || !size) return false;
  const visibleHeight = Math.min(box.y + box.height, size.height) - Math.max(box.y, 0);
  const visibleWidth = Math.min(box.x + box.width, size.width) - Math.max(box.x, 0);
  if (visibleHeight < box.height * minShare - 0.5 || visibleWidth < box.width - 0.5) return false;
  const top = Math.max(box.y, 0);
  return target.evaluate((el, [x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return hit !== null && (el === hit || el.contains(hit));
  }, [box.x + box.width / 2, top + Math.min(box.height, visibleHeight) / 2] as const);
}

test.describe('the recorded H100 session: every lab with its last run', () => {
  let server: ServeProcess;
  test.beforeAll(async () => {
    server = await startRecordedH100();
  });
  test.afterAll(async () => {
    await server.stop();
  });

  for (const size of WINDOWS) {
    test(`at ${size.width}×${size.height} Run is in the first screenful of every lab page, and "About this lab" covers nothing`, async ({ page }) => {
      await page.setViewportSize(size);
      await page.goto(server.url);
      const sidePanel = size.width >= 1024;
      for (const lab of LABS) {
        await page.goto(`${server.origin}/#/labs/${lab}`);
        await expect(page.getByTestId('run-chart')).toHaveAttribute('data-point-count', /^[1-9]/);
        // First visit: "About this lab" is open, in the page's flow (not laid over it); Run is not under it.
        await expect(page.getByTestId('lab-about')).toBeVisible();
        expect(['static', 'relative'], `About on ${lab}`).toContain(await page.getByTestId('lab-about').evaluate((el) => getComputedStyle(el).position));
        expect(await inView(page, page.getByTestId('run')), `Run on ${lab}`).toBe(true);
        // The chart and the table, scrolled to, are on top where they are drawn: nothing lies over them.
        await page.getByTestId('run-chart').locator('canvas').scrollIntoViewIfNeeded();
        expect(await inView(page, page.getByTestId('run-chart').locator('canvas'), 0.5), `the chart on ${lab}`).toBe(true);
        await page.getByTestId('results-table').scrollIntoViewIfNeeded();
        expect(await inView(page, page.getByTestId('results-table').locator('thead'), 1), `the table on ${lab}`).toBe(true);
        expect(await inView(page, page.getByTestId('results-table').locator('tbody tr[data-key]').first(), 1), `the table's first row on ${lab}`).toBe(true);
        // Beside the centre, the panel keeps its place: Run in reach with the page scrolled to the table.
        if (sidePanel) expect(await inView(page, page.getByTestId('run')), `Run on ${lab}, scrolled to the table`).toBe(true);
      }
    });
  }

  test('"About this lab" opens on a lab\'s first visit only, and passes axe open on every lab', async ({ page }) => {
    await page.goto(server.url);
    for (const lab of LABS) {
      await page.goto(`${server.origin}/#/labs/${lab}`);
      const about = page.getByTestId('lab-about');
      await expect(about).toBeVisible();
      await expect(about.getByRole('heading', { name: 'What to look for' })).toBeVisible();
      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${lab}: ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`)).toEqual([]);
    }
    // Seen once, it is closed on the next visit (a reload, a new window): its toggle, in the lab's header, opens it
    // above the results and closes it; so does its close button.
    await page.goto(`${server.origin}/#/labs/matmul`);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Matrix product');
    await expect(page.getByTestId('lab-about')).toHaveCount(0);
    const toggle = page.getByTestId('about-toggle');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(page.getByTestId('lab-about')).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.click();
    await expect(page.getByTestId('lab-about')).toHaveCount(0);
    await toggle.click();
    await page.getByTestId('close-about').click();
    await expect(page.getByTestId('lab-about')).toHaveCount(0);
  });

  test('the findings lead with the lab\'s headline: the GPU\'s speedup with the transfers counted', async ({ page }) => {
    await page.goto(server.url);
    await page.goto(`${server.origin}/#/labs/matmul`);
    await expect(page.getByTestId('finding-headline')).toContainText('GPU cuBLAS with transfers');
    await expect(page.getByTestId('finding-headline')).toContainText('GPU Lab’s CPU BLAS (OpenBLAS 0.3.26)');
  });
});

test.describe('a run on this machine', () => {
  let serve: ServeProcess;
  test.beforeAll(async () => {
    serve = await startServe();
  });
  test.afterAll(async () => {
    await serve.stop();
  });

  test('at 1280×720 the chart and the progress are in view together while the run goes', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(serve.url);
    await page.getByTestId('device-picker').selectOption('cpu');
    await page.goto(`${serve.origin}/#/labs/elementwise-breakeven`);
    await expect(page.getByTestId('lab-about')).toBeVisible();
    // Sizes up to 10⁸: long enough on two cores to look at the page while it runs.
    for (const [name, value] of Object.entries({ minExponent: '3', maxExponent: '8', pointsPerDecade: '2', repeats: '20' })) {
      await page.getByTestId(`param-${name}`).fill(value);
    }
    await expect(page.getByTestId('run')).toBeEnabled();
    await page.getByTestId('run').click();
    await expect(page.getByTestId('run-progress')).toBeVisible();
    await expect.poll(async () => Number(await page.getByTestId('run-chart').getAttribute('data-point-count'))).toBeGreaterThanOrEqual(1);
    // The run closed "About this lab", so that the chart comes up beside the progress.
    await expect(page.getByTestId('lab-about')).toHaveCount(0);
    expect(await inView(page, page.getByTestId('run-progress'))).toBe(true);
    expect(await inView(page, page.getByTestId('run-chart').locator('canvas'))).toBe(true);
    expect(await inView(page, page.getByTestId('cancel'))).toBe(true);
    await page.getByTestId('cancel').click();
    await expect(page.getByTestId('run-status')).toContainText('Cancelled');
  });
});
