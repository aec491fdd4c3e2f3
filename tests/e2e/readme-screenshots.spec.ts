// The screenshots of README.md, taken from the app as it is so that they never go stale: a real run in progress on
// this machine, and the recorded H100 session for what a GPU shows. Written to test-results/screenshots/readme/ on
// every end-to-end run (so a change that breaks one is seen), and to docs/screenshots/ by `npm run screenshots`
// (GPU_LAB_SCREENSHOTS_DIR). Each list entry is in tests/e2e/support/readme-shots.ts, with its caption.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { README_SHOTS } from './support/readme-shots.ts';
import { startRecordedH100, startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

const OUT = process.env.GPU_LAB_SCREENSHOTS_DIR ?? 'test-results/screenshots/readme';
const WINDOW = { width: 1440, height: 900 };
const LABS = ['transfer', 'dtypes', 'matmul', 'vector-function', 'elementwise-breakeven', 'matmul-breakeven', 'timing-pitfalls'];
const runId = (fixture: string, dir = 'runs'): string => (JSON.parse(readFileSync(join('tests', 'fixtures', dir, `${fixture}.json`), 'utf8')) as { id: string }).id;

// A returning student: every lab's "About" already seen (so the chart is not under it), in the theme and language
// of the shot.
async function prepare(page: Page, theme: 'light' | 'dark', language: 'en' | 'es' = 'en'): Promise<void> {
  await page.setViewportSize(WINDOW);
  await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
  await page.addInitScript(
    ([labs, lang]) => {
      localStorage.setItem('gpu-lab.about.seen', labs);
      localStorage.setItem('gpu-lab.language', lang);
    },
    [LABS.join(','), language] as const,
  );
}

async function shoot(page: Page, file: string): Promise<void> {
  expect(README_SHOTS.some((s) => s.file === file), `${file} is listed in readme-shots.ts`).toBe(true);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, file) });
}

test.describe('on this machine', () => {
  let serve: ServeProcess;
  test.beforeAll(async () => {
    serve = await startServe();
  });
  test.afterAll(async () => {
    await serve.stop();
  });

  test('the workbench during a run', async ({ page }) => {
    await prepare(page, 'light');
    await page.goto(serve.url);
    await page.getByTestId('device-picker').selectOption('cpu');
    await page.goto(`${serve.origin}/#/labs/elementwise-breakeven`);
    for (const [name, value] of Object.entries({ minExponent: '3', maxExponent: '8', pointsPerDecade: '3', repeats: '20' })) {
      await page.getByTestId(`param-${name}`).fill(value);
    }
    await expect(page.getByTestId('run')).toBeEnabled();
    await page.getByTestId('run').click();
    await expect.poll(async () => Number(await page.getByTestId('run-chart').getAttribute('data-point-count')), { timeout: 60_000 }).toBeGreaterThanOrEqual(10);
    await expect(page.getByTestId('run-progress')).toBeVisible();
    // Typing the parameters scrolled the page a little: the shot shows the page from its top.
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, 'workbench-running-light.png');
    await page.getByTestId('cancel').click();
    await expect(page.getByTestId('run-status')).toContainText('Cancelled');
  });
});

test.describe('the recorded H100 session', () => {
  let server: ServeProcess;
  test.beforeAll(async () => {
    server = await startRecordedH100();
  });
  test.afterAll(async () => {
    await server.stop();
  });

  async function open(page: Page, hash: string): Promise<void> {
    await page.goto(server.url);
    await page.goto(`${server.origin}/${hash}`);
  }

  test('a finished run', async ({ page }) => {
    await prepare(page, 'dark');
    await open(page, '#/labs/matmul');
    await expect(page.getByTestId('finding-headline')).toBeVisible();
    await shoot(page, 'finished-run-h100-dark.png');
  });

  test('the catalog', async ({ page }) => {
    await prepare(page, 'dark');
    await open(page, '#/labs');
    await expect(page.getByTestId('lab-timing-pitfalls')).toBeVisible();
    await shoot(page, 'catalog-dark.png');
  });

  test('the devices', async ({ page }) => {
    await prepare(page, 'light');
    await open(page, '#/devices');
    await expect(page.locator('main').getByText('NVIDIA H100 80GB HBM3').first()).toBeVisible();
    await shoot(page, 'devices-h100-light.png');
  });

  test('a comparison', async ({ page }) => {
    await prepare(page, 'light');
    await open(page, `#/compare/${runId('cpu-matmul')}/${runId('h100-matmul')}`);
    await expect(page.getByTestId('compare-ratios')).toBeVisible();
    await shoot(page, 'compare-light.png');
  });

  test('the playground', async ({ page }) => {
    await prepare(page, 'dark');
    await open(page, `#/playground/runs/${runId('h100-sgemm-starter', 'kernel-runs')}`);
    await expect(page.locator('.cm-content')).toBeVisible();
    await shoot(page, 'playground-h100-dark.png');
  });

  test('a lab in Spanish', async ({ page }) => {
    await prepare(page, 'light', 'es');
    await open(page, '#/labs/vector-function');
    await expect(page.getByRole('button', { name: 'Sobre este laboratorio' })).toBeVisible();
    await expect(page.getByTestId('finding-headline')).toBeVisible();
    await shoot(page, 'lab-spanish-light.png');
  });
});
