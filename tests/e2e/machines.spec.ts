// Runs of other machines in the app, over serve mode in Chromium as a teacher or a student uses it: History's Import
// with an archive (a colleague's H200 run beside a hostile entry) and with a folder, the report of what became of each
// entry, the imported run in the list; then the matrix product across the two GPUs and this machine's CPU, in English
// and Spanish, with its PDF; and the imported run's page with the H100's shipped reference beside it, as another
// machine's. axe-core finds no serious violation on the new views.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import type { RunRecord } from '../../main/common/run-record.ts';
import { pdfText, spaced, tempDir } from '../unit/reports/pdf-tools.ts';
import { tarGz } from '../unit/runs/support/archives.ts';
import { seededDataDir, startServe } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

// The recorded run as its file holds it (schema version 1): an import reads it through the version 1 reader, which
// also derives the H200's statistics below from its scaled samples.
const h100 = JSON.parse(readFileSync(join('tests', 'fixtures', 'runs', 'h100-matmul.json'), 'utf8')) as RunRecord;

// The H100's matrix product as an H200 on node gpu07 measured it: another model and UUID, 0.6 of every sample.
const h200: RunRecord = {
  ...h100,
  id: `${h100.id}-h200`,
  environment: {
    ...h100.environment,
    gpuUuid: 'GPU-h200',
    slurm: { jobId: '812', arrayTaskId: 0, stepId: null, node: 'gpu07', cluster: null },
    devices: h100.environment.devices ? { ...h100.environment.devices, devices: h100.environment.devices.devices.map((d) => (d.kind === 'cuda' ? { ...d, name: 'NVIDIA H200' } : d)) } : null,
  },
  points: h100.points.map((p) => ({ ...p, hostMs: p.hostMs.map((ms) => ms * 0.6), deviceMs: p.deviceMs?.map((ms) => ms * 0.6) ?? null })),
};

let serve: ServeProcess;
test.beforeAll(async () => {
  serve = await startServe({ dataDir: seededDataDir() });
});
test.afterAll(async () => {
  await serve.stop();
});

async function noSeriousViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

test('imports a colleague’s archive from History, says what it left out, and lists the run', async ({ page }) => {
  const archive = join(tempDir('gpu-lab-e2e-import-'), 'colleague.tar.gz');
  writeFileSync(archive, tarGz([{ name: 'runs/h200.json', body: Buffer.from(JSON.stringify(h200)) }, { name: '../../outside.json', body: Buffer.from('{}') }]));
  await page.goto(serve.url);
  await page.goto(`${serve.origin}/#/runs`);
  await expect(page.getByTestId('run-row')).toHaveCount(7);
  await page.getByTestId('import-runs').click();
  const dialog = page.getByTestId('import-dialog');
  await expect(dialog).toBeVisible();
  await noSeriousViolations(page);
  await page.getByTestId('import-archive-input').setInputFiles(archive);
  const report = dialog.getByTestId('import-report');
  await expect(report).toContainText(`imported ${h200.id} (matmul on cuda:0)`);
  await expect(report).toContainText('left out ../../outside.json: its name leads out of the folder');
  await expect(report).toContainText('colleague.tar.gz: 1 imported, 0 already here, 1 left out');
  await page.screenshot({ path: 'test-results/screenshots/import-dialog.png' });
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('run-row')).toHaveCount(8);
});

test('imports the records of a picked folder, and says a run already here is', async ({ page }) => {
  const folder = tempDir('gpu-lab-e2e-folder-');
  mkdirSync(join(folder, 'runs'));
  writeFileSync(join(folder, 'runs', 'h100.json'), JSON.stringify(h100));
  writeFileSync(join(folder, 'runs', 'again.json'), JSON.stringify(h200));
  await page.goto(serve.url);
  await page.goto(`${serve.origin}/#/runs`);
  await page.getByTestId('import-runs').click();
  await page.getByTestId('import-folder-input').setInputFiles(folder);
  const report = page.getByTestId('import-report');
  await expect(report).toContainText(`imported ${h100.id} (matmul on cuda:0)`);
  await expect(report).toContainText(`already here: again.json is run ${h200.id}`);
});

test('compares the matrix product across the two GPUs and the CPU, in both languages, and saves its PDF', async ({ page }) => {
  await page.goto(serve.url);
  await page.goto(`${serve.origin}/#/devices-compared/matmul`);
  const facts = page.getByTestId('devices-facts');
  await expect(facts.locator('tbody tr')).toHaveCount(3);
  await expect(facts).toContainText('NVIDIA H100 80GB HBM3 (cuda:0)');
  await expect(facts).toContainText('NVIDIA H200 (cuda:0)');
  await expect(facts).toContainText('gpu07');
  const cublas = page.getByTestId('devices-points').locator('tbody[data-point="gpu-cublas"]');
  await expect(cublas).toContainText('B · NVIDIA H200 · on gpu07');
  await expect(cublas).toContainText(/0\.60× \(0\.\d+× – 0\.\d+×\)\s*faster/);
  await expect(cublas).toContainText('waived');
  await page.screenshot({ path: 'test-results/screenshots/devices-compared.png', fullPage: true });
  await noSeriousViolations(page);

  const download = page.waitForEvent('download');
  await page.getByTestId('devices-pdf-lab').click();
  const file = await download;
  const path = join(tempDir('gpu-lab-e2e-devices-'), file.suggestedFilename());
  await file.saveAs(path);
  const text = spaced(pdfText(path));
  expect(text).toContain('NVIDIA H200 (cuda:0)');
  expect(text).toMatch(/0\.60× \(0\.\d+× – 0\.\d+×\) faster/);

  await page.getByLabel('Language').selectOption('es');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Un laboratorio en varios dispositivos');
  await expect(page.getByTestId('devices-points').locator('tbody[data-point="gpu-cublas"]')).toContainText('más rápido');
});

test('shows beside the H200’s run what the H100 GPU Lab ships measured, as another machine’s', async ({ page }) => {
  await page.goto(serve.url);
  await page.goto(`${serve.origin}/#/runs/${h200.id}`);
  const references = page.getByTestId('reference-results');
  await expect(references).toContainText('Other machines’ results');
  await expect(references).toContainText('NVIDIA H100 80GB HBM3 · driver 580.159.04');
  await expect(references).toContainText('shipped with GPU Lab');
  await expect(references).toContainText(/NVIDIA H100 80GB HBM3 \(another machine\) measured GPU cuBLAS resident, N = 7,000 in 14\.57 ms/);
  await expect(references).toContainText('faster, 0.60× its time');
  await references.screenshot({ path: 'test-results/screenshots/reference-results.png' });
  await noSeriousViolations(page);
});
