// A run the H100 recorded with the course's own Python beside the engine (matmul: NumPy's `@`, PyTorch resident and
// with copies), opened in Chromium: the peers' rows are marked with their library, their bars are drawn apart on the
// chart, and the findings say how far each agrees with GPU Lab's series, with the numbers of the table, in English
// and in Spanish.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { expect, test } from '@playwright/test';

import { startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

// Kept apart from tests/fixtures/runs (the recorded session other tests count): served from a data folder of its own.
const fixture = join('tests', 'fixtures', 'peer-runs', 'h100-matmul-peers.json');
const record = JSON.parse(readFileSync(fixture, 'utf8')) as { id: string; points: { key: string; series: string; stats: { median: number } | null }[] };

let server: ServeProcess;
test.beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-e2e-peers-'));
  mkdirSync(join(dataDir, 'runs'));
  copyFileSync(fixture, join(dataDir, 'runs', `${record.id}.json`));
  server = await startServe({ dataDir });
});
test.afterAll(async () => server.stop());

test('a lab’s Python toggle offers what this machine’s interpreter has: NumPy for matmul, nothing for a PyTorch-only lab', async ({ page }) => {
  await page.goto(server.url);
  await page.goto(`${server.origin}/#/labs/matmul`);
  const toggle = page.getByTestId('python-toggle');
  // Debian's python3-numpy, no PyTorch (README's set-up): the toggle names NumPy alone once the interpreter answered.
  await expect(toggle).toContainText('NumPy');
  await expect(toggle).not.toContainText('PyTorch');
  await page.goto(`${server.origin}/#/labs/dtypes`);
  await expect(page.getByTestId('lab-python-missing')).toContainText('PyTorch');
  await expect(page.getByTestId('python-toggle')).toHaveCount(0);
});

test('a run with the course’s Python: peer rows marked, agreement said, in both languages', async ({ page }) => {
  await page.goto(server.url);
  await page.goto(`${server.origin}/#/runs/${record.id}`);
  const table = page.getByTestId('results-table');
  await expect(table).toBeVisible();
  // In a group of their own, each row naming its library where the point is named in full.
  await expect(page.getByTestId('group-peer')).toHaveText('The course’s Python: 3 points');
  for (const [key, library] of [['numpy-matmul', 'NumPy'], ['torch-resident', 'PyTorch'], ['torch-copies', 'PyTorch']] as const) {
    await expect(table.locator(`tr[data-key="${key}"]`)).toHaveAttribute('data-group', 'peer');
    await expect(table.locator(`tr[data-key="${key}"] [data-metric="series"]`)).toHaveAttribute('title', new RegExp(`· Python · ${library}$`));
  }
  await expect(table.locator('tr[data-key="gpu-cublas"]')).toHaveAttribute('data-group', 'measured');
  // The agreement of PyTorch's resident GEMM with cuBLAS, with both medians as the table gives them.
  const findings = page.locator('.lab-findings');
  await expect(findings).toContainText('PyTorch on the GPU, resident (');
  await expect(findings).toContainText('GPU Lab’s GPU cuBLAS resident (');
  const torch = await table.locator('tr[data-key="torch-resident"] [data-metric="median"]').innerText();
  await expect(findings).toContainText(`PyTorch on the GPU, resident (${torch.trim().split(/\s[±−]/)[0]?.trim()})`);
  await page.getByLabel('Language').selectOption({ label: 'Español' });
  await expect(page.getByTestId('group-peer')).toHaveText('El Python del curso: 3 puntos');
  await expect(findings).toContainText('PyTorch en la GPU, con datos residentes (');
});
