// Every view of the app, in the light and the dark theme, screenshotted under test-results/screenshots/ and scanned
// with axe-core: no serious or critical accessibility violation anywhere. Twice over: on this machine (a CPU, no
// GPU, with its recorded runs in the history) and on the recorded H100 session (its device inspector and runs).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { seededDataDir, startRecordedH100, startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

const runId = (fixture: string): string => (JSON.parse(readFileSync(join('tests', 'fixtures', 'runs', `${fixture}.json`), 'utf8')) as { id: string }).id;

interface View {
  name: string;
  hash: string;
  // What must be on screen before the shot: the view has loaded its data.
  ready: (page: Page) => Promise<void>;
}

const heading = (text: string | RegExp) => async (page: Page) => expect(page.getByRole('heading', { level: 1 })).toContainText(text);

const CPU_VIEWS: View[] = [
  { name: 'catalog', hash: '#/labs', ready: async (page) => expect(page.getByTestId('lab-timing-pitfalls')).toBeVisible() },
  { name: 'lab-elementwise', hash: '#/labs/elementwise-breakeven', ready: async (page) => expect(page.getByTestId('run-chart')).toHaveAttribute('data-point-count', /^[1-9]/) },
  { name: 'devices', hash: '#/devices', ready: heading('Devices') },
  { name: 'history', hash: '#/runs', ready: async (page) => expect(page.getByTestId('run-row')).toHaveCount(7) },
  { name: 'run-matmul', hash: `#/runs/${runId('cpu-matmul')}`, ready: async (page) => expect(page.getByTestId('results-table')).toBeVisible() },
  { name: 'not-found', hash: '#/nowhere', ready: heading('Nothing here') },
];

const H100_VIEWS: View[] = [
  { name: 'h100-devices', hash: '#/devices', ready: async (page) => expect(page.locator('main').getByText('NVIDIA H100 80GB HBM3').first()).toBeVisible() },
  // A speedup chart: the six GPU series, seven sizes each, against the CPU's.
  { name: 'h100-lab-elementwise', hash: '#/labs/elementwise-breakeven', ready: async (page) => expect(page.getByTestId('run-chart')).toHaveAttribute('data-point-count', '42') },
  { name: 'h100-lab-transfer', hash: '#/labs/transfer', ready: async (page) => expect(page.getByTestId('run-chart')).toHaveAttribute('data-point-count', /^[1-9]/) },
  { name: 'h100-run-matmul', hash: `#/runs/${runId('h100-matmul')}`, ready: async (page) => expect(page.getByTestId('results-table')).toContainText('cuBLAS') },
  { name: 'h100-run-vector-function', hash: `#/runs/${runId('h100-vector-function')}`, ready: async (page) => expect(page.getByTestId('results-table')).toBeVisible() },
  { name: 'h100-history', hash: '#/runs', ready: async (page) => expect(page.getByTestId('run-row')).toHaveCount(14) },
  {
    name: 'h100-compare-cpu',
    hash: `#/compare/${runId('cpu-elementwise-breakeven')}/${runId('h100-elementwise-breakeven')}`,
    ready: async (page) => expect(page.getByTestId('compare-ratios')).toBeVisible(),
  },
];

async function shootAndScan(page: Page, server: ServeProcess, view: View, theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.goto(server.url);
  await page.goto(`${server.origin}/${view.hash}`);
  await view.ready(page);
  // The chart and the table settle within a frame or two of their data.
  await page.waitForTimeout(300);
  await page.screenshot({ path: `test-results/screenshots/${view.name}-${theme}.png`, fullPage: true });
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`)).toEqual([]);
}

test.describe('on this machine (CPU only, recorded CPU runs in the history)', () => {
  let server: ServeProcess;
  test.beforeAll(async () => {
    server = await startServe({ dataDir: seededDataDir() });
  });
  test.afterAll(async () => server.stop());
  for (const view of CPU_VIEWS) {
    for (const theme of ['light', 'dark'] as const) {
      test(`${view.name}, ${theme}`, async ({ page }) => shootAndScan(page, server, view, theme));
    }
  }
});

test.describe('the recorded H100 session', () => {
  let server: ServeProcess;
  test.beforeAll(async () => {
    server = await startRecordedH100();
  });
  test.afterAll(async () => server.stop());
  for (const view of H100_VIEWS) {
    for (const theme of ['light', 'dark'] as const) {
      test(`${view.name}, ${theme}`, async ({ page }) => shootAndScan(page, server, view, theme));
    }
  }
  test('compares like with like: the CPU-only run at N = 1500 against the H100 run at N = 7000 gets no ratio and no "faster"', async ({ page }) => {
    await page.goto(server.url);
    await page.goto(`${server.origin}/#/compare/${runId('cpu-matmul')}/${runId('h100-matmul')}`);
    const cpu = page.getByTestId('compare-ratios').locator('tr[data-key="cpu-blas"]');
    await expect(cpu).toContainText('N = 1,500 vs N = 7,000: not comparable');
    await expect(cpu.locator('td').nth(2)).toHaveText('—');
    await expect(page.getByTestId('compare-ratios')).not.toContainText(/run [AB] faster/);
  });
});
