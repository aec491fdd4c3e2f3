// A small window, 800 × 900, in English and in Spanish: no page scrolls sideways, and the results table keeps the
// figures a reader compares — median with its interval, rate, % of peak, speedup, samples, verified — in view, not
// off to the side of a scroll area. On the recorded H100 session (its runs and the CPU-only machine's, a GPU's device page), in serve mode.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { LAB_IDS } from '../../main/common/lab-descriptor.ts';
import { startRecordedH100 } from './support/serve.ts';
import type { ServeProcess } from './support/serve.ts';

const runId = (fixture: string): string => (JSON.parse(readFileSync(join('tests', 'fixtures', 'runs', `${fixture}.json`), 'utf8')) as { id: string }).id;
const WIDTH = 800;
const KEY_FIGURES = ['median', 'rate', 'peak', 'speedup', 'samples', 'verified'] as const;

test.use({ viewport: { width: WIDTH, height: 900 } });

let server: ServeProcess;
test.beforeAll(async () => {
  server = await startRecordedH100();
});
test.afterAll(async () => server.stop());

async function open(page: Page, hash: string, ready: (page: Page) => Promise<void>): Promise<void> {
  await page.goto(server.url);
  await page.goto(`${server.origin}/${hash}`);
  await ready(page);
  // The chart and the table settle within a frame or two of their data.
  await page.waitForTimeout(300);
}

// How far the page scrolls sideways, and the outermost elements that reach past the window's right edge, to name
// the culprit when it does.
async function sideways(page: Page): Promise<{ extra: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const edge = root.clientWidth;
    const past = (el: Element): boolean => el.getBoundingClientRect().right > edge + 0.5;
    const culprits = Array.from(document.body.querySelectorAll('*'))
      .filter((el) => past(el) && !(el.parentElement && el.parentElement !== document.body && past(el.parentElement)))
      .map((el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`);
    return { extra: root.scrollWidth - root.clientWidth, culprits };
  });
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const { extra, culprits } = await sideways(page);
  expect(extra, `reaching past the window: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
}

// The first measured row's key figures lie inside the window and inside the table's own box (nothing scrolled away
// within it), each cut by nothing (its text as wide as its cell allows). A waived first row shows its reason instead
// of its figures, so the first measured one is read.
async function keyFiguresInView(page: Page): Promise<void> {
  const table = page.getByTestId('results-table');
  const row = table.locator('tbody tr[data-status="ok"]').first();
  await expect(row).toBeVisible();
  const scroller = page.locator('.results-scroll').filter({ has: table });
  // The table's own box does not scroll sideways: nothing is hidden to its right.
  expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  const box = await scroller.boundingBox();
  expect(box).not.toBeNull();
  const left = Math.max(0, box?.x ?? 0);
  const right = Math.min(WIDTH, (box?.x ?? 0) + (box?.width ?? 0));
  for (const metric of KEY_FIGURES) {
    const cell = row.locator(`td[data-metric="${metric}"]`);
    await expect(cell, metric).toBeVisible();
    const at = await cell.boundingBox();
    expect(at, metric).not.toBeNull();
    expect({ metric, left: (at?.x ?? -1) >= left - 1, right: (at?.x ?? 0) + (at?.width ?? 0) <= right + 1 }).toEqual({ metric, left: true, right: true });
    expect({ metric, cut: await cell.evaluate((el) => el.scrollWidth > el.clientWidth + 1) }).toEqual({ metric, cut: false });
  }
}

// The table stays one a screen reader can walk: axe finds nothing serious in it.
async function noSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`)).toEqual([]);
}

const rows = (count: number) => async (page: Page) => expect(page.getByTestId('run-row')).toHaveCount(count);
const table = async (page: Page) => expect(page.getByTestId('results-table').locator('tbody tr[data-status="ok"]').first()).toBeVisible();

for (const locale of ['en', 'es'] as const) {
  test.describe(`at 800 px, ${locale === 'en' ? 'in English' : 'in Spanish'}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((language) => localStorage.setItem('gpu-lab.language', language), locale);
    });

    test('the history: every run’s status and buttons in view', async ({ page }) => {
      await open(page, '#/runs', rows(14));
      await noSidewaysScroll(page);
      // Nor does the table scroll sideways inside its own box.
      const history = page.getByTestId('history-table');
      expect(await history.evaluate((table) => (table.parentElement ? table.parentElement.scrollWidth - table.parentElement.clientWidth : 1))).toBeLessThanOrEqual(0);
      const edge = await history.evaluate((table) => table.parentElement?.getBoundingClientRect().right ?? 0);
      const first = page.getByTestId('run-row').first();
      for (const part of [first.getByTestId('status'), first.getByTestId('export-csv-samples'), first.getByTestId('delete-run')]) {
        const at = await part.boundingBox();
        expect((at?.x ?? WIDTH) + (at?.width ?? 0)).toBeLessThanOrEqual(Math.min(edge, WIDTH));
      }
    });

    test('a run’s page: its toolbar and the table’s key figures', async ({ page }) => {
      await open(page, `#/runs/${runId('h100-matmul')}`, table);
      await noSidewaysScroll(page);
      await keyFiguresInView(page);
      const remove = await page.getByTestId('delete-run').boundingBox();
      expect((remove?.x ?? WIDTH) + (remove?.width ?? 0)).toBeLessThanOrEqual(WIDTH);
      await noSeriousViolations(page);
    });

    test('a CPU-only run’s page, its GPU points waived', async ({ page }) => {
      await open(page, `#/runs/${runId('cpu-elementwise-breakeven')}`, table);
      await noSidewaysScroll(page);
      await keyFiguresInView(page);
    });

    test('two runs compared', async ({ page }) => {
      await open(page, `#/compare/${runId('cpu-matmul-breakeven')}/${runId('h100-matmul-breakeven')}`, async (p) => expect(p.getByTestId('compare-ratios')).toBeVisible());
      await noSidewaysScroll(page);
    });

    test('the devices', async ({ page }) => {
      await open(page, '#/devices', async (p) => expect(p.locator('main').getByText('NVIDIA H100 80GB HBM3').first()).toBeVisible());
      await noSidewaysScroll(page);
    });

    test('the kernel playground', async ({ page }) => {
      await open(page, '#/playground', async (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible());
      await noSidewaysScroll(page);
    });

    // The catalog, the lab pages and the header around every page are being rebuilt elsewhere (issue 23's other
    // items): should one of these fail, its message names the element that reaches past the window.
    test.describe('the labs and the app’s header (rebuilt elsewhere)', () => {
      test('the catalog', async ({ page }) => {
        await open(page, '#/labs', async (p) => expect(p.getByTestId('lab-timing-pitfalls')).toBeVisible());
        await noSidewaysScroll(page);
      });

      // Every lab the recorded session ran: text to image has no recorded run in it yet (tests/fixtures/runs).
      for (const lab of LAB_IDS.filter((id) => id !== 'text-to-image')) {
        test(`the ${lab} lab, with its latest run`, async ({ page }) => {
          await open(page, `#/labs/${lab}`, table);
          await noSidewaysScroll(page);
          await keyFiguresInView(page);
        });
      }
    });
  });
}
