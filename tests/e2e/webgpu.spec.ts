// The vector function on this machine's WebGPU adapter (lavapipe, from scripts/bootstrap.sh), in a real browser over
// serve mode: the adapter is in the picker, named as the CPU it is, the run compares the CPU with it, and the GPU
// series come back verified, with the finding that they ran in float32 (WGSL has no f64).
import { expect, test } from '@playwright/test';

import { startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

let serve: ServeProcess;
test.beforeAll(async () => {
  serve = await startServe();
});
test.afterAll(async () => {
  await serve.stop();
});

test('runs the vector function on the WebGPU adapter and gets its GPU series verified', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto(serve.url);
  const picker = page.getByTestId('device-picker');
  await expect(picker.locator('option[value="webgpu:0"]')).toHaveText(/^webgpu:0 — .+ \(software: the CPU\)$/);
  await picker.selectOption('webgpu:0');
  await page.getByTestId('lab-vector-function').click();
  await expect(page.getByText('a WebGPU software adapter, which runs on this same CPU, not on a GPU')).toBeVisible();
  // The course's Python is not what this test is about (its CUDA series are waived on WebGPU; its CPU ones are slow
  // to compile here): off, once the page has asked the interpreter what it has.
  const toggle = page.getByTestId('python-toggle');
  await expect(toggle.or(page.getByTestId('lab-python-missing'))).toBeVisible();
  if (await toggle.isVisible()) await toggle.locator('input').uncheck();
  await page.getByTestId('param-elements').fill('200000');
  await page.getByTestId('param-repeats').fill('5');
  await expect(page.getByTestId('run')).toBeEnabled();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('run-status')).toContainText('Completed', { timeout: 120_000 });
  const rows = page.getByTestId('results-table').locator('tbody tr');
  for (const name of ['GPU resident, fused kernel', 'GPU resident, three passes', 'GPU fused, with copies']) {
    const row = rows.filter({ hasText: name });
    await expect(row).toHaveAttribute('data-status', 'ok');
    await expect(row).toContainText('✓');
  }
  await expect(page.getByTestId('findings')).toContainText('On WebGPU the GPU series run in float32');
});
