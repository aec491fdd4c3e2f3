// The history tells runs apart without opening them, on the recorded H100 session: each row names its lab, device
// and start, the parameters it ran with where they differ from the lab's defaults, the number its headline finding
// is about (the sentence on hover and for screen readers) and its status; the lab and device filters narrow it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { startRecordedH100 } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

const runId = (fixture: string): string => (JSON.parse(readFileSync(join('tests', 'fixtures', 'runs', `${fixture}.json`), 'utf8')) as { id: string }).id;

let server: ServeProcess;
test.beforeAll(async () => {
  server = await startRecordedH100();
});
test.afterAll(async () => server.stop());

const row = (page: Page, fixture: string) => page.locator(`tr[data-run-id="${runId(fixture)}"]`);

test('each row says what the run ran with and what it found', async ({ page }) => {
  await page.goto(server.url);
  await page.goto(`${server.origin}/#/runs`);
  await expect(page.getByTestId('run-row')).toHaveCount(14);
  // The H100's break-even run: its sizes (the lab's default is 50 … 5000), its break-even, where it ran.
  const breakEven = row(page, 'h100-matmul-breakeven');
  await expect(breakEven.getByTestId('run-params')).toHaveText('Matrix sizes N: 100, 500, 1000, 2000, 5000');
  await expect(breakEven.getByTestId('headline')).toContainText('N ≈ 330');
  await expect(breakEven.getByTestId('headline')).toHaveAttribute('title', /overtakes GPU Lab’s CPU BLAS \(OpenBLAS 0\.3\.26\) from about N = 330/);
  await expect(breakEven.getByTestId('status')).toHaveText(/Completed/);
  await expect(breakEven).toContainText('cuda:0');
  // The CPU's: other sizes, and with its GPU waived, the CPU's rate leads.
  const cpuBreakEven = row(page, 'cpu-matmul-breakeven');
  await expect(cpuBreakEven.getByTestId('run-params')).toHaveText('Matrix sizes N: 100, 500, 1000, 2000');
  await expect(cpuBreakEven.getByTestId('headline')).toContainText('44.67 GFLOP/s');
  await expect(row(page, 'cpu-dtypes').getByTestId('run-params')).toHaveText('Matrix size N: 1024');
  await expect(row(page, 'h100-matmul').getByTestId('run-params')).toHaveText('default parameters');
  await expect(row(page, 'h100-matmul').getByTestId('headline')).toContainText('10.0×');
  // No two runs of one lab read the same.
  const texts = await page.getByTestId('run-row').evaluateAll((rows) =>
    rows.map((r) => [r.querySelector('[data-testid="open-run"]')?.getAttribute('title') ?? '', (r.querySelector('[data-testid="run-params"]')?.textContent ?? '') + (r.querySelector('[data-testid="headline"]')?.textContent ?? '') + (r.querySelector('[data-testid="run-meta"]')?.textContent ?? '')]),
  );
  expect(new Set(texts.map(([lab, said]) => `${lab}|${said}`)).size).toBe(14);
});

test('the lab and device filters narrow the rows, in Spanish too', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('gpu-lab.language', 'es'));
  await page.goto(server.url);
  await page.goto(`${server.origin}/#/runs`);
  await expect(page.getByTestId('run-row')).toHaveCount(14);
  await page.getByTestId('filter-lab').selectOption('matmul-breakeven');
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  await page.getByTestId('filter-device').selectOption('cpu');
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await expect(page.getByTestId('run-params')).toHaveText('Tamaños de matriz N: 100, 500, 1000, 2000');
  await expect(page.getByTestId('headline')).toContainText('44,67 GFLOP/s');
  await page.getByTestId('filter-device').selectOption('');
  await page.getByTestId('filter-lab').selectOption('matmul');
  await expect(row(page, 'h100-matmul').getByTestId('run-params')).toHaveText('parámetros por defecto');
});
