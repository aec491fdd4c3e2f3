// The app in Spanish, on the recorded H100 session: the language switch in the header turns a lab's page (title,
// explanation, parameters, chart, findings, table) and a stored run's page into Spanish, numbers with a decimal comma,
// findings recorded in English included; the choice survives a reload; a browser whose language is Spanish starts in
// Spanish. Screenshots under test-results/screenshots/es-*.png; axe finds no serious violation in Spanish either.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { fileDay } from '../../main/common/pure/file-name.ts';
import { packed, pdfText, spaced, tempDir } from '../unit/reports/pdf-tools.ts';
import { startRecordedH100 } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

const runId = (fixture: string): string => (JSON.parse(readFileSync(join('tests', 'fixtures', 'runs', `${fixture}.json`), 'utf8')) as { id: string }).id;
const h100Run = runId('h100-matmul-breakeven');
const h100CreatedAt = (JSON.parse(readFileSync(join('tests', 'fixtures', 'runs', 'h100-matmul-breakeven.json'), 'utf8')) as { createdAt: string }).createdAt;

let server: ServeProcess;
test.beforeAll(async () => {
  server = await startRecordedH100();
});
test.afterAll(async () => server.stop());

async function open(page: Page, hash: string): Promise<void> {
  await page.goto(server.url);
  await page.goto(`${server.origin}/${hash}`);
}

// Longer Spanish words must wrap, not push the page sideways.
async function fitsTheWindow(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

async function noSeriousViolations(page: Page): Promise<void> {
  await fitsTheWindow(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`)).toEqual([]);
}

// The H100's break-even run, recorded in English: what the lab's page and the run's page show of it in Spanish.
async function expectSpanishResults(page: Page): Promise<void> {
  const chart = page.getByTestId('run-chart');
  await expect(chart).toHaveAttribute('data-point-count', /^[1-9]/);
  const canvas = chart.locator('canvas');
  await expect(canvas).toHaveAttribute('aria-label', /Tamaño de matriz N \(escala logarítmica\)/);
  // Time against N: the GPU with its copies has no rate, its time being mostly the bus's.
  await expect(canvas).toHaveAttribute('aria-label', /Tiempo mediano \(menos es mejor\)/);
  const findings = page.getByTestId('findings');
  await expect(findings).toContainText('La GPU con transferencias supera a la BLAS de la CPU de GPU Lab (OpenBLAS 0.3.26) a partir de N ≈ 330 (en algún punto entre N = 310 y N = 350, dentro de la incertidumbre de las medianas).');
  await expect(findings).toContainText('GPU con transferencias: 0,24× la velocidad de la BLAS de la CPU de GPU Lab (OpenBLAS 0.3.26) en N = 100, 7,36× en N = 5000.');
  await expect(findings).toContainText('Como máximo, la BLAS de la CPU de GPU Lab (OpenBLAS 0.3.26) alcanza 978,5 GFLOP/s (N = 5000, 255,5 ms).');
  await expect(page.getByRole('heading', { name: 'Hallazgos' })).toBeVisible();
  // The table's medians and rates: decimal commas, never a decimal point.
  const table = page.getByTestId('results-table');
  const first = table.locator('tr[data-key="gpu-transfers@100"]');
  await expect(first.locator('[data-metric="series"]')).toHaveText(/^GPU con transferencias/);
  await expect(first.locator('[data-metric="size"]')).toHaveText('N = 100');
  await expect(first.getByTestId('show-samples')).toHaveAccessibleName('GPU con transferencias, N = 100: ver sus muestras');
  await expect(table).toContainText(/\d,\d+ (ms|µs)/);
  await expect(table).toContainText(/\d,\d+ [GT]FLOP\/s/);
  expect(await table.textContent()).not.toMatch(/\d\.\d+ (ms|µs|[GT]FLOP\/s)/);
}

test('the switch turns a lab’s page into Spanish, and the choice survives a reload', async ({ page }) => {
  await open(page, '#/labs/matmul-breakeven');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Matrix product break-even');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.getByLabel('Language').selectOption({ label: 'Español' });

  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Punto de equilibrio del producto de matrices: ¿a partir de qué N gana la GPU?');
  await expect(page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Historial' })).toBeVisible();
  await expect(page.getByText('El trabajo de un producto de matrices crece como N³')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'En qué fijarse' })).toBeVisible();
  await expect(page.getByLabel('Tamaños de matriz N')).toBeVisible();
  await expect(page.getByLabel('Repeticiones')).toBeVisible();
  await expect(page.getByText('Hasta 16 valores, cada uno de 16 a 16384.')).toBeVisible();
  await expect(page.getByText('De 1 a 1000 muestras.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ejecutar', exact: true })).toBeVisible();
  await expectSpanishResults(page);
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'test-results/screenshots/es-lab-matmul-breakeven.png', fullPage: true });
  await noSeriousViolations(page);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Punto de equilibrio del producto de matrices/);
  await expect(page.getByLabel('Idioma')).toHaveValue('es');
  await expectSpanishResults(page);

  // And back: English again, numbers with a decimal point.
  await page.getByLabel('Idioma').selectOption({ label: 'English' });
  await expect(page.getByTestId('findings')).toContainText('GPU with transfers: 0.24× the speed of GPU Lab’s CPU BLAS (OpenBLAS 0.3.26)');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Matrix product break-even');
});

test('a stored run’s page reads in Spanish, in the dark theme too', async ({ page }) => {
  await open(page, `#/runs/${h100Run}`);
  await expect(page.getByTestId('results-table')).toBeVisible();
  await page.getByLabel('Language').selectOption('es');
  // The lab and the run: when, and on which device.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Punto de equilibrio del producto de matrices: ejecución del .+ en cuda:0$/);
  await expect(page.getByRole('link', { name: '← Historial' })).toBeVisible();
  await expectSpanishResults(page);
  await expect(page.getByRole('heading', { name: 'Parámetros y entorno' })).toBeVisible();
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `test-results/screenshots/es-run-matmul-breakeven-${theme}.png`, fullPage: true });
    await noSeriousViolations(page);
  }
});

