// A stored run's page as a student uses it, in serve mode: a heading that names the lab and the run, the results
// before the environment, one toolbar — exports named for people, "Compare with…" listing the lab's other runs and
// opening the comparison (whose heading names both runs and leads back to the history), and Delete, which asks first.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { fileDay } from '../../main/common/pure/file-name.ts';
import { fixture, fixturesDir } from '../unit/reports/pdf-tools.ts';
import { seededDataDir, startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

const cpu = fixture('cpu-matmul');
const gpu = fixture('h100-matmul');

let serve: ServeProcess;
test.beforeAll(async () => {
  // Every lab run on the CPU, and the matrix product on the H100 too: a second run of one lab to compare with.
  const dataDir = seededDataDir();
  copyFileSync(join(fixturesDir, 'h100-matmul.json'), join(dataDir, 'runs', `${gpu.id}.json`));
  serve = await startServe({ dataDir });
});
test.afterAll(async () => {
  await serve.stop();
});

async function noSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`)).toEqual([]);
}

async function openRun(page: Page, id: string): Promise<void> {
  await page.goto(serve.url);
  await page.goto(`${serve.origin}/#/runs/${id}`);
  await expect(page.getByTestId('results-table')).toBeVisible();
}

test('names the lab and the run, shows the results before the environment, and exports files named for people', async ({ page }) => {
  await openRun(page, cpu.id);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Matrix product: run of .+ on the CPU$/);
  const results = await page.getByRole('heading', { name: 'Results', exact: true }).boundingBox();
  const environment = await page.getByRole('heading', { name: 'Parameters and environment' }).boundingBox();
  expect((results?.y ?? Infinity) < (environment?.y ?? 0)).toBe(true);

  const day = fileDay(cpu.createdAt);
  // The PDF's dialog: the author and course, and its own Save.
  await page.getByRole('button', { name: 'Save PDF…' }).click();
  const pdf = page.getByRole('dialog', { name: 'PDF report of this run' });
  await expect(pdf.getByRole('textbox', { name: 'Author' })).toBeVisible();
  await expect(pdf.getByRole('button', { name: 'Save PDF report' })).toBeEnabled();
  await noSeriousViolations(page);
  await pdf.getByRole('button', { name: 'Close' }).click();
  await expect(pdf).toBeHidden();

  for (const [testid, name] of [
    ['export-json', `GPU Lab – Matrix product – ${day}.json`],
    ['export-csv', `GPU Lab – Matrix product – ${day}.csv`],
    ['export-csv-samples', `GPU Lab – Matrix product – ${day} – samples.csv`],
  ] as const) {
    const download = page.waitForEvent('download');
    await page.getByRole('group', { name: 'What to do with this run' }).getByTestId(testid).click();
    expect((await download).suggestedFilename()).toBe(name);
  }
});

test('compares the run with another of its lab, under a heading that names both and leads back', async ({ page }) => {
  await openRun(page, cpu.id);
  await page.getByRole('button', { name: 'Compare with…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare with another run of Matrix product' });
  // Only the lab's other run: not this one, not another lab's.
  await expect(dialog.getByRole('link')).toHaveText([/^Matrix product of .+, on cuda:0$/, 'Pick from the whole history']);
  await noSeriousViolations(page);
  await dialog.getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`#/compare/${cpu.id}/${gpu.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Matrix product: run of .+ on the CPU vs run of .+ on cuda:0$/);
  await page.getByRole('link', { name: '← History' }).click();
  await expect(page.getByTestId('run-row')).toHaveCount(8);
});

test('asks before deleting, names the run, keeps it when told to, and goes to the history once it is gone', async ({ page }) => {
  await openRun(page, gpu.id);
  const toolbar = page.getByRole('group', { name: 'What to do with this run' });
  // Set apart: the last of the toolbar, at its right end.
  const [remove, compare] = await Promise.all([toolbar.getByTestId('delete-run').boundingBox(), toolbar.getByTestId('open-compare').boundingBox()]);
  expect((remove?.x ?? 0) > (compare?.x ?? 0) + (compare?.width ?? 0) + 16).toBe(true);

  await toolbar.getByTestId('delete-run').click();
  const dialog = page.getByRole('dialog', { name: 'Delete this run?' });
  await expect(dialog).toContainText('on cuda:0, with its 5 points, will be deleted from this computer');
  await noSeriousViolations(page);
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`#/runs/${gpu.id}$`));

  await toolbar.getByTestId('delete-run').click();
  await dialog.getByRole('button', { name: 'Delete the run' }).click();
  await expect(page).toHaveURL(/#\/runs$/);
  await expect(page.getByTestId('run-row')).toHaveCount(7);
  await expect(page.locator(`[data-run-id="${gpu.id}"]`)).toHaveCount(0);
});
