// The labs catalog in Chromium, on serve mode with two recorded CPU runs stored (transfer and timing pitfalls): every
// card is one link named by its lab's title that opens the lab; timing pitfalls shows its run's chart as a drawn
// canvas; transfer's CPU run has nothing to draw (every series is a GPU one, waived) and says so; the others say what
// they measure and the most their defaults take on this machine's CPU, the first of them marked as where to start,
// and "Not run yet"; at 800 px the cards fit the window. The tab's icon is the app's drawing. Screenshots under
// test-results/screenshots/catalog-*.png.
import { readFileSync } from 'node:fs';

import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { labDescriptors } from '../../main/labs/index.ts';
import { seededDataDir, startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

const labs = labDescriptors('en');

let serve: ServeProcess;
test.beforeAll(async () => {
  serve = await startServe({ dataDir: seededDataDir('cpu-t') });
});
test.afterAll(async () => serve.stop());

async function openCatalog(page: Page): Promise<void> {
  await page.goto(serve.url);
  await page.goto(`${serve.origin}/#/labs`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Labs');
}

test('each card is one link named by its lab’s title, and opens the lab', async ({ page }) => {
  await openCatalog(page);
  for (const lab of labs) {
    const link = page.getByRole('link', { name: lab.title, exact: true });
    await expect(link).toHaveCount(1);
    await expect(link).toHaveAttribute('href', `#/labs/${lab.id}`);
  }
  // A click on the card's top (what the lab measures, where it has no chart), away from the title, opens the lab too:
  // the link covers the card.
  const lab = labs[2];
  if (!lab) throw new Error('a third lab');
  const preview = page.getByTestId(`lab-card-${lab.id}`).getByTestId('lab-preview');
  await preview.scrollIntoViewIfNeeded();
  // Where the cards stop moving: their charts and texts arrive after the catalog's heading, and a click at a place
  // measured before would land beside the card.
  let picture = await preview.boundingBox();
  await expect(async () => {
    const now = await preview.boundingBox();
    const still = JSON.stringify(now) === JSON.stringify(picture);
    picture = now;
    expect(still).toBe(true);
  }).toPass({ intervals: [250] });
  if (!picture) throw new Error('the thumbnail is laid out');
  await page.mouse.click(picture.x + picture.width / 2, picture.y + picture.height / 2);
  await expect(page).toHaveURL(new RegExp(`#/labs/${lab.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(lab.title);
});

test('labs with a stored run show its chart, the others what they measure, the most they take, and where to start', async ({ page }) => {
  await openCatalog(page);
  for (const lab of labs) {
    const card = page.getByTestId(`lab-card-${lab.id}`);
    const thumbnail = card.getByTestId('lab-thumbnail');
    if (lab.id === 'transfer') {
      await expect(thumbnail).toHaveText('Nothing to draw from its last run');
      await expect(card.getByTestId('lab-last-run')).toContainText(/^Last run .+ on the CPU$/);
    } else if (lab.id === 'timing-pitfalls') {
      await expect(thumbnail.locator('canvas')).toBeVisible();
      // Chart.js sized the canvas to its box (120 px less its border) and drew on it.
      const drawn = await thumbnail.locator('canvas').evaluate((c: HTMLCanvasElement) => {
        const pixels = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
        return { height: c.clientHeight, painted: pixels.some((v, i) => i % 4 === 3 && v > 0) };
      });
      expect(drawn).toEqual({ height: 119, painted: true });
      await expect(card.getByTestId('lab-last-run')).toContainText(/^Last run .+ on the CPU$/);
    } else {
      await expect(thumbnail).toHaveCount(0);
      await expect(card.locator('canvas')).toHaveCount(0);
      await expect(card.getByTestId('lab-preview')).toContainText(/^(Start here)?Measures .+\./);
      // Text to image runs only through PyTorch: on a machine without it there is nothing to measure, and it says why.
      const atMost = lab.id === 'text-to-image' ? /^(At most \d+ (s|min|h \d+ min) with its defaults on the CPU|Nothing to measure on the CPU: its series need a GPU, or a Python library this machine lacks)$/ : /^At most \d+ (s|min|h \d+ min) with its defaults on the CPU$/;
      await expect(card.getByTestId('lab-at-most')).toHaveText(atMost);
      await expect(card.getByTestId('lab-last-run')).toHaveText('Not run yet');
    }
  }
  // The first lab of the course without a finished run: data types (transfer's CPU run is finished).
  await expect(page.getByTestId('start-here')).toHaveCount(1);
  await expect(page.getByTestId('lab-card-dtypes').getByTestId('start-here')).toHaveText('Start here');
});

test('the tab shows the app’s icon, the drawing the packaged icons are made from', async ({ page }) => {
  await openCatalog(page);
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  const served = await page.evaluate(async (url) => {
    const response = await fetch(url);
    return { type: response.headers.get('content-type'), text: await response.text() };
  }, href ?? '');
  expect(served).toEqual({ type: 'image/svg+xml', text: readFileSync('build-resources/icon.svg', 'utf8') });
});

for (const theme of ['light', 'dark'] as const) {
  test(`fits 800 px without sideways scrolling and passes axe, ${theme}`, async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 900 });
    await page.emulateMedia({ colorScheme: theme });
    await openCatalog(page);
    await expect(page.getByTestId('lab-card-timing-pitfalls').locator('canvas')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    // Keyboard focus on a card's link shows on the whole card.
    await page.getByRole('link', { name: labs[0]?.title ?? '', exact: true }).focus();
    await page.screenshot({ path: `test-results/screenshots/catalog-800-${theme}.png`, fullPage: true });
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`)).toEqual([]);
  });
}