test('the PDF report saved from the Spanish app is in Spanish, numbers with a decimal comma', async ({ page }) => {
  await open(page, `#/runs/${h100Run}`);
  await page.getByLabel('Language').selectOption('es');
  await expect(page.getByTestId('results-table')).toContainText('GPU con transferencias');
  await page.getByRole('button', { name: 'Guardar PDF…' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('dialog', { name: 'Informe PDF de esta ejecución' }).getByRole('button', { name: 'Guardar el informe PDF' }).click();
  const file = await download;
  // Named for people, in Spanish: the lab's short title and the day the run started.
  expect(file.suggestedFilename()).toBe(`GPU Lab – Punto de equilibrio del producto de matrices – ${fileDay(h100CreatedAt)}.pdf`);
  const path = join(tempDir('gpu-lab-e2e-es-report-'), file.suggestedFilename());
  await file.saveAs(path);
  const text = pdfText(path);
  // The results table's words (results-catalog-es.ts) and its figures, as the page shows them.
  expect(packed(text)).toContain(packed('Todos los puntos de la ejecución'));
  expect(spaced(text)).toContain('0,24×');
  expect(spaced(text)).toContain('61,76 µs');
  expect(packed(text)).toContain(packed('La GPU con transferencias supera a la BLAS de la CPU de GPU Lab (OpenBLAS 0.3.26) a partir de N ≈ 330 (en algún punto entre N = 310 y N = 350, dentro de la incertidumbre de las medianas).'));
});

test('the devices page, the history and a comparison read in Spanish', async ({ page }) => {
  await open(page, '#/devices');
  await page.getByLabel('Language').selectOption('es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dispositivos');
  await expect(page.getByRole('heading', { name: 'Picos teóricos' })).toBeVisible();
  await expect(page.locator('main').getByText('NVIDIA H100 80GB HBM3').first()).toBeVisible();
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'test-results/screenshots/es-devices.png', fullPage: true });
  await noSeriousViolations(page);

  await page.getByRole('link', { name: 'Historial' }).click();
  await expect(page.getByTestId('run-row')).toHaveCount(14);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Historial');
  await expect(page.getByTestId('run-row').first()).toContainText('Errores al cronometrar');
  await page.screenshot({ path: 'test-results/screenshots/es-history.png', fullPage: true });
  await noSeriousViolations(page);

  await page.goto(`${server.origin}/#/compare/${runId('cpu-matmul-breakeven')}/${h100Run}`);
  // The lab and both runs, when and where, with the way back.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Punto de equilibrio del producto de matrices: ejecución del .+ en la CPU frente a la del .+ en cuda:0$/);
  await expect(page.getByRole('link', { name: '← Historial' })).toBeVisible();
  await expect(page.getByTestId('compare-facts')).toContainText('Punto de equilibrio del producto de matrices');
  await expect(page.getByTestId('compare-ratios')).toContainText(/\d,\d+ (ms|µs)/);
  await expect(page.getByTestId('compare-ratios')).toContainText('GPU con transferencias, N = 100');
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'test-results/screenshots/es-compare.png', fullPage: true });
  await noSeriousViolations(page);
});

test.describe('a browser whose language is Spanish', () => {
  test.use({ locale: 'es-ES' });

  test('starts in Spanish without a choice', async ({ page }) => {
    await open(page, '#/labs');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Laboratorios');
    await expect(page.getByLabel('Idioma')).toHaveValue('es');
    await expect(page.getByTestId('lab-matmul-breakeven')).toContainText('Punto de equilibrio del producto de matrices');
    await page.screenshot({ path: 'test-results/screenshots/es-catalog.png', fullPage: true });
    await noSeriousViolations(page);
  });
});
